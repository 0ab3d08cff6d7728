// The seeds' evolution rules as a schema transform, applied when the validators consumers import are generated.
// Seed 001 (Conventions 7, Versioning 5): tool output can gain fields, enum values and codes at any time, and
// that is not breaking. Seed 000 (Conventions 5, Versioning 4): responses can gain fields — only fields, so REST
// response enums stay closed (`enums: false`). Inputs are never passed through here: they stay closed.
// Error codes need nothing: ErrorDetail.code is any non-empty string, read through `retryable`.
import { mapObjects, type Json, type JsonObject } from "./schema-walk.js";

export interface OpenOptions {
  /** Also accept string values an `enum` does not list (MCP outputs only). */
  enums: boolean;
}

/**
 * Copied unchanged: conditions and negations (loosening an enum inside `if` would make the condition hold for
 * every string, inside `not` it would refuse more) and annotations (examples hold data, not schemas).
 */
const verbatim = new Set(["if", "not", "contains", "propertyNames", "enum", "const", "examples", "default", "description", "title"]);
/** Keywords holding a map of name → subschema (the names are data, never keywords). */
const schemaMaps = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]);

/** The JSON type names of an enum's values, sorted: ["layers","prompt",null] → ["null","string"]. */
function typesOf(values: Json[]): string[] {
  const names = values.map((v) => (v === null ? "null" : Array.isArray(v) ? "array" : Number.isInteger(v) ? "integer" : typeof v));
  const set = new Set(names);
  if (set.has("integer") && set.has("number")) set.delete("integer");
  return [...set].sort();
}

/** The TypeScript type of an open string enum: the known values stay suggested, any other string is allowed. */
function openEnumTsType(values: Json[]): string {
  const known = values.map((v) => JSON.stringify(v));
  return [...known, "(string & {})"].join(" | ");
}

function openObject(obj: JsonObject, options: OpenOptions & { tsTypes: boolean }): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(obj)) {
    if ((key === "additionalProperties" || key === "unevaluatedProperties") && value === false) continue;
    if (verbatim.has(key) || key.startsWith("x-")) out[key] = value;
    else if (schemaMaps.has(key) && value && typeof value === "object" && !Array.isArray(value))
      out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, openValue(sub, options)]));
    else out[key] = openValue(value, options);
  }
  const values = obj.enum;
  if (options.enums && Array.isArray(values) && values.some((v) => typeof v === "string")) {
    // Keep the listed values for people and tools (`examples`), validate by type only.
    delete out.enum;
    if (out.type === undefined) {
      const types = typesOf(values);
      out.type = types.length === 1 ? types[0]! : types;
    }
    if (options.tsTypes && values.every((v) => typeof v === "string" || v === null)) out.tsType = openEnumTsType(values);
    out["x-open-enum"] = values;
  }
  return out;
}

function openValue(value: Json, options: OpenOptions & { tsTypes: boolean }): Json {
  return mapObjects(value, (obj) => openObject(obj, options));
}

/** `schema` as consumers' output validators check it: unknown fields (and, with `enums`, unknown values) pass. */
export function openOutput(schema: Json, options: OpenOptions): Json {
  return openValue(schema, { ...options, tsTypes: false });
}

/** The same for the TypeScript types: an open enum becomes `"a" | "b" | (string & {})` (json-schema-to-typescript's `tsType`). */
export function openOutputTypes(schema: Json): Json {
  return openValue(schema, { enums: true, tsTypes: true });
}

/** Annotation keywords this transform adds, which ajv must know. */
export const openOutputKeywords = ["x-open-enum", "tsType"] as const;
