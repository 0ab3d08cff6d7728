// The REST contract (spec/rest → generated/openapi/openapi.json + generated/rest/validators.js) keeps
// every rule of the Ideas service: examples are valid, limits hold at the boundary and fail one past it,
// enums, id prefixes, nullability, required fields, the create-brand either-or rule and the error table.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { validators as restValidators } from "./support/rest-client.js";
import { at, deleteAt, isFields, setAt, type Fields } from "./support/json.js";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Obj = { [key: string]: Json };

const openapi = JSON.parse(
  readFileSync(new URL("../generated/openapi/openapi.json", import.meta.url), "utf8"),
) as {
  paths: Record<string, Record<string, any>>;
  components: { schemas: Record<string, any>; securitySchemes: Record<string, { type: string; scheme?: string }> };
  info: { contact?: { name?: string; url?: string; email?: string } };
  security: Record<string, string[]>[];
};
const schemas = openapi.components.schemas;
/** The generated validators, looked up by a components.schemas name held in a string. */
const validators: Partial<typeof restValidators> = restValidators;

function validate(name: string, value: unknown): boolean {
  const v = validators[name];
  if (!v) throw new Error(`no validator for ${name}`);
  return v(value) as boolean;
}

function errorsOf(name: string, value: unknown): string {
  validate(name, value);
  return JSON.stringify(validators[name]?.errors ?? null);
}

/** The first example of a component schema, deep-copied so cases can change it. */
function sample(name: string): Obj {
  // The fullest example: Brand's first one is a reading brand (Prism's default answer), its last a ready one.
  const example = schemas[name]?.examples?.at(-1);
  if (example === undefined) throw new Error(`${name} has no example`);
  return structuredClone(example) as Obj;
}

/** A copy of `base` with the member at `path` set to `value` (or removed when `value` is `REMOVE`). */
const REMOVE = Symbol("remove");
function withMember(base: Obj, path: (string | number)[], value: Json | typeof REMOVE): Obj {
  const copy = structuredClone(base);
  if (value === REMOVE) deleteAt(copy, path);
  else setAt(copy, path, value);
  return copy;
}

const text = (length: number) => "x".repeat(length);
const list = <T extends Json>(length: number, item: T): T[] => Array.from({ length }, () => structuredClone(item));
const refName = (schema: unknown): string => {
  const ref = at(schema, "$ref");
  if (typeof ref !== "string") throw new Error(`expected a $ref schema, got ${JSON.stringify(schema)}`);
  return ref.slice(ref.lastIndexOf("/") + 1);
};

// ---------------------------------------------------------------------------------------------------------
// Every example is valid
// ---------------------------------------------------------------------------------------------------------

const componentExamples = Object.entries(schemas).flatMap(([name, schema]) =>
  ((schema.examples ?? []) as Json[]).map((example, i) => ({ label: `${name}#${i}`, name, example })),
);

const methods = ["get", "put", "post", "patch", "delete"] as const;
const operations = Object.entries(openapi.paths).flatMap(([path, item]) =>
  methods.filter((m) => item[m]).map((method) => ({ path, method, op: item[method] })),
);

const operationExamples = operations.flatMap(({ path, method, op }) => {
  const where = `${method.toUpperCase()} ${path}`;
  const out: { label: string; name: string; example: Json }[] = [];
  const add = (what: string, schema: unknown, examples: Record<string, { value: Json }> | undefined) => {
    for (const [title, ex] of Object.entries(examples ?? {}))
      out.push({ label: `${where} ${what} ${title}`, name: refName(schema), example: ex.value });
  };
  for (const p of op.parameters ?? []) add(`parameter ${p.name}`, p.schema, p.examples);
  for (const [type, content] of Object.entries<any>(op.requestBody?.content ?? {}))
    add(`request ${type}`, content.schema, content.examples);
  for (const [status, response] of Object.entries<any>(op.responses))
    for (const [type, content] of Object.entries<any>(response.content ?? {}))
      add(`${status} ${type}`, content.schema, content.examples);
  return out;
});

