// One place that configures ajv the way every schema of this package is checked.
import Ajv2020Module from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";

// ajv and ajv-formats are CommonJS; under NodeNext their default export sits on .default.
const Ajv2020 = (Ajv2020Module as unknown as { default: typeof Ajv2020Module }).default ?? Ajv2020Module;
const addFormats = (addFormatsModule as unknown as { default: typeof addFormatsModule }).default ?? addFormatsModule;
export type Ajv = InstanceType<typeof Ajv2020>;

/** Keywords our sources add for people and tools; they never change what validates. */
export const contractKeywords = [
  "x-contract-source",
  "x-contract-reason",
  "x-contract-status",
  "example",
  "xml",
  "externalDocs",
  "discriminator",
] as const;

export interface AjvOptions {
  /** Emit code for standalone modules. */
  standalone?: boolean;
}

export function createAjv(options: AjvOptions = {}): Ajv {
  const ajv = new Ajv2020({
    strict: true,
    strictTypes: false, // merge-patch and nullable unions trip the type-strictness heuristics
    strictTuples: false,
    strictRequired: false, // "required" inside if/then/not branches is how the seed's either-or rules are written
    allErrors: true,
    allowUnionTypes: true,
    code: options.standalone ? { source: true, esm: true, lines: true } : undefined,
  });
  ajv.addVocabulary([...contractKeywords]);
  // Any other x- extension (TypeSpec emits some) is annotation only.
  addFormats(ajv);
  return ajv;
}
