// `ideas-contract export --out DIR`: copies the generated contract files (OpenAPI, tools manifest, types,
// validators, error catalogue) into another repository, for teams that vendor generated code; `--check` tells CI
// whether a vendored copy still matches the installed version.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { generatedDir } from "../lib/paths.js";
import { commandArgs } from "./args.js";
import { fileNameFor, moduleSystems, packageModuleSystem, toCommonJs, type ModuleSystem } from "./export-module.js";
import { ownManifest, type Manifest } from "./manifest.js";

/** What can be exported, each a set of files of generated/ (written to the same relative paths under --out). */
export const exportable = {
  openapi: { files: ["openapi/openapi.yaml", "openapi/openapi.json"], summary: "the OpenAPI 3.1 document of the REST API" },
  manifest: { files: ["mcp/tools.json"], summary: "the MCP tools manifest (what the gateway answers to tools/list)" },
  types: { files: ["rest/types.d.ts", "mcp/types.d.ts"], summary: "TypeScript types of every REST schema and every tool's input and output" },
  validators: {
    files: ["rest/validators.js", "rest/validators.d.ts", "mcp/validators.js", "mcp/validators.d.ts"],
    summary: "standalone validators, type guards of the types (need nothing at run time; bring types along)",
  },
  errors: { files: ["mcp/errors.json", "mcp/errors.js", "mcp/errors.d.ts"], summary: "the MCP error catalogue, code unions and expectedRetryable()" },
} as const satisfies Record<string, { files: readonly string[]; summary: string }>;
export type Exportable = keyof typeof exportable;
const names = Object.keys(exportable) as Exportable[];

/** Written next to the files: which version they come from, for readers and for `--check`. */
export const stampFile = "ideas-contract.json";

const help = `Usage: ideas-contract export --out DIR [--what LIST] [--module esm|cjs] [--check]

Writes the generated contract files into DIR, at the same relative paths as in the package, with
${stampFile} naming the version they come from. Files already in DIR are overwritten; nothing else is
touched.

What (--what, comma-separated or repeated; default: all):
${names.map((n) => `  ${n.padEnd(11)} ${exportable[n].summary}\n  ${"".padEnd(11)} ${exportable[n].files.join(", ")}`).join("\n")}

Options:
  --out DIR        the folder to write into (created if missing)
  --what LIST      what to write, e.g. --what openapi,types
  --module SYSTEM  esm or cjs: the module system of the JavaScript files (validators, errors). Default: what
                   Node makes of a .js file in DIR (the "type" of the nearest package.json; none or
                   "commonjs": cjs). Files keep .js/.d.ts when SYSTEM matches that, else they are
                   named .cjs/.d.cts or .mjs/.d.mts.
  --check          write nothing: exit 1 if DIR lacks a file or holds a different one than this version
                   writes (run it in CI after bumping the pinned version)
  -h, --help       show this help

Exit status: 0 when written (or up to date with --check), 1 when --check finds drift, 2 for bad usage.
`;

function chosen(values: string[] | undefined): Exportable[] {
  if (!values?.length) return names;
  const asked = values.flatMap((v) => v.split(",")).map((v) => v.trim()).filter(Boolean);
  const unknown = asked.filter((a) => !(a in exportable));
  if (unknown.length) throw new Error(`--what: unknown ${unknown.map((u) => `"${u}"`).join(", ")}; choose from ${names.join(", ")}`);
  // The validators' declarations import the types they guard.
  if (asked.includes("validators")) asked.push("types");
  return names.filter((n) => asked.includes(n));
}

function moduleOf(value: string | undefined, out: string): { module: ModuleSystem; folder: ModuleSystem } {
  const folder = packageModuleSystem(out);
  if (value === undefined) return { module: folder, folder };
  if (!moduleSystems.includes(value as ModuleSystem)) throw new Error(`--module: "${value}" is not one of ${moduleSystems.join(", ")}`);
  return { module: value as ModuleSystem, folder };
}

export interface ExportOptions {
  /** The module system of the JavaScript files (default esm, as generated). */
  module?: ModuleSystem;
  /** What Node makes of a .js file in the target folder (default: the same as module, so names stay). */
  folder?: ModuleSystem;
}

/** The content of one generated file as written for `module`. */
function content(rel: string, module: ModuleSystem): Buffer {
  const raw = fs.readFileSync(path.join(generatedDir, rel));
  return module === "cjs" && rel.endsWith(".js") ? Buffer.from(toCommonJs(raw.toString("utf8"), rel)) : raw;
}

/** The files an export writes: relative path → content (the stamp last). */
export function exportFiles(what: readonly Exportable[], manifest: Manifest = ownManifest(), options: ExportOptions = {}): Map<string, Buffer> {
  const module = options.module ?? "esm";
  const folder = options.folder ?? module;
  const files = new Map<string, Buffer>();
  for (const name of what)
    for (const rel of exportable[name].files) {
      // A module and its declarations are renamed together; declarations alone (types) keep their names.
      const hasModule = (exportable[name].files as readonly string[]).includes(rel.replace(/\.d\.ts$/, ".js"));
      files.set(hasModule ? fileNameFor(rel, module, folder) : rel, content(rel, module));
    }
  const stamp = {
    package: manifest.name,
    version: manifest.version,
    what,
    ...(what.some((w) => exportable[w].files.some((f) => f.endsWith(".js"))) ? { module } : {}),
    files: Object.fromEntries([...files].map(([rel, content]) => [rel, `sha256-${createHash("sha256").update(content).digest("base64")}`])),
  };
  files.set(stampFile, Buffer.from(`${JSON.stringify(stamp, null, 2)}\n`));
  return files;
}

export async function exportCommand(argv: string[]): Promise<number> {
  const parsed = commandArgs(
    argv,
    { out: { type: "string" }, what: { type: "string", multiple: true }, module: { type: "string" }, check: { type: "boolean", default: false } },
    help,
  );
  if ("exit" in parsed) return parsed.exit;
  const { values } = parsed;
  let what: Exportable[];
  let modules: ExportOptions;
  try {
    if (!values.out) throw new Error("--out DIR is required");
    what = chosen(values.what);
    modules = moduleOf(values.module, values.out);
  } catch (err) {
    console.error(`${(err as Error).message}\n\n${help}`);
    return 2;
  }
  const out = path.resolve(values.out);
  const manifest = ownManifest();
  const files = exportFiles(what, manifest, modules);
  if (values.check) {
    const drift = [...files].flatMap(([rel, content]) => {
      const target = path.join(out, rel);
      if (!fs.existsSync(target)) return [`missing  ${rel}`];
      return fs.readFileSync(target).equals(content) ? [] : [`differs  ${rel}`];
    });
    if (drift.length) {
      console.error(`${values.out} does not match ideas-contract ${manifest.version}:\n  ${drift.join("\n  ")}`);
      console.error(`Fix: npx ideas-contract export --out ${values.out} --what ${what.join(",")}${values.module ? ` --module ${values.module}` : ""}`);
      return 1;
    }
    console.log(`${values.out} matches ideas-contract ${manifest.version} (${what.join(", ")}).`);
    return 0;
  }
  for (const [rel, content] of files) {
    const target = path.join(out, rel);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, content);
  }
  console.log(`Wrote ${files.size} files (${what.join(", ")}) of ideas-contract ${manifest.version} to ${values.out}:`);
  for (const rel of files.keys()) console.log(`  ${path.join(values.out, rel)}`);
  if (what.includes("validators")) console.log(`The validators are ${modules.module === "cjs" ? "CommonJS" : "ES modules"} and need no package at run time.`);
  return 0;
}
