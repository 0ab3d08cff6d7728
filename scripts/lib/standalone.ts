// Writes ajv standalone validator modules (ESM .js + .d.ts) for a set of named schema refs. The module carries
// the ajv runtime helpers and format checks it uses, bundled from ajv's and ajv-formats' own code by esbuild at
// generation time, so it imports nothing at run time. Each validator is declared as a type guard.
import { buildSync } from "esbuild";
import standaloneCodeModule from "ajv/dist/standalone/index.js";
import type { Ajv } from "./ajv.js";
import { slashBanner } from "./banner.js";
import { repoRoot } from "../../lib/paths.js";
import { isSingleExportModule } from "../../cli/export-module.js";

// CommonJS: under NodeNext its function sits on .default (at runtime too).
const standaloneCode = standaloneCodeModule.default;

export interface ValidatorGroup {
  /** Name of the exported map, e.g. "validators" or "inputValidators". */
  mapName: string;
  /** Doc line for the map. */
  doc: string;
  /** Key in the map → export name of the validator function. */
  entries: [key: string, exportName: string][];
}

export interface StandaloneModule {
  js: string;
  dts: string;
}

export interface TypeSource {
  /** Module the declarations import types from, relative to the validators, e.g. "./types.js". */
  module: string;
  /** Export name of each validator → the TypeScript type it guards, written against `T` (the types module). */
  typeOf: Record<string, string>;
}

/** The shape of ajv's ErrorObject, declared here so the declarations need no ajv either. */
const errorObjectDecl = `/** Why data failed (the shape of ajv's ErrorObject). */
export interface ErrorObject {
  keyword: string;
  instancePath: string;
  schemaPath: string;
  params: Record<string, any>;
  propertyName?: string;
  message?: string;
  schema?: unknown;
  parentSchema?: object;
  data?: unknown;
}

/** A type guard: true when data is a T (then narrowed to it); otherwise the reasons are in \`errors\`. */
export interface ValidateFunction<T = unknown> {
  (data: unknown): data is T;
  errors?: ErrorObject[] | null;
}
`;

/** ajv's code, with its require()s of runtime helpers resolved and inlined: one self-contained ES module. */
function bundle(code: string): string {
  const out = buildSync({
    stdin: { contents: code, resolveDir: repoRoot, loader: "js", sourcefile: "validators.js" },
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    write: false,
    legalComments: "none",
    logLevel: "silent",
    // Minified (exported names stay): the package, validators and mocks, stays within 3 MB installed.
    minify: true,
  });
  const js = out.outputFiles[0]!.text;
  // What makes the module self-contained, and what lets `export --module cjs` rewrite its one export clause.
  // esbuild keeps only what it cannot bundle (node builtins) as an import or a require shim.
  if (/\bimport\s*[{*"'\w]|Dynamic require of/.test(js)) throw new Error("standalone validators still import or require something after bundling");
  if (!isSingleExportModule(js)) throw new Error("standalone validators: expected one export clause, at the end, after bundling");
  return js.endsWith("\n") ? js : `${js}\n`;
}

/** `refs` maps each export name to a schema ref ajv can resolve. */
export function standaloneModule(ajv: Ajv, refs: Record<string, string>, groups: ValidatorGroup[], types: TypeSource): StandaloneModule {
  const code = standaloneCode(ajv, refs);
  const maps = groups
    .map(
      (g) =>
        `/** ${g.doc} */\nexport const ${g.mapName} = Object.freeze({\n${g.entries
          .map(([key, fn]) => `  ${JSON.stringify(key)}: ${fn},`)
          .join("\n")}\n});\n`,
    )
    .join("\n");
  const js = slashBanner + bundle([code.replace(/^"use strict";/, ""), "\n", maps].join(""));

  const typeOf = (name: string) => {
    const t = types.typeOf[name];
    if (!t) throw new Error(`standalone validators: no type given for ${name}`);
    return `ValidateFunction<${t}>`;
  };
  const fnDecls = Object.keys(refs)
    .map((name) => `export declare const ${name}: ${typeOf(name)};`)
    .join("\n");
  const mapDecls = groups
    .map(
      (g) =>
        `/** ${g.doc} */\nexport declare const ${g.mapName}: Readonly<{\n${g.entries
          .map(([key, fn]) => `  ${JSON.stringify(key)}: ${typeOf(fn)};`)
          .join("\n")}\n}>;`,
    )
    .join("\n");
  const dts = [
    slashBanner,
    `import type * as T from ${JSON.stringify(types.module)};\n\n`,
    errorObjectDecl,
    "\n",
    fnDecls,
    "\n\n",
    mapDecls,
    "\n",
  ].join("");
  return { js, dts };
}
