// The module system of exported JavaScript: generated/ holds ES modules; `export --module cjs` rewrites them to
// CommonJS. The generated validators are bundled into one self-contained module whose only export is a single
// `export { … }` clause at its end (scripts/lib/standalone.ts checks that with isSingleExportModule when it writes
// them), so the rewrite is exact.
import fs from "node:fs";
import path from "node:path";

export type ModuleSystem = "esm" | "cjs";
export const moduleSystems: readonly ModuleSystem[] = ["esm", "cjs"];

/** What Node makes of a `.js` file in `dir`: the "type" of the nearest package.json above it (none: CommonJS). */
export function packageModuleSystem(dir: string): ModuleSystem {
  for (let at = path.resolve(dir); ; at = path.dirname(at)) {
    const manifest = path.join(at, "package.json");
    if (fs.existsSync(manifest)) {
      try {
        return (JSON.parse(fs.readFileSync(manifest, "utf8")) as { type?: unknown }).type === "module" ? "esm" : "cjs";
      } catch {
        return "cjs"; // Node refuses to load such a folder anyway; CommonJS is its default
      }
    }
    if (path.dirname(at) === at) return "cjs";
  }
}

/** The file name for `rel` in a folder whose .js files are `folder`, written as `wanted`: .js, or .cjs / .mjs. */
export function fileNameFor(rel: string, wanted: ModuleSystem, folder: ModuleSystem): string {
  if (wanted === folder) return rel;
  const [js, dts] = wanted === "cjs" ? [".cjs", ".d.cts"] : [".mjs", ".d.mts"];
  if (rel.endsWith(".d.ts")) return rel.slice(0, -".d.ts".length) + dts;
  if (rel.endsWith(".js")) return rel.slice(0, -".js".length) + js;
  return rel;
}

/** The export clause a bundled module ends with: `export{a as b,c};`. */
const exportClause = /\bexport\s*\{([^}]*)\}\s*;?\s*$/;

/** True for a module whose only export is one `export { … }` clause at its end (what esbuild's bundles are). */
export function isSingleExportModule(js: string): boolean {
  return exportClause.test(js) && (js.match(/\bexport\s*[{*]|\bexport\s+(?:const|let|var|function|class|default)\b/g) ?? []).length === 1;
}

/** Top-level exported declarations at the start of a line: `export const catalogue = …` (generated/mcp/errors.js). */
const exportDeclaration = /^export (?:const|let|var|function|class) ([\w$]+)/gm;

/**
 * An ES module that imports nothing, as CommonJS: either one bundled module ending in one export clause (the
 * validators), or plain top-level `export const|function …` declarations (the error catalogue).
 */
export function toCommonJs(esm: string, file: string): string {
  const refuse = () => new Error(`${file} is not a module export can rewrite to CommonJS (imports, or exports of another form)`);
  if (/^\s*import\s/m.test(esm)) throw refuse();
  let body: string;
  let names: string[];
  if (isSingleExportModule(esm)) {
    names = exportClause
      .exec(esm)![1]!
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean)
      .map((spec) => {
        const [local, exported = local] = spec.split(/\s+as\s+/);
        return exported === local ? local! : `${JSON.stringify(exported)}: ${local}`;
      });
    body = esm.replace(exportClause, "\n");
  } else {
    names = [...esm.matchAll(exportDeclaration)].map((m) => m[1]!);
    body = esm.replace(exportDeclaration, (decl) => decl.slice("export ".length));
    if (!names.length || /^\s*export\b/m.test(body)) throw refuse();
  }
  body = `${body.trimEnd()}\n\nmodule.exports = {\n${names.map((n) => `  ${n}`).join(",\n")}\n};\n`;
  const banner = /^(\/\/[^\n]*\n)*/.exec(body)![0];
  // ES modules run in strict mode; the CommonJS copy must behave the same.
  return `${banner}"use strict";\n${body.slice(banner.length)}`;
}
