// Assertions shared by the checks, each failure attributed to the rule (family member) it breaks: the status,
// JSON, snake_case names, the schema of the operation and status split per field (a missing field breaks
// `<kind>-fields-complete/<field>`, a wrong one `<kind>-field-types/<field>`), the `object` kinds and id
// prefixes throughout a body, ISO times, how fast the call answered, and the error envelope with its type,
// param, code and Retry-After. Every member a body lets us judge gets an expectation, passing or not, so the
// ledger sees which members ran.
import type { FamilyId, RuleId } from "../../../generated/rules.js";
import type { ErrorObject } from "ajv";
import { namesBearerChallenge } from "../../core/challenge.js";
import { errorTypeForStatus, isIsoDateTime, kinds, normalizeParam, openapi, operations, validators, type Kind, type OperationId } from "./contract.js";
import { describeResponse, type ApiResponse } from "../../core/http.js";
import { expectThat, ruleList as list, type Judge, type RuleRef } from "../../core/judge.js";
import { isIso3166Form } from "./kept.js";
import { seedImpliedByContract, seedValidator } from "./seed-schema.js";
import { judgedAtReply } from "./places.js";

export const R = {
  json: "json-content-type",
  snake: "snake-case-field-names",
  schema: "response-matches-schema",
  model: "batch-model-named",
  speed: "answers-within-seconds",
  envelope: "error-envelope",
  retryAfter: "rate-limit-retry-after",
  bearerChallenge: "auth-401-bearer-challenge",
  inferredForms: "inferred-output-forms",
} as const satisfies Record<string, RuleId>;

/** The rule families that judge each object schema per field: a missing field, and a field of the wrong type. */
const fieldFamilies: Readonly<Record<string, { present: FamilyId; type: FamilyId }>> = {
  Brand: { present: "brand-fields-complete", type: "brand-field-types" },
  IdeaBatch: { present: "batch-fields-complete", type: "batch-field-types" },
  Idea: { present: "idea-fields-complete", type: "idea-field-types" },
  Source: { present: "source-fields-complete", type: "source-field-types" },
  Outline: { present: "outline-fields-complete", type: "outline-fields-complete" },
  Feedback: { present: "feedback-fields-complete", type: "feedback-fields-complete" },
  Prediction: { present: "prediction-fields-complete", type: "prediction-fields-complete" },
  RankedDraft: { present: "ranked-draft-fields-complete", type: "ranked-draft-fields-complete" },
  ErrorDetail: { present: R.envelope, type: R.envelope },
};

/** Objects inside objects: schema → field → the schema of the value (or of each item of a list). */
const nested: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  IdeaBatch: { data: "Idea" },
  Idea: { sources: "Source", outline: "Outline" },
  Prediction: { data: "RankedDraft" },
  ErrorEnvelope: { error: "ErrorDetail" },
};

const propertiesOf = (schema: string): string[] => Object.keys(openapi.components.schemas[schema]?.properties ?? {});
/** Error schemas (BadRequestError, …) wrap ErrorDetail in `error` like ErrorEnvelope. */
const shapeOf = (schema: string) => (fieldFamilies[schema] || nested[schema] ? schema : "error" in (openapi.components.schemas[schema]?.properties ?? {}) ? "ErrorEnvelope" : schema);

/** The id schema named by each kind's prefix (the id-prefixes family members). */
const idSchemaOf: Partial<Record<Kind, string>> = { brand: "BrandId", batch: "BatchId", idea: "IdeaId", feedback: "FeedbackId" };
/** Kinds whose `object` value the seed gives; the others are our design. */
const seedKinds = new Set(["Brand", "IdeaBatch", "Idea"]);
export const kindRule = (schema: string): RuleId => `${seedKinds.has(schema) ? "object-field-names-kind" : "object-field-inferred-kinds"}/${schema}`;
/** Every object names its kind (Conventions 4), also where the value is our design: the member itself is seed. */
const presentRule = (schema: string): RuleId => `object-field-present/${schema}`;
export const prefixRule = (idSchema: string): RuleId => `id-prefixes/${idSchema}`;

/** What judging a body's fields needs: recording cases. */
type Cases = Pick<Judge, "expect">;

