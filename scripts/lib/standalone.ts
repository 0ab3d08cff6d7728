// Writes ajv standalone validator modules (ESM .js + .d.ts) for a set of named schema refs.
import standaloneCodeModule from "ajv/dist/standalone/index.js";
import type { Ajv } from "./ajv.js";
import { slashBanner } from "./banner.js";

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

/**
 * `refs` maps each export name to a schema ref ajv can resolve. ajv's ESM output still calls require() for
 * its runtime helpers (formats, ucs2length, equal), so the module opens with a createRequire shim.
 */
export function standaloneModule(ajv: Ajv, refs: Record<string, string>, groups: ValidatorGroup[]): StandaloneModule {
  const code = standaloneCode(ajv, refs);
  const maps = groups
    .map(
      (g) =>
        `/** ${g.doc} */\nexport const ${g.mapName} = Object.freeze({\n${g.entries
          .map(([key, fn]) => `  ${JSON.stringify(key)}: ${fn},`)
          .join("\n")}\n});\n`,
    )
    .join("\n");
  const js = [
    slashBanner,
    `import { createRequire } from "node:module";\nconst require = createRequire(import.meta.url);\n`,
    code.replace(/^"use strict";/, ""),
    "\n",
    maps,
  ].join("");

  const fnDecls = Object.keys(refs)
    .map((name) => `export declare const ${name}: ValidateFunction;`)
    .join("\n");
  const mapDecls = groups
    .map(
      (g) =>
        `/** ${g.doc} */\nexport declare const ${g.mapName}: Readonly<{\n${g.entries
          .map(([key]) => `  ${JSON.stringify(key)}: ValidateFunction;`)
          .join("\n")}\n}>;`,
    )
    .join("\n");
  const dts = [
    slashBanner,
    `import type { ErrorObject } from "ajv";\n\n`,
    `/** An ajv validator: returns whether data is valid and leaves the reasons in \`errors\`. */\n`,
    `export interface ValidateFunction {\n  (data: unknown): boolean;\n  errors?: ErrorObject[] | null;\n}\n\n`,
    fnDecls,
    "\n\n",
    mapDecls,
    "\n",
  ].join("");
  return { js, dts };
}
