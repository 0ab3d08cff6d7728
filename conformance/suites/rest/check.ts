// What a REST check runs with and may need (the runner's context and needs, conformance/core/check.ts, made concrete).
import type { Check, RunContext } from "../../core/check.js";
import type { Fixtures } from "./fixtures.js";
import type { ApiClient } from "../../core/http.js";
import type { Target } from "./target.js";

/** What a REST check may need; its suite (suite.ts, unmetNeed) says why one is unmet. */
export type RestNeed =
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
  | "trigger:rate-limited-token";

/** A REST check's context: the runner's, plus the target, its API (this check's requests counted) and the shared fixtures. */
export interface CheckContext extends RunContext {
  readonly target: Target;
  readonly api: ApiClient;
  readonly fixtures: Fixtures;
}

/** A check of the REST suite. */
export type RestCheck = Check<CheckContext, RestNeed>;
