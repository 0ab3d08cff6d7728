// Every rule of the breaking-change catalogue, for both protocols: one before/after pair per case, built from
// the real generated contract with one mutation (or a small fixture under test/fixtures/breaking/), and the
// exact set of client-relevant rules it must produce. The last test checks every rule has a case.
import { describe, expect, it } from "vitest";
import { RULES } from "../scripts/breaking/rules.js";
import type { Change } from "../scripts/breaking/types.js";
import { diffOpenApi } from "../scripts/breaking/openapi-diff.js";
import {
  clientRules,
  contractMeta,
  fixture,
  itemWith,
  mcpDiff,
  payloadOf,
  restDiff,
  schemaDiff,
  schemasOf,
  toolIn,
  type Fields,
  type McpDocs,
} from "./fixtures/breaking/support.js";
import { at, deleteAt, fieldsOf, filterAt, itemsOf, setAt } from "./support/json.js";

interface Expect {
  rule: keyof typeof RULES;
  /** A substring of the change's path (or of one of the other places it shows up, alsoAt). */
  path?: string;
}

/**
 * The rules issue 8 names, in its words: seed 001 Versioning item 5 (MCP), seed 000 Versioning (REST: "the same
 * kinds of change on operations, parameters, request and response schemas, status codes and error types") and
 * the tricky directions. Every one needs a case on the real contract of BOTH protocols (last test).
 */
const SEED = {
  "tool-removed-or-renamed": "removing or renaming a tool (REST: an operation)",
  "field-removed": "removing a field",
  "field-renamed": "renaming a field",
  "new-required-input": "tightening an input: a new required input",
  "input-limit-narrowed": "tightening an input: a narrower limit",
  "input-enum-value-removed": "tightening an input: a removed accepted enum value",
  "additional-properties-refused": "tightening an input: a new additionalProperties refusal",
  "meaning-changed": "changing what a field or code means (flagged for review)",
  "output-enum-value-removed": "removing an output enum value",
  "failure-code-changed": "changing which error code (REST: status or error type) a failure returns",
  "default-changed": "changing a default",
  "new-tool-or-operation": "compatible: a new tool (REST: operation)",
  "new-optional-input": "compatible: a new optional input",
  "new-output-field": "compatible: a new output field",
  "new-output-enum-value": "compatible: a new output enum value (oasdiff and friends call it breaking)",
  "new-code-for-new-failure": "compatible: a new code (REST: status) for a new failure",
  "payload-wrapped": "tricky: wrapping a payload into an envelope",
  "response-widened": "tricky: widening a response breaks readers",
  "direction": "tricky: one change, opposite verdicts for a request and a response",
} as const;
type Seed = keyof typeof SEED;

interface Case {
  name: string;
  /** The issue's rules this case shows on the real contract (not an inline schema). */
  seed?: Seed[];
  changes: () => Change[];
  expect: Expect[];
  /** Only check that the expected changes are present (other client-relevant changes allowed). */
  loose?: true;
}

const ws = (m: McpDocs) => toolIn(m.tools, "get_workspaces");
const wsIn = (m: McpDocs) => fieldsOf(ws(m), "inputSchema");
const wsOut = (m: McpDocs) => payloadOf(ws(m));
const approval = (m: McpDocs) => fieldsOf(toolIn(m.tools, "view_post"), "outputSchema", "$defs", "Approval");
const entry = (m: McpDocs, kind: string, code: string) => itemWith(m.errors, ["entries"], { kind, code });
/** A schema's `properties`, or the named one's. */
const props = (schema: Fields, name?: string): Fields => (name === undefined ? fieldsOf(schema, "properties") : fieldsOf(schema, "properties", name));
const op = (doc: Fields, path: string, method: string) => fieldsOf(doc, "paths", path, method);
const ideasPost = (doc: Fields) => op(doc, "/v1/ideas", "post");
const getBrand = (doc: Fields) => op(doc, "/v1/brands/{brand_id}", "get");
const getBatch = (doc: Fields) => op(doc, "/v1/ideas/{batch_id}", "get");
const responses = (operation: Fields) => fieldsOf(operation, "responses");
const sortEnum = (schema: Fields) => {
  props(schema).sort = { enum: ["name", "created"] };
};
/** update_brand_style uses the FontFamily definition in its input and its output, as a shared def would. */
const fontFamily = (m: McpDocs, change: (def: Fields) => void) => {
  const tool = toolIn(m.tools, "update_brand_style");
  change(fieldsOf(tool, "inputSchema", "$defs", "FontFamily"));
  change(fieldsOf(tool, "outputSchema", "$defs", "FontFamily"));
};
/** A filterAt test that drops one value. */
const not = (value: unknown) => (item: unknown) => item !== value;