describe("examples", () => {
  it("every components schema has a validator", () => {
    expect(Object.keys(schemas).filter((name) => !validators[name])).toEqual([]);
  });

  it("the main models carry examples", () => {
    const main = ["Brand", "IdeaBatch", "Idea", "Source", "Outline", "Feedback", "Prediction", "ErrorEnvelope"];
    expect(main.filter((name) => !schemas[name]?.examples?.length)).toEqual([]);
  });

  it.each(componentExamples)("component example $label is valid", ({ name, example }) => {
    expect(validate(name, example), errorsOf(name, example)).toBe(true);
  });

  it.each(operationExamples)("operation example $label is valid", ({ name, example }) => {
    expect(validate(name, example), errorsOf(name, example)).toBe(true);
  });

  it("every operation has a success example and at least one error example", () => {
    for (const { path, method, op } of operations) {
      const statuses = Object.entries<any>(op.responses)
        .filter(([, r]) => Object.values<any>(r.content ?? {}).some((c) => Object.keys(c.examples ?? {}).length))
        .map(([status]) => Number(status));
      expect(statuses.some((s) => s < 300), `${method} ${path}`).toBe(true);
      expect(statuses.some((s) => s >= 400), `${method} ${path}`).toBe(true);
    }
  });
});

// ---------------------------------------------------------------------------------------------------------
// Limits: the boundary passes, one past it fails
// ---------------------------------------------------------------------------------------------------------

const idea = sample("Idea");
const source = sample("Source");
const draft = sample("Draft");

const limitCases: { schema: string; path: (string | number)[]; value: Json; valid: boolean }[] = [
  // count: 1 to 10
  ...([[0, false], [1, true], [10, true], [11, false]] as const).map(([value, valid]) => ({
    schema: "CreateIdeasRequest", path: ["count"], value, valid,
  })),
  // description and focus: up to 2,000 characters
  ...["CreateBrandFromWebsite", "CreateBrandFromNameAndDescription", "UpdateBrandRequest", "Brand"].flatMap((schema) =>
    ([[2000, true], [2001, false]] as const).map(([n, valid]) => ({ schema, path: ["description"], value: text(n), valid })),
  ),
  ...([[2000, true], [2001, false]] as const).map(([n, valid]) => ({
    schema: "CreateIdeasRequest", path: ["focus"], value: text(n), valid,
  })),
  // rules.always / rules.never: up to 20 entries each, in the request and in the brand
  ...["always", "never"].flatMap((member) =>
    ([[20, true], [21, false]] as const).flatMap(([n, valid]) => [
      { schema: "Rules", path: [member], value: list(n, "Be kind."), valid },
      { schema: "Brand", path: ["rules", member], value: list(n, "Be kind."), valid },
      { schema: "UpdateBrandRequest", path: ["rules", member], value: list(n, "Be kind."), valid },
    ]),
  ),
  // sources per idea: up to four (and at least one: every idea cites its sources)
  ...([[0, false], [1, true], [4, true], [5, false]] as const).map(([n, valid]) => ({
    schema: "Idea", path: ["sources"], value: list(n, source), valid,
  })),
  // key points per outline: one to five
  ...([[0, false], [1, true], [5, true], [6, false]] as const).flatMap(([n, valid]) => [
    { schema: "Outline", path: ["key_points"], value: list(n, "A point."), valid },
    { schema: "Idea", path: ["outline", "key_points"], value: list(n, "A point."), valid },
  ]),
  // drafts per prediction: up to 20
  ...([[0, false], [1, true], [20, true], [21, false]] as const).map(([n, valid]) => ({
    schema: "CreatePredictionRequest", path: ["drafts"], value: list(n, draft), valid,
  })),
  // ideas per batch: never more than count (at most 10)
  ...([[10, true], [11, false]] as const).map(([n, valid]) => ({
    schema: "IdeaBatch", path: ["data"], value: list(n, idea), valid,
  })),
  // rank from 1
  ...([[0, false], [1, true]] as const).map(([value, valid]) => ({ schema: "Idea", path: ["rank"], value, valid })),
  // date: YYYY-MM-DD
  ...([
    ["2026-12-01", true],
    ["2026-12-1", false],
    ["01-12-2026", false],
    ["2026-12-01T09:00:00Z", false],
    ["today", false],
  ] as const).map(([value, valid]) => ({ schema: "CreateIdeasRequest", path: ["date"], value, valid })),
  // website: https:// only
  ...["CreateBrandFromWebsite", "UpdateBrandRequest", "Brand"].flatMap((schema) =>
    ([
      ["https://www.example.ie", true],
      ["http://www.example.ie", false],
      ["www.example.ie", false],
      ["ftp://example.ie", false],
    ] as const).map(([value, valid]) => ({ schema, path: ["website"], value, valid })),
  ),
  // Retry-After: a positive number of seconds
  ...([[0, false], [1, true], [30, true], ["30", false]] as const).map(([value, valid]) => ({
    schema: "RetryAfterSeconds", path: [], value, valid,
  })),
];

