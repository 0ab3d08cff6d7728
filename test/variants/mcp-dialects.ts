// Allowed variants of the MCP gateway: the reference (mock/mcp) behind the mutant proxy with its tools/list schemas
// written in another JSON Schema dialect, meaning the same. Seed 001 says only "JSON Schema", so a correct gateway
// may emit any dialect a real server does; the suite must pass every one. Each variant cites the seed's sentence.
import type { Answer, Exchange, Mutant } from "../mutants/rest/proxy.js";
import { toolsOf, withTools } from "../mutants/mcp/rewrite.js";
import type { Fields } from "../support/json.js";

/**
 * An allowed variant: the seed sentence that allows it, the dialect its tools/list must show (checked), and the
 * checks to run (all when left out).
 */
export type McpVariant = Mutant & { basis: string; advertises: string | undefined; only?: string[] };

/**
 * The checks a dialect can change: the tools/list ones, and those whose calls the SDK client validates against the
 * advertised output schemas, success and failure alike. The draft-07 variant, the SDK's own dialect, runs them all.
 */
const schemaChecks = ["mcp-tools-*", "mcp-contract-tools-listed", "mcp-input-schemas-*", "mcp-output-schemas-*", "mcp-read-only-hints", "mcp-success-conventions", "mcp-failure-conventions", "mcp-invalid-arguments-refused-first", "mcp-*-fields"];

const jsonSchemaBasis = "Seed 001, What the service does: `tools/list` returns every tool with `inputSchema` and `outputSchema` (JSON Schema) — any dialect of JSON Schema.";

/** Every schema of a tools/list answer rewritten by `edit`. */
const onSchemas =
  (edit: (schema: Fields) => Fields): NonNullable<Mutant["response"]> =>
  (req: Exchange, res: Answer): Answer => {
    const listed = req.body?.method === "tools/list" ? toolsOf(res) : undefined;
    if (!listed) return res;
    const tools = listed.map((t) => ({
      ...t,
      inputSchema: edit(structuredClone(t.inputSchema)),
      ...(t.outputSchema ? { outputSchema: edit(structuredClone(t.outputSchema)) } : {}),
    }));
    return withTools(res, tools);
  };

const named = (uri: string) => (schema: Fields): Fields => ({ $schema: uri, ...schema });

const annotations = new Set(["$ref", "description", "title", "examples", "default"]);

/**
 * The same schema in draft-07's words: `$defs` → `definitions` (and the `$ref`s to them), `dependentRequired` →
 * `dependencies`, and a `$ref` with assertions beside it put in an `allOf` (draft-07 ignores a `$ref`'s siblings).
 * The contract's schemas use nothing else that draft-07 lacks (`const`, `if` are draft-07 too).
 */
export function toDraft07(schema: Fields): Fields;
export function toDraft07(schema: unknown): unknown;
export function toDraft07(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toDraft07);
  if (!schema || typeof schema !== "object") return schema;
  const { $ref, ...siblings } = schema as Record<string, unknown>;
  if (typeof $ref === "string" && Object.keys(siblings).some((k) => !annotations.has(k))) return toDraft07({ ...siblings, allOf: [{ $ref }, ...((siblings.allOf as unknown[]) ?? [])] });
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === "$ref" && typeof v === "string") out.$ref = v.replace("#/$defs/", "#/definitions/");
    else if (k === "$defs") out.definitions = toDraft07(v);
    else if (k === "dependentRequired") out.dependencies = { ...(out.dependencies as object), ...(v as object) };
    else if (k === "enum" || k === "const" || k === "examples" || k === "default") out[k] = v;
    else out[k] = toDraft07(v);
  }
  return out;
}

/**
 * The same schema in draft-04's words (from draft-07's): `const` → a one-value `enum`, a numeric exclusive bound →
 * the boolean form beside its bound. `if`/`then`/`else` have no draft-04 meaning; the contract uses them only to
 * require a field under a condition, so they are left out (looser, never stricter).
 */
export function toDraft04(schema: Fields): Fields;
export function toDraft04(schema: unknown): unknown;
export function toDraft04(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toDraft04);
  if (!schema || typeof schema !== "object") return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema as Record<string, unknown>)) {
    if (k === "if" || k === "then" || k === "else") continue;
    if (k === "const") out.enum = [v];
    else if ((k === "exclusiveMaximum" || k === "exclusiveMinimum") && typeof v === "number") {
      out[k === "exclusiveMaximum" ? "maximum" : "minimum"] = v;
      out[k] = true;
    } else if (k === "enum" || k === "examples" || k === "default" || k === "required") out[k] = v;
    else if (k === "properties" || k === "definitions" || k === "patternProperties") out[k] = Object.fromEntries(Object.entries(v as object).map(([n, sub]) => [n, toDraft04(sub)]));
    else out[k] = toDraft04(v);
  }
  return out;
}

export const dialectVariants: McpVariant[] = [
  {
    id: "dialect-draft-07",
    rule: "none",
    description: "tools/list schemas in draft-07, named as the MCP SDK's McpServer names them (definitions, dependencies)",
    basis: jsonSchemaBasis,
    advertises: "http://json-schema.org/draft-07/schema#",
    response: onSchemas((s) => named("http://json-schema.org/draft-07/schema#")(toDraft07(s))),
  },
  {
    id: "dialect-draft-07-no-fragment",
    only: schemaChecks,
    rule: "none",
    description: "tools/list schemas in draft-07, named without the empty fragment (http://json-schema.org/draft-07/schema)",
    basis: jsonSchemaBasis,
    advertises: "http://json-schema.org/draft-07/schema",
    response: onSchemas((s) => named("http://json-schema.org/draft-07/schema")(toDraft07(s))),
  },
  {
    id: "dialect-2019-09",
    only: schemaChecks,
    rule: "none",
    description: "tools/list schemas named 2019-09 (the contract's keywords all mean the same there)",
    basis: jsonSchemaBasis,
    advertises: "https://json-schema.org/draft/2019-09/schema",
    response: onSchemas(named("https://json-schema.org/draft/2019-09/schema")),
  },
  {
    id: "dialect-2020-12-named",
    only: schemaChecks,
    rule: "none",
    description: "tools/list schemas naming 2020-12 explicitly",
    basis: jsonSchemaBasis,
    advertises: "https://json-schema.org/draft/2020-12/schema",
    response: onSchemas(named("https://json-schema.org/draft/2020-12/schema")),
  },
  {
    id: "dialect-draft-04",
    only: schemaChecks,
    rule: "none",
    description: "tools/list schemas in draft-04's words, named draft-04 (a generator of an older toolchain)",
    basis: jsonSchemaBasis,
    advertises: "http://json-schema.org/draft-04/schema#",
    response: onSchemas((s) => named("http://json-schema.org/draft-04/schema#")(toDraft04(toDraft07(s)))),
  },
  {
    id: "dialect-draft-07-unnamed",
    only: schemaChecks,
    rule: "none",
    description: "tools/list schemas in draft-07's words with no $schema at all (a generator that leaves it out)",
    basis: jsonSchemaBasis,
    advertises: undefined,
    response: onSchemas((s) => toDraft07(s)),
  },
];
