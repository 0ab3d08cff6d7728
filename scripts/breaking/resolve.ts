// Local `$ref` resolution and schema flattening for the diff.
//
// Both artefacts keep every reference document-local: OpenAPI uses `#/components/...`, each MCP tool schema
// carries its own `$defs` and points at `#/$defs/...`. A Resolver is bound to one root document. Recursive
// schemas are fine: `flatten` never follows a ref that is already on its own stack, and the comparer in
// schema-diff.ts keeps its own in-progress set of ref pairs (see SchemaComparer.compare).
import { isObject, type Json, type JsonObject } from "./types.js";

/** Keys that never change what a value may be: compared only as documentation. */
export const DOC_KEYS = new Set(["description", "title", "summary", "examples", "example", "$comment", "$schema", "$id"]);

export function isDocKey(key: string): boolean {
  return DOC_KEYS.has(key) || key.startsWith("x-");
}

export class Resolver {
  constructor(readonly root: Json) {}

  /** The value a local ref (`#/a/b~1c`) points at; throws on a missing or non-local target. */
  pointer(ref: string): Json {
    if (!ref.startsWith("#")) throw new Error(`only document-local $ref is supported, got ${ref}`);
    const parts = ref
      .slice(1)
      .split("/")
      .slice(1)
      .map((p) => decodeURIComponent(p).replace(/~1/g, "/").replace(/~0/g, "~"));
    let node: Json | undefined = this.root;
    for (const part of parts) {
      if (Array.isArray(node)) node = node[Number(part)];
      else if (isObject(node)) node = node[part];
      else node = undefined;
      if (node === undefined) throw new Error(`$ref ${ref} points at nothing`);
    }
    return node;
  }

  /** Follows `$ref` chains of a non-schema object (OpenAPI parameter, response, header, requestBody). */
  deref<T extends Json>(value: T): T {
    let node: Json = value;
    const seen = new Set<string>();
    while (isObject(node) && typeof node.$ref === "string") {
      if (seen.has(node.$ref)) throw new Error(`$ref cycle at ${node.$ref}`);
      seen.add(node.$ref);
      node = this.pointer(node.$ref);
    }
    return node as T;
  }
}

/**
 * The `$ref` a schema stands for when everything else on it is documentation: `{ $ref }`,
 * `{ $ref, description }` (2020-12 siblings, MCP) or `{ allOf: [{ $ref }], description }` (TypeSpec/OpenAPI).
 * Two such schemas are compared once per ref pair and direction, which both dedupes shared definitions and
 * stops recursion.
 */
export function refCore(schema: Json): string | undefined {
  if (!isObject(schema)) return undefined;
  let ref: string | undefined;
  if (typeof schema.$ref === "string") ref = schema.$ref;
  else if (Array.isArray(schema.allOf) && schema.allOf.length === 1) {
    const only = schema.allOf[0];
    if (isObject(only) && typeof only.$ref === "string" && Object.keys(only).every((k) => k === "$ref" || isDocKey(k))) ref = only.$ref;
  }
  if (!ref) return undefined;
  const others = Object.keys(schema).filter((k) => k !== "$ref" && k !== "allOf");
  return others.every(isDocKey) ? ref : undefined;
}

/** The documentation keys sitting next to a ref (they override the target's). */
export function docSiblings(schema: Json): JsonObject {
  if (!isObject(schema)) return {};
  return Object.fromEntries(Object.entries(schema).filter(([k]) => isDocKey(k)));
}

/** Last segment of a ref, for labels: `#/components/schemas/Brand` → `Brand`. */
export function refName(ref: string): string {
  return ref.slice(ref.lastIndexOf("/") + 1);
}

const LOWER = ["minLength", "minItems", "minProperties", "minimum", "exclusiveMinimum", "minContains"];
const UPPER = ["maxLength", "maxItems", "maxProperties", "maximum", "exclusiveMaximum", "maxContains"];