describe("limits", () => {
  it.each(limitCases.map((c) => ({ ...c, label: `${c.schema}.${c.path.join(".")} = ${JSON.stringify(c.value).slice(0, 40)}` })))(
    "$label → valid: $valid",
    ({ schema, path, value, valid }) => {
      const instance = path.length === 0 ? value : withMember(sample(schema), path, value);
      expect(validate(schema, instance), errorsOf(schema, instance)).toBe(valid);
    },
  );
});

// ---------------------------------------------------------------------------------------------------------
// Ids
// ---------------------------------------------------------------------------------------------------------

const idCases = [
  { schema: "BrandId", good: "brand_7Hq2LmX9c", bad: ["batch_7Hq2LmX9c", "brand_", "Brand_7Hq2", "brand-7Hq2", "7Hq2"] },
  { schema: "BatchId", good: "batch_3fK8wQz1R", bad: ["brand_3fK8wQz1R", "batch_", "batch-3fK8"] },
  { schema: "IdeaId", good: "idea_9Tn4Vb2Ke", bad: ["ideas_9Tn4Vb2Ke", "idea_", "fb_9Tn4"] },
  { schema: "FeedbackId", good: "fb_2Wd7Ys5Np", bad: ["feedback_2Wd7", "fb_", "idea_2Wd7"] },
];
const idFields = [
  { schema: "Brand", path: ["id"], id: "BrandId" },
  { schema: "IdeaBatch", path: ["id"], id: "BatchId" },
  { schema: "IdeaBatch", path: ["brand"], id: "BrandId" },
  { schema: "Idea", path: ["id"], id: "IdeaId" },
  { schema: "Feedback", path: ["id"], id: "FeedbackId" },
  { schema: "Feedback", path: ["idea"], id: "IdeaId" },
  { schema: "Feedback", path: ["brand"], id: "BrandId" },
  { schema: "CreateIdeasRequest", path: ["brand"], id: "BrandId" },
  { schema: "CreatePredictionRequest", path: ["brand"], id: "BrandId" },
  { schema: "Prediction", path: ["brand"], id: "BrandId" },
  { schema: "RejectedFeedbackRequest", path: ["idea"], id: "IdeaId" },
];

describe("ids", () => {
  it.each(idCases)("$schema accepts its prefix and refuses others", ({ schema, good, bad }) => {
    expect(validate(schema, good)).toBe(true);
    for (const id of bad) expect(validate(schema, id), id).toBe(false);
  });

  it.each(idFields.map((c) => ({ ...c, label: `${c.schema}.${c.path.join(".")}` })))("$label uses $id", ({ schema, path, id }) => {
    const ids = idCases.find((c) => c.schema === id)!;
    expect(validate(schema, withMember(sample(schema), path, ids.good))).toBe(true);
    for (const bad of ids.bad) expect(validate(schema, withMember(sample(schema), path, bad)), bad).toBe(false);
  });
});

