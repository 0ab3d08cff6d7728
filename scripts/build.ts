// `npm run build` (and `prepack`): the package as consumers install it, in dist/.
//
// tsc (tsconfig.build.json) compiles entry/, cli/ and everything they import into dist/, keeping the
// repository's folder layout; then the files the code reads at run time are copied next to it, at the same
// relative places, so every path resolved from `import.meta.url` (conformance/core/paths.ts, lib/paths.ts, lib/contract/documents.ts)
// finds them inside dist/ just as it finds them in the repository.
import fs from "node:fs";
import path from "node:path";
import { repoRoot } from "../lib/paths.js";
import { binPath, runNode } from "../lib/run.js";
import { compactJavaScript, dropUnreachableDeclarations } from "./lib/package-trim.js";

const distDir = path.join(repoRoot, "dist");

/** What the built code reads at run time, relative to the repository (directories are copied whole). */
const runtimeData = [
  "generated", // validators (JS + .d.ts), types, OpenAPI, tools manifest, error catalogue
  "spec/rules", // rule catalogues and their schema (conformance)
  "spec/mcp/tools", // tool examples the MCP suite draws inputs from
  "conformance/targets", // the reference target file (embedded runs)
];

/**
 * Generated for this repository's tests only: the strict validators hold the mock to the documented shapes. (The rule
 * ids, generated/rules.d.ts, are shipped: the suite's check and judge types name them.)
 */
const testOnly = /validators-strict\.(js|d\.ts)$/;
/** Read by people in the repository, never by the code. */
const readInRepository = /spec[\\/]rules[\\/]README\.md$/;

/**
 * The JSON documents (generated, and the mocks' data) without indentation: programs read them, and the package
 * (validators, mocks, suite) stays within 3 MB installed. The indented copies people read are in the repository and in docs/.
 */
function compactJson(dir: string): void {
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith(".json")) continue;
    const file = path.join(entry.parentPath, entry.name);
    fs.writeFileSync(file, `${JSON.stringify(JSON.parse(fs.readFileSync(file, "utf8")))}\n`);
  }
}

/** The members of the tool sources the suite reads (conformance/suites/mcp/contract.ts: the examples); the schemas are in tools.json. */
function keepExamplesOnly(dir: string): void {
  for (const name of fs.readdirSync(dir).filter((n) => n.endsWith(".json"))) {
    const file = path.join(dir, name);
    const { name: tool, examples } = JSON.parse(fs.readFileSync(file, "utf8")) as { name: string; examples?: unknown };
    fs.writeFileSync(file, `${JSON.stringify({ name: tool, examples })}\n`);
  }
}

/** The declaration files of the exports map: every other declaration must be reachable from them. */
const entryTypes = (): string[] => {
  const exportsMap = (JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { exports: Record<string, unknown> }).exports;
  return Object.values(exportsMap).flatMap((e) => (e && typeof e === "object" && "types" in e ? [path.join(repoRoot, String((e as { types: string }).types))] : []));
};

const started = performance.now();
try {
  fs.rmSync(distDir, { recursive: true, force: true });
  runNode(binPath("typescript", "tsc"), ["-p", path.join(repoRoot, "tsconfig.build.json")], "tsc -p tsconfig.build.json");
  // Before the copies: only what tsc emitted is trimmed (generated/ is copied as it is).
  const js = compactJavaScript(distDir);
  const dropped = dropUnreachableDeclarations(entryTypes(), [distDir]);
  for (const rel of runtimeData)
    fs.cpSync(path.join(repoRoot, rel), path.join(distDir, rel), { recursive: true, filter: (src) => !testOnly.test(src) && !readInRepository.test(src) });
  compactJson(distDir);
  keepExamplesOnly(path.join(distDir, "spec/mcp/tools"));
  console.log(`JavaScript compacted (${Math.round((js.before - js.after) / 1024)} KB), unreachable declarations out (${Math.round(dropped / 1024)} KB).`);
  const files = fs.readdirSync(distDir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;
  console.log(`Built ${files} files into dist/ in ${Math.round(performance.now() - started)} ms.`);
} catch (err) {
  console.error((err as Error).message);
  process.exit(1);
}