const show = (v: unknown) => JSON.stringify(v);

/**
 * What of an answer a judge has judged already: its head (speed, JSON, snake_case; the 401 challenge, Retry-After)
 * and its body (kinds, prefixes, times, the schema; `ideas` when the ideas inside were judged too). Every reply is
 * judged where it comes back (replies.ts) and again by the check that looks at it for its own rules: the second
 * time leaves out what the first judged, so one problem of one reply is one failure of the check, not two.
 */
type Part = "head" | "body" | "ideas";
const judgedParts = new WeakMap<ApiResponse, WeakMap<object, Set<Part>>>();
/** Marks `part` of `res` judged by `judge`; false when it already was. */
function firstTime(res: ApiResponse, judge: object, part: Part): boolean {
  let byJudge = judgedParts.get(res);
  if (!byJudge) judgedParts.set(res, (byJudge = new WeakMap()));
  let parts = byJudge.get(judge);
  if (!parts) byJudge.set(judge, (parts = new Set()));
  if (parts.has(part)) return false;
  parts.add(part);
  return true;
}
/** Marks the whole of `res` (head, body and the ideas in it) judged by `judge`: what the reply judge replayed into it. */
export function markJudged(res: ApiResponse, judge: object): void {
  for (const part of ["head", "body", "ideas"] as const) firstTime(res, judge, part);
}
/** Whether `judge` has judged the head of `res` already. */
export const headJudged = (res: ApiResponse, judge: object): boolean => judgedParts.get(res)?.get(judge)?.has("head") === true;
/** Whether the body (with the ideas, when `depth` asks for them) still needs judging by `judge`; marks it judged. */
function bodyToJudge(res: ApiResponse, judge: object, depth: Depth): boolean {
  const seen = judgedParts.get(res)?.get(judge);
  if (seen?.has("ideas") || (seen?.has("body") && !depth.ideas)) return false;
  firstTime(res, judge, depth.ideas ? "ideas" : "body");
  return true;
}

/** Checks the status; on a mismatch records a failure for `rules` and returns false. */
export function expectStatus(ctx: Judge, res: ApiResponse, status: number | readonly number[], rules: RuleRef): boolean {
  return judgedAtReply(res, () => expectStatusHere(ctx, res, status, rules));
}

function expectStatusHere(ctx: Judge, res: ApiResponse, status: number | readonly number[], rules: RuleRef): boolean {
  const ok = typeof status === "number" ? res.status === status : status.includes(res.status);
  // The message is built only for a failure (it serialises the body; the proxy checks every exchange).
  return ctx.expect(ok, list(rules), ok ? "" : `expected ${typeof status === "number" ? status : status.join(" or ")}: ${describeResponse(res)}`);
}

const isJson = (res: ApiResponse) => /^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(res.contentType ?? "") && res.body !== undefined;

export function expectJson(ctx: Judge, res: ApiResponse): boolean {
  return expectThat(ctx, isJson(res), R.json, () => `${res.method} ${res.path} → ${res.status}: expected a JSON body with Content-Type application/json, got ${res.contentType || "no Content-Type"}${res.body === undefined ? " and a body that is not JSON" : ""}`);
}

/**
 * The answer came within the seconds the contract allows. A rule about real response times is judged against
 * real targets; the embedded reference shares the suite's host, so there a slow answer says how busy the host
 * is, not how fast the reference is: it is only a note.
 */
export function expectFast(ctx: Judge, res: ApiResponse): void {
  const limit = ctx.speed.withinMs;
  const took = () => `${res.method} ${res.path} took ${Math.round(res.ms)} ms (limit ${limit} ms)`;
  if (ctx.speed.judged) expectThat(ctx, res.ms <= limit, R.speed, took);
  else if (ctx.expect(true, R.speed, "") && res.ms > limit) ctx.note(`${took()} on this host: not judged against the embedded reference, which shares the suite's host (a busy host, not a slow reference)`);
}