// ---------------------------------------------------------------------------------------------------------
// Enums and object constants
// ---------------------------------------------------------------------------------------------------------

const enumCases: { schema: string; values: string[] }[] = [
  {
    schema: "Archetype",
    values: ["innocent", "everyman", "hero", "outlaw", "explorer", "creator", "ruler", "magician", "lover", "caregiver", "jester", "sage"],
  },
  { schema: "BrandStatus", values: ["reading", "ready", "failed"] },
  { schema: "BatchStatus", values: ["thinking", "done", "failed"] },
  { schema: "IdeaFormat", values: ["image", "carousel", "video", "text"] },
  { schema: "SourceType", values: ["website", "review", "product", "focus"] },
  {
    schema: "ErrorType",
    values: ["invalid_request", "authentication_error", "permission_error", "not_found", "rate_limit", "server_error"],
  },
  { schema: "FeedbackOutcome", values: ["posted", "saved", "rejected"] },
  { schema: "RejectionReason", values: ["wrong_language", "off_brand", "inaccurate", "not_relevant", "other"] },
];
const enumFields = [
  { schema: "Brand", path: ["status"], enum: "BrandStatus" },
  { schema: "Brand", path: ["archetype", "value"], enum: "Archetype" },
  { schema: "CreateBrandFromWebsite", path: ["archetype"], enum: "Archetype" },
  { schema: "IdeaBatch", path: ["status"], enum: "BatchStatus" },
  { schema: "Idea", path: ["format"], enum: "IdeaFormat" },
  { schema: "Source", path: ["type"], enum: "SourceType" },
  { schema: "CreateIdeasRequest", path: ["formats", 0], enum: "IdeaFormat" },
  { schema: "Feedback", path: ["outcome"], enum: "FeedbackOutcome" },
  { schema: "Feedback", path: ["reason"], enum: "RejectionReason" },
  { schema: "RejectedFeedbackRequest", path: ["reason"], enum: "RejectionReason" },
  { schema: "ErrorEnvelope", path: ["error", "type"], enum: "ErrorType" },
];
const constants = [
  { schema: "Brand", value: "brand" },
  { schema: "IdeaBatch", value: "idea_batch" },
  { schema: "Idea", value: "idea" },
  { schema: "Feedback", value: "feedback" },
  { schema: "Prediction", value: "prediction" },
];

describe("enums", () => {
  it.each(enumCases)("$schema has exactly its values, each documented", ({ schema, values }) => {
    expect(schemas[schema].enum).toEqual(values);
    for (const value of values) expect(validate(schema, value), value).toBe(true);
    expect(validate(schema, "something_else")).toBe(false);
    expect(validate(schema, values[0]!.toUpperCase())).toBe(false);
  });

  it.each(enumFields.map((c) => ({ ...c, label: `${c.schema}.${c.path.join(".")}` })))("$label takes only $enum values", ({ schema, path, enum: name }) => {
    const values = enumCases.find((c) => c.schema === name)!.values;
    for (const value of values) expect(validate(schema, withMember(sample(schema), path, value)), value).toBe(true);
    expect(validate(schema, withMember(sample(schema), path, "something_else"))).toBe(false);
  });

  it.each(constants)("$schema.object is always $value", ({ schema, value }) => {
    expect(validate(schema, withMember(sample(schema), ["object"], value))).toBe(true);
    expect(validate(schema, withMember(sample(schema), ["object"], "list"))).toBe(false);
  });
});

// ---------------------------------------------------------------------------------------------------------
// Nullability and required members
// ---------------------------------------------------------------------------------------------------------

