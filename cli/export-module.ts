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

/** A bundled ES module (no imports, one export clause at its end) as CommonJS. */
export function toCommonJs(esm: string, file: string): string {
  if (!isSingleExportModule(esm)) throw new Error(`${file} is not one bundled module with a single export clause; it cannot be rewritten to CommonJS`);
  const names = exportClause
    .exec(esm)![1]!
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)
    .map((spec) => {
      const [local, exported = local] = spec.split(/\s+as\s+/);
      return exported === local ? `  ${local}` : `  ${JSON.stringify(exported)}: ${local}`;
    });
  const body = esm.replace(exportClause, `\nmodule.exports = {\n${names.join(",\n")}\n};\n`);
  const banner = /^(\/\/[^\n]*\n)*/.exec(body)![0];
  // ES modules run in strict mode; the CommonJS copy must behave the same.
  return `${banner}"use strict";\n${body.slice(banner.length)}`;
}
