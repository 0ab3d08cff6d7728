// What a check is, what it may need from a target, and what it can come to.
//
// A check has a stable kebab-case id, a one-line description and the ids of the rules it enforces. It runs
// against a CheckContext; it records soft failures with `ctx.expect` (the check goes on), stops with
// `ctx.fail`, and gives up with `ctx.skip(reason)` when something it needs is missing. Every failure names the
// rule(s) it breaks, so the coverage ledger and the mutant tests can tell which rule a target broke.
import type { Exchange } from "./evidence.js";
import type { RunContext } from "./judge.js";

export type { RunContext };
import type { Fixtures } from "./fixtures.js";
import type { ApiClient, ApiResponse } from "./http.js";
import type { Target } from "./target.js";

/** What a check may need; a check whose needs are not met is skipped with the reason. */
export type Need =
  /** A token of the team under test. */
  | "token"
  /** A token of another team (cross-tenant checks). */
  | "other-team-token"
  /** An expired token. */
  | "expired-token"
  /** The target keeps what it is sent (a stateless mock such as Prism answers from fixed examples). */
  | "stateful"
  /** The target is served over HTTPS. */
  | "https"
  /** A website the target fails to read. */
  | "trigger:website-fails-read"
  /** A focus that makes a batch fail. */
  | "trigger:focus-fails-batch"
  /** A focus that makes the target answer 500. */
  | "trigger:focus-server-error"
  /** A token that hits the rate limit. */
  | "trigger:rate-limited-token"
  // The MCP gateway suite (conformance/mcp/extension.ts, mcpUnmetNeed, says why each is unmet).
  /** An MCP token with mcp:read only. */
  | "mcp:readonly-token"
  /** An MCP partner token (sees the partner-only tools). */
  | "mcp:partner-token"
  /** An MCP token of another tenant. */
  | "mcp:other-tenant-token"
  /** An MCP token of a partner client with no partner configured. */
  | "mcp:partner-unconfigured-token"
  /** The tools in development are exercised too (--mcp-profile all). */
  | "mcp:profile-all"
  /** publish_post_now may really publish (mcp.inputs.allow_publishing). */
  | "mcp:publishing-allowed"
  /** A website whose build fails. */
  | "trigger:mcp-website-fails-build"
  /** Briefs that fail some slots of a batch, or all of them. */
  | "trigger:mcp-brief-partial"
  | "trigger:mcp-brief-fails"
  /** Captions the provider refuses, every time or once. */
  | "trigger:mcp-caption-refused"
  | "trigger:mcp-caption-refused-once"
  /** The target file lets the run spend picture renders on request, batches of a check's own, profile builds (mcp.cost). */
  | "mcp:cost-renders"
  | "mcp:cost-extra-batches"
  | "mcp:cost-builds";

/** What the runner, the ledger and `--list` know of a check, whatever its protocol. */
export interface CheckInfo {
  /** Stable kebab-case id; used by --only and the expected-failures baseline. */
  id: string;
  /** One line: what the check does. */
  description: string;
  /**
   * The rules the check enforces (spec/rules/rest.yaml, or mcp.yaml for the mcp- checks): rule ids, or family ids
   * when the check records a case for every member (`ctx.expect(ok, "<family>/<member>", …)`).
   */
  rules: readonly string[];
  /**
   * Rules (or families) every call the check makes is judged against in passing (the MCP call conventions): the
   * cases it records count in the ledger, and one it records none of is not a skipped case of that rule.
   */
  incidental?: readonly string[];
  /** The module the check belongs to: shapes, errors, auth, negative, brand-lifecycle, batch-lifecycle, … */
  group: string;
  /** What the check needs besides a team token (which every check needs unless `tokenless`). */
  needs?: readonly Need[];
  /** The check sends no team token (e.g. the 401 checks). */
  tokenless?: boolean;
  /** What the check spends of the tenant's AI allowance beyond the shared batches (MCP; shown by --list). */
  spend?: (input: import("./mcp/cost.js").SpendInput) => Partial<import("./mcp/cost.js").Spend>;
}

/** A check of a suite whose checks run with `Ctx` (the REST suite's CheckContext by default). */
export interface Check<Ctx extends RunContext = CheckContext> extends CheckInfo {
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

/** A REST check's context: the runner's, plus the target, its API (this check's requests counted) and the shared fixtures. */
export interface CheckContext extends RunContext {
  readonly target: Target;
  readonly api: ApiClient;
  readonly fixtures: Fixtures;
}


/** A suite's context for a check: the runner's `base` (its getters kept live) with the suite's own members. */
export function extendContext<Own extends object>(base: RunContext, own: Own): RunContext & Own {
  return Object.defineProperties({}, { ...Object.getOwnPropertyDescriptors(base), ...Object.getOwnPropertyDescriptors(own) }) as RunContext & Own;
}

/** What a run tells its watcher (the console's live view) as it goes. */
export type RunEvent =
  | { type: "start"; check: CheckInfo }
  | { type: "result"; result: CheckResult }
  | { type: "waiting"; key: string; text: string | null }
  | { type: "stateful"; stateful: boolean; reason: string };