const snake = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;
/** Whether every field name in a body, at any depth, is snake_case (nearly every answer: no paths made). */
function allSnake(value: unknown): boolean {
  if (!value || typeof value !== "object") return true;
  if (Array.isArray(value)) return value.every(allSnake);
  for (const k of Object.keys(value)) if (!snake.test(k) || !allSnake((value as Record<string, unknown>)[k])) return false;
  return true;
}
/** Every field name in a body, at any depth, that is not snake_case. */
function notSnake(value: unknown, at = ""): string[] {
  if (at === "" && allSnake(value)) return [];
  if (Array.isArray(value)) return value.flatMap((v, i) => notSnake(v, `${at}[${i}]`));
  if (!value || typeof value !== "object") return [];
  return Object.entries(value).flatMap(([k, v]) => [...(snake.test(k) ? [] : [`${at}.${k}`]), ...notSnake(v, `${at}.${k}`)]);
}

/** Which object schemas a body of `schema` holds instances of (so their members are judged only when there is something to judge). */
function seenSchemas(schema: string, body: unknown, into: (inner: string) => boolean): Set<string> {
  const seen = new Set<string>();
  const visit = (s: string, value: unknown) => {
    if (!value || typeof value !== "object" || Array.isArray(value)) return;
    seen.add(s);
    const inside = nested[s];
    if (!inside) return;
    for (const field in inside) {
      const inner = inside[field]!;
      if (!into(inner)) continue;
      const v: unknown = (value as Record<string, unknown>)[field];
      if (Array.isArray(v)) for (const item of v) visit(inner, item);
      else visit(inner, v);
    }
  };
  visit(shapeOf(schema), body);
  return seen;
}

type Validate = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };

/**
 * Validates a body against a schema and files each problem under the rule of the field it is about (following
 * `nested` into ideas, sources, outlines, ranked drafts and error details); what no field explains goes to
 * response-matches-schema. Returns problems by rule id (empty when the body is valid).
 */
function problemsByRule(schema: string, body: unknown, into: (inner: string) => boolean, validate: Validate | undefined): Map<RuleId, string[]> {
  const byRule = new Map<RuleId, string[]>();
  const file = (rule: RuleId, text: string) => byRule.set(rule, [...(byRule.get(rule) ?? []), text]);
  const root = shapeOf(schema);
  if (!validate) {
    file(R.schema, `the contract has no schema ${schema}`);
    return byRule;
  }
  if (validate(body)) return byRule;
  for (const e of validate.errors ?? []) {
    if (["anyOf", "oneOf", "allOf", "if"].includes(e.keyword)) continue;
    const segments = e.instancePath.split("/").slice(1);
    const missing = e.keyword === "required" ? String(e.params.missingProperty) : undefined;
    if (missing !== undefined) segments.push(missing);
    const text = `${e.instancePath || "(body)"} ${e.message ?? "is not valid"}${e.keyword === "enum" ? ` (${show(e.params.allowedValues)})` : ""}`;
    let s = root;
    let i = 0;
    let rule: RuleId = R.schema;
    for (;;) {
      const field = segments[i];
      if (field === undefined) break;
      const inner = nested[s]?.[field] !== undefined && into(nested[s]![field]!) ? nested[s]![field] : undefined;
      let next = i + 1;
      if (inner && /^\d+$/.test(segments[next] ?? "")) next++;
      if (inner && segments[next] !== undefined) {
        s = inner;
        i = next;
        continue;
      }
      const family = fieldFamilies[s];
      if (family) rule = `${missing !== undefined && next >= segments.length ? family.present : family.type}/${field}`;
      break;
    }
    file(rule, text);
  }
  return byRule;
}

/** What an answer's checks judge inside it: the ideas of a batch only where a check says it looks at them. */
export interface Depth {
  /** Judge each idea (and its sources and outline) field by field; otherwise a bad idea is a bad batch `data`. */
  ideas?: boolean;
}

/**
 * The body against the schema of its operation and status, one expectation per field of every object schema
 * the body holds (`Brand`, and for a batch with ideas also `Idea`, `Source`, `Outline`), plus one for the rest.
 */
