// Assertions of the MCP checks, each failure attributed to the rule it breaks: the result conventions (data in
// structuredContent, the same payload as text, the live output schema, no "cancelled"), the failure envelope
// (isError, ok false, code, message, retryable as the catalogue says, the structured fields of the code), and
// refusals before a tool runs (no envelope).
import type { FamilyId, RuleId } from "../../../generated/rules.js";
import { expectThat, type Judge, type RuleRef } from "../../core/judge.js";
import { judgedAt } from "../../core/places.js";
import type { Answered, AnsweredOutput } from "./answers.js";
import type { ErrorDetail } from "../../../generated/mcp/types.js";
import { describeCall, type CallOutcome } from "./client.js";
import { catalogue, contractTool, expectedRetryable, requiredFields } from "./contract.js";
import { fieldsNamed, structuredFieldProblems } from "./error-fields.js";
import { contractOutputProblems } from "./fields.js";

/** An MCP tool (or another JSON-RPC method) as a place, with the token kind it was called as unless the normal one. */
export const toolPlace = (name: string, as = "normal") => (as === "normal" ? name : `${name} as ${as}`);

export const R = {
  structured: "success-structured-data",
  text: "text-mirrors-data",
  schema: "result-matches-output-schema",
  cancelled: "no-cancelled-for-partner",
  envelope: "failure-envelope",
  retryable: "retryable-per-catalogue",
  fields: "error-structured-fields",
} as const satisfies Record<string, RuleId>;

/** The family judging a tool's results by the contract: documented tools by the seed, the others by our design. */
const shapeRule = (tool: string): RuleId => `${contractTool.get(tool)?.meta.source === "documented" ? "contract-output-shape" : "inferred-output-shape"}/${tool}`;

/** Rules every call a check makes can break (families: one member per tool, envelope part or code), and the shared
 * batch's counts a check leans on (claimPost); every MCP check declares them. */
export const callRules = [R.structured, R.text, R.schema, R.cancelled, R.envelope, R.retryable, R.fields, "contract-output-shape", "inferred-output-shape", "batch-counts-consistent"] as const;

/** Where judgeReply applies each family of callRules (for docs/rules.md): on every reply of the member tool, every failure, or every failure with the member code. */
export const replyFamilyPlaces: Readonly<Record<string, "tool" | "failure" | "code">> = {
  [R.structured]: "tool",
  [R.text]: "tool",
  [R.schema]: "tool",
  [R.cancelled]: "tool",
  "contract-output-shape": "tool",
  "inferred-output-shape": "tool",
  [R.envelope]: "failure",
  [R.retryable]: "code",
  [R.fields]: "code",
};

/** A per-tool family's member for the call's tool (`<family>/<tool>`); the family itself for a tool the contract lacks. */
export const forTool = (family: FamilyId, tool: string): RuleId => (contractTool.has(tool) ? `${family}/${tool}` : family);
/** The member of the failure-envelope family for one part of the envelope. */
const envelopePart = (part: "is-error" | "ok-false" | "code" | "message" | "retryable"): RuleId => `${R.envelope}/${part}`;
/** Codes of the envelope catalogue (the members of the per-code families). */
const envelopeCodes = new Set((catalogue as readonly { code: string; kind: string }[]).filter((e) => e.kind === "envelope").map((e) => e.code));
/** A per-code family's member (`<family>/<code>`); the family itself for a code the catalogue lacks (upstream_<status>, new codes). */
const forCode = (family: FamilyId, code: string): RuleId => (envelopeCodes.has(code) ? `${family}/${code}` : family);

const show = (v: unknown) => {
  const s = JSON.stringify(v);
  return s === undefined ? "undefined" : s.length > 300 ? `${s.slice(0, 300)}…` : s;
};

function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== "object") return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === (b as unknown[]).length && a.every((x, i) => sameJson(x, (b as unknown[])[i]));
  // Members holding undefined count as absent (as in JSON); counted in place, not listed (every reply comes here).
  let defined = 0;
  for (const k of Object.keys(a as object)) {
    if ((a as any)[k] === undefined) continue;
    if (!sameJson((a as any)[k], (b as any)[k])) return false;
    defined++;
  }
  for (const k of Object.keys(b as object)) if ((b as any)[k] !== undefined) defined--;
  return defined === 0;
}

