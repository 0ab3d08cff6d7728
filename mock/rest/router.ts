// The routes of the REST mock: path patterns with named segments, the methods each allows (405 with `Allow`
// otherwise) and 404 for any other path.
import { shownPath } from "../http-guards.js";
import { ApiError } from "./http.js";

export type Method = "GET" | "POST" | "PATCH";

export interface Route<H> {
  pattern: string;
  handlers: Partial<Record<Method, H>>;
}

export interface Match<H> {
  handler: H;
  params: Record<string, string>;
}

function matchPath(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split("/");
  const got = path.split("/");
  if (want.length !== got.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i]!;
    const g = got[i]!;
    if (w.startsWith(":")) {
      if (!g) return null;
      try {
        params[w.slice(1)] = decodeURIComponent(g);
      } catch {
        params[w.slice(1)] = g; // undecodable: kept as sent, later answered 404 as an unknown id
      }
    } else if (w !== g) return null;
  }
  return params;
}

/** The handler for a method and path; 404 for an unknown path, 405 (with `Allow`) for a method it does not serve. */
export function route<H>(routes: readonly Route<H>[], method: string, path: string): Match<H> {
  for (const r of routes) {
    const params = matchPath(r.pattern, path);
    if (!params) continue;
    const handler = r.handlers[method as Method];
    if (!handler) {
      const allow = Object.keys(r.handlers).join(", ");
      throw new ApiError(405, "invalid_request", `${method} is not allowed on ${shownPath(path)}; use ${allow}.`, null, "method_not_allowed", {
        Allow: allow,
      });
    }
    return { handler, params };
  }
  throw new ApiError(404, "not_found", `No route ${shownPath(path)}. Paths start with /v1 (brands, ideas, feedback, predictions).`, null, "unknown_route");
}
