// Assertions shared by the checks, each failure attributed to the rule it breaks: the status, JSON, the schema of
// the operation and status, the `object` kinds and id prefixes throughout a body, complete fields, ISO times,
// how fast the call answered, and the error envelope with its type, param, code and Retry-After.
import { describeResponse, type CheckContext } from "./check.js";
import {
  errorTypeForStatus,
  isIsoDateTime,
  kinds,
  normalizeParam,
  operations,
  requiredOf,
  validate,
  type Kind,
  type OperationId,
} from "./contract.js";
import type { ApiResponse } from "./http.js";

export const R = {
  json: "json-content-type",
  kind: "object-field-names-kind",
  prefix: "id-prefixes",
  iso: "iso-8601-times",
  schema: "response-matches-schema",
  brandFields: "brand-fields-complete",
  batchFields: "batch-fields-complete",
  model: "batch-model-named",
  speed: "answers-within-seconds",
  envelope: "error-envelope",
  errorType: "error-type-per-status",
  field400: "invalid-field-400",
  rateLimit: "rate-limit-429",
} as const;

const list = (rules: string | readonly string[]) => (typeof rules === "string" ? [rules] : [...rules]);

/** Checks the status; on a mismatch records a failure for `rules` and returns false. */
export function expectStatus(ctx: CheckContext, res: ApiResponse, status: number | readonly number[], rules: string | readonly string[]): boolean {
  const ok = typeof status === "number" ? res.status === status : status.includes(res.status);
  return ctx.expect(ok, list(rules), `expected ${typeof status === "number" ? status : status.join(" or ")}: ${describeResponse(res)}`);
}

export function expectJson(ctx: CheckContext, res: ApiResponse): boolean {
  const type = res.contentType ?? "";
  const ok = /^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(type) && res.body !== undefined;
  return ctx.expect(ok, R.json, `${res.method} ${res.path} → ${res.status}: expected a JSON body with Content-Type application/json, got ${type || "no Content-Type"}${res.body === undefined ? " and a body that is not JSON" : ""}`);
}

export function expectFast(ctx: CheckContext, res: ApiResponse): void {
  const limit = ctx.target.timing.answerWithinMs;
  ctx.expect(res.ms <= limit, R.speed, `${res.method} ${res.path} took ${Math.round(res.ms)} ms (limit ${limit} ms)`);
}

/** `object` and id prefix of a body of a kind, and of the ideas inside a batch; complete fields; ISO times. */
export function expectKind(ctx: CheckContext, body: any, kind: Kind, where: string): void {
  if (!body || typeof body !== "object") {
    ctx.expect(false, R.kind, `${where}: expected a ${kinds[kind].object} object, got ${JSON.stringify(body)}`);
    return;
  }
  const k = kinds[kind];
  ctx.expect(body.object === k.object, R.kind, `${where}: object is ${JSON.stringify(body.object)}, expected "${k.object}"`);
  if (k.prefix)
    ctx.expect(
      typeof body.id === "string" && body.id.startsWith(k.prefix) && body.id.length > k.prefix.length,
      R.prefix,
      `${where}: id ${JSON.stringify(body.id)} does not start with ${k.prefix}`,
    );
  const refPrefix = (field: string, prefix: string) => {
    if (field in body && body[field] !== null)
      ctx.expect(typeof body[field] === "string" && body[field].startsWith(prefix), R.prefix, `${where}: ${field} ${JSON.stringify(body[field])} does not start with ${prefix}`);
  };
  if (kind === "batch" || kind === "feedback" || kind === "prediction") refPrefix("brand", "brand_");
  if (kind === "feedback") refPrefix("idea", "idea_");
  const missing = requiredOf(k.schema).filter((f) => !(f in body));
  if (kind === "brand") ctx.expect(missing.length === 0, R.brandFields, `${where}: the brand lacks ${missing.join(", ")}`);
  if (kind === "batch") {
    ctx.expect(missing.length === 0, R.batchFields, `${where}: the batch lacks ${missing.join(", ")}`);
    ctx.expect(typeof body.model === "string" && body.model.trim() !== "", R.model, `${where}: model is ${JSON.stringify(body.model)}, expected the name of the model`);
    if (Array.isArray(body.data)) body.data.forEach((idea: unknown, i: number) => expectKind(ctx, idea, "idea", `${where} data[${i}]`));
  }
  for (const field of ["created_at", "done_at"])
    if (field in body && body[field] !== null)
      ctx.expect(isIsoDateTime(body[field]), R.iso, `${where}: ${field} ${JSON.stringify(body[field])} is not an ISO 8601 date-time`);
}

