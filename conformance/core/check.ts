// What a check is, what it may need from a target, and what it can come to.
//
// A check has a stable kebab-case id, a one-line description and the ids of the rules it enforces. It runs
// against a CheckContext; it records soft failures with `ctx.expect` (the check goes on), stops with
// `ctx.fail`, and gives up with `ctx.skip(reason)` when something it needs is missing. Every failure names the
// rule(s) it breaks, so the coverage ledger and the mutant tests can tell which rule a target broke.
import type { FileSlot, RuleId } from "../../generated/rules.js";
import type { Exchange } from "./evidence.js";
import type { RunContext } from "./judge.js";

export type { RunContext };

/**
 * What a check may need from its target besides what every check has; a check whose needs are unmet is skipped with
 * the reason its suite gives. Each suite names its own (suites/rest/check.ts, suites/mcp/check.ts); `token` (a
 * credential of the tenant under test) is every suite's, added unless the check is `tokenless`.
 */
export type Need = string;

/** What the runner, the ledger and `--list` know of a check, whatever its protocol. */
export interface CheckInfo<N extends string = Need> {
  /** Stable kebab-case id; used by --only and the expected-failures baseline. */
  id: string;
  /** One line: what the check does. */
  description: string;
  /**
   * The rules the check enforces (its suite's catalogue, spec/rules/<suite>.yaml): rule ids, or family ids
   * when the check records a case for every member (`ctx.expect(ok, "<family>/<member>", …)`).
   */
  rules: readonly RuleId[];
  /**
   * Rules (or families) every call the check makes is judged against in passing (the MCP call conventions): the
   * cases it records count in the ledger, and one it records none of is not a skipped case of that rule.
   */
  incidental?: readonly string[];
  /** The module the check belongs to: shapes, errors, auth, negative, brand-lifecycle, batch-lifecycle, … */
  group: string;
  /**
   * What the check needs besides a team token (which every check needs unless `tokenless`) and besides the
   * target-file slots of its rules (core/slots.ts), which it needs unless it names them in `optionalSlots`.
   */
  needs?: readonly N[];
  /**
   * Slots of the target file the check cannot run without besides its rules' (slot → why): a value the situation it
   * makes takes that its rules do not name, because other checks provoke the same rules without it. Unset, the check
   * is skipped as for a slot of its rules; `ctx.slot(slot)` reads it.
   */
  requiredSlots?: { readonly [S in FileSlot]?: string };
  /**
   * Slots the check runs without (slot → why): slots of its rules, whose cases are left out when the slot is unset
   * (their rules not enforced) while its other cases run, and other slots of the target file it reads where given
   * (an input, a trigger that makes a case certain). `ctx.slot(slot, "optional")` is undefined when it is unset.
   */
  optionalSlots?: { readonly [S in FileSlot]?: string };
  /** The check sends no team token (e.g. the 401 checks). */
  tokenless?: boolean;
}

/** A check of a suite whose checks run with `Ctx` and may need `N`. */
export interface Check<Ctx extends RunContext = RunContext, N extends string = Need> extends CheckInfo<N> {
  run(ctx: Ctx): Promise<void>;
}

/** A check of any suite (what lists mixing the suites' checks hold; each runs in its own suite's session). */
export type AnyCheck = Check<RunContext>;

export interface Failure {
  /** The rules the failure breaks; a subset of the check's rules. */
  rules: string[];
  message: string;
  /** The latest exchanges of the check when the failure was seen (redacted). */
  evidence?: Exchange[];
  /** A command that sends the latest of them again (`curl`, the token as an environment variable). */
  reproduce?: string;
}

/**
 * `error`: the suite itself broke (an unexpected exception inside a check) or the run ran out of its budget before
 * the check ended — not a verdict on the target: its rules count as not enforced, never as failed.
 */
export type Status = "pass" | "fail" | "skip" | "error";

export interface CheckResult {
  id: string;
  description: string;
  group: string;
  rules: readonly string[];
  incidental?: readonly string[];
  status: Status;
  /** Why the check was skipped. */
  reason?: string;
  /** Why the check ended in `error`: what broke (the stack when the suite threw), or the budget that ran out. */
  error?: { kind: "suite" | "budget"; message: string };
  failures: Failure[];
  /** Things worth knowing that are not failures (e.g. a 429 that was waited out). */
  notes: string[];
  durationMs: number;
  requests: number;
  /** Rule id → how the check's cases for it came out (every `expect` or `fail` naming it is a case). */
  cases: Record<string, CaseOutcome>;
  /** Rule id → where its cases were judged: the operations (REST) or tools (MCP) whose replies it judged (places.ts). */
  places?: Record<string, string[]>;
}

/** A rule's cases in one check: `fail` when any failed, else `pass`. */
export type CaseOutcome = "pass" | "fail";

/** Thrown by ctx.fail: ends the check as failed. */
export class CheckFailed extends Error {
  constructor(readonly failure: Failure) {
    super(failure.message);
  }
}

/** Thrown by ctx.skip: ends the check as skipped. */
export class CheckSkipped extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

/** A suite's context for a check: the runner's `base` (its getters kept live) with the suite's own members. */
export function extendContext<Base extends RunContext, Own extends object>(base: Base, own: Own): Base & Own {
  return Object.defineProperties({}, { ...Object.getOwnPropertyDescriptors(base), ...Object.getOwnPropertyDescriptors(own) }) as Base & Own;
}

/** What a run tells its watcher (the console's live view) as it goes. */
export type RunEvent =
  | { type: "start"; check: CheckInfo }
  | { type: "result"; result: CheckResult }
  | { type: "waiting"; key: string; text: string | null }
  | { type: "stateful"; stateful: boolean; reason: string };
