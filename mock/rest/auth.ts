// Authentication (bearer tokens from tokens.ts) and the per-client request-rate limit.
import type { IncomingMessage } from "node:http";
import type { Clock } from "../clock.js";
import { repeatsAuthorization } from "../http-guards.js";
import { ApiError } from "./http.js";
import { defaultRateLimitPerMinute, restTestTokens, tinyRateLimitPerMinute, type RestTestToken } from "./tokens.js";

export interface Caller {
  token: string;
  team: string;
}

/** RFC 6750 §3: the Bearer challenge; an error code only when a token was sent and refused. */
const challenge = (code: string) => (code === "missing_token" ? `Bearer realm="ideas"` : `Bearer realm="ideas", error="invalid_token"`);
// rule: auth-401-bearer-challenge
const unauthorized = (message: string, code: string) => new ApiError(401, "authentication_error", message, null, code, { "WWW-Authenticate": challenge(code) });

/** The caller behind `Authorization: Bearer <token>`; 401 when it is missing, malformed, expired or unknown. */
// rule: auth-required-401, auth-invalid-token-401, auth-expired-401, error-param-null-otherwise, error-type-per-status/401
export function authenticate(req: IncomingMessage, tokens: readonly RestTestToken[] = restTestTokens): Caller {
  if (repeatsAuthorization(req))
    throw new ApiError(400, "invalid_request", "Send the Authorization header once; this request repeats it.", null, "duplicate_authorization");
  const header = req.headers.authorization;
  if (!header) throw unauthorized("Send Authorization: Bearer <ACCESS_TOKEN>.", "missing_token");
  const match = /^Bearer +(\S+) *$/i.exec(header);
  if (!match) throw unauthorized("The Authorization header must be Bearer <ACCESS_TOKEN>.", "invalid_token");
  const known = tokens.find((t) => t.token === match[1]);
  if (!known || known.kind === "unknown" || known.team === null)
    throw unauthorized("The access token is not valid for this API.", "invalid_token");
  if (known.kind === "expired") throw unauthorized("The access token has expired.", "token_expired");
  return { token: known.token, team: known.team };
}

/**
 * Fixed-window rate limit per client (token). The window is a minute of waiting, so it shrinks with the time
 * scale (a minute × timeScale); `Retry-After` is the seconds until it ends (rounded up, at least 1).
 */
export class RateLimiter {
  readonly #windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly clock: Clock,
    private readonly limitFor: (token: string) => number = (token) =>
      restTestTokens.find((t) => t.token === token)?.kind === "rate_limited" ? tinyRateLimitPerMinute : defaultRateLimitPerMinute,
  ) {}

  /** Counts one request; 429 with Retry-After when the client is over its limit in this window. */
  // rule: rate-limit-429, rate-limit-retry-after
  hit(token: string): void {
    const now = this.clock.now();
    const windowMs = this.clock.work(60_000);
    const start = now - (now % windowMs);
    let window = this.#windows.get(token);
    if (!window || window.start !== start) {
      // One entry per known token, so the map stays as small as the token list.
      window = { start, count: 0 };
      this.#windows.set(token, window);
    }
    if (window.count >= this.limitFor(token)) {
      const seconds = Math.max(1, Math.ceil((start + windowMs - now) / 1000));
      throw new ApiError(429, "rate_limit", `Too many requests; retry after ${seconds} ${seconds === 1 ? "second" : "seconds"}.`, null, null, {
        "Retry-After": String(seconds),
      });
    }
    window.count++;
  }
}