export function expectSchema(ctx: Cases, schema: string, body: unknown, where: string, depth: Depth = {}): void {
  const into = (inner: string) => inner !== "Idea" || depth.ideas === true;
  // The seed rules are judged without the constraints we inferred; what only the full contract refuses is ours.
  // A body the full contract takes is validated once: the seed schema then takes it too (seedImpliedByContract).
  const full = problemsByRule(schema, body, into, validators[schema]);
  const byRule = full.size === 0 && seedImpliedByContract(schema) ? full : problemsByRule(schema, body, into, seedValidator(schema));
  const ours = [...full].filter(([rule]) => !byRule.has(rule)).flatMap(([, p]) => p);
  expectThat(ctx, ours.length === 0, R.inferredForms, () => `${where} has values in forms the contract does not take: ${ours.slice(0, 3).join("; ")}`);
  for (const s of seenSchemas(schema, body, into))
    for (const rule of fieldRulesOf(s)) expectThat(ctx, !byRule.has(rule), rule, () => `${where} is not a valid ${schema}: ${byRule.get(rule)!.slice(0, 3).join("; ")}`);
  const rest = [...byRule].filter(([rule]) => !rule.includes("/")).flatMap(([, p]) => p);
  expectThat(ctx, rest.length === 0, R.schema, () => `${where} is not a valid ${schema}: ${rest.slice(0, 5).join("; ")}`);
}

const fieldRules = new Map<string, readonly RuleId[]>();
/** The member rules judging each field of an object schema (present, then type), in field order; [] for a schema without a family. Made once per schema. */
function fieldRulesOf(schema: string): readonly RuleId[] {
  let rules = fieldRules.get(schema);
  if (!rules) {
    const family = fieldFamilies[schema];
    rules = family ? propertiesOf(schema).flatMap((field) => [...new Set<RuleId>([`${family.present}/${field}`, `${family.type}/${field}`])]) : [];
    fieldRules.set(schema, rules);
  }
  return rules;
}

/** `object` and id prefix of a body of a kind, and of the ideas inside a batch; references to brands and ideas; ISO times. */
export function expectKind(ctx: Cases, body: any, kind: Kind, where: string, depth: Depth = {}): void {
  const k = kinds[kind];
  if (!body || typeof body !== "object") {
    ctx.expect(false, kindRule(k.schema), `${where}: expected a ${k.object} object, got ${show(body)}`);
    return;
  }
  if (!seedKinds.has(k.schema))
    expectThat(ctx, typeof body.object === "string" && body.object !== "", presentRule(k.schema), () => `${where}: no \`object\` member naming its kind (${show(body.object)})`);
  expectThat(ctx, body.object === k.object, kindRule(k.schema), () => `${where}: object is ${show(body.object)}, expected "${k.object}"`);
  // "ISO 3166-1 code" in any of its forms; the contract's alpha-2 is inferred-output-forms.
  if (kind === "brand" && "country" in body && body.country !== null)
    expectThat(ctx, isIso3166Form(body.country), "brand-field-types/country", () => `${where}: country ${show(body.country)} is not an ISO 3166-1 code`);
  const own = idSchemaOf[kind];
  if (own && k.prefix)
    expectThat(
      ctx,
      typeof body.id === "string" && body.id.startsWith(k.prefix) && body.id.length > k.prefix.length,
      prefixRule(own),
      () => `${where}: id ${show(body.id)} does not start with ${k.prefix}`,
    );
  const refPrefix = (field: string, prefix: string, idSchema: string) => {
    if (field in body && body[field] !== null)
      expectThat(ctx, typeof body[field] === "string" && body[field].startsWith(prefix), prefixRule(idSchema), () => `${where}: ${field} ${show(body[field])} does not start with ${prefix}`);
  };
  if (kind === "batch" || kind === "feedback" || kind === "prediction") refPrefix("brand", "brand_", "BrandId");
  if (kind === "feedback") refPrefix("idea", "idea_", "IdeaId");
  if (kind === "batch") {
    expectThat(ctx, typeof body.model === "string" && body.model.trim() !== "", R.model, () => `${where}: model is ${show(body.model)}, expected the name of the model`);
    if (depth.ideas && Array.isArray(body.data)) body.data.forEach((idea: unknown, i: number) => expectKind(ctx, idea, "idea", `${where} data[${i}]`));
  }
  // A null done_at (still thinking) is a passing case: the rule holds "whenever it is not null".
  for (const field of ["created_at", "done_at"])
    if (field in body)
      expectThat(
        ctx,
        isIsoDateTime(body[field]) || (field === "done_at" && body[field] === null),
        `iso-8601-times/${field}`,
        () => `${where}: ${field} ${show(body[field])} is not an ISO 8601 date-time`,
      );
}

