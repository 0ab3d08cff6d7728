// Rule lists and small helpers the REST checks share.
import { randomBytes } from "node:crypto";
import type { CheckContext } from "../check.js";
import { pathOf } from "../contract.js";
import { answerRulesOf, errorRulesOf, R } from "../expect.js";
import type { Settling } from "../fixtures.js";
import { sleep, type ApiResponse } from "../../../core/http.js";

/** Rules the answers of each kind probe (expect.ts): a brand, a batch (thinking, or done with ideas), feedback, a prediction. */
export const brandRules = answerRulesOf("Brand");
export const batchRules = answerRulesOf("IdeaBatch");
export const doneBatchRules = answerRulesOf("IdeaBatch", { ideas: true });
export const feedbackRules = answerRulesOf("Feedback");
export const predictionRules = answerRulesOf("Prediction");
/** Rules a PATCH answer probes: its body is not shown by the seed, so what it holds is update-brand-200's alone. */
export const patchRules = [R.json, R.speed, R.snake];
/** Rules every error answer of a status probes. */
export const errorRules = errorRulesOf;

/** An id of a kind that no target has issued: the prefix and 20 random letters and digits. */
export function unknownId(prefix: string): string {
  const alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";
  const bytes = randomBytes(20);
  return prefix + Array.from(bytes, (b) => alphabet[b % alphabet.length]).join("");
}

/** The target's own today (YYYY-MM-DD), from a timestamp it wrote; its clock may differ from ours. */
export function dayOf(iso: unknown): string | undefined {
  if (typeof iso !== "string") return undefined;
  const t = Date.parse(iso);
  return Number.isNaN(t) ? undefined : new Date(t).toISOString().slice(0, 10);
}

export interface Followed {
  history: ApiResponse[];
  last: Settling | undefined;
  timedOut: boolean;
  /** A GET that did not answer a success. */
  broken?: ApiResponse;
}

/** Polls a brand (or batch) at the seed's pace while its status is `pending` (or one of them), up to the deadline. */
export async function followWhile(ctx: CheckContext, kind: "brand" | "batch", id: string, pending: string | readonly string[], label: string): Promise<Followed> {
  const waitingFor: readonly unknown[] = typeof pending === "string" ? [pending] : pending;
  const t = ctx.target.timing;
  const interval = kind === "brand" ? t.brandPollMs : t.batchPollMs;
  const deadline = kind === "brand" ? t.brandReadyDeadlineMs : t.batchDoneDeadlineMs;
  const path = kind === "brand" ? pathOf("getBrand", { brand_id: id }) : pathOf("getIdeaBatch", { batch_id: id });
  const clock = ctx.target.clock;
  const started = clock.now();
  const history: ApiResponse[] = [];
  let last: Settling | undefined;
  try {
    for (let polls = 1; ; polls++) {
      ctx.waiting(`${kind} ${id}: ${label}, poll ${polls}`);
      await sleep(interval, undefined, clock);
      const res = await ctx.api.get(path);
      history.push(res);
      if (res.status < 200 || res.status > 299) return { history, last, timedOut: false, broken: res };
      last = res.body;
      if (!waitingFor.includes(last?.status)) return { history, last, timedOut: false };
      if (clock.now() - started + interval > deadline) return { history, last, timedOut: true };
    }
  } finally {
    ctx.waiting(null);
  }
}

/** Waits one poll interval, then reads the resource once more. */
export async function lookAgain(ctx: CheckContext, kind: "brand" | "batch", id: string): Promise<ApiResponse> {
  const t = ctx.target.timing;
  ctx.waiting(`${kind} ${id}: one more look after it settled`);
  await sleep(kind === "brand" ? t.brandPollMs : t.batchPollMs, undefined, ctx.target.clock);
  ctx.waiting(null);
  return ctx.api.get(kind === "brand" ? pathOf("getBrand", { brand_id: id }) : pathOf("getIdeaBatch", { batch_id: id }));
}