const nullable: Record<string, string[][]> = {
  Brand: [["name"], ["website"], ["language"], ["country"], ["description"], ["archetype"], ["archetype", "rationale"]],
  BrandArchetype: [["rationale"]],
  IdeaBatch: [["error"], ["done_at"]],
  Source: [["url"], ["quote"]],
  ErrorEnvelope: [["error", "code"], ["error", "param"]],
  BadRequestError: [["error", "code"], ["error", "param"]],
  Feedback: [["reason"], ["comment"]],
  RankedDraft: [["id"]],
};
const notNullable: Record<string, string[][]> = {
  Brand: [["id"], ["object"], ["status"], ["offerings"], ["rules"], ["created_at"]],
  IdeaBatch: [["id"], ["status"], ["model"], ["brand"], ["data"], ["left_out"], ["created_at"]],
  Idea: [["id"], ["rank"], ["title"], ["hook"], ["angle"], ["why_now"], ["format"], ["sources"], ["outline"], ["prompt"]],
  Source: [["type"], ["title"]],
  ErrorEnvelope: [["error", "type"], ["error", "message"]],
  BrandNotReadyError: [["error", "code"], ["error", "param"]],
};
const required: Record<string, string[]> = {
  Brand: ["id", "object", "status", "name", "website", "language", "country", "description", "offerings", "archetype", "rules", "created_at"],
  BrandArchetype: ["value", "rationale"],
  IdeaBatch: ["id", "object", "status", "model", "brand", "data", "left_out", "error", "created_at", "done_at"],
  Idea: ["id", "object", "rank", "title", "hook", "angle", "why_now", "format", "sources", "outline", "prompt"],
  Source: ["type", "title", "url", "quote"],
  Outline: ["opening", "key_points", "call_to_action", "visual"],
  CreateIdeasRequest: ["brand"],
  CreatePredictionRequest: ["brand", "drafts"],
  Draft: ["text"],
  Feedback: ["id", "object", "idea", "brand", "outcome", "reason", "comment", "created_at"],
  RejectedFeedbackRequest: ["idea", "outcome"],
  Prediction: ["object", "model", "brand", "data", "created_at"],
  RankedDraft: ["index", "id", "rank", "score"],
  ErrorEnvelope: ["error"],
};
const errorBodies = ["ErrorEnvelope", "BadRequestError", "UnauthorizedError", "ForbiddenError", "NotFoundError", "BrandNotReadyError", "RateLimitError", "ServerError"];
const optionalOnly: Record<string, string[]> = {
  Rules: ["always", "never"],
  UpdateBrandRequest: ["website", "name", "description", "language", "country", "archetype", "rules"],
  CreateIdeasRequest: ["count", "formats", "focus", "date"],
};

describe("nullability and required members", () => {
  const nullCases = Object.entries(nullable).flatMap(([schema, paths]) => paths.map((path) => ({ schema, path, label: `${schema}.${path.join(".")}` })));
  it.each(nullCases)("$label accepts null", ({ schema, path }) => {
    const instance = withMember(sample(schema), path, null);
    expect(validate(schema, instance), errorsOf(schema, instance)).toBe(true);
  });

  const notNullCases = Object.entries(notNullable).flatMap(([schema, paths]) => paths.map((path) => ({ schema, path, label: `${schema}.${path.join(".")}` })));
  it.each(notNullCases)("$label refuses null", ({ schema, path }) => {
    expect(validate(schema, withMember(sample(schema), path, null))).toBe(false);
  });

  const requiredCases = [
    ...Object.entries(required).flatMap(([schema, members]) => members.map((member) => ({ schema, path: [member] }))),
    ...errorBodies.flatMap((schema) => ["type", "code", "message", "param"].map((m) => ({ schema, path: ["error", m] }))),
  ].map((c) => ({ ...c, label: `${c.schema}.${c.path.join(".")}` }));
  it.each(requiredCases)("$label is required", ({ schema, path }) => {
    expect(validate(schema, withMember(sample(schema), path, REMOVE))).toBe(false);
  });

  const optionalCases = Object.entries(optionalOnly).flatMap(([schema, members]) => members.map((member) => ({ schema, member })));
  it.each(optionalCases.map((c) => ({ ...c, label: `${c.schema}.${c.member}` })))("$label is optional", ({ schema, member }) => {
    expect(validate(schema, withMember(sample(schema), [member], REMOVE))).toBe(true);
  });

  it("count defaults to 3", () => {
    expect(schemas.CreateIdeasRequest.properties.count.default).toBe(3);
  });
});