const kindOfSchema: Record<string, Kind> = { Brand: "brand", IdeaBatch: "batch", Feedback: "feedback", Prediction: "prediction" };

/**
 * The success status the seed itself gives an operation: only `202 Accepted` for POST /v1/ideas ("Success status
 * codes other than 202 for POST /v1/ideas … not shown"). Elsewhere any 2xx satisfies the seed rules.
 */
const seedStatus: Partial<Record<OperationId, number>> = { createIdeas: 202 };
/** Operations whose answer body the seed does not show (PATCH's): everything in it is ours to shape. */
const bodyNotShown = new Set<OperationId>(["updateBrand"]);
/**
 * Operations the seed allows to answer with no body at all (PATCH's body not shown; "Body and response shape: not
 * shown" for feedback and predictions): an empty answer is no fault of a seed rule, only of the status rule we
 * inferred. A body they do send is still an object under the seed's conventions.
 */
const emptyAllowed = new Set<OperationId>(["updateBrand", "createFeedback", "createPrediction"]);

/** The rule each operation's exact success status belongs to (inferred but for POST /v1/ideas). */
const statusRuleOf: Readonly<Record<OperationId, string>> = {
  createBrand: "create-brand-201",
  getBrand: "get-brand-200",
  updateBrand: "update-brand-200",
  createIdeas: "ideas-accepted-202/status-202",
  getIdeaBatch: "get-batch-200",
  createFeedback: "create-feedback-201",
  createPrediction: "create-prediction-200",
};

/** The schema of an operation's success answer: the one for the status given, else the one it documents. */
function successSchema(op: OperationId, ...statuses: number[]): { status: number; schema: string } | undefined {
  for (const status of statuses) if (operations[op].responses[status]) return { status, schema: operations[op].responses[status]! };
  const documented = Object.entries(operations[op].responses).find(([status]) => Number(status) >= 200 && Number(status) < 300);
  return documented ? { status: Number(documented[0]), schema: documented[1] } : undefined;
}

/**
 * A success answer of an operation: the status, JSON, speed, snake_case, kinds and prefixes, and the schema of
 * the operation's success answer. Of `statusRules`, only the operation's own status rule (create-brand-201, …)
 * wants exactly `status`; every other rule (a limit, an echo) wants any success the seed allows (202 for POST
 * /v1/ideas, any 2xx elsewhere), so no verdict but the status rule's hinges on a status we inferred. Returns
 * false only when the answer is no success at all (nothing else checked).
 */
export function expectSuccess(
  ctx: Judge,
  res: ApiResponse,
  op: OperationId,
  status: number,
  statusRules: RuleRef,
  depth: Depth = {},
): boolean {
  return judgedAtReply(res, () => expectSuccessHere(ctx, res, op, status, statusRules, depth));
}

function expectSuccessHere(ctx: Judge, res: ApiResponse, op: OperationId, status: number, statusRules: RuleRef, depth: Depth): boolean {
  const rules = list(statusRules);
  const ours = rules.filter((r) => r === statusRuleOf[op]);
  const others = rules.filter((r) => r !== statusRuleOf[op]);
  const success = res.status >= 200 && res.status <= 299;
  if (ours.length) expectStatus(ctx, res, status, ours);
  // The seed's own status where it gives one (and the caller expects it: the proxy passes what it saw).
  const fixed = seedStatus[op] === status ? status : undefined;
  if (others.length) {
    const ok = fixed !== undefined ? res.status === fixed : success;
    // The message serialises the body: made only for a failure (the proxy judges every exchange).
    ctx.expect(ok, others, ok ? "" : `expected ${fixed ?? "a 2xx success"}: ${describeResponse(res)}`);
  }
  if (!success) return false;
  judgeSuccessBody(ctx, res, op, status, ours, depth);
  return true;
}

