// What every suite's target has, whatever its protocol: where it is, how to reach it (TLS, concurrency, the
// run's clock and budget) and its credentials by name. Each protocol's target extends it (target.ts for REST,
// mcp/target.ts for the MCP gateway); the runner, the transport and the reports read only this part.
import type { RunClock } from "./run-clock.js";

/**
 * A bearer token and the environment variable a user keeps it in: a reproduction names the variable, never the
 * token. Without `env` the token is one the check made up (a token no target knows), shown as it is.
 */
export interface Credential {
  bearer: string;
  env?: string;
}

export interface RunTiming {
  /** Real seconds per second of the target's time; scales every interval and deadline. */
  timeScale: number;
  /** Per request (not scaled: the network does not speed up). */
  requestTimeoutMs: number;
  /** How fast every call must answer (rule answers-within-seconds; not scaled). */
  answerWithinMs: number;
  /** The whole run. */
  budgetMs: number;
}

export interface RunTarget {
  /** The base URL; request paths are appended to its path. */
  url: URL;
  /** True when the suite started the reference server itself. */
  embedded: boolean;
  /** The target's tokens by the name requests ask for them ("team", "normal", …), each with its variable. */
  credentials: Readonly<Record<string, Credential>>;
  timing: RunTiming;
  concurrency: number;
  tls: { insecure: boolean; ca?: string };
  /** Every secret of the run (tokens); redacted from all output. */
  secrets: string[];
  /** The run's clock: the wall clock, or time driven by the run against the embedded references (run-clock.ts). */
  clock: RunClock;
}

/** The credentials of `tokens` (name → token, unset ones left out), each with the variable `envOf` names for it. */
export function credentialsOf<K extends string>(tokens: Partial<Record<K, string | undefined>>, envOf: Readonly<Record<K, string>>): Record<string, Credential> {
  const out: Record<string, Credential> = {};
  for (const [name, token] of Object.entries(tokens) as [K, string | undefined][]) if (token) out[name] = { bearer: token, env: envOf[name] };
  return out;
}