const cases: Case[] = [
  // ── MCP tool inputs (request direction) ──
  { name: "MCP input field removed", seed: ["field-removed"], changes: () => mcpDiff((m) => delete props(wsIn(m)).query), expect: [{ rule: "request.field-removed", path: "tool get_workspaces › input.query" }] },
  {
    name: "MCP input field renamed", seed: ["field-renamed"],
    changes: () => mcpDiff((m) => {
      const p = props(wsIn(m));
      p.search = p.query;
      delete p.query;
    }),
    expect: [{ rule: "request.field-renamed", path: "input.query" }],
  },
  {
    name: "MCP new required input", seed: ["new-required-input"],
    changes: () => mcpDiff((m) => {
      props(wsIn(m)).region = { type: "string" };
      wsIn(m).required = ["region"];
    }),
    expect: [{ rule: "request.required-field-added", path: "input.region" }],
  },
  { name: "MCP new optional input", seed: ["new-optional-input"], changes: () => mcpDiff((m) => (props(wsIn(m)).cursor = { type: "string" })), expect: [{ rule: "request.optional-field-added", path: "input.cursor" }] },
  { name: "MCP optional input made required", seed: ["new-required-input"], changes: () => mcpDiff((m) => (wsIn(m).required = ["query"])), expect: [{ rule: "request.field-made-required", path: "input.query" }] },
  {
    name: "MCP required input made optional",
    changes: () => mcpDiff((m) => setAt(toolIn(m.tools, "list_brands"), "inputSchema.required", [])),
    expect: [{ rule: "request.field-made-optional", path: "tool list_brands › input.workspaceId" }],
  },
  {
    name: "MCP input enum value removed (input tightened)", seed: ["input-enum-value-removed"],
    changes: () => mcpDiff((m) => (props(wsIn(m), "sort").enum = ["name"]), (m) => sortEnum(wsIn(m))),
    expect: [{ rule: "request.enum-value-removed", path: "input.sort" }],
  },
  {
    name: "MCP input enum value added",
    changes: () => mcpDiff((m) => itemsOf(props(wsIn(m), "sort"), "enum").push("updated"), (m) => sortEnum(wsIn(m))),
    expect: [{ rule: "request.enum-value-added", path: "input.sort" }],
  },
  { name: "MCP input maxLength narrowed", seed: ["input-limit-narrowed"], changes: () => mcpDiff((m) => (props(wsIn(m), "query").maxLength = 100)), expect: [{ rule: "request.limit-tightened", path: "input.query" }] },
  { name: "MCP input minimum raised", seed: ["input-limit-narrowed"], changes: () => mcpDiff((m) => (props(wsIn(m), "limit").minimum = 5)), expect: [{ rule: "request.limit-tightened", path: "input.limit" }] },
  { name: "MCP input pattern added", seed: ["input-limit-narrowed"], changes: () => mcpDiff((m) => (props(wsIn(m), "query").pattern = "^[a-z]+$")), expect: [{ rule: "request.limit-tightened", path: "input.query" }] },
  { name: "MCP input maximum raised", changes: () => mcpDiff((m) => (props(wsIn(m), "limit").maximum = 500)), expect: [{ rule: "request.limit-loosened", path: "input.limit" }] },
  {
    name: "MCP input pattern replaced",
    changes: () => mcpDiff((m) => (props(wsIn(m), "query").pattern = "^[a-z]+$"), (m) => (props(wsIn(m), "query").pattern = "^[a-z0-9]+$")),
    expect: [{ rule: "request.constraint-changed", path: "input.query" }],
  },
  {
    name: "MCP input new additionalProperties refusal", seed: ["additional-properties-refused"],
    changes: () => mcpDiff((m) => (wsIn(m).additionalProperties = false), (m) => delete wsIn(m).additionalProperties),
    expect: [{ rule: "request.additional-properties-refused", path: "tool get_workspaces › input" }],
  },
  { name: "MCP input accepts unlisted fields", changes: () => mcpDiff((m) => delete wsIn(m).additionalProperties), expect: [{ rule: "request.additional-properties-allowed" }] },
  {
    name: "MCP input type narrowed",
    changes: () => mcpDiff((m) => (props(wsIn(m), "limit").type = "integer"), (m) => (props(wsIn(m), "limit").type = ["integer", "string"])),
    expect: [{ rule: "request.type-narrowed", path: "input.limit" }],
  },
  {
    name: "MCP input wrapped into an object", seed: ["payload-wrapped"],
    changes: () => mcpDiff((m) => {
      const s = wsIn(m);
      s.properties = { filter: { type: "object", properties: s.properties } };
    }),
    expect: [{ rule: "request.payload-wrapped", path: "tool get_workspaces › input" }],
  },
  { name: "MCP input default changed", seed: ["default-changed"], changes: () => mcpDiff((m) => (props(wsIn(m), "limit").default = 20)), expect: [{ rule: "request.default-changed", path: "input.limit" }] },
  { name: "MCP input default removed", seed: ["default-changed"], changes: () => mcpDiff((m) => delete props(wsIn(m), "limit").default), expect: [{ rule: "request.default-removed", path: "input.limit" }] },
  { name: "MCP input default documented", changes: () => mcpDiff((m) => (props(wsIn(m), "query").default = "")), expect: [{ rule: "request.default-added", path: "input.query" }] },

  // ── Request rules on schemas built inline ──
  { name: "input no longer accepts null", changes: () => schemaDiff({ type: ["string", "null"] }, { type: "string" }, "request"), expect: [{ rule: "request.null-refused" }] },
  { name: "input type widened (integer → number)", changes: () => schemaDiff({ type: "integer" }, { type: "number" }, "request"), expect: [{ rule: "request.type-widened" }] },
  { name: "input type replaced", changes: () => schemaDiff({ type: "string" }, { type: "integer" }, "request"), expect: [{ rule: "request.type-changed" }] },
  { name: "input newly limited to a list", changes: () => schemaDiff({ type: "string" }, { type: "string", enum: ["a", "b"] }, "request"), expect: [{ rule: "request.enum-added" }] },
  { name: "input value list lifted", changes: () => schemaDiff({ type: "string", enum: ["a", "b"] }, { type: "string" }, "request"), expect: [{ rule: "request.enum-removed" }] },

  // ── MCP tool outputs (response direction) ──
  {
    name: "MCP output field removed", seed: ["field-removed"],
    changes: () => mcpDiff((m) => {
      delete props(wsOut(m)).truncated;
      filterAt(wsOut(m), "required", not("truncated"));
    }),
    expect: [{ rule: "response.field-removed", path: "tool get_workspaces › output.data(GetWorkspacesOutput).truncated" }],
  },
  { name: "MCP optional output field removed (oasdiff only warns)", seed: ["field-removed"], changes: () => mcpDiff((m) => delete props(approval(m)).stale), expect: [{ rule: "response.field-removed", path: ".approval.stale" }], loose: true },
  {
    name: "MCP output field renamed", seed: ["field-renamed"],
    changes: () => mcpDiff((m) => {
      const o = wsOut(m);
      const p = props(o);
      p.total = p.totalCount;
      delete p.totalCount;
      o.required = itemsOf(o, "required").map((r) => (r === "totalCount" ? "total" : r));
    }),
    expect: [{ rule: "response.field-renamed", path: "totalCount" }],
  },
  { name: "MCP new output field", seed: ["new-output-field"], changes: () => mcpDiff((m) => (props(wsOut(m)).nextCursor = { type: "string" })), expect: [{ rule: "response.field-added", path: "nextCursor" }] },
  {
    name: "MCP required output field made optional", seed: ["response-widened"],
    changes: () => mcpDiff((m) => filterAt(wsOut(m), "required", not("truncated"))),
    expect: [{ rule: "response.field-made-optional", path: "output.data(GetWorkspacesOutput).truncated" }],
  },
  { name: "MCP optional output field made required", changes: () => mcpDiff((m) => itemsOf(approval(m), "required").push("stale")), expect: [{ rule: "response.field-made-required", path: "approval.stale" }], loose: true },
  { name: "MCP output field made nullable", seed: ["response-widened"], changes: () => mcpDiff((m) => (props(wsOut(m), "truncated").type = ["boolean", "null"])), expect: [{ rule: "response.made-nullable", path: "truncated" }] },
  {
    name: "MCP output field no longer null",
    changes: () => mcpDiff((m) => (props(payloadOf(toolIn(m.tools, "list_brands")), "workspaceName").type = "string")),
    expect: [{ rule: "response.type-narrowed", path: "workspaceName" }],
  },
  { name: "MCP output enum value removed", seed: ["output-enum-value-removed"], changes: () => mcpDiff((m) => (props(approval(m), "decision").enum = ["approved"])), expect: [{ rule: "response.enum-value-removed", path: "approval.decision" }], loose: true },
  {
    name: "MCP output enum value added is compatible (with a note)", seed: ["new-output-enum-value"],
    changes: () => mcpDiff((m) => itemsOf(props(approval(m), "decision"), "enum").push("withdrawn")),
    expect: [{ rule: "response.enum-value-added", path: "approval.decision" }],
  },
  { name: "MCP output value list lifted", changes: () => mcpDiff((m) => delete props(approval(m), "decision").enum), expect: [{ rule: "response.enum-removed", path: "approval.decision" }], loose: true },
  { name: "MCP output maxItems raised", seed: ["response-widened"], changes: () => mcpDiff((m) => (props(wsOut(m), "workspaces").maxItems = 500)), expect: [{ rule: "response.limit-loosened", path: "workspaces" }] },
  { name: "MCP output maxItems lowered", changes: () => mcpDiff((m) => (props(wsOut(m), "workspaces").maxItems = 100)), expect: [{ rule: "response.limit-tightened", path: "workspaces" }] },
  {
    name: "MCP output wrapped in an envelope", seed: ["payload-wrapped"],
    changes: () => mcpDiff((m) => {
      const defs = fieldsOf(ws(m), "outputSchema", "$defs");
      defs.GetWorkspacesOutput = { type: "object", required: ["result"], properties: { result: defs.GetWorkspacesOutput } };
    }),
    expect: [{ rule: "response.payload-wrapped", path: "output.data(GetWorkspacesOutput)" }],
  },
  {
    name: "MCP output can take a new shape", seed: ["response-widened"],
    changes: () => mcpDiff((m) => itemsOf(ws(m), "outputSchema", "properties", "data", "anyOf").push({ type: "string" })),
    expect: [{ rule: "response.variant-added", path: "output.data" }],
  },
  {
    name: "MCP output shape removed",
    changes: () => mcpDiff((m) => itemsOf(ws(m), "outputSchema", "properties", "data", "anyOf").pop()),
    expect: [{ rule: "response.variant-removed", path: "output.data(ErrorEnvelope)" }],
  },

  // ── Response rules on schemas built inline ──
  { name: "output type widened", changes: () => schemaDiff({ type: "integer" }, { type: "number" }, "response"), expect: [{ rule: "response.type-widened" }] },
  { name: "output type replaced", changes: () => schemaDiff({ type: "string" }, { type: "integer" }, "response"), expect: [{ rule: "response.type-changed" }] },
  { name: "output newly limited to a list", changes: () => schemaDiff({ type: "string" }, { type: "string", enum: ["a"] }, "response"), expect: [{ rule: "response.enum-added" }] },
  { name: "output pattern replaced", changes: () => schemaDiff({ type: "string", pattern: "^a" }, { type: "string", pattern: "^b" }, "response"), expect: [{ rule: "response.constraint-changed" }] },
  { name: "output format dropped", changes: () => schemaDiff({ type: "string", format: "date-time" }, { type: "string" }, "response"), expect: [{ rule: "response.constraint-changed" }] },
  {
    name: "output object closed / opened",
    changes: () => [
      ...schemaDiff({ type: "object" }, { type: "object", additionalProperties: false }, "response"),
      ...schemaDiff({ type: "object", additionalProperties: false }, { type: "object" }, "response"),
    ],
    expect: [{ rule: "response.additional-properties-refused" }, { rule: "response.additional-properties-allowed" }],
  },
  {
    name: "output array wrapped in an object",
    changes: () => schemaDiff({ type: "array", items: { type: "string" } }, { type: "object", properties: { items: { type: "array", items: { type: "string" } } } }, "response"),
    expect: [{ rule: "response.payload-wrapped" }],
  },
  {
    name: "one field reappearing inside a new object is a removal, not a wrap",
    changes: () => schemaDiff(
      { type: "object", properties: { id: { type: "string" }, name: { type: "string" } } },
      { type: "object", properties: { id: { type: "string" }, owner: { type: "object", properties: { name: { type: "string" }, email: { type: "string" } } } } },
      "response",
    ),
    expect: [{ rule: "response.field-removed", path: ".name" }, { rule: "response.field-added", path: ".owner" }],
  },
  {
    name: "output defaults changed / removed / documented",
    changes: () => [
      ...schemaDiff({ type: "integer", default: 1 }, { type: "integer", default: 2 }, "response"),
      ...schemaDiff({ type: "integer", default: 1 }, { type: "integer" }, "response"),
      ...schemaDiff({ type: "integer" }, { type: "integer", default: 1 }, "response"),
    ],
    expect: [{ rule: "response.default-changed" }, { rule: "response.default-removed" }, { rule: "response.default-added" }],
  },
  {
    name: "anyOf/oneOf swap, readOnly and unknown keywords are for review",
    changes: () => [
      ...schemaDiff({ anyOf: [{ type: "string" }, { type: "integer" }] }, { oneOf: [{ type: "string" }, { type: "integer" }] }, "response"),
      ...schemaDiff({ type: "string" }, { type: "string", readOnly: true }, "request"),
      ...schemaDiff({ type: "string" }, { type: "string", not: { const: "" } }, "request"),
    ],
    expect: [{ rule: "composition-changed" }, { rule: "annotation-changed" }, { rule: "keyword-changed" }],
  },

  // ── REST request side ──
  {
    name: "REST request limits tightened (minLength / minItems / maxLength)", seed: ["input-limit-narrowed"],
    changes: () => restDiff((d) => {
      const s = props(fieldsOf(schemasOf(d), "CreateIdeasRequest"));
      setAt(s, "focus.maxLength", 1000);
      setAt(s, "formats.minItems", 2);
    }),
    expect: [{ rule: "request.limit-tightened", path: "POST /v1/ideas › body.focus" }, { rule: "request.limit-tightened", path: "POST /v1/ideas › body.formats" }],
  },
  {
    name: "REST request limit loosened",
    changes: () => restDiff((d) => setAt(schemasOf(d), "CreateIdeasRequest.properties.count.maximum", 20)),
    expect: [{ rule: "request.limit-loosened", path: "POST /v1/ideas › body.count" }],
  },
  {
    name: "REST shared enum value removed: breaking in the request, and in the response", seed: ["input-enum-value-removed", "output-enum-value-removed"],
    changes: () => restDiff((d) => setAt(schemasOf(d), "IdeaFormat.enum", ["image", "carousel", "video"])),
    expect: [
      { rule: "request.enum-value-removed", path: "POST /v1/ideas › body.formats[]" },
      { rule: "response.enum-value-removed", path: "› 200.data[].format" },
    ],
  },
  {
    name: "REST shared enum value added: compatible both ways", seed: ["new-output-enum-value"],
    changes: () => restDiff((d) => itemsOf(schemasOf(d), "IdeaFormat", "enum").push("story")),
    expect: [
      { rule: "request.enum-value-added", path: "POST /v1/ideas › body.formats[]" },
      { rule: "response.enum-value-added", path: ".format" },
    ],
  },
  {
    name: "REST shared id pattern replaced: breaking for parameters, bodies and readers",
    changes: () => restDiff((d) => setAt(schemasOf(d), "BrandId.pattern", "^brand_[a-z0-9]+$")),
    expect: [
      { rule: "request.constraint-changed", path: "GET /v1/brands/{brand_id} › path brand_id" },
      { rule: "response.constraint-changed", path: "› 200.id" },
    ],
  },
  {
    name: "REST request default changed", seed: ["default-changed"],
    changes: () => restDiff((d) => setAt(schemasOf(d), "CreateIdeasRequest.properties.count.default", 5)),
    expect: [{ rule: "request.default-changed", path: "POST /v1/ideas › body.count" }],
  },
  {
    name: "REST request body closed to unlisted fields", seed: ["additional-properties-refused"],
    changes: () => restDiff((d) => setAt(schemasOf(d), "CreateIdeasRequest.additionalProperties", false)),
    expect: [{ rule: "request.additional-properties-refused", path: "POST /v1/ideas › body" }],
  },
  {
    name: "REST request alternative removed",
    changes: () => restDiff((d) => itemsOf(schemasOf(d), "CreateBrandRequest", "anyOf").pop()),
    expect: [{ rule: "request.variant-removed", path: "POST /v1/brands › body(CreateBrandFromNameAndDescription)" }],
  },
  {
    name: "REST request alternative added",
    changes: () => restDiff((d) => itemsOf(schemasOf(d), "CreateBrandRequest", "anyOf").push({ type: "object", required: ["instagram"], properties: { instagram: { type: "string" } } })),
    expect: [{ rule: "request.variant-added", path: "POST /v1/brands › body" }],
  },
  {
    name: "REST required request field added", seed: ["new-required-input"],
    changes: () => restDiff((d) => {
      const s = fieldsOf(schemasOf(d), "CreateIdeasRequest");
      props(s).channel = { type: "string" };
      itemsOf(s, "required").push("channel");
    }),
    expect: [{ rule: "request.required-field-added", path: "POST /v1/ideas › body.channel" }],
  },
  {
    name: "REST request field removed",
    seed: ["field-removed"],
    changes: () => restDiff((d) => deleteAt(schemasOf(d), "CreateIdeasRequest.properties.focus")),
    expect: [{ rule: "request.field-removed", path: "POST /v1/ideas › body.focus" }],
  },
  {
    name: "REST request field renamed",
    seed: ["field-renamed"],
    changes: () => restDiff((d) => {
      const p = props(fieldsOf(schemasOf(d), "CreateIdeasRequest"));
      p.topic = p.focus;
      delete p.focus;
    }),
    expect: [{ rule: "request.field-renamed", path: "POST /v1/ideas › body.focus" }],
  },
  {
    name: "REST optional request field added",
    seed: ["new-optional-input"],
    changes: () => restDiff((d) => setAt(schemasOf(d), "CreateIdeasRequest.properties.tone", { type: "string" })),
    expect: [{ rule: "request.optional-field-added", path: "POST /v1/ideas › body.tone" }],
  },
  {
    name: "REST one schema in requests and responses: a looser limit breaks readers only, a tighter one writers only",
    seed: ["direction", "input-limit-narrowed", "response-widened"],
    changes: () => [
      ...restDiff((d) => setAt(schemasOf(d), "Rules.properties.always.maxItems", 50)),
      ...restDiff((d) => setAt(schemasOf(d), "Rules.properties.always.maxItems", 10)),
    ],
    expect: [
      { rule: "request.limit-loosened", path: "PATCH /v1/brands/{brand_id} › body.rules.always" },
      { rule: "response.limit-loosened", path: "GET /v1/brands/{brand_id} › 200.rules.always" },
      { rule: "request.limit-tightened", path: "PATCH /v1/brands/{brand_id} › body.rules.always" },
      { rule: "response.limit-tightened", path: "GET /v1/brands/{brand_id} › 200.rules.always" },
    ],
  },

  // ── REST responses ──
  {
    name: "REST response field removed (shared schema: one change, other places in alsoAt)", seed: ["field-removed"],
    changes: () => restDiff((d) => {
      const s = fieldsOf(schemasOf(d), "Brand");
      delete props(s).offerings;
      filterAt(s, "required", not("offerings"));
    }),
    expect: [{ rule: "response.field-removed", path: ".offerings" }],
  },
  { name: "REST new response field", seed: ["new-output-field"], changes: () => restDiff((d) => setAt(schemasOf(d), "Brand.properties.logo_url", { type: "string" })), expect: [{ rule: "response.field-added", path: ".logo_url" }] },
  {
    name: "REST response field made optional (required → optional breaks readers)", seed: ["response-widened"],
    changes: () => restDiff((d) => filterAt(schemasOf(d), "Brand.required", not("created_at"))),
    expect: [{ rule: "response.field-made-optional", path: "GET /v1/brands/{brand_id} › 200.created_at" }],
  },
  {
    name: "REST response field made nullable", seed: ["response-widened"],
    changes: () => restDiff((d) => {
      const p = props(fieldsOf(schemasOf(d), "Idea"));
      p.title = { anyOf: [{ type: "string" }, { type: "null" }], description: at(p, "title", "description") };
    }),
    expect: [{ rule: "response.made-nullable", path: "GET /v1/ideas/{batch_id} › 200.data[].title" }],
  },
  {
    name: "REST response integer widened to number", seed: ["response-widened"],
    changes: () => restDiff((d) => setAt(schemasOf(d), "Idea.properties.rank.type", "number")),
    expect: [{ rule: "response.type-widened", path: ".rank" }],
  },
  {
    name: "REST output enum value removed / added", seed: ["output-enum-value-removed", "new-output-enum-value"],
    changes: () => restDiff((d) => setAt(schemasOf(d), "BatchStatus.enum", ["thinking", "done", "cancelled"])),
    expect: [{ rule: "response.enum-value-removed", path: "200.status" }, { rule: "response.enum-value-added", path: "200.status" }],
  },
  {
    name: "REST response limit loosened (maxItems raised)", seed: ["response-widened"],
    changes: () => restDiff((d) => setAt(schemasOf(d), "IdeaBatch.properties.data.maxItems", 20)),
    expect: [{ rule: "response.limit-loosened", path: "200.data" }],
  },
  {
    name: "REST response payload wrapped in { data }", seed: ["payload-wrapped"],
    changes: () => restDiff((d) => {
      fieldsOf(responses(getBrand(d)), "200", "content", "application/json").schema = { type: "object", required: ["data"], properties: { data: { $ref: "#/components/schemas/Brand" } } };
    }),
    expect: [{ rule: "response.payload-wrapped", path: "GET /v1/brands/{brand_id} › 200" }],
  },
  {
    name: "REST envelope fixture: all-optional payload wrapped (oasdiff may see only an added property)", seed: ["payload-wrapped"],
    changes: () => diffOpenApi(fixture("rest-envelope-before.json"), fixture("rest-envelope-after.json")),
    expect: [{ rule: "response.payload-wrapped", path: "GET /v1/stats › 200" }],
  },
  {
    name: "REST descriptions and examples: review and docs", seed: ["meaning-changed"],
    changes: () => restDiff((d) => {
      setAt(schemasOf(d), "Brand.properties.name.description", "Something else entirely.");
      setAt(schemasOf(d), "Brand.examples", []);
    }),
    expect: [{ rule: "description-changed", path: ".name" }, { rule: "docs-changed" }],
  },

  // ── REST operations, parameters, bodies, statuses ──
  { name: "REST operation removed", seed: ["tool-removed-or-renamed"], changes: () => restDiff((d) => delete fieldsOf(d, "paths", "/v1/predictions").post), expect: [{ rule: "rest.operation-removed", path: "POST /v1/predictions" }] },
  {
    name: "REST operation added", seed: ["new-tool-or-operation"],
    changes: () => restDiff((d) => (fieldsOf(d, "paths", "/v1/brands").get = { operationId: "listBrands", responses: { "200": { description: "ok" } } })),
    expect: [{ rule: "rest.operation-added", path: "GET /v1/brands" }],
  },
  {
    name: "REST path renamed = operation removed + added",
    seed: ["tool-removed-or-renamed", "new-tool-or-operation"],
    changes: () => restDiff((d) => {
      const paths = fieldsOf(d, "paths");
      paths["/v1/forecasts"] = paths["/v1/predictions"];
      delete paths["/v1/predictions"];
    }),
    expect: [{ rule: "rest.operation-removed", path: "POST /v1/predictions" }, { rule: "rest.operation-added", path: "POST /v1/forecasts" }],
  },
  {
    name: "REST parameter removed",
    changes: () => restDiff(
      (d) => filterAt(getBatch(d), "parameters", (p) => at(p, "in") !== "query"),
      (d) => itemsOf(getBatch(d), "parameters").push({ name: "expand", in: "query", schema: { type: "string" } }),
    ),
    expect: [{ rule: "rest.parameter-removed", path: "GET /v1/ideas/{batch_id} › query expand" }],
  },
  {
    name: "REST new required / optional parameter", seed: ["new-required-input", "new-optional-input"],
    changes: () => restDiff((d) => itemsOf(getBatch(d), "parameters").push({ name: "fields", in: "query", required: true, schema: { type: "string" } }, { name: "Accept-Language", in: "header", schema: { type: "string" } })),
    expect: [{ rule: "rest.required-parameter-added", path: "query fields" }, { rule: "rest.optional-parameter-added", path: "header Accept-Language" }],
  },
  {
    name: "REST parameter made required",
    changes: () => restDiff((d) => setAt(getBatch(d), "parameters.1.required", true), (d) => itemsOf(getBatch(d), "parameters").push({ name: "expand", in: "query", schema: { type: "string" } })),
    expect: [{ rule: "rest.parameter-made-required", path: "query expand" }],
  },
  {
    name: "REST parameter made optional",
    changes: () => restDiff((d) => setAt(getBatch(d), "parameters.1.required", false), (d) => itemsOf(getBatch(d), "parameters").push({ name: "expand", in: "query", required: true, schema: { type: "string" } })),
    expect: [{ rule: "rest.parameter-made-optional", path: "query expand" }],
  },
  { name: "REST request body removed", changes: () => restDiff((d) => delete op(d, "/v1/brands/{brand_id}", "patch").requestBody), expect: [{ rule: "rest.request-body-removed", path: "PATCH /v1/brands/{brand_id} › body" }] },
  {
    name: "REST required / optional request body added",
    changes: () => [
      ...restDiff((d) => (getBrand(d).requestBody = { required: true, content: { "application/json": { schema: { type: "object" } } } })),
      ...restDiff((d) => (getBatch(d).requestBody = { content: { "application/json": { schema: { type: "object" } } } })),
    ],
    expect: [{ rule: "rest.required-request-body-added", path: "GET /v1/brands/{brand_id} › body" }, { rule: "rest.optional-request-body-added", path: "GET /v1/ideas/{batch_id} › body" }],
  },
  { name: "REST request body made optional", changes: () => restDiff((d) => setAt(ideasPost(d), "requestBody.required", false)), expect: [{ rule: "rest.request-body-made-optional", path: "POST /v1/ideas › body" }] },
  {
    name: "REST request body made required",
    changes: () => restDiff((d) => setAt(ideasPost(d), "requestBody.required", true), (d) => setAt(ideasPost(d), "requestBody.required", false)),
    expect: [{ rule: "rest.request-body-made-required", path: "POST /v1/ideas › body" }],
  },
  {
    name: "REST request content type added / removed",
    changes: () => [
      ...restDiff((d) => (fieldsOf(ideasPost(d), "requestBody", "content")["application/x-www-form-urlencoded"] = { schema: { type: "object" } })),
      ...restDiff((d) => delete fieldsOf(ideasPost(d), "requestBody", "content")["text/plain"], (d) => (fieldsOf(ideasPost(d), "requestBody", "content")["text/plain"] = { schema: { type: "string" } })),
    ],
    expect: [{ rule: "rest.request-media-type-added" }, { rule: "rest.request-media-type-removed", path: "body[text/plain]" }],
  },
  { name: "REST status code removed", seed: ["failure-code-changed"], changes: () => restDiff((d) => delete responses(ideasPost(d))["409"]), expect: [{ rule: "rest.response-status-removed", path: "POST /v1/ideas › 409" }] },
  {
    name: "REST success status changed",
    changes: () => restDiff((d) => {
      const r = responses(op(d, "/v1/brands", "post"));
      r["200"] = r["201"];
      delete r["201"];
    }),
    expect: [{ rule: "rest.success-status-changed", path: "POST /v1/brands › 201→200" }],
  },
  {
    name: "REST second success status",
    changes: () => restDiff((d) => (responses(ideasPost(d))["200"] = responses(ideasPost(d))["202"])),
    expect: [{ rule: "rest.success-status-added", path: "POST /v1/ideas › 200" }],
  },
  {
    name: "REST new error status for a new failure", seed: ["new-code-for-new-failure"],
    changes: () => restDiff((d) => (responses(ideasPost(d))["422"] = responses(ideasPost(d))["400"])),
    expect: [{ rule: "rest.error-status-added", path: "POST /v1/ideas › 422" }],
  },
  {
    name: "REST response content type added / removed",
    changes: () => [
      ...restDiff((d) => (fieldsOf(responses(getBrand(d)), "200", "content")["application/xml"] = { schema: { type: "string" } })),
      ...restDiff((d) => delete fieldsOf(responses(getBrand(d)), "200", "content")["application/xml"], (d) => (fieldsOf(responses(getBrand(d)), "200", "content")["application/xml"] = { schema: { type: "string" } })),
    ],
    expect: [{ rule: "rest.response-media-type-added" }, { rule: "rest.response-media-type-removed", path: "200[application/xml]" }],
  },
  {
    name: "REST response header removed / made optional / added",
    changes: () => [
      ...restDiff((d) => delete fieldsOf(responses(ideasPost(d)), "429", "headers")["Retry-After"]),
      ...restDiff((d) => (fieldsOf(responses(ideasPost(d)), "429", "headers", "Retry-After").required = false)),
      ...restDiff((d) => (fieldsOf(responses(ideasPost(d)), "202").headers = { "X-Request-Id": { schema: { type: "string" } } })),
    ],
    expect: [
      { rule: "rest.response-header-removed", path: "POST /v1/ideas › 429 header Retry-After" },
      { rule: "rest.response-header-made-optional", path: "429 header Retry-After" },
      { rule: "rest.response-header-added", path: "202 header X-Request-Id" },
    ],
  },
  {
    name: "REST error status answers another error type", seed: ["failure-code-changed"],
    changes: () => restDiff((d) => {
      // The 400 body is BadRequestError AND the general ErrorEnvelope (allOf): both must allow the new type.
      itemsOf(schemasOf(d), "ErrorType", "enum").push("bad_request");
      setAt(schemasOf(d), "BadRequestError.properties.error.properties.type.enum", ["bad_request"]);
    }),
    expect: [{ rule: "rest.error-type-changed", path: "› 400.error.type" }, { rule: "response.enum-value-added", path: "› 400.error.type" }],
  },
  {
    name: "REST operationId and security are for review",
    changes: () => restDiff((d) => {
      ideasPost(d).operationId = "makeIdeas";
      ideasPost(d).security = [];
    }),
    expect: [{ rule: "rest.operation-id-changed" }, { rule: "rest.security-changed" }],
  },

  // ── MCP tools, metadata and catalogue ──
  { name: "MCP tool removed", seed: ["tool-removed-or-renamed"], changes: () => mcpDiff((m) => filterAt(m.tools, "tools", (t) => at(t, "name") !== "get_workspaces")), expect: [{ rule: "mcp.tool-removed", path: "tool get_workspaces" }] },
  {
    name: "MCP tool renamed = removed + added", seed: ["tool-removed-or-renamed"],
    changes: () => mcpDiff((m) => (ws(m).name = "find_workspaces")),
    expect: [{ rule: "mcp.tool-removed", path: "tool get_workspaces" }, { rule: "mcp.tool-added", path: "tool find_workspaces" }],
  },
  {
    name: "MCP error code removed from a tool (tool errors and catalogue agree: reported once)", seed: ["failure-code-changed"],
    changes: () => mcpDiff((m) => {
      contractMeta(toolIn(m.tools, "list_brands")).errors = [];
      filterAt(entry(m, "envelope", "forbidden"), "tools", not("list_brands"));
    }),
    expect: [{ rule: "mcp.tool-error-code-removed", path: "tool list_brands › errors" }],
  },
  {
    name: "MCP error code removed from a tool in the catalogue only", seed: ["failure-code-changed"],
    changes: () => mcpDiff((m) => {
      filterAt(entry(m, "envelope", "forbidden"), "tools", not("list_brands"));
    }),
    expect: [{ rule: "mcp.tool-error-code-removed", path: "errors.json › envelope forbidden › tools" }],
  },
  {
    name: "MCP new code for a new failure", seed: ["new-code-for-new-failure"],
    changes: () => mcpDiff((m) => itemsOf(contractMeta(ws(m)), "errors").push("usage_limit_exceeded")),
    expect: [{ rule: "mcp.tool-error-code-added", path: "tool get_workspaces › errors" }],
  },
  {
    name: "MCP scopes: extra scope breaks, fewer scopes do not",
    changes: () => [
      ...mcpDiff((m) => itemsOf(contractMeta(ws(m)), "scopes").push("mcp:write")),
      ...mcpDiff((m) => (contractMeta(toolIn(m.tools, "approve_post")).scopes = ["mcp:write"])),
    ],
    expect: [{ rule: "mcp.scope-added", path: "tool get_workspaces" }, { rule: "mcp.scope-removed", path: "tool approve_post" }],
  },
  {
    name: "MCP partner-only on / off",
    changes: () => [
      ...mcpDiff((m) => (contractMeta(ws(m)).partnerOnly = true)),
      ...mcpDiff((m) => (contractMeta(ws(m)).partnerOnly = false), (m) => (contractMeta(ws(m)).partnerOnly = true)),
    ],
    expect: [{ rule: "mcp.partner-only-added" }, { rule: "mcp.partner-only-removed" }],
  },
  {
    name: "MCP status badge and readOnlyHint are for review",
    changes: () => mcpDiff((m) => {
      contractMeta(ws(m)).status = "in_development";
      setAt(ws(m), "annotations.readOnlyHint", false);
    }),
    expect: [{ rule: "mcp.status-changed" }, { rule: "mcp.annotation-changed" }],
  },
  {
    name: "MCP catalogue code removed / added", seed: ["new-code-for-new-failure"],
    changes: () => mcpDiff((m) => {
      filterAt(m.errors, "entries", (e) => !(at(e, "kind") === "preflight" && at(e, "code") === "post_empty"));
      itemsOf(m.errors, "entries").push({ code: "quota_paused", kind: "envelope", status: "preview", retryable: false, meaning: "New failure." });
    }),
    expect: [{ rule: "mcp.error-code-removed", path: "preflight post_empty" }, { rule: "mcp.error-code-added", path: "envelope quota_paused" }],
  },
  {
    name: "MCP code's retryable flag flipped",
    changes: () => mcpDiff((m) => (entry(m, "envelope", "internal_error").retryable = false)),
    expect: [{ rule: "mcp.error-retryable-changed", path: "errors.json › envelope internal_error" }],
  },
  {
    name: "MCP envelope field removed / added for a code",
    changes: () => mcpDiff((m) => (entry(m, "envelope", "bad_request").fields = ["invalidFields", "hint"])),
    expect: [{ rule: "mcp.error-field-removed", path: "bad_request › fields" }, { rule: "mcp.error-field-added", path: "bad_request › fields" }],
  },
  {
    name: "MCP upstream code rule changed",
    changes: () => mcpDiff((m) => setAt(m.errors, "upstreamRule.pattern", "^upstream_[0-9]{3}_[a-z]+$")),
    expect: [{ rule: "mcp.error-rule-changed", path: "errors.json › upstreamRule" }],
  },
  {
    name: "MCP code meaning and other attributes are for review", seed: ["meaning-changed"],
    changes: () => mcpDiff((m) => {
      entry(m, "envelope", "internal_error").meaning = "Something else.";
      entry(m, "envelope", "post_already_published").aliases = [];
    }),
    expect: [{ rule: "mcp.error-meaning-changed", path: "internal_error" }, { rule: "mcp.error-entry-changed", path: "post_already_published" }],
  },
  {
    name: "MCP new tool",
    seed: ["new-tool-or-operation"],
    changes: () => mcpDiff((m) => itemsOf(m.tools, "tools").push({ ...ws(m), name: "search_workspaces", inputSchema: { type: "object", properties: {} } })),
    expect: [{ rule: "mcp.tool-added", path: "tool search_workspaces" }],
  },
  {
    name: "MCP field description reworded: the meaning may have changed, a person reviews",
    seed: ["meaning-changed"],
    changes: () => mcpDiff((m) => (props(wsIn(m), "query").description = "Matched against the workspace id only.")),
    expect: [{ rule: "description-changed", path: "tool get_workspaces › input.query" }],
  },
  {
    name: "MCP failure moved to another code: the old code's removal breaks, the new code alone would not",
    seed: ["failure-code-changed"],
    changes: () => mcpDiff((m) => {
      const meta = contractMeta(toolIn(m.tools, "view_post"));
      meta.errors = [...itemsOf(meta, "errors").filter(not("not_found")), "post_deleted"];
      filterAt(entry(m, "envelope", "not_found"), "tools", not("view_post"));
      itemsOf(m.errors, "entries").push({ code: "post_deleted", kind: "envelope", status: "preview", retryable: false, meaning: "The post was deleted.", tools: ["view_post"] });
    }),
    expect: [
      { rule: "mcp.tool-error-code-removed", path: "tool view_post › errors" },
      { rule: "mcp.tool-error-code-added", path: "tool view_post › errors" },
      { rule: "mcp.error-code-added", path: "envelope post_deleted" },
    ],
  },
  {
    name: "MCP one definition in input and output: a tighter limit breaks the input only, a looser one the output only",
    seed: ["direction", "input-limit-narrowed", "response-widened"],
    changes: () => [...mcpDiff((m) => fontFamily(m, (def) => (def.maxLength = 100))), ...mcpDiff((m) => fontFamily(m, (def) => delete def.minLength))],
    expect: [
      { rule: "request.limit-tightened", path: "tool update_brand_style › input.fonts" },
      { rule: "response.limit-tightened", path: "tool update_brand_style › output.data(UpdateBrandStyleOutput).fonts" },
      { rule: "request.limit-loosened", path: "tool update_brand_style › input.fonts" },
      { rule: "response.limit-loosened", path: "tool update_brand_style › output.data(UpdateBrandStyleOutput).fonts" },
    ],
  },
];

