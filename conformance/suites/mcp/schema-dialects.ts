// Advertised schemas (a target's tools/list inputSchema and outputSchema) compiled with the validator of the JSON
// Schema dialect each names: seed 001 says only "JSON Schema", and real gateways differ (the MCP SDK's McpServer
// emits draft-07, others 2019-09 or 2020-12, many no `$schema` at all). Lenient like a caller would be: unknown
// keywords and formats do not break compilation; a schema the meta-schema of its own dialect refuses, or a `$schema`
// naming a dialect we cannot compile with, comes back as an Error for the schema rule to report. Compiled once per
// distinct schema per process. The suite, the SDK client's output validation and the proxy all compile here.
import { createRequire } from "node:module";
import { Ajv, type AnySchema, type AnySchemaObject, type Options, type ValidateFunction } from "ajv";
import { Ajv2019 } from "ajv/dist/2019.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";

const addFormats = addFormatsModule.default;
const require = createRequire(import.meta.url);

export type Dialect = "draft-04" | "draft-06" | "draft-07" | "2019-09" | "2020-12";

/** The `$schema` each dialect's validator knows it by. */
const canonical: Record<Dialect, string> = {
  "draft-04": "http://json-schema.org/draft-04/schema#",
  "draft-06": "http://json-schema.org/draft-06/schema#",
  "draft-07": "http://json-schema.org/draft-07/schema#",
  "2019-09": "https://json-schema.org/draft/2019-09/schema",
  "2020-12": "https://json-schema.org/draft/2020-12/schema",
};

/** The dialect a `$schema` names (http or https, with or without the empty fragment), or undefined. */
export function dialectOf(uri: string): Dialect | undefined {
  const m = /^https?:\/\/json-schema\.org\/(draft-0[467]|draft\/2019-09|draft\/2020-12)\/schema#?$/.exec(uri.trim());
  return m ? (m[1]!.replace("draft/", "") as Dialect) : undefined;
}

// No optimising pass over the generated code: it only tidies the code (same validation, same errors) and costs a
// third of the compile time, which dominates a run (hundreds of schemas, each compiled once).
const options: Options = { strict: false, allErrors: true, allowUnionTypes: true, validateFormats: true, code: { optimize: false } };

function withFormats<A extends Ajv>(ajv: A): A {
  addFormats(ajv);
  return ajv;
}

/**
 * Ajv's draft-04 validator (the optional package ajv-draft-04, pinned as a dev dependency and an optional peer), or
 * undefined when it is not installed: draft-04 schemas are then translated to draft-07 (draft04AsDraft07).
 */
function draft04Ajv(): Ajv | undefined {
  try {
    const mod = require("ajv-draft-04") as { default?: new (o: Options) => Ajv } & (new (o: Options) => Ajv);
    return withFormats(new (mod.default ?? mod)(options));
  } catch {
    return undefined;
  }
}

// One instance per dialect, made on first use. Draft-06 runs on the draft-07 instance with its meta-schema added
// (ajv supports it that way); draft-04 on ajv-draft-04 when it is installed, else on the draft-07 instance after
// translation (see draft04AsDraft07).
const instances = new Map<Dialect, Ajv>();
let translateDraft04 = false;
function ajvFor(dialect: Dialect): Ajv {
  let ajv = instances.get(dialect);
  if (!ajv && dialect === "draft-04") {
    ajv = draft04Ajv();
    translateDraft04 = !ajv;
    ajv ??= ajvFor("draft-07");
  }
  if (!ajv) {
    if (dialect === "2020-12") ajv = withFormats(new Ajv2020(options));
    else if (dialect === "2019-09") ajv = withFormats(new Ajv2019(options));
    else {
      ajv = withFormats(new Ajv(options));
      ajv.addMetaSchema(require("ajv/dist/refs/json-schema-draft-06.json") as AnySchemaObject);
      instances.set(dialect === "draft-06" ? "draft-07" : "draft-06", ajv);
    }
    instances.set(dialect, ajv);
  }
  return ajv;
}

