// Every REST reply the suite receives is judged where it comes back, by every rule that applies to an answer of its
// operation and status wherever it appears: a success by its status-independent rules (speed, JSON, snake_case,
// `object` kinds and id prefixes of the body and of every resource inside it — each idea of a batch with its
// sources and outline —, ISO times, the schema field by field), an error by its envelope, the type for its status,
// the 401 challenge and Retry-After. The check a reply is received for records the cases, so a field that is
// wrong only in a reply no check looks at closely (a later poll, a read back, a refusal of another status) still
// fails the run. The explicit expectations of the checks leave out what was judged here (expect.ts, firstTime).
import { AsyncLocalStorage } from "node:async_hooks";
import { operations, type OperationId } from "./contract.js";
import { answerRulesOf, errorRulesOf, headJudged, judgeErrorBody, judgeSuccessBody, markJudged } from "./expect.js";
import type { ApiResponse } from "../../core/http.js";
import type { Judge } from "../../core/judge.js";
import { judgedAt } from "../../core/places.js";
import { operationPlace } from "./places.js";
import { matchOperation } from "./routes.js";

const current = new AsyncLocalStorage<Judge>();

/** Runs `fn` with every reply received on its behalf judged into `judge` (each REST check runs so; a walk into its own). */
export const judgingInto = <T>(judge: Judge, fn: () => Promise<T>): Promise<T> => current.run(judge, fn);

/** Judges a reply into the check it is received for, if any (once per check: expect.ts marks what was judged). */
export function judgeReplyHere(res: ApiResponse | undefined): void {
  const ctx = current.getStore();
  if (ctx && res) judgeReply(ctx, res);
}

/**
 * The judge of the check running here, kept for later: a shared fixture's replies come back in whichever check
 * started it, and are judged for each check that looks at them when it does (fixtures.ts).
 */
export function currentReplyJudge(): ((res: ApiResponse) => void) | undefined {
  const ctx = current.getStore();
  return ctx ? (res) => judgeReply(ctx, res) : undefined;
}

/** What judging a reply came to: each expectation (ok, rules, message) and note, in order. */
type Verdicts = ({ ok: boolean; rules: string | readonly string[]; message: string } | { note: string })[];
/** Per reply: a reply a dozen checks look at is judged once, and its verdicts replayed into each. */
const judged = new WeakMap<ApiResponse, { speed: string; verdicts: Verdicts }>();

function verdictsOf(judge: Judge, res: ApiResponse, op: OperationId): Verdicts {
  const speed = JSON.stringify(judge.speed);
  const cached = judged.get(res);
  if (cached?.speed === speed) return cached.verdicts;
  const verdicts: Verdicts = [];
  // A judge that only records (speed is judged against the same limit as the judge it replays into).
  const recorder: Judge = {
    speed: judge.speed,
    expect: (ok, rules, message) => (verdicts.push({ ok, rules, message }), ok),
    fail: (rules, message) => {
      verdicts.push({ ok: false, rules, message });
      throw new Error(message);
    },
    note: (text) => void verdicts.push({ note: text }),
  };
  if (res.status >= 200 && res.status <= 299) judgeSuccessBody(recorder, res, op, res.status, [], { ideas: true });
  else judgeErrorBody(recorder, res, op);
  judged.set(res, { speed, verdicts });
  return verdicts;
}

/** Judges one reply of the REST API into `ctx`; a reply to a path that is no operation of the contract is left alone. */
export function judgeReply(ctx: Judge, res: ApiResponse): void {
  if (headJudged(res, ctx) || !((res.status >= 200 && res.status <= 299) || (res.status >= 400 && res.status <= 599))) return;
  const m = matchOperation(res.method, res.path);
  if (!m) return;
  judgedAt(operationPlace(m.op), () => {
    for (const v of verdictsOf(ctx, res, m.op.id)) "note" in v ? ctx.note(v.note) : ctx.expect(v.ok, v.rules, v.message);
  });
  markJudged(res, ctx);
}

/** The rules a reply of any operation and status may be judged by here. */
export const replyRules: readonly string[] = [
  ...new Set([
    ...answerRulesOf("Brand"),
    ...answerRulesOf("IdeaBatch", { ideas: true }),
    ...answerRulesOf("Feedback"),
    ...answerRulesOf("Prediction"),
    ...[400, 401, 403, 404, 409, 429, 500].flatMap(errorRulesOf),
  ]),
];

/**
 * Where the reply judge applies each rule, by the contract: the operations whose every success it reads (its answer
 * schema's rules) and the error statuses each operation lists (the envelope's). For docs/rules.md; a run's ledger
 * reports the places each rule was judged in that run.
 */
export function replyRulePlaces(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const op of Object.values(operations))
    for (const [status, schema] of Object.entries(op.responses)) {
      const code = Number(status);
      const success = code >= 200 && code <= 299;
      const rules = success ? (answerSchemas.includes(schema as AnswerSchema) ? answerRulesOf(schema as AnswerSchema, { ideas: true }) : []) : errorRulesOf(code);
      for (const rule of rules) out.set(rule, [...(out.get(rule) ?? []), `${operationPlace(op)} → ${code}`]);
    }
  return out;
}
const answerSchemas = ["Brand", "IdeaBatch", "Feedback", "Prediction"] as const;
type AnswerSchema = (typeof answerSchemas)[number];

/** A REST check with the rules its replies are judged by in passing: the cases it records of them count in the ledger. */
// (Typed by the members it uses, so the judge of replies needs no check module: check.ts reaches it through fixtures.)
export const judgingReplies = <C extends Judge, K extends { incidental?: readonly string[]; run(ctx: C): Promise<void> }>(check: K): K => ({
  ...check,
  incidental: [...new Set([...(check.incidental ?? []), ...replyRules])],
  run: (ctx: C) => judgingInto(ctx, () => check.run(ctx)),
});