/**
 * A success's content[0].text holds the payload as a JSON string (Conventions 1): any JSON formatting of the same
 * value, bare or as the whole `{ data: … }` of structuredContent (the text then still holds the payload).
 */
function expectTextMirrors(ctx: Judge, o: CallOutcome, where: () => string): void {
  if (o.text === undefined) {
    ctx.expect(false, forTool(R.text, o.tool), `${where()}: content[0] is not the payload as text`);
    return;
  }
  let parsed: unknown;
  let ok = true;
  try {
    parsed = JSON.parse(o.text);
  } catch {
    ok = false;
  }
  const wrapped = ok && sameJson(parsed, o.result?.structuredContent);
  expectThat(ctx, ok && (wrapped || sameJson(parsed, o.data)), forTool(R.text, o.tool), () => `${where()}: content[0].text ${show(o.text!.slice(0, 200))} is not the same payload as structuredContent.data`);
}

/** Whether a payload is the failure envelope's shape. */
export const isEnvelope = (data: unknown): data is { ok: false; error: Record<string, any> } =>
  !!data && typeof data === "object" && (data as any).ok === false && !!(data as any).error && typeof (data as any).error === "object";

/**
 * Replies already judged by the call rules, per judge: every reply a check receives is judged once, when it comes
 * back (McpSession's observer) or when a helper first reads it (a shared scenario's reply), never twice.
 */
const judgedBy = new WeakMap<object, WeakSet<CallOutcome>>();
function firstTime(judge: Judge, o: CallOutcome): boolean {
  let seen = judgedBy.get(judge);
  if (!seen) judgedBy.set(judge, (seen = new WeakSet()));
  if (seen.has(o)) return false;
  seen.add(o);
  return true;
}

/**
 * Every rule that applies to a reply wherever it appears, whatever the check wanted of it: the result conventions,
 * the contract's output shape on success (every field, every list item, every destination kind, for every token
 * kind and read variant), and on a failure the envelope with its retryable flag and the code's structured fields,
 * each by its type and format (error-fields.ts). Once per reply and judge.
 */
export function judgeReply(ctx: Judge, o: CallOutcome): void {
  if (firstTime(ctx, o)) judgedAt(toolPlace(o.tool, o.as), () => judgeReplyOnce(ctx, o));
}

function judgeReplyOnce(ctx: Judge, o: CallOutcome): void {
  expectConventionsOnce(ctx, o);
  if (o.result && isEnvelope(o.data)) {
    expectThat(ctx, o.result.isError === true, envelopePart("is-error"), () => `${describeCall(o)}: a failure envelope needs isError true, got ${show(o.result!.isError)}`);
    judgeEnvelope(ctx, o, o.data.error);
  } else if (o.result?.isError === true && isErrorHolder(o.data)) {
    // An envelope in all but ok: the seed's "always false" is broken, not a refusal of another kind.
    ctx.expect(false, envelopePart("ok-false"), `${describeCall(o)}: a failure's envelope needs ok false, got ${show(o.data.ok)}`);
    judgeEnvelope(ctx, o, o.data.error);
  }
}

/** A payload that holds an error object (a failure's envelope, whatever its `ok` says). */
const isErrorHolder = (data: unknown): data is { ok?: unknown; error: Record<string, any> } =>
  !!data && typeof data === "object" && !!(data as any).error && typeof (data as any).error === "object" && !Array.isArray((data as any).error);

/** The conventions every answer keeps, whatever it says (and, on a failure, its envelope): judgeReply. */
export const expectConventions = judgeReply;

/** The call as failure messages name it, made when first asked for (nearly every call passes). */
const describedLazily = (o: CallOutcome): (() => string) => {
  let said: string | undefined;
  return () => (said ??= describeCall(o));
};

