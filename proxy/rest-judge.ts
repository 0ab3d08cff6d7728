// Judges one REST exchange against the contract: the request against the operation's request schema (the
// generated validators: the same ones the mocks and the conformance suite use, so the three agree), the answer
// with the conformance suite's own assertions (conformance/suites/rest/expect.ts: status, JSON, schema, kinds, id prefixes,
// ISO times, the error envelope with its type per status and Retry-After), plus the rules one exchange shows
// and the lifecycle rules the remembered state shows (RestState).
import type { RuleId } from "../generated/rules.js";
import { createHash } from "node:crypto";
import type { ErrorObject } from "ajv";
import { openapi, operations, validators, type Operation, type OperationId } from "../conformance/suites/rest/contract.js";
import { matchOperation, type Matched } from "../conformance/suites/rest/routes.js";
import { expectError, expectSuccess } from "../conformance/suites/rest/expect.js";
import type { ApiResponse } from "../conformance/core/http.js";
import { documented } from "../conformance/suites/rest/kept.js";
import { answeredObject, memberOf, type Answered } from "../conformance/core/answered.js";
import type { Brand, CreateBrandRequest, CreateFeedbackRequest, CreateIdeasRequest, CreatePredictionRequest, ErrorEnvelope, Feedback, IdeaBatch, Prediction, UpdateBrandRequest } from "../generated/rest/types.js";
import { Findings } from "./findings.js";
import { headerOf } from "./headers.js";
import { againstInferredForm } from "./inferred-forms.js";
import type { BatchSeen, RestState } from "./rest-state.js";
import { restRules as R } from "./rules.js";
import type { Exchange, Verdict } from "./types.js";

export { matchOperation };

