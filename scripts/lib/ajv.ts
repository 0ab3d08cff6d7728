// One place that configures ajv the way every schema of this package is checked.
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";

// ajv-formats is CommonJS; under NodeNext its function sits on .default (at runtime too).
const addFormats = addFormatsModule.default;
export type Ajv = Ajv2020;

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
  /** Stop at the first error (smaller, faster code) instead of collecting every one. */
  firstErrorOnly?: boolean;
  /** More annotation-only keywords the schemas use (e.g. x- extensions TypeSpec emits). */
  annotations?: Iterable<string>;
}

/** How every schema of this package is checked (also what the validators benchmark compiles with). */
export const ajvOptions = {
  strict: true,
  strictTypes: false, // merge-patch and nullable unions trip the type-strictness heuristics
  strictTuples: false,
  strictRequired: false, // "required" inside if/then/not branches is how the seed's either-or rules are written
  allErrors: true,
  allowUnionTypes: true,
} as const;

export function createAjv(options: AjvOptions = {}): Ajv {
  const ajv = new Ajv2020({ ...ajvOptions, allErrors: !options.firstErrorOnly, code: options.standalone ? { source: true, esm: true, lines: true } : undefined });
  ajv.addVocabulary([...new Set([...contractKeywords, ...(options.annotations ?? [])])]);
  addFormats(ajv);
  return ajv;
}