function expectConventionsOnce(ctx: Judge, o: CallOutcome): void {
  const where = describedLazily(o);
  if (o.error?.kind === "output-schema") ctx.expect(false, forTool(R.schema, o.tool), `${where()}: structuredContent does not match the tool's output schema in tools/list`);
  if (o.error?.kind === "no-structured-content") ctx.expect(false, forTool(R.structured, o.tool), `${where()}: a success without structuredContent`);
  const r = o.result;
  if (!r) return;
  const sc = r.structuredContent as Record<string, unknown> | undefined;
  if (sc === undefined) return;
  if (!r.isError) {
    // Conventions 1 says absent, not false: a success that carries the member at all breaks it.
    expectThat(ctx, !("isError" in r), forTool(R.structured, o.tool), () => `${where()}: a success carries isError ${show(r.isError)}; it must be absent`);
    // The SDK client validated structuredContent against the live output schema: a case of that rule passed.
    ctx.expect(true, forTool(R.schema, o.tool), "");
    // Judged by the contract too, whatever the gateway advertises (a live schema may say only {type: "object"}).
    if (contractTool.has(o.tool)) {
      const problems = contractOutputProblems(o.tool, sc);
      expectThat(ctx, problems.length === 0, shapeRule(o.tool), () => `${where()}: structuredContent does not match the contract's output schema: ${problems.join("; ")}`);
    }
  }
  expectThat(ctx, !!sc && typeof sc === "object" && "data" in sc, r.isError ? envelopePart("ok-false") : forTool(R.structured, o.tool), () => `${where()}: structuredContent is not { data: … }`);
  // Seed 001 Conventions 1 ties the text to the payload on success only; a failure's content is left to the
  // gateway (human-readable words are fine), so it is not judged.
  if (!r.isError) expectTextMirrors(ctx, o, where);
  if (contractTool.get(o.tool)?.annotations?.readOnlyHint === false)
    expectThat(ctx, !(o.data && typeof o.data === "object" && (o.data as any).cancelled === true), `${R.cancelled}/${o.tool}`, () => `${where()}: answered { cancelled: true } to a backend call`);
}

/**
 * A call that must succeed: conventions, isError absent, a payload that is not an envelope. Returns the payload,
 * or undefined after recording a failure for `rule` (the check's own rule: the call should have worked).
 */
export function expectOk<N extends string>(ctx: Judge, o: CallOutcome<N>, rule: RuleRef): AnsweredOutput<N> | undefined {
  judgeReply(ctx, o);
  const where = describedLazily(o);
  if (o.error) {
    if (o.error.kind !== "output-schema" && o.error.kind !== "no-structured-content") ctx.expect(false, rule, `${where()}: expected a result`);
    return undefined;
  }
  const r = o.result!;
  if (r.isError) {
    ctx.expect(false, rule, `${where()}: expected success`);
    return undefined;
  }
  // An envelope without isError true: judgeReply failed failure-envelope/is-error.
  if (isEnvelope(o.data)) return undefined;
  if (!expectThat(ctx, r.structuredContent !== undefined && o.data !== undefined, forTool(R.structured, o.tool), () => `${where()}: success without structuredContent.data`)) return undefined;
  return o.data as AnsweredOutput<N>;
}

/** The envelope of a failure: shape, retryable per catalogue, structured fields (present, of their type and format). */
function judgeEnvelope(ctx: Judge, o: CallOutcome, e: Record<string, any>): void {
  const where = describedLazily(o);
  const got = () => show({ code: e.code, message: e.message, retryable: e.retryable });
  expectThat(ctx, typeof e.code === "string" && e.code.length > 0, envelopePart("code"), () => `${where()}: error needs a string code, got ${got()}`);
  expectThat(ctx, typeof e.message === "string", envelopePart("message"), () => `${where()}: error needs a string message, got ${got()}`);
  expectThat(ctx, typeof e.retryable === "boolean", envelopePart("retryable"), () => `${where()}: error needs a boolean retryable, got ${got()}`);
  if (typeof e.code === "string") {
    const want = expectedRetryable(e as { code: string });
    if (want !== undefined)
      expectThat(ctx, e.retryable === want, forCode(R.retryable, e.code), () => `${where()}: ${e.code} has retryable ${show(e.retryable)}, the catalogue says ${want}`);
    // create_connect_link refuses a channel (lowercase), not a destination: its platform_not_supported names the
    // channels it connects (supportedChannels) instead of the destination pair.
    const fields = o.tool === "create_connect_link" && e.code === "platform_not_supported" ? ["supportedChannels"] : requiredFields(e.code);
    const missing = fields.filter((f) => !(f in e));
    if (e.code === "platform_not_supported" && !("supportedPlatforms" in e) && !("supportedChannels" in e)) missing.push("supportedPlatforms");
    if (fields.length || e.code === "platform_not_supported") expectThat(ctx, missing.length === 0, forCode(R.fields, e.code), () => `${where()}: ${e.code} lacks ${missing.join(", ")}`);
    // Every structured field the catalogue names for the code, when present, by the contract's type and format.
    if (envelopeCodes.has(e.code)) {
      const wrong = structuredFieldProblems(o.tool, e.code, e);
      if (wrong.length || fieldsNamed(e.code).some((f) => f in e))
        expectThat(ctx, wrong.length === 0, forCode(R.fields, e.code), () => `${where()}: ${e.code}'s structured fields are not as the seed states: ${wrong.join("; ")}`);
    }
  }
}