const parseJson = (text: string): unknown => {
  if (!text.length) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

const header = (h: Exchange["responseHeaders"], name: string) => headerOf(h, name.toLowerCase());

/** The exchange's answer in the shape the conformance assertions take. */
function apiResponse(ex: Exchange, body: unknown): ApiResponse {
  return {
    method: ex.method,
    path: ex.path,
    status: ex.status,
    headers: ex.responseHeaders,
    header: (name) => header(ex.responseHeaders, name),
    contentType: header(ex.responseHeaders, "content-type"),
    text: ex.responseText,
    body,
    ms: ex.serviceMs ?? ex.ms,
    waited429: 0,
  };
}

/** The rule a request-schema error breaks: the seed's limits by field, enums, the brand's two ways in. */
function ruleOfRequestError(op: OperationId, e: ErrorObject): RuleId {
  const path = e.instancePath;
  if (e.keyword === "enum") return path.startsWith("/formats") ? `${R.enumValues}/formats` : path === "/archetype" ? `${R.enumValues}/archetype` : `${R.field400}/wrong-value`;
  if (path === "/count") return e.keyword === "minimum" ? `${R.limitCount}/min` : e.keyword === "maximum" ? `${R.limitCount}/max` : `${R.field400}/wrong-type`;
  if (path === "/description" && e.keyword === "maxLength") return R.limitDescription;
  if (path === "/focus" && e.keyword === "maxLength") return R.limitFocus;
  const list = /^\/rules\/(always|never)$/.exec(path);
  if (list && e.keyword === "maxItems") return `${R.limitRules}/${list[1]}`;
  if (path === "/date") return R.limitDate;
  if (path === "/drafts" && e.keyword === "maxItems") return R.limitDrafts;
  if (path === "/website" && (e.keyword === "pattern" || e.keyword === "format")) return R.websiteHttps;
  if (op === "createBrand" && e.keyword === "required") return R.createNeedsSomething;
  return `${R.field400}/${e.keyword === "required" ? "missing" : e.keyword === "type" ? "wrong-type" : "wrong-value"}`;
}

/** A request body's problem with the rule it breaks; `inferred`: against a form only we chose (inferred-forms.ts) that no seed rule names. */
type Problem = { rule: RuleId; text: string; inferred?: boolean };

/**
 * The schema a request body is judged by: the operation's, or the branch its discriminator names (feedback by its
 * outcome), so that the other branches' mismatches are not read as the body's problems.
 */
function schemaFor(op: Operation, body: unknown): string | undefined {
  const name = op.requestSchema;
  const d = name === undefined ? undefined : openapi.components.schemas[name]?.discriminator;
  const chosen = d && body && typeof body === "object" ? (d.mapping?.[String((body as Record<string, unknown>)[d.propertyName])] as string | undefined) : undefined;
  const branch = chosen?.slice(chosen.lastIndexOf("/") + 1);
  return branch && validators[branch] ? branch : name;
}

/** The request body's problems against the operation's schema; [] when valid. */
function requestProblems(op: Operation, body: unknown): Problem[] {
  const schema = schemaFor(op, body);
  if (!schema) return [];
  const v = validators[schema];
  if (!v || v(body)) return [];
  const out: Problem[] = [];
  // A brand is made from a website or from a name and a description (anyOf): a body that has one of the two
  // ways in is not missing the other's fields.
  const b = body as Record<string, unknown>;
  const hasWayIn = op.id === "createBrand" && !!b && typeof b === "object" && (b.website !== undefined || (b.name !== undefined && b.description !== undefined));
  for (const e of v.errors ?? []) {
    if (["anyOf", "oneOf", "allOf", "if", "discriminator"].includes(e.keyword) || (hasWayIn && e.keyword === "required")) continue;
    const text = `${e.instancePath || "(body)"} ${e.message ?? "is not valid"}`;
    if (out.some((p) => p.text === text)) continue;
    const rule = ruleOfRequestError(op.id, e);
    // A seed rule of its own (a limit, the https website, the enums) is the seed's; the fallback is ours when the form is.
    const inferred = rule.startsWith(`${R.field400}/`) && againstInferredForm(schema, e, body);
    out.push({ rule, text, ...(inferred ? { inferred } : {}) });
  }
  return out.length ? out.slice(0, 5) : [{ rule: `${R.field400}/wrong-value`, text: "(body) does not match" }];
}

/** A request body as the client sent it, read as one of the contract's requests (whichever it is). */
type Sent = Answered<CreateBrandRequest | UpdateBrandRequest | CreateIdeasRequest | CreateFeedbackRequest | CreatePredictionRequest>;
/** An answer's body as the target sent it, read as one of the contract's answers (whichever it is). */
type Got = Answered<Brand | IdeaBatch | Feedback | Prediction | ErrorEnvelope>;

const isBatch = (b: Got | undefined): b is Answered<IdeaBatch> => !!b && typeof b === "object" && b.object === "idea_batch";
const isBrand = (b: Got | undefined): b is Answered<Brand> => !!b && typeof b === "object" && b.object === "brand";
const terminalBrand = new Set(["ready", "failed"]);
const terminalBatch = new Set(["done", "failed"]);
const digest = (v: unknown) => createHash("sha1").update(JSON.stringify(v)).digest("base64");
const empty = (v: unknown) => Array.isArray(v) && v.length === 0;

/** A batch's own consistency by status (one exchange shows it). */
function judgeBatch(f: Findings, b: Answered<IdeaBatch>, where: string, justCreated: boolean): void {
  if (b.status === "thinking" || b.status === "failed") {
    f.check(empty(b.data) && empty(b.left_out), R.batchOnlyDone, `${where}: a ${b.status} batch holds data (${Array.isArray(b.data) ? b.data.length : "?"}) or left_out (${Array.isArray(b.left_out) ? b.left_out.length : "?"}); only a done batch has ideas`);
  }
  if (justCreated) {
    const want: [string, boolean][] = [["thinking", b.status === "thinking"], ["error-null", b.error === null], ["done-at-null", b.done_at === null], ["data-empty", empty(b.data)], ["left-out-empty", empty(b.left_out)]];
    for (const [member, ok] of want)
      f.check(ok, `${R.ideasAccepted}/${member}`, `${where}: a new batch must be thinking with data and left_out empty, error and done_at null; got status ${JSON.stringify(b.status)}, error ${JSON.stringify(b.error)}, done_at ${JSON.stringify(b.done_at)}`);
  }
  if (b.status === "failed") f.check(typeof b.error === "string" && b.error.trim() !== "", `${R.batchFailed}/error`, `${where}: a failed batch must say why (error is ${JSON.stringify(b.error)})`);
  if (b.status === "done") {
    const done = Date.parse(String(b.done_at));
    f.check(typeof b.done_at === "string" && !(done < Date.parse(String(b.created_at))), R.batchDoneAt, `${where}: a done batch has done_at ${JSON.stringify(b.done_at)} (created_at ${JSON.stringify(b.created_at)})`);
    if (Array.isArray(b.data)) {
      const ranks = b.data.map((i) => i?.rank);
      f.check(ranks.every((r, i) => r === i + 1), R.batchRanks, `${where}: ranks are ${JSON.stringify(ranks)}, expected 1…${ranks.length} in order`);
    }
  }
}

/** What one exchange says against what was seen before; then remembers it. */
function judgeState(f: Findings, state: RestState, m: Matched, request: Sent | undefined, b: Got | undefined, where: string): void {
  // A PATCH with a new website starts a new read, whatever its answer shows: its body is not shown (seed 000), so it
  // may be empty, partial or the brand as before. The read is observable only through its outcome.
  const patched = m.op.id === "updateBrand" ? m.params.brand_id : undefined;
  if (patched !== undefined && typeof request?.website === "string") {
    // A brand first seen in this PATCH may have had another website: its read may have started too.
    const prev = state.brands.get(patched);
    if (!prev || request.website !== prev.website) state.brands.set(patched, { status: prev?.status ?? "", website: request.website, rereading: { sawReading: false } });
  }
  // A brand as an answer shows it: a partial PATCH answer (no status) says nothing of its status.
  if (isBrand(b) && typeof b.id === "string" && typeof b.status === "string") {
    const prev = state.brands.get(b.id);
    const reread = prev?.rereading;
    if (prev && !reread && terminalBrand.has(prev.status) && b.status !== prev.status)
      f.violate(R.brandTerminal, `${where}: brand ${b.id} was ${prev.status} and now reads ${JSON.stringify(b.status)}`);
    // The re-read's outcome shows as failed, or as ready once it was seen reading; until then it goes on.
    const sawReading = !!reread && (reread.sawReading || b.status === "reading");
    const goesOn = !!reread && !(b.status === "failed" || (b.status === "ready" && reread.sawReading));
    state.brands.set(b.id, { status: b.status, website: typeof b.website === "string" ? b.website : (prev?.website ?? null), ...(goesOn ? { rereading: { sawReading } } : {}) });
  }
  if (isBatch(b) && typeof b.id === "string") {
    // A copy to change and set: what the state holds is frozen (rest-state.ts).
    const prev: BatchSeen = { ...state.batches.get(b.id) };
    if (m.op.id === "createIdeas") {
      const count = request?.count;
      prev.countGiven = typeof count === "number";
      prev.count = typeof count === "number" ? count : 3;
      if (Array.isArray(request?.formats)) prev.formats = request.formats.map(String);
    }
    // Its documented fields only: new fields may appear at any time (seed 000, Conventions 5).
    const now = digest(documented("IdeaBatch", b));
    if (prev.terminal !== undefined && prev.terminal !== now)
      f.violate(
        b.status === prev.status ? R.batchUnchanged : R.batchTerminal,
        `${where}: batch ${b.id} was ${prev.status} and now reads differently (status ${JSON.stringify(b.status)})`,
      );
    if (b.status === "done" && Array.isArray(b.data)) {
      if (prev.count !== undefined) f.check(b.data.length <= prev.count, `${R.batchCount}/${prev.countGiven ? "given" : "default"}`, `${where}: a done batch holds ${b.data.length} ideas; ${prev.count} were asked for`);
      if (prev.formats) {
        const off = b.data.filter((i) => !prev.formats!.includes(i?.format as string)).map((i) => i?.format);
        f.check(off.length === 0, R.batchFormats, `${where}: ideas in formats ${JSON.stringify([...new Set(off)])}; asked for ${JSON.stringify(prev.formats)}`);
      }
    }
    prev.status = String(b.status);
    if (terminalBatch.has(prev.status) && prev.terminal === undefined) prev.terminal = now;
    state.batches.set(b.id, prev);
  }
}

/** Rules of a success answer that its request shows. */
function judgeSuccess(f: Findings, m: Matched, request: Sent | undefined, b: Got | undefined, where: string): void {
  if (m.op.id === "createBrand" && isBrand(b)) {
    f.check(b.status === "reading", `${R.brandCreateReading}/status`, `${where}: a new brand has status ${JSON.stringify(b.status)}, expected reading`);
    for (const field of ["name", "language", "description", "archetype"] as const)
      if (request?.[field] === undefined) f.check(b[field] === null, `${R.brandCreateReading}/${field}`, `${where}: ${field} was not sent, so it is null until the site is read; got ${JSON.stringify(b[field])}`);
    if (memberOf(request, "offerings") === undefined) f.check(empty(b.offerings), `${R.brandCreateReading}/offerings`, `${where}: offerings were not sent, so they are empty until the site is read`);
  }
  if (m.op.id === "createFeedback" && request?.reason === "wrong_language")
    f.check(b?.reason === "wrong_language", R.feedbackReason, `${where}: feedback sent with reason wrong_language is recorded with reason ${JSON.stringify(b?.reason)}`);
  if (m.op.id === "createPrediction" && Array.isArray(b?.data)) {
    const ranks = b.data.map((d) => d?.rank);
    f.check(ranks.every((r, i) => r === i + 1), R.predictionsRank, `${where}: predictions list ranks ${JSON.stringify(ranks)}, expected 1…${ranks.length} in order`);
  }
}

/** Rules of an error answer beyond the envelope: the field named, the 409's code, the 5xx status. */
function judgeErrorDetails(f: Findings, ex: Exchange, m: Matched, requestIsObject: boolean, b: Answered<ErrorEnvelope> | undefined, where: string): void {
  const error = b?.error;
  if (ex.status === 400 && requestIsObject) f.check(typeof error?.param === "string" && error.param !== "", `${R.field400}/wrong-value`, `${where}: a 400 for a request body must name the field in param, got ${JSON.stringify(error?.param)}`);
  const idField = m.op.id === "createFeedback" ? "idea" : "brand";
  if (ex.status === 404 && m.op.method === "POST" && requestIsObject)
    f.check(typeof error?.param === "string" && error.param !== "", `${R.paramNamesField}/${idField}`, `${where}: a 404 for an id sent in the body must name that field in param, got ${JSON.stringify(error?.param)}`);
  if (ex.status === 409 && m.op.id === "createIdeas")
    for (const [member, ok] of [["code", error?.code === "brand_not_ready"], ["param", error?.param === "brand"]] as const)
      f.check(ok, `${R.notReady409}/${member}`, `${where}: expected code brand_not_ready and param brand, got code ${JSON.stringify(error?.code)}, param ${JSON.stringify(error?.param)}`);
}

export function judgeRest(ex: Exchange, state: RestState): Verdict {
  const f = new Findings();
  const pathname = ex.path.split("?")[0]!;
  const label = `${ex.method} ${pathname}`;
  const verdict = (outcome = String(ex.status)): Verdict => ({ label, outcome, violations: f.violations, notes: f.notes });
  if (ex.failure) return (f.note(`no answer: ${ex.failure}`), verdict("—"));
  const m = matchOperation(ex.method, ex.path);
  if (!m) {
    // Quoted: the client chose it, and the report counts notes by kind with quoted values aside (a scanner's
    // thousand paths are one kind, not 200 that crowd out the rest).
    f.note(`${JSON.stringify(label)} is not an operation of the contract: forwarded, not judged`);
    return verdict();
  }
  const where = `${label} → ${ex.status}`;
  const ok = ex.status >= 200 && ex.status < 300;

  // The request. Its body is the contract's to judge when it is sent as JSON (seed 000: requests send
  // Content-Type: application/json); another type is the client's doing, and an error the service answers about it
  // names no field. What the service made of it (its answer, the state it changed) is judged all the same.
  const type = header(ex.requestHeaders, "content-type");
  const notJson = !!m.op.requestSchema && ex.requestText.length > 0 && !/^application\/json\s*(;|$)/i.test(type ?? "");
  const request = ex.requestTruncated ? undefined : parseJson(ex.requestText);
  const requestIsObject = !notJson && !!request && typeof request === "object" && !Array.isArray(request);
  if (ex.requestTruncated) f.note("the request body is larger than the copy kept for judging: its schema was not checked");
  else if (m.op.requestSchema && !notJson) {
    const problems: Problem[] = request === undefined ? [{ rule: `${R.field400}/wrong-type`, text: "the body is not JSON" }] : requestProblems(m.op, request);
    if (problems.length) {
      const rules = [...new Set(problems.map((p) => p.rule))];
      const text = problems.map((p) => p.text).join("; ");
      // Accepting what only our inferred forms refuse (an alpha-3 country, an id of other characters) is drift.
      if (ok && problems.every((p) => p.inferred)) f.note(`drift: ${where}: accepted a request only the contract's inferred forms refuse (${text})`);
      else if (ok) {
        const seed = problems.filter((p) => !p.inferred);
        f.violate([...new Set(seed.map((p) => p.rule))], `${where}: accepted a request the contract refuses (${seed.map((p) => p.text).join("; ")}); expected 400 invalid_request`);
      }
      else f.violate(rules, `${label}: the client sent a request the contract refuses (${text})`, "client");
    }
  }
  const authorization = ex.requestHeaders.authorization;
  if (ok && (authorization === undefined || !/^Bearer\s+\S/i.test(String(authorization))))
    f.violate(`${R.authRequired}/${m.op.id}`, `${where}: served a request without a bearer token; expected 401 authentication_error`);

  // The answer.
  if (ex.responseTruncated) {
    f.note("the answer is larger than the copy kept for judging: its body was not checked");
    return verdict();
  }
  const body = parseJson(ex.responseText);
  const res = apiResponse(ex, body);
  if (ok) {
    if (m.op.id === "createIdeas") f.check(ex.status === 202, `${R.ideasAccepted}/status-202`, `${where}: asking for ideas answers 202, got ${ex.status}`);
    expectSuccess(f, res, m.op.id, ex.status, R.schema);
    const got = body === undefined ? undefined : answeredObject<Got>(body);
    const sent = answeredObject<Sent>(request);
    if (got !== undefined) {
      if (isBatch(got)) judgeBatch(f, got, where, m.op.id === "createIdeas");
      judgeSuccess(f, m, sent, got, where);
    }
    // An empty answer (a PATCH's body is not shown) still tells the state what was sent.
    judgeState(f, state, m, sent, got, where);
  } else if (ex.status >= 400) {
    if (ex.status > 500) f.violate(R.serverError, `${where}: a failure on the service side answers 500, got ${ex.status}`);
    else expectError(f, res, m.op.id, ex.status, { statusRules: R.schema });
    judgeErrorDetails(f, ex, m, requestIsObject, answeredObject<ErrorEnvelope>(body), where);
  } else f.violate(R.schema, `${where}: the contract lists no ${ex.status} answer for ${m.op.id}`);
  const error = answeredObject<ErrorEnvelope>(body)?.error;
  const code = ex.status >= 400 && typeof error?.code === "string" ? ` ${error.code}` : "";
  const v = verdict(`${ex.status}${code}`);
  return notJson ? { ...v, clientFault: `not JSON: the request's Content-Type is ${JSON.stringify(type ?? null)}; the contract's requests send application/json (its body not judged)` } : v;
}