const kindOfSchema: Record<string, Kind> = { Brand: "brand", IdeaBatch: "batch", Feedback: "feedback", Prediction: "prediction" };

/**
 * A success answer of an operation: the status (failures go to `statusRules`), JSON, speed, kinds and prefixes,
 * and the schema of that operation and status. Returns false when the status was wrong (nothing else checked).
 */
export function expectSuccess(
  ctx: CheckContext,
  res: ApiResponse,
  op: OperationId,
  status: number,
  statusRules: string | readonly string[],
): boolean {
  if (!expectStatus(ctx, res, status, statusRules)) return false;
  expectFast(ctx, res);
  if (!expectJson(ctx, res)) return true;
  const schema = operations[op].responses[status];
  if (!schema) {
    ctx.expect(false, R.schema, `${res.method} ${res.path}: the contract lists no ${status} answer for ${op}`);
    return true;
  }
  const kind = kindOfSchema[schema];
  if (kind) expectKind(ctx, res.body, kind, `${res.method} ${res.path}`);
  const problems = validate(schema, res.body);
  ctx.expect(problems.length === 0, R.schema, `${res.method} ${res.path} → ${status} is not a valid ${schema}: ${problems.join("; ")}`);
  return true;
}

export interface ErrorExpectation {
  /** Rules a wrong status breaks. */
  statusRules: string | readonly string[];
  /** Expected `param` (any of several); undefined = not checked. */
  param?: string | null | readonly string[];
  /** Rules a wrong `param` breaks (default invalid-field-400). */
  paramRules?: string | readonly string[];
  code?: string;
  codeRules?: string | readonly string[];
}

/** An error answer: status, JSON, the envelope, the type for the status, the schema, param, code, Retry-After. */
export function expectError(ctx: CheckContext, res: ApiResponse, op: OperationId, status: number, e: ErrorExpectation): boolean {
  if (!expectStatus(ctx, res, status, e.statusRules)) return false;
  expectFast(ctx, res);
  if (!expectJson(ctx, res)) return true;
  const where = `${res.method} ${res.path} → ${status}`;
  const envelope = validate("ErrorEnvelope", res.body);
  ctx.expect(envelope.length === 0, R.envelope, `${where}: not the error envelope {error:{type,code,message,param}}: ${envelope.join("; ")}`);
  const error = res.body?.error;
  const type = error?.type;
  ctx.expect(type === errorTypeForStatus[status], R.errorType, `${where}: error.type is ${JSON.stringify(type)}, expected "${errorTypeForStatus[status]}"`);
  const schema = operations[op].responses[status];
  if (schema) {
    const problems = validate(schema, res.body);
    ctx.expect(problems.length === 0, R.schema, `${where} is not a valid ${schema}: ${problems.join("; ")}`);
  } else ctx.expect(false, R.schema, `${where}: the contract lists no ${status} answer for ${op}`);
  if (e.param !== undefined) {
    const want = e.param === null ? [null] : typeof e.param === "string" ? [e.param] : [...e.param];
    const got = typeof error?.param === "string" ? normalizeParam(error.param) : (error?.param ?? null);
    ctx.expect(
      want.some((w) => (w === null ? got === null : got === normalizeParam(w))),
      e.paramRules ?? R.field400,
      `${where}: error.param is ${JSON.stringify(error?.param)}, expected ${want.map((w) => JSON.stringify(w)).join(" or ")} (${error?.message ?? ""})`,
    );
  }
  if (e.code !== undefined)
    ctx.expect(error?.code === e.code, e.codeRules ?? e.statusRules, `${where}: error.code is ${JSON.stringify(error?.code)}, expected "${e.code}"`);
  if (status === 429) {
    const retry = res.header("retry-after");
    ctx.expect(retry !== undefined && /^\s*[1-9]\d*\s*$/.test(retry), R.rateLimit, `${where}: Retry-After is ${retry === undefined ? "missing" : JSON.stringify(retry)}, expected whole seconds ≥ 1`);
  }
  return true;
}