/**
 * What a success answer of `op` shows whatever was asked: speed, JSON, snake_case names, and the kinds, prefixes,
 * times and schema of its body. A body the seed does not show (PATCH) is judged only for its status rules `ours`.
 * Each part once per judge (firstTime): the reply judge and the check's own expectation do not count it twice.
 */
export function judgeSuccessBody(ctx: Judge, res: ApiResponse, op: OperationId, status: number, ours: readonly RuleId[], depth: Depth = {}): void {
  const head = firstTime(res, ctx, "head");
  if (head) expectFast(ctx, res);
  const where = `${res.method} ${res.path}`;
  if (emptyAllowed.has(op) && res.text.trim() === "") {
    if (ours.length) ctx.expect(false, ours, `${where} → ${res.status} answered with no body; the contract answers with the resource`);
    return;
  }
  if (head) {
    if (!expectJson(ctx, res)) return;
    const bad = notSnake(res.body);
    expectThat(ctx, bad.length === 0, R.snake, () => `${where}: field names that are not snake_case: ${bad.slice(0, 5).join(", ")}`);
  } else if (!isJson(res)) return;
  const answer = successSchema(op, res.status, status);
  if (!answer) {
    if (head) ctx.expect(false, R.schema, `${where}: the contract lists no success answer for ${op}`);
    return;
  }
  const kind = kindOfSchema[answer.schema];
  let judge: Cases = ctx;
  if (bodyNotShown.has(op)) {
    // A body the seed does not show is ours to shape: everything in it is a case of the status rule alone.
    if (!ours.length) return;
    judge = { expect: (ok, _rules, message) => ctx.expect(ok, ours, message) };
  } else if (!bodyToJudge(res, ctx, depth)) return;
  if (kind) expectKind(judge, res.body, kind, where, depth);
  expectSchema(judge, answer.schema, res.body, `${where} → ${res.status}`, depth);
}

export interface ErrorExpectation {
  /** Rules a wrong status breaks. */
  statusRules: RuleRef;
  /** Rules a wrong `type` breaks (default error-type-per-status/<status>). */
  typeRules?: RuleRef;
  /** Expected `param` (any of several); undefined = not checked. */
  param?: string | null | readonly string[];
  /** Rules a wrong `param` breaks (required when `param` is given). */
  paramRules?: RuleRef;
  code?: string;
  codeRules?: RuleRef;
}

/** The statuses whose error type has a rule of its own in error-type-per-status (the others' are part of their rule). */
const typedStatuses = new Set([400, 401, 404, 409]);

/** An error answer: status, JSON, the envelope, the type for the status, the schema, param, code, Retry-After. */
export function expectError(ctx: Judge, res: ApiResponse, op: OperationId, status: number, e: ErrorExpectation): boolean {
  return judgedAtReply(res, () => expectErrorHere(ctx, res, op, status, e));
}

function expectErrorHere(ctx: Judge, res: ApiResponse, op: OperationId, status: number, e: ErrorExpectation): boolean {
  if (!expectStatus(ctx, res, status, e.statusRules)) return false;
  judgeErrorBody(ctx, res, op);
  if (!isJson(res)) return true;
  const where = `${res.method} ${res.path} → ${status}`;
  const error = res.body?.error;
  // The type under the rule the caller names (403, 429, 500: their own rule); error-type-per-status is the body's.
  if (e.typeRules !== undefined || !typedStatuses.has(status))
    expectThat(ctx, error?.type === errorTypeForStatus[status], e.typeRules ?? e.statusRules, () => `${where}: error.type is ${show(error?.type)}, expected "${errorTypeForStatus[status]}"`);
  if (e.param !== undefined) {
    const want = e.param === null ? [null] : typeof e.param === "string" ? [e.param] : [...e.param];
    const got = typeof error?.param === "string" ? normalizeParam(error.param) : (error?.param ?? null);
    expectThat(
      ctx,
      want.some((w) => (w === null ? got === null : got === normalizeParam(w))),
      e.paramRules ?? e.statusRules,
      () => `${where}: error.param is ${show(error?.param)}, expected ${want.map((w) => show(w)).join(" or ")} (${error?.message ?? ""})`,
    );
  }
  if (e.code !== undefined)
    expectThat(ctx, error?.code === e.code, e.codeRules ?? e.statusRules, () => `${where}: error.code is ${show(error?.code)}, expected "${e.code}"`);
  return true;
}