export interface ErrorWant {
  /** Codes any of which is right; undefined = any code. */
  code?: string | readonly string[];
  /** Rules a success, or a wrong code, breaks. */
  rule: RuleRef;
}

/**
 * A call that must fail in the envelope: isError true, the envelope, retryable, fields, and the code. Returns the
 * error object (even when the code is wrong), or undefined when there is none.
 */
export function expectError(ctx: Judge, o: CallOutcome, want: ErrorWant): Answered<ErrorDetail> | undefined {
  judgeReply(ctx, o);
  const where = describedLazily(o);
  const codes = want.code === undefined ? undefined : typeof want.code === "string" ? [want.code] : [...want.code];
  if (o.error) {
    ctx.expect(false, want.rule, `${where()}: expected a failure in the envelope${codes ? ` (${codes.join(" or ")})` : ""}`);
    return undefined;
  }
  if (!isEnvelope(o.data)) {
    ctx.expect(false, want.rule, `${where()}: expected a failure${codes ? ` with ${codes.join(" or ")}` : ""}`);
    return undefined;
  }
  // judgeReply judged isError, the envelope's parts, retryable and the code's structured fields.
  const e: Answered<ErrorDetail> = o.data.error;
  // A case either way: a failure in the envelope is what the rule wanted, whatever its code when none is named.
  expectThat(ctx, !codes || codes.includes(e.code as string), want.rule, () => `${where()}: error.code is ${show(e.code)}, expected ${codes?.join(" or ")}`);
  return e;
}

/** A refusal before the tool ran: isError with text and no envelope, or a JSON-RPC error. */
export function expectRefusedFirst(ctx: Judge, o: CallOutcome, rule: RuleRef): boolean {
  judgeReply(ctx, o);
  const where = describedLazily(o);
  if (o.error) return expectThat(ctx, o.error.kind === "rpc", rule, () => `${where()}: expected a refusal before the tool runs`);
  const r = o.result!;
  if (!expectThat(ctx, r.isError === true, rule, () => `${where()}: expected a refusal before the tool runs (isError), got a success`)) return false;
  return expectThat(ctx, !isEnvelope(o.data), rule, () => `${where()}: refused in the envelope (the tool ran); expected the SDK's validation refusal with no envelope`);
}

/** A call whose arguments the input schema takes: the tool ran (a result, or its own envelope), it was not refused before. */
export function expectRan(ctx: Judge, o: CallOutcome, rule: RuleRef): boolean {
  judgeReply(ctx, o);
  const answered = o.error?.kind === "output-schema" || o.error?.kind === "no-structured-content";
  const ran = answered || (!!o.result && (!o.result.isError || isEnvelope(o.data)));
  return expectThat(ctx, ran, rule, () => `${describeCall(o)}: refused before the tool ran, though every argument is within what the seed states`);
}

/** The data of a successful outcome, or undefined. */
export const okData = <N extends string>(o: CallOutcome<N> | undefined): AnsweredOutput<N> | undefined =>
  o && !o.error && o.result && !o.result.isError && !isEnvelope(o.data) ? (o.data as AnsweredOutput<N>) : undefined;

/** The failure's error when it is one, for code branches. */
export const errorOf = (o: CallOutcome): Record<string, any> | undefined => (isEnvelope(o.data) ? o.data.error : undefined);

export { describeCall, show };