// ---------------------------------------------------------------------------------------------------------
// Create brand: website, or name and description
// ---------------------------------------------------------------------------------------------------------

const site = "https://www.example.ie";
const eitherOr: { body: Obj; valid: boolean }[] = [
  { body: { website: site }, valid: true },
  { body: { name: "Harbour Loaf", description: "A bakery." }, valid: true },
  { body: { website: site, name: "Harbour Loaf", description: "A bakery." }, valid: true },
  { body: { website: site, country: "IE", archetype: "sage", rules: { never: ["Use emojis."] } }, valid: true },
  { body: {}, valid: false },
  { body: { name: "Harbour Loaf" }, valid: false },
  { body: { description: "A bakery." }, valid: false },
  { body: { name: "Harbour Loaf", country: "IE", language: "en" }, valid: false },
  { body: { website: "http://www.example.ie" }, valid: false },
  { body: { website: "http://www.example.ie", name: "Harbour Loaf" }, valid: false },
  { body: { name: "Harbour Loaf", description: text(2001) }, valid: false },
  { body: { website: site, archetype: "wizard" }, valid: false },
  { body: { website: site, language: "english" }, valid: false },
];

describe("create brand: website, or name and description", () => {
  it("is expressed as anyOf of the two request shapes", () => {
    expect(schemas.CreateBrandRequest.anyOf.map(refName).sort()).toEqual([
      "CreateBrandFromNameAndDescription",
      "CreateBrandFromWebsite",
    ]);
    expect(refName(openapi.paths["/v1/brands"]!.post.requestBody.content["application/json"].schema)).toBe("CreateBrandRequest");
  });

  it.each(eitherOr.map((c) => ({ ...c, label: JSON.stringify(c.body).slice(0, 80) })))("$label → valid: $valid", ({ body, valid }) => {
    expect(validate("CreateBrandRequest", body), errorsOf("CreateBrandRequest", body)).toBe(valid);
  });
});

// ---------------------------------------------------------------------------------------------------------
// Errors: one body per status with its type, on every operation
// ---------------------------------------------------------------------------------------------------------

const statusBodies: Record<string, { schema: string; type: string }> = {
  "400": { schema: "BadRequestError", type: "invalid_request" },
  "401": { schema: "UnauthorizedError", type: "authentication_error" },
  "403": { schema: "ForbiddenError", type: "permission_error" },
  "404": { schema: "NotFoundError", type: "not_found" },
  "409": { schema: "BrandNotReadyError", type: "invalid_request" },
  "429": { schema: "RateLimitError", type: "rate_limit" },
  "500": { schema: "ServerError", type: "server_error" },
};
// Which statuses each operation answers (see the reasoning in each operation's description).
const expectedStatuses: Record<string, string[]> = {
  "post /v1/brands": ["201", "400", "401", "429", "500"],
  "get /v1/brands/{brand_id}": ["200", "400", "401", "403", "404", "429", "500"],
  "patch /v1/brands/{brand_id}": ["200", "400", "401", "403", "404", "429", "500"],
  "post /v1/ideas": ["202", "400", "401", "403", "404", "409", "429", "500"],
  "get /v1/ideas/{batch_id}": ["200", "400", "401", "403", "404", "429", "500"],
  "post /v1/feedback": ["201", "400", "401", "403", "404", "429", "500"],
  "post /v1/predictions": ["200", "400", "401", "403", "404", "409", "429", "500"],
};