/**
 * A draft-04 schema in draft-07's words, for when ajv-draft-04 is not installed: `id` becomes `$id`, and the boolean
 * exclusiveMaximum/exclusiveMinimum the number form. What draft-04 refuses and draft-07 allows (an empty
 * `required`) then passes, so the fallback can miss an invalid schema but never refuses a valid one; the keywords
 * draft-06 added (const, contains, propertyNames) mean nothing in draft-04 and are dropped.
 */
export function draft04AsDraft07(schema: unknown, depth = 0): unknown {
  if (depth > 64 || !schema || typeof schema !== "object") return schema;
  if (Array.isArray(schema)) return schema.map((s) => draft04AsDraft07(s, depth + 1));
  const out: Record<string, unknown> = {};
  const src = schema as Record<string, unknown>;
  for (const [k, v] of Object.entries(src)) {
    if (k === "const" || k === "contains" || k === "propertyNames" || k === "exclusiveMaximum" || k === "exclusiveMinimum") continue;
    if (k === "id" && typeof v === "string") out.$id = v;
    else if (schemaMaps.has(k) && v && typeof v === "object" && !Array.isArray(v)) out[k] = Object.fromEntries(Object.entries(v).map(([n, sub]) => [n, draft04AsDraft07(sub, depth + 1)]));
    else out[k] = notSchemas.has(k) ? v : draft04AsDraft07(v, depth + 1);
  }
  for (const [flag, bound] of [["exclusiveMaximum", "maximum"], ["exclusiveMinimum", "minimum"]] as const)
    if (src[flag] === true && typeof src[bound] === "number") {
      out[flag] = src[bound];
      delete out[bound];
    }
  return out;
}

/** The schema with its `$schema` written as that dialect's validator knows it (a draft-04 one translated when it must be). */
function withCanonical(dialect: Dialect, schema: unknown): unknown {
  if (dialect === "draft-04" && translateDraft04) return withCanonical("draft-07", draft04AsDraft07(schema));
  return schema && typeof schema === "object" && !Array.isArray(schema) && "$schema" in schema ? { ...schema, $schema: canonical[dialect] } : schema;
}