/**
 * A schema with its `$ref` and `allOf` folded in, so two documents that say the same thing in different
 * layouts compare equal. Properties stay raw (compared lazily). Keys on the schema itself win for
 * documentation; bounds combine to the stricter one, `required` and `properties` unite (a property named on
 * both sides becomes an allOf of both), `enum` and `type` intersect. A ref already on the stack (a recursive
 * schema) flattens to `{}`.
 */
export function flatten(schema: Json, resolver: Resolver, stack: string[] = []): JsonObject {
  if (schema === true || schema === undefined) return {};
  if (schema === false) return { not: {} };
  if (!isObject(schema)) return {};
  let result: JsonObject = { ...schema };
  delete result.$ref;
  delete result.allOf;
  const parts: JsonObject[] = [];
  if (typeof schema.$ref === "string") {
    if (!stack.includes(schema.$ref)) parts.push(flatten(resolver.pointer(schema.$ref), resolver, [...stack, schema.$ref]));
  }
  if (Array.isArray(schema.allOf)) for (const member of schema.allOf) parts.push(flatten(member, resolver, stack));
  for (const part of parts) result = mergeInto(result, part);
  return result;
}

function mergeInto(own: JsonObject, other: JsonObject): JsonObject {
  const out: JsonObject = { ...own };
  for (const [key, value] of Object.entries(other)) {
    const mine = out[key];
    if (mine === undefined) {
      out[key] = value;
      continue;
    }
    if (key === "properties" && isObject(mine) && isObject(value)) {
      const props: JsonObject = { ...value };
      for (const [name, s] of Object.entries(mine)) props[name] = name in value ? { allOf: [s, value[name]!] } : s;
      out.properties = props;
    } else if (key === "required" && Array.isArray(mine) && Array.isArray(value)) {
      out.required = [...new Set([...(value as string[]), ...(mine as string[])])];
    } else if (LOWER.includes(key) && typeof mine === "number" && typeof value === "number") {
      out[key] = Math.max(mine, value);
    } else if (UPPER.includes(key) && typeof mine === "number" && typeof value === "number") {
      out[key] = Math.min(mine, value);
    } else if (key === "enum" && Array.isArray(mine) && Array.isArray(value)) {
      const keep = new Set(value.map((v) => JSON.stringify(v)));
      out.enum = mine.filter((v) => keep.has(JSON.stringify(v)));
    } else if (key === "type") {
      const a = new Set(Array.isArray(mine) ? mine : [mine]);
      const both = (Array.isArray(value) ? value : [value]).filter((t) => a.has(t) || (t === "integer" && a.has("number")));
      out.type = both.length === 1 ? both[0]! : both;
    }
    // Any other key: the schema's own value wins (documentation, or a keyword the ref site restates).
  }
  return out;
}

/** Canonical JSON (sorted keys) of a flattened schema without documentation, for rename/wrap detection. */
export function shapeKey(schema: Json, resolver: Resolver, depth = 0): string {
  if (depth > 8) return "…";
  const flat = flatten(schema, resolver);
  const keys = Object.keys(flat).filter((k) => !isDocKey(k)).sort();
  const parts = keys.map((k) => {
    const v = flat[k]!;
    if (k === "properties" && isObject(v)) {
      const props = Object.keys(v)
        .sort()
        .map((p) => `${JSON.stringify(p)}:${shapeKey(v[p]!, resolver, depth + 1)}`);
      return `"properties":{${props.join(",")}}`;
    }
    if ((k === "items" || k === "additionalProperties") && isObject(v)) return `${JSON.stringify(k)}:${shapeKey(v, resolver, depth + 1)}`;
    if ((k === "anyOf" || k === "oneOf") && Array.isArray(v)) return `${JSON.stringify(k)}:[${v.map((s) => shapeKey(s, resolver, depth + 1)).join(",")}]`;
    return `${JSON.stringify(k)}:${stable(v)}`;
  });
  return `{${parts.join(",")}}`;
}

export function stable(value: Json): string {
  if (Array.isArray(value)) return `[${value.map(stable).join(",")}]`;
  if (isObject(value)) return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${stable(value[k]!)}`).join(",")}}`;
  return JSON.stringify(value);
}