describe("errors", () => {
  it("covers the seven endpoints, each with its statuses", () => {
    const actual = Object.fromEntries(
      operations.map(({ path, method, op }) => [`${method} ${path}`, Object.keys(op.responses).sort()]),
    );
    expect(actual).toEqual(expectedStatuses);
  });

  const responseCases = operations.flatMap(({ path, method, op }) =>
    Object.entries<any>(op.responses)
      .filter(([status]) => Number(status) >= 400)
      .map(([status, response]) => ({ label: `${method} ${path} ${status}`, status, response })),
  );
  it.each(responseCases)("$label uses the body for its status", ({ status, response }) => {
    expect(refName(response.content["application/json"].schema)).toBe(statusBodies[status]!.schema);
    if (status === "429") expect(refName(response.headers["Retry-After"].schema)).toBe("RetryAfterSeconds");
  });

  it.each(Object.entries(statusBodies).map(([status, b]) => ({ status, ...b })))(
    "$status: $schema takes only type $type",
    ({ schema, type }) => {
      const body = sample(schema);
      expect((body.error as Obj).type).toBe(type);
      const others = enumCases.find((c) => c.schema === "ErrorType")!.values.filter((t) => t !== type);
      for (const other of others) expect(validate(schema, withMember(body, ["error", "type"], other)), other).toBe(false);
    },
  );

  it("409 is brand_not_ready about param brand, in the schema and in every example", () => {
    const body = sample("BrandNotReadyError");
    expect(body.error).toMatchObject({ type: "invalid_request", code: "brand_not_ready", param: "brand" });
    expect(validate("BrandNotReadyError", withMember(body, ["error", "code"], "other_code"))).toBe(false);
    expect(validate("BrandNotReadyError", withMember(body, ["error", "param"], "brand_id"))).toBe(false);
    const examples = operations.flatMap(({ op }) =>
      Object.values<any>(op.responses["409"]?.content?.["application/json"]?.examples ?? {}).map((e) => e.value),
    );
    expect(examples.length).toBeGreaterThan(0);
    for (const example of examples)
      expect(example.error).toMatchObject({ type: "invalid_request", code: "brand_not_ready", param: "brand" });
  });
});

// ---------------------------------------------------------------------------------------------------------
// Contract marks
// ---------------------------------------------------------------------------------------------------------

describe("inferred marks", () => {
  it("every x-contract-source: inferred carries a one-line reason", () => {
    const marked: Fields[] = [];
    const walk = (node: unknown) => {
      if (Array.isArray(node)) return node.forEach(walk);
      if (!isFields(node)) return;
      if ("x-contract-source" in node) marked.push(node);
      Object.values(node).forEach(walk);
    };
    walk(openapi);
    expect(marked.length).toBeGreaterThan(0);
    for (const node of marked) {
      expect(node["x-contract-source"]).toBe("inferred");
      expect(node["x-contract-reason"]).toMatch(/^[^\n]{10,}$/);
    }
  });

  it("documented-only operation POST /v1/ideas is unmarked; feedback and predictions are marked", () => {
    expect(openapi.paths["/v1/ideas"]!.post["x-contract-source"]).toBeUndefined();
    for (const name of ["Feedback", "CreateFeedbackRequest", "Prediction", "CreatePredictionRequest"])
      expect(schemas[name]["x-contract-source"], name).toBe("inferred");
    expect(openapi.paths["/v1/predictions"]!.post["x-contract-status"]).toBe("in_development");
  });
});

