// Evidence for failures: the exchanges a check made (method, URL, status, the headers that matter, excerpts of
// both bodies — all already redacted by the transport) and a copy-paste reproduction of one as a `curl` command
// with the token as an environment variable. Each check runs inside its own log (AsyncLocalStorage), so every
// request made on its behalf — its own, its SDK clients', a shared job it started — lands in its log without
// threading a recorder through every call.
import { AsyncLocalStorage } from "node:async_hooks";

export interface Exchange {
  method: string;
  url: string;
  /** The request's headers that matter to reproduce it (never Authorization). */
  requestHeaders: Record<string, string>;
  /** The request body (redacted, cut at `excerptChars`). */
  requestBody?: string;
  /** The environment variable that holds the token the request carried (`IDEAS_TOKEN`, `MCP_READONLY_TOKEN`, …). */
  tokenEnv?: string;
  /** A token the check made up (no target knows it, so no secret), carried as it is. */
  madeUpToken?: string;
  /** An Authorization header sent as it is (another scheme, a malformed value), tokens as `$VARIABLE`s. */
  authorization?: string;
  status?: number;
  /** The answer's headers that matter (Content-Type, WWW-Authenticate, Retry-After, Location, Allow). */
  responseHeaders: Record<string, string>;
  /** The answer's body (redacted, cut at `excerptChars`). */
  responseBody?: string;
  /** Why no answer came (a refused connection, a timeout). */
  error?: string;
  ms?: number;
}

export const excerptChars = 600;
/** Exchanges kept per check: the latest ones show a failure; older ones only fill memory. */
const kept = 12;
/** Exchanges attached to one failure. */
const perFailure = 2;

const shownResponseHeaders = ["content-type", "www-authenticate", "retry-after", "location", "allow", "mcp-session-id"];

export const excerpt = (text: string | undefined) =>
  text === undefined || text.length <= excerptChars ? text : `${text.slice(0, excerptChars)}… (${text.length - excerptChars} more characters)`;

export function pickHeaders(headers: Record<string, string | string[] | undefined>, names = shownResponseHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of names) {
    const v = headers[name];
    if (v !== undefined) out[name] = Array.isArray(v) ? v.join(", ") : v;
  }
  return out;
}

export class ExchangeLog {
  readonly #recent: Exchange[] = [];
  /** Adds an exchange (one already here moves to the end: it is the latest shown). */
  add(exchange: Exchange): void {
    const at = this.#recent.indexOf(exchange);
    if (at >= 0) this.#recent.splice(at, 1);
    this.#recent.push(exchange);
    if (this.#recent.length > kept) this.#recent.shift();
  }
  /** The exchanges that show a failure recorded now: the latest ones. */
  latest(): Exchange[] {
    return this.#recent.slice(-perFailure);
  }
}

const current = new AsyncLocalStorage<ExchangeLog>();

/** Runs `fn` with `log` collecting the exchanges made on its behalf. */
export const withExchangeLog = <T>(log: ExchangeLog, fn: () => Promise<T>): Promise<T> => current.run(log, fn);

/** The log of the check a request is made for, or undefined outside a check. */
export const currentExchangeLog = (): ExchangeLog | undefined => current.getStore();

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** A `curl` command that sends the exchange's request again, with the token from its environment variable. */
export function reproduction(ex: Exchange): string {
  const parts = ["curl -sS -i", `-X ${ex.method}`, shellQuote(ex.url)];
  if (ex.tokenEnv) parts.push(`-H "Authorization: Bearer $${ex.tokenEnv}"`);
  else if (ex.madeUpToken !== undefined) parts.push(`-H ${shellQuote(`Authorization: Bearer ${ex.madeUpToken}`)}`);
  // Double quotes, so that the shell fills in the $VARIABLEs the value names.
  if (ex.authorization !== undefined) parts.push(`-H "Authorization: ${ex.authorization.replace(/["\\`]/g, "\\$&")}"`);
  for (const [k, v] of Object.entries(ex.requestHeaders)) parts.push(`-H ${shellQuote(`${k}: ${v}`)}`);
  if (ex.requestBody !== undefined) parts.push(`--data-raw ${shellQuote(ex.requestBody)}`);
  return parts.join(" ");
}

/** A failure's evidence as plain lines: each exchange, then the reproduction. */
export function evidenceLines(failure: { evidence?: Exchange[]; reproduce?: string }): string[] {
  const lines: string[] = [];
  for (const ex of failure.evidence ?? []) {
    const head = Object.entries(ex.responseHeaders).map(([k, v]) => `${k}: ${v}`).join("; ");
    lines.push(`${ex.method} ${ex.url}${ex.requestBody !== undefined ? ` ${excerpt(ex.requestBody)}` : ""}`);
    lines.push(ex.error !== undefined ? `  → no answer: ${ex.error}` : `  → ${ex.status}${head ? ` (${head})` : ""}${ex.responseBody !== undefined ? ` ${ex.responseBody}` : ""}`);
  }
  if (failure.reproduce) lines.push(`reproduce: ${failure.reproduce}`);
  return lines;
}
