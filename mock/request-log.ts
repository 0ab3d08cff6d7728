// One log line per request: time, mock, method, what was asked (path, or the JSON-RPC method and tool), the
// outcome (status, error code, or "ok") and the milliseconds it took. Never the token: the request's credentials
// (Authorization, Proxy-Authorization, X-Api-Key, cookies) are redacted wherever the client put them too (a path,
// a tool name), and a connect link's path (its token is a credential) is shortened. What the client sent (a path,
// a JSON-RPC method, a tool name) is escaped, so it cannot forge or recolour a line.
import type { IncomingHttpHeaders, ServerResponse } from "node:http";
import { printable } from "../conformance/core/printable.js";
import { defaultSecretHeaders, Redactor, secretsOf } from "../conformance/core/redact.js";

/** The credentials a request's headers carry (secretsOf each secret header), to keep out of its log line. */
function credentialsOf(headers: IncomingHttpHeaders): string[] {
  return defaultSecretHeaders.flatMap((name) => {
    const v = headers[name];
    return typeof v === "string" ? secretsOf(name, v) : [];
  });
}

export type LogSink = (line: string) => void;

/** The path as logged: no query string, no scheme and authority of an absolute-form target (its user info may be a credential), connect-link tokens elided. */
export function loggedPath(rawUrl: string | undefined): string {
  const path = (rawUrl ?? "/").split(/[?#]/)[0]!.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, "");
  return path.replace(/^\/connect\/[^/]+/, "/connect/…").slice(0, 200);
}

export interface RequestRecord {
  /** What was asked, e.g. `POST /v1/brands` or `tools/call create_posts`. */
  what: string;
  /** How it ended when not just the HTTP status: an error code, or "ok". */
  outcome?: string;
}

/**
 * Starts timing a request and logs it when the answer has been sent (or the client went away). The handler fills
 * in `record` as it learns more (the tool, the error code).
 */
export function logRequest(sink: LogSink | undefined, name: string, res: ServerResponse, record: RequestRecord): void {
  if (!sink) return;
  const started = performance.now();
  const credentials = credentialsOf(res.req.headers);
  res.once("close", () => {
    const ms = (performance.now() - started).toFixed(1);
    const status = res.headersSent ? String(res.statusCode) : "aborted";
    const outcome = record.outcome && record.outcome !== status ? `${status} ${record.outcome}` : status;
    const what = credentials.length ? new Redactor(credentials).text(record.what) : record.what;
    sink(`${new Date().toISOString()} ${name} ${printable(what)} ${printable(outcome)} ${ms}ms`);
  });
}