describe("what third-party tools read", () => {
  const doc = openapi;
  it("the security scheme is http bearer, spelled as registered (lowercase) and required everywhere", () => {
    const schemes = Object.entries(doc.components.securitySchemes);
    expect(schemes.map(([, s]) => [s.type, s.scheme])).toEqual([["http", "bearer"]]);
    expect(doc.security).toEqual([{ [schemes[0]![0]]: [] }]);
  });

  const pathParams = Object.entries(openapi.paths).flatMap(([route, item]) =>
    Object.entries(item).flatMap(([method, op]) =>
      ((op?.parameters ?? []) as any[]).filter((p) => p.in === "path").map((p) => ({ label: `${method.toUpperCase()} ${route} ${p.name}`, p })),
    ),
  );
  it("has path parameters to check", () => expect(pathParams.length).toBeGreaterThanOrEqual(3));
  it.each(pathParams)("$label carries an example its schema accepts", ({ p }) => {
    expect(typeof p.example).toBe("string");
    expect(validate(String(p.schema.$ref).split("/").pop()!, p.example)).toBe(true);
  });

  it("info names a contact", () => {
    expect(doc.info.contact?.name).toBeTruthy();
    expect(doc.info.contact?.url ?? doc.info.contact?.email).toBeTruthy();
  });
});

describe("country and language codes", () => {
  it.each(["NO", "US", "GB", "IE"])("CountryCode accepts the alpha-2 code %s", (code) => expect(validate("CountryCode", code)).toBe(true));
  it.each(["no", "NOR", "Norway", "578", "N0", ""])("CountryCode refuses %j (not ISO 3166-1 alpha-2)", (code) => expect(validate("CountryCode", code)).toBe(false));
  it.each(["en", "nb"])("LanguageCode accepts %s", (code) => expect(validate("LanguageCode", code)).toBe(true));
  it.each(["EN", "eng", "en-GB", ""])("LanguageCode refuses %j (not ISO 639-1)", (code) => expect(validate("LanguageCode", code)).toBe(false));
  it("a brand's country and a create request's country use CountryCode", () => {
    expect(JSON.stringify(schemas.Brand.properties.country)).toContain("#/components/schemas/CountryCode");
    expect(JSON.stringify(schemas.CreateBrandFromWebsite.properties.country)).toContain("#/components/schemas/CountryCode");
  });
});

describe("feedback reason only with a rejection, in the schema", () => {
  it.each(["posted", "saved"])("outcome %s refuses a reason and takes none or null", (outcome) => {
    const name = `${outcome[0]!.toUpperCase()}${outcome.slice(1)}FeedbackRequest`;
    expect(validate(name, { idea: "idea_9Tn4Vb2Ke", outcome, reason: "wrong_language" })).toBe(false);
    expect(validate(name, { idea: "idea_9Tn4Vb2Ke", outcome })).toBe(true);
    expect(validate(name, { idea: "idea_9Tn4Vb2Ke", outcome, reason: null })).toBe(true);
  });
  it("outcome rejected takes the reason wrong_language", () => {
    expect(validate("RejectedFeedbackRequest", { idea: "idea_9Tn4Vb2Ke", outcome: "rejected", reason: "wrong_language" })).toBe(true);
  });
});

describe("constraints the seed does not state are marked inferred", () => {
  const at = (schema: string, prop: string) => schemas[schema].properties[prop];
  it.each([
    ["CreateBrandFromWebsite", "name"],
    ["CreateBrandFromWebsite", "description"],
    ["CreateBrandFromNameAndDescription", "name"],
    ["CreateBrandFromNameAndDescription", "description"],
    ["UpdateBrandRequest", "name"],
    ["UpdateBrandRequest", "description"],
    ["CreateIdeasRequest", "focus"],
    ["CreateIdeasRequest", "formats"],
    ["CreateIdeasRequest", "date"],
  ])("%s.%s", (schema, prop) => {
    expect(at(schema, prop)["x-contract-source"]).toBe("inferred");
    expect(at(schema, prop)["x-contract-reason"]).toMatch(/our choice/);
    if (prop !== "formats" && prop !== "date") expect(at(schema, prop).pattern, "not blank").toBe("\\S");
  });
});
