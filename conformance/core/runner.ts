// Runs one suite's checks against a target: every check at once (requests share the clients' concurrency limits,
// waits share the suite's fixtures), each skipped with the reason when its needs or the target-file slots of its
// rules (slots.ts) are not met, all within the run's budget. It knows no protocol: the suite's session (suite.ts)
// makes each check's context and counts its requests, its slot table says where each slot's value is.
import { setMaxListeners } from "node:events";
import { ExchangeLog, reproduction, withExchangeLog } from "./evidence.js";
import { BudgetExceeded, TransportError } from "./http.js";
import { CheckFailed, CheckSkipped, type CaseOutcome, type Check, type CheckInfo, type CheckResult, type Failure, type Need, type RunContext, type RunEvent } from "./check.js";
import type { Redactor } from "./redact.js";
import { ruleList } from "./judge.js";
import { markedPlace } from "./places.js";
import { expandRuleRef, type RuleCatalogue } from "./rules.js";
import { checkSlots, unsetSlotReason, type FileSlot, type SlotTable } from "./slots.js";
import type { SuiteEnv, SuiteSession } from "./suite.js";
import type { RunTarget } from "./run-target.js";

export type { RunEvent };

export interface RunnerOptions<Ctx extends RunContext, T extends RunTarget = RunTarget, N extends string = Need> {
  target: T;
  checks: readonly Check<Ctx, N>[];
  rules: RuleCatalogue;
  redactor: Redactor;
  onEvent?: (event: RunEvent) => void;
  /** Why a need is unmet by the target (the suite decides from the target file and environment). */
  unmetNeed(need: N | "token", target: T): string | undefined;
  /** The suite's target-file slots: each one's value in the target and how to give it. */
  slots: Partial<SlotTable<T>>;
  /** Opens the suite's session for the run (its clients, fixtures, shared jobs). */
  open(env: SuiteEnv<T>): SuiteSession<Ctx, N>;
}

/** The needs of a check: what it declares, plus a team token unless it declares itself tokenless. */
export function needsOf<N extends string>(check: CheckInfo<N>): (N | "token")[] {
  const needs = new Set<N | "token">(check.needs ?? []);
  if (!check.tokenless) needs.add("token");
  return [...needs];
}

export async function runChecks<Ctx extends RunContext>(options: RunnerOptions<Ctx>): Promise<{ results: CheckResult[]; requests: number; stateful?: boolean; statefulReason?: string }> {
  const { target, checks, rules, redactor } = options;
  const emit = options.onEvent ?? (() => {});
  const slotsOfCheck = new Map<string, ReturnType<typeof checkSlots>>();
  for (const check of checks) {
    for (const rule of [...check.rules, ...(check.incidental ?? [])])
      if (!expandRuleRef(rules, rule)) throw new Error(`check ${check.id} names unknown rule ${rule}`);
    const slots = checkSlots(rules, check);
    for (const slot of [...slots.required, ...slots.optional]) if (!options.slots[slot]) throw new Error(`check ${check.id}: the suite maps no target-file slot ${slot}`);
    slotsOfCheck.set(check.id, slots);
  }

  const abort = new AbortController();
  // Every request in flight listens for the budget's end; there may be many more than ten.
  setMaxListeners(0, abort.signal);
  const clock = target.clock;
  // The budget is kept on the run's clock: against the embedded references, in the target's time.
  const cancelBudget = clock.lastResort(target.timing.budgetMs, () => abort.abort());
  const session = options.open({
    target,
    redactor,
    signal: abort.signal,
    onWaiting: (key, text) => emit({ type: "waiting", key, text: text === null ? null : redactor.text(text) }),
    emit,
  });

  const runOne = async (check: Check<Ctx>): Promise<CheckResult> => {
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
    const places: Record<string, Set<string>> = {};
    const record = (r: string | readonly string[], ok: boolean) => {
      const place = markedPlace();
      for (const id of typeof r === "string" ? [r] : r) {
        cases[id] = ok && cases[id] !== "fail" ? "pass" : "fail";
        if (place) (places[id] ??= new Set()).add(place);
      }
    };
    const declared: readonly string[] = [...check.rules, ...(check.incidental ?? [])];
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
        requests: made?.requests() ?? 0,
        cases: { ...cases },
        places: Object.fromEntries(Object.entries(places).map(([id, at]) => [id, [...at].sort()])),
      };
    };
    const waitKey = `check:${check.id}`;
    const slots = slotsOfCheck.get(check.id)!;
    // A check reads only the slots it names (by its rules, or in requiredSlots or optionalSlots) and those its suite shares with every
    // check, so what it needs is what --list shows; anything else is a bug of the suite.
    function slot(name: FileSlot): string;
    function slot(name: FileSlot, optional: "optional"): string | undefined;
    function slot(name: FileSlot, optional?: "optional"): string | undefined {
      if (!slots.required.includes(name) && !slots.optional.includes(name) && !options.slots[name]?.shared)
        throw new Error(`check ${check.id} reads the target-file slot ${name}, which it does not name (by a rule, or in requiredSlots or optionalSlots)`);
      if (slots.optional.includes(name) && !optional) throw new Error(`check ${check.id} reads its optional slot ${name} as required (read it with "optional")`);
      const value = options.slots[name]?.value(target);
      if (value === undefined && !optional) throw new Error(`check ${check.id} ran without its required slot ${name}`);
      return value;
    }
    const base: RunContext = {
      speed: { withinMs: target.timing.answerWithinMs, judged: !target.embedded },
      expect(ok, r, message) {
        record(r, ok);
        if (!ok) failures.push(failure(ruleList(r), message));
        return ok;
      },
      fail(r, message) {
        const ids = ruleList(r);
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
      slot,
    };
    let made: ReturnType<SuiteSession<Ctx>["context"]> | undefined;
    emit({ type: "start", check });
    try {
      for (const need of needsOf(check)) {
        const why = options.unmetNeed(need, target);
        if (why) return result("skip", why);
      }
      for (const name of slots.required) {
        const source = options.slots[name]!;
        if (source.value(target) === undefined) return result("skip", unsetSlotReason(name, source));
      }
      const unready = await session.unready?.(check);
      if (typeof unready === "object") base.fail(unready.rule, unready.why);
      if (unready) return result("skip", unready);
      made = session.context(check, base);
      const { ctx } = made;
      await withExchangeLog(log, () => check.run(ctx));
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
      await made?.close?.();
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
    const stateful = session.stateful?.();
    return { results, requests: session.requests(), ...(stateful ? { stateful: stateful.stateful, statefulReason: stateful.reason } : {}) };
  } finally {
    cancelBudget();
    await session.close();
  }
}