/** The schema compiled in one dialect, or the Error. */
function compileIn(dialect: Dialect, schema: unknown): ValidateFunction | Error {
  try {
    return ajvFor(dialect).compile(withCanonical(dialect, schema) as AnySchema);
  } catch (err) {
    return new Error(`not valid JSON Schema ${dialect}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** Keywords only draft-07 and earlier give a meaning to, and keywords only 2019-09 and later have. */
const olderOnly = new Set(["dependencies", "additionalItems"]);
const newerOnly = new Set(["$defs", "dependentRequired", "dependentSchemas", "prefixItems", "unevaluatedProperties", "unevaluatedItems", "$anchor", "$dynamicRef", "$dynamicAnchor", "$recursiveRef", "$recursiveAnchor", "minContains", "maxContains"]);
/** Keywords whose value maps names to schemas (the names are not keywords), and keywords whose value is no schema. */
const schemaMaps = new Set(["properties", "patternProperties", "definitions", "$defs", "dependentSchemas"]);
const notSchemas = new Set(["enum", "const", "examples", "default", "required"]);

/** Which of the two sets of keywords a schema uses (an `items` array counts as older). */
function keywordEras(schema: unknown, seen: { older: boolean; newer: boolean } = { older: false, newer: false }, depth = 0): { older: boolean; newer: boolean } {
  if (depth > 64 || !schema || typeof schema !== "object") return seen;
  if (Array.isArray(schema)) {
    for (const s of schema) keywordEras(s, seen, depth + 1);
    return seen;
  }
  for (const [k, v] of Object.entries(schema)) {
    if (olderOnly.has(k) || (k === "items" && Array.isArray(v))) seen.older = true;
    if (newerOnly.has(k)) seen.newer = true;
    if (notSchemas.has(k)) continue;
    if (schemaMaps.has(k) && v && typeof v === "object") for (const sub of Object.values(v)) keywordEras(sub, seen, depth + 1);
    else keywordEras(v, seen, depth + 1);
  }
  return seen;
}

const writtenInDraft07 = (schema: unknown): boolean => {
  const { older, newer } = keywordEras(schema);
  return older && !newer;
};

/** What `attempt` makes of the schema in its own dialect, or why it is not valid JSON Schema there. */
function inOwnDialect<T>(schema: unknown, attempt: (dialect: Dialect, schema: unknown) => T | Error): T | Error {
  if (typeof schema === "boolean") return attempt("2020-12", schema);
  if (!schema || typeof schema !== "object" || Array.isArray(schema)) return new Error(`not a JSON Schema (an object or a boolean): ${JSON.stringify(schema)?.slice(0, 80)}`);
  const named = (schema as { $schema?: unknown }).$schema;
  if (named === undefined) {
    // No dialect named: 2020-12 first, then draft-07. Many generators leave `$schema` out of draft-07 output
    // (`items: [...]` tuples, `dependencies`); the seed says only "JSON Schema", so a schema valid in draft-07 is
    // valid JSON Schema too, and only one valid in neither is refused. A schema written only in draft-07's words
    // is compiled as draft-07 first: 2020-12 would accept it but ignore `dependencies` and `additionalItems`.
    const order: Dialect[] = writtenInDraft07(schema) ? ["draft-07", "2020-12"] : ["2020-12", "draft-07"];
    const first = attempt(order[0]!, schema);
    if (!(first instanceof Error)) return first;
    const second = attempt(order[1]!, schema);
    return second instanceof Error ? new Error(`${first.message} (it names no $schema; nor ${second.message.replace(/^not valid JSON Schema /, "")})`) : second;
  }
  if (typeof named !== "string") return new Error(`not valid JSON Schema: its $schema is not a string: ${JSON.stringify(named)?.slice(0, 80)}`);
  const dialect = dialectOf(named);
  if (!dialect) return new Error(`not valid JSON Schema: its $schema names ${JSON.stringify(named.slice(0, 120))}, no dialect the suite compiles (draft-04, draft-06, draft-07, 2019-09, 2020-12)`);
  return attempt(dialect, schema);
}

/** The schema checked against its dialect's meta-schema only: far cheaper than compiling it. */
function checkIn(dialect: Dialect, schema: unknown): true | Error {
  const ajv = ajvFor(dialect);
  return ajv.validateSchema(withCanonical(dialect, schema) as AnySchema) ? true : new Error(`not valid JSON Schema ${dialect}: schema is invalid: ${ajv.errorsText(ajv.errors)}`);
}

const compiled = new Map<string, ValidateFunction | Error>();
const checked = new Map<string, string | undefined>();

/** The same schema object again (the proxy judges every call against one) skips stringifying it for the key. */
const byObject = new WeakMap<object, ValidateFunction | Error>();

/**
 * The cache key of a schema: its text with the top-level members in name order. The SDK client's parse of
 * tools/list puts `type`, `properties` and `required` first, so the schema the SDK compiles and the same one as
 * the contract or a raw tools/list has it differ only there; nothing ajv does depends on that order (it applies
 * keywords in its own order, and members below the top are kept as they are).
 */
function keyOf(schema: unknown): string {
  if (!schema || typeof schema !== "object" || Array.isArray(schema)) return JSON.stringify(schema) ?? "undefined";
  return JSON.stringify(Object.fromEntries(Object.entries(schema).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))));
}

/** A compiled validator of an advertised schema in its own dialect (cached by its text and object), or why it is not valid. */
export function compileSchema(schema: unknown): ValidateFunction | Error {
  const object = schema && typeof schema === "object" ? schema : undefined;
  const known = object && byObject.get(object);
  if (known) return known;
  const key = keyOf(schema);
  let v = compiled.get(key);
  if (!v) compiled.set(key, (v = inOwnDialect(schema, compileIn)));
  if (object) byObject.set(object, v);
  return v;
}

/**
 * Why an advertised schema is not valid JSON Schema in its own dialect, by its meta-schema alone (no compiling:
 * for a whole tools/list where only a verdict is needed), or undefined when it is valid.
 */
export function schemaInvalidity(schema: unknown): string | undefined {
  const key = JSON.stringify(schema) ?? "undefined";
  if (checked.has(key)) return checked.get(key);
  const v = inOwnDialect(schema, checkIn);
  const why = v instanceof Error ? v.message : undefined;
  checked.set(key, why);
  return why;
}

/** Ajv's one-line text of a validator's errors (as the SDK's own provider writes it). */
export const errorsText = (v: ValidateFunction): string => ajvFor("2020-12").errorsText(v.errors);
