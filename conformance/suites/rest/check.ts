// What a REST check runs with and may need (the runner's context and needs, conformance/core/check.ts, made concrete).
import type { Check, RunContext } from "../../core/check.js";
import type { Fixtures } from "./fixtures.js";
import type { ApiClient } from "../../core/http.js";
import type { Target } from "./target.js";

/**
 * What a REST check may need besides the target-file slots of its rules (slots.ts, which the runner checks); its suite
 * (suite.ts, unmetNeed) says why one is unmet.
 */
export type RestNeed =
  /** A token of the team under test. */
  | "token"
  /** The target keeps what it is sent (a stateless mock such as Prism answers from fixed examples). */
  | "stateful"
  /** The target is served over HTTPS. */
  | "https";

/**
 * The target as a check sees it: where it is, its tokens and pace, but not the target file's inputs and triggers,
 * which a check reads only through ctx.slot (so what it reads is what it declares, and --list shows).
 */
export type TargetView = Omit<Target, "inputs" | "triggers">;

/** A REST check's context: the runner's, plus the target, its API (this check's requests counted) and the shared fixtures. */
export interface CheckContext extends RunContext {
  readonly target: TargetView;
  readonly api: ApiClient;
  readonly fixtures: Fixtures;
}

/** A check of the REST suite. */
export type RestCheck = Check<CheckContext, RestNeed>;
