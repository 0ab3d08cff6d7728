// The probe before any check (each suite's own: suites/rest/probe.ts, suites/mcp/probe.ts): one request per suite
// that says, in one line and within seconds, when a target cannot be used — nothing listens, something other than
// the API answers (an HTML page, another service), or the target refuses the token outright. Without it, every check would run and fail for the same reason, and a
// ledger of such failures says nothing about the contract.
import { BudgetExceeded, TransportError, type ApiResponse } from "./http.js";
import type { RunTarget } from "./run-target.js";

/** A target the run cannot use; the message is the one line the user sees. */
export class TargetUnusable extends Error {}

/** However patient the run, the probe answers within this. */
const probeTimeoutMs = 10_000;

/** The target with the probe's own request timeout (however patient the run). */
export const quick = <T extends RunTarget>(target: T): T => ({ ...target, timing: { ...target.timing, requestTimeoutMs: Math.min(target.timing.requestTimeoutMs, probeTimeoutMs) } });

/** Characters of the body the one line shows. */
const shownChars = 80;

/**
 * What came back, for the one line: status, Content-Type and the start of the body, each escaped as a JSON
 * string (what a target sent may hold quotes, control characters or terminal escapes).
 */
export function shown(res: Pick<ApiResponse, "status" | "contentType" | "text">): string {
  const start = res.text.replace(/\s+/g, " ").trim();
  const body = start ? `, body ${JSON.stringify(start.slice(0, shownChars))}${start.length > shownChars ? ` (first ${shownChars} characters)` : ""}` : ", empty body";
  return `${res.status}, Content-Type ${res.contentType === undefined ? "(none)" : JSON.stringify(res.contentType)}${body}`;
}

/** One request of the probe; a target that cannot be reached is unusable (one line). */
export async function sendOnce(what: string, url: URL, send: () => Promise<ApiResponse>): Promise<ApiResponse> {
  try {
    return await send();
  } catch (err) {
    if (err instanceof TransportError || err instanceof BudgetExceeded) throw new TargetUnusable(`cannot reach the ${what} target at ${url.origin}: ${err.message}`);
    throw err;
  }
}