/**
 * What an error answer of `op` shows whatever was asked: speed, JSON, snake_case names, the envelope against the
 * schema of its status (the general envelope for a status the operation does not list), the type the seed's table
 * gives the status, the 401's Bearer challenge and the 429's Retry-After. Once per judge (firstTime).
 */
export function judgeErrorBody(ctx: Judge, res: ApiResponse, op: OperationId): void {
  if (!firstTime(res, ctx, "head")) return;
  const status = res.status;
  expectFast(ctx, res);
  const where = `${res.method} ${res.path} → ${status}`;
  if (status === 401) {
    const challenge = res.header("www-authenticate");
    expectThat(ctx, namesBearerChallenge(challenge), R.bearerChallenge, () => `${where}: WWW-Authenticate is ${challenge === undefined ? "missing" : show(challenge)}, expected a Bearer challenge (RFC 6750)`);
  }
  if (status === 429) {
    const retry = res.header("retry-after");
    expectThat(ctx, retry !== undefined && /^\s*[1-9]\d*\s*$/.test(retry), R.retryAfter, () => `${where}: Retry-After is ${retry === undefined ? "missing" : show(retry)}, expected whole seconds ≥ 1`);
  }
  if (!expectJson(ctx, res)) return;
  const bad = notSnake(res.body);
  expectThat(ctx, bad.length === 0, R.snake, () => `${where}: field names that are not snake_case: ${bad.slice(0, 5).join(", ")}`);
  const error = res.body?.error;
  if (typedStatuses.has(status))
    expectThat(ctx, error?.type === errorTypeForStatus[status], `error-type-per-status/${status}`, () => `${where}: error.type is ${show(error?.type)}, expected "${errorTypeForStatus[status]}"`);
  const schema = operations[op].responses[status];
  if (!schema) ctx.expect(false, R.schema, `${where}: the contract lists no ${status} answer for ${op}`);
  // The envelope's members are judged even when the body is no envelope at all.
  if (!error || typeof error !== "object") for (const f of propertiesOf("ErrorDetail")) ctx.expect(false, `${R.envelope}/${f}`, `${where}: not the error envelope {error:{type,code,message,param}}: ${show(res.body).slice(0, 200)}`);
  else expectSchema(ctx, schema ?? "ErrorEnvelope", res.body, where);
}

/** The rules expectSuccess may name for an answer of `schema`, given which nested objects the check sees. */
export function answerRulesOf(schema: "Brand" | "IdeaBatch" | "Feedback" | "Prediction", opts: { ideas?: boolean } = {}): RuleId[] {
  const kind = kindOfSchema[schema]!;
  const families = (s: string) => [...new Set([fieldFamilies[s]!.present, fieldFamilies[s]!.type])];
  const out: RuleId[] = [R.json, R.speed, R.snake, R.schema, R.inferredForms, kindRule(schema), "iso-8601-times/created_at", ...families(schema)];
  if (!seedKinds.has(schema)) out.push(presentRule(schema));
  const own = idSchemaOf[kind];
  if (own) out.push(prefixRule(own));
  if (kind !== "brand") out.push(prefixRule("BrandId"));
  if (kind === "feedback") out.push(prefixRule("IdeaId"));
  if (kind === "prediction") out.push(...families("RankedDraft"));
  if (kind === "batch") {
    out.push(R.model);
    out.push("iso-8601-times/done_at");
    if (opts.ideas) out.push(kindRule("Idea"), prefixRule("IdeaId"), ...families("Idea"), ...families("Source"), ...families("Outline"));
  }
  return [...new Set(out)];
}

/** The rules expectError may name for an error answer of `status` (type checked by its own rule for 403/429/500). */
export function errorRulesOf(status: number): RuleId[] {
  const out: RuleId[] = [R.json, R.speed, R.snake, R.schema, R.inferredForms, R.envelope];
  if ([400, 401, 404, 409].includes(status)) out.push(`error-type-per-status/${status}`);
  if (status === 401) out.push(R.bearerChallenge);
  if (status === 429) out.push(R.retryAfter);
  return out;
}
