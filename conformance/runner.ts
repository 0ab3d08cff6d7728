// Runs checks against a target: every check at once (requests share the client's concurrency limit, waits
// share the fixtures), each skipped with the reason when its needs are not met, all within the run's budget.
import { setMaxListeners } from "node:events";
import { ExchangeLog, reproduction, withExchangeLog } from "./evidence.js";
import { BudgetExceeded, Transport, TransportError, apiClient } from "./http.js";
import { CheckFailed, CheckSkipped, type CaseOutcome, type Check, type CheckContext, type CheckResult, type Failure, type Need } from "./check.js";
import { Fixtures, type FixtureEnv } from "./fixtures.js";
import type { Redactor } from "./redact.js";
import { judgeReplyHere, judgingInto } from "./replies.js";
import { expandRuleRef, type RuleCatalogue } from "./rules.js";
import type { Target } from "./target.js";

export type RunEvent =
  | { type: "start"; check: Check }
  | { type: "result"; result: CheckResult }
  | { type: "waiting"; key: string; text: string | null }
  | { type: "stateful"; stateful: boolean; reason: string };

export interface RunnerOptions {
  target: Target;
  checks: readonly Check[];
  rules: RuleCatalogue;
  redactor: Redactor;
  onEvent?: (event: RunEvent) => void;
  /** Why a need is unmet by the target (the suite decides; "stateful" is decided by the runner's probe). */
  unmetNeed(need: Need, target: Target): string | undefined;
  /** Adds to what checks get (the MCP suite's session and jobs), made once per run with the run's environment. */
  extension?: (env: FixtureEnv) => RunnerExtension;
}

/** What a suite adds to the runner: members of each check's context, its own needs, its requests, its cleanup. */
export interface RunnerExtension {
  /** Members added to a check's context, and how many requests they made for it. */
  context?(check: Check): { members: Record<string, unknown>; requests(): number; close?(): Promise<void> | void };
  /** Requests made outside any check (shared background jobs). */
  requests?(): number;
  close?(): Promise<void> | void;
}

/** The needs of a check: what it declares, plus a team token unless it declares itself tokenless. */
export function needsOf(check: Check): Need[] {
  const needs = new Set<Need>(check.needs ?? []);
  if (!check.tokenless) needs.add("token");
  return [...needs];
}