const results = new Map<Case, Change[]>();
const changesOf = (c: Case): Change[] => {
  if (!results.has(c)) results.set(c, c.changes());
  return results.get(c)!;
};
/** The change each expectation names (undefined where none matches). */
const hitsOf = (c: Case): (Change | undefined)[] =>
  c.expect.map((e) => changesOf(c).find((ch) => ch.rule === e.rule && (!e.path || [ch.path, ...(ch.alsoAt ?? [])].some((p) => p.includes(e.path!)))));

describe("breaking-change rules", () => {
  for (const c of cases) {
    it(c.name, () => {
      const changes = changesOf(c);
      const hits = hitsOf(c);
      c.expect.forEach((e, i) => {
        const hit = hits[i];
        expect(hit, `${e.rule} at …${e.path ?? ""} in\n${changes.map((ch) => `${ch.rule} ${ch.path}`).join("\n")}`).toBeDefined();
        expect(hit!.kind).toBe(RULES[e.rule].kind);
        // Inline schemas (schemaDiff) carry a placeholder protocol: a seed case must run on the real contract.
        if (c.seed) expect(hit!.path.startsWith("schema"), `${c.name} runs on an inline schema`).toBe(false);
      });
      if (!c.loose) {
        const wanted = [...new Set(c.expect.map((e) => e.rule).filter((r) => ["breaking", "compatible"].includes(RULES[r].kind)))].sort();
        expect(clientRules(changes)).toEqual(wanted);
      }
    });
  }

  it("has a case for every rule of the catalogue", () => {
    const covered = new Set(cases.flatMap((c) => c.expect.map((e) => e.rule)));
    expect(Object.keys(RULES).filter((r) => !covered.has(r as keyof typeof RULES))).toEqual([]);
  });

  it("has a case on the real contract of both protocols for every rule issue 8 names", () => {
    const missing: string[] = [];
    for (const seed of Object.keys(SEED) as Seed[]) {
      for (const protocol of ["mcp", "rest"] as const) {
        const shown = cases.some((c) => c.seed?.includes(seed) && hitsOf(c).some((h) => h?.protocol === protocol && !h.path.startsWith("schema")));
        if (!shown) missing.push(`${protocol}: ${SEED[seed]}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