export async function runChecks(options: RunnerOptions): Promise<{ results: CheckResult[]; requests: number; stateful?: boolean; statefulReason?: string }> {
  const { target, checks, rules, redactor } = options;
  const emit = options.onEvent ?? (() => {});
  for (const check of checks)
    for (const rule of [...check.rules, ...(check.incidental ?? [])])
      if (!expandRuleRef(rules, rule)) throw new Error(`check ${check.id} names unknown rule ${rule}`);

  const abort = new AbortController();
  // Every request in flight listens for the budget's end; there may be many more than ten.
  setMaxListeners(0, abort.signal);
  const clock = target.clock;
  // The budget is kept on the run's clock: against the embedded references, in the target's time.
  const cancelBudget = clock.lastResort(target.timing.budgetMs, () => abort.abort());
  const transport = new Transport(target, redactor, abort.signal);
  const fixtureEnv: FixtureEnv = {
    target,
    transport,
    redactor,
    signal: abort.signal,
    onWaiting: (key, text) => emit({ type: "waiting", key, text: text === null ? null : redactor.text(text) }),
  };
  const fixtures = new Fixtures(fixtureEnv);
  const extension = options.extension?.(fixtureEnv);

  let statefulInfo: { stateful: boolean; reason: string } | undefined;
  const statefulness = async () => {
    const s = await fixtures.statefulness();
    if (!statefulInfo) {
      statefulInfo = { stateful: s.stateful, reason: s.reason };
      emit({ type: "stateful", ...statefulInfo });
    }
    return s;
  };

  const runOne = async (check: Check): Promise<CheckResult> => {
    const started = clock.now();
    const failures: Failure[] = [];
    const notes: string[] = [];
    const cases: Record<string, CaseOutcome> = {};
    const log = new ExchangeLog();
    /** A failure with the exchanges that show it. */
    const failure = (rules: string[], message: string): Failure => {
      const evidence = log.latest();
      const last = evidence.at(-1);
      return { rules, message, ...(evidence.length ? { evidence } : {}), ...(last ? { reproduce: reproduction(last) } : {}) };
    };
    const record = (r: string | readonly string[], ok: boolean) => {
      for (const id of typeof r === "string" ? [r] : r) cases[id] = ok && cases[id] !== "fail" ? "pass" : "fail";
    };
    const api = apiClient(transport, (text) => notes.push(text), judgeReplyHere);
    const extra = extension?.context?.(check);
    const declared = [...check.rules, ...(check.incidental ?? [])];
    const declares = (rule: string) => declared.includes(rule) || (rule.includes("/") && declared.includes(rule.slice(0, rule.indexOf("/"))));
    const result = (status: CheckResult["status"], reason?: string, error?: CheckResult["error"]): CheckResult => {
      // A failure of a rule the check does not name: the target broke it on the way to what the check needs (a
      // shared brand that never got ready). The rule is judged in passing here, so the ledger fails it too.
      const passing = [...new Set(failures.flatMap((f) => f.rules).filter((r) => !declares(r)))];
      const incidental = [...(check.incidental ?? []), ...passing];
      return {
        id: check.id,
        description: check.description,
        group: check.group,
        rules: check.rules,
        ...(incidental.length ? { incidental } : {}),
        status,
        ...(reason !== undefined ? { reason: redactor.text(reason) } : {}),
        ...(error ? { error: { kind: error.kind, message: redactor.text(error.message) } } : {}),
        failures: failures.map((f) => ({ ...f, message: redactor.text(f.message) })),
        notes: notes.map((n) => redactor.text(n)),
        durationMs: Math.round(clock.now() - started),
        requests: api.requests + (extra?.requests() ?? 0),
        cases: { ...cases },
      };
    };
    const waitKey = `check:${check.id}`;
    const ctx: CheckContext = {
      target,
      api,
      fixtures,
      expect(ok, r, message) {
        record(r, ok);
        if (!ok) failures.push(failure(typeof r === "string" ? [r] : [...r], message));
        return ok;
      },
      fail(r, message) {
        const ids = typeof r === "string" ? [r] : [...r];
        for (const id of ids) if (!expandRuleRef(rules, id)) throw new Error(`check ${check.id} fails unknown rule ${id}`);
        throw new CheckFailed(failure(ids, message));
      },
      skip(reason) {
        throw new CheckSkipped(reason);
      },
      note: (text) => notes.push(text),
      waiting: (text) => emit({ type: "waiting", key: waitKey, text: text === null ? null : `${check.id}: ${redactor.text(text)}` }),
      get failed() {
        return failures.length > 0;
      },
    };
    if (extra) Object.assign(ctx, extra.members);
    emit({ type: "start", check });
    try {
      const needs = needsOf(check);
      for (const need of needs) {
        const why = options.unmetNeed(need, target);
        if (why) return result("skip", why);
      }
      if (needs.includes("stateful")) {
        const s = await statefulness();
        if (!s.stateful) return result("skip", s.reason);
      }
      await withExchangeLog(log, () => judgingInto(ctx, () => check.run(ctx)));
      return result(failures.length ? "fail" : "pass");
    } catch (err) {
      if (err instanceof CheckSkipped) return failures.length ? result("fail") : result("skip", err.reason);
      if (err instanceof CheckFailed) {
        failures.push(err.failure);
        record(err.failure.rules, false);
        return result("fail");
      }
      // The target stopped answering mid-check: that is the target's failure.
      if (err instanceof TransportError) {
        failures.push(failure([...check.rules], err.message));
        record(check.rules, false);
        return result("fail");
      }
      // Neither a bug of the suite nor a run cut short by its budget says anything of the target's rules: the
      // check ends in `error` (failures recorded before it still count), and its unreached rules stay unenforced.
      const error: CheckResult["error"] =
        err instanceof BudgetExceeded
          ? { kind: "budget", message: `not finished within the run's budget (${Math.round(target.timing.budgetMs / 1000)} s); raise --budget` }
          : { kind: "suite", message: `the suite broke (not a failure of the target): ${(err as Error)?.stack ?? String(err)}` };
      return result(failures.length ? "fail" : "error", undefined, error);
    } finally {
      emit({ type: "waiting", key: waitKey, text: null });
      await extra?.close?.();
    }
  };

  try {
    const results = await Promise.all(
      checks.map(async (check) => {
        const r = await runOne(check);
        emit({ type: "result", result: r });
        return r;
      }),
    );
    return {
      results,
      requests: transport.requestCount + (extension?.requests?.() ?? 0),
      ...(statefulInfo ? { stateful: statefulInfo.stateful, statefulReason: statefulInfo.reason } : {}),
    };
  } finally {
    cancelBudget();
    transport.close();
    await extension?.close?.();
  }
}
