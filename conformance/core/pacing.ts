// Pacing below a rate limit the target has shown. The seeds publish no number (REST: a limit per client id; MCP: per
// IP address per minute at the edge), so the suite learns it from what the target tells: unpaced until the first
// 429, then just under the rate the target accepted in the window before it (the Retry-After's span, 1 s to a
// minute), or under the limit its rate-limit headers state (RateLimit-*, X-RateLimit-*, RateLimit-Policy). A 429 of
// a request sent at that pace lowers it a step (a fifth), never by half, and never faster afterwards. A 429's
// Retry-After (or a reset the headers name) holds every request of the target back until it has passed, not only
// the one refused; so does an answer that says no request is left in the window. Whatever was waited (Retry-After,
// resets and pacing) is counted, so a run can say how long the limit cost it.
import { sleep, wallClock, type RunClock } from "./run-clock.js";

/** The longest window the sending rate is measured over (the MCP edge counts per minute). */
const windowMs = 60_000;
/** The shortest: a Retry-After of 0 or none still names a window of about a second. */
const shortestWindowMs = 1_000;
/** How far under a measured or stated limit the pace stays. */
const margin = 0.9;
/** How much slower the pace gets on a 429 of a request sent at it (a gentle step, not a halving). */
const slower = 1.25;

export interface RateLimitReport {
  /** 429 answers met (and waited out, or returned when past the budget). */
  limited: number;
  /** Time requests spent held back for rate limits: Retry-After, resets and pacing, summed over requests. */
  waitedMs: number;
  /** The pace the suite kept at the end, in requests per minute; undefined while unpaced. */
  perMinute?: number;
}

/** What an answer's rate-limit headers say; each member only when stated. */
export interface RateLimitHint {
  /** Requests the window allows. */
  limit?: number;
  /** Requests left in the window. */
  remaining?: number;
  /** Time until the window resets, in ms. */
  resetMs?: number;
  /** The window's length, in ms (RateLimit-Policy's `w`). */
  windowMs?: number;
}

/** A number of a header, or of its `key=value` parameter (the IETF drafts' structured forms). */
function headerNumber(value: string | undefined, keys: readonly string[] = [], bare = true): number | undefined {
  if (value === undefined) return undefined;
  for (const key of keys) {
    const m = new RegExp(`(?:^|[;,\\s])${key}=\\s*(\\d+(?:\\.\\d+)?)`, "i").exec(value);
    if (m) return Number(m[1]);
  }
  const m = bare ? /^\s*(\d+(?:\.\d+)?)\s*(?:[;,]|$)/.exec(value) : null;
  return m ? Number(m[1]) : undefined;
}

/**
 * Reads the standard rate-limit headers: RateLimit-Limit/-Remaining/-Reset and their X-RateLimit-* forms, the
 * combined `RateLimit: limit=…, remaining=…, reset=…` (or `r=…;t=…`) and `RateLimit-Policy: 100;w=60` (or `q=…;w=…`).
 * A reset above 10^9 is an epoch time (seconds, or milliseconds above 10^12), otherwise seconds from now.
 */
export function rateLimitHint(header: (name: string) => string | undefined, nowDate = Date.now()): RateLimitHint {
  const combined = header("ratelimit");
  const policy = header("ratelimit-policy") ?? header("x-ratelimit-policy");
  const limit = headerNumber(header("ratelimit-limit") ?? header("x-ratelimit-limit")) ?? headerNumber(combined, ["limit"]) ?? headerNumber(policy, ["q"]);
  const remaining = headerNumber(header("ratelimit-remaining") ?? header("x-ratelimit-remaining")) ?? headerNumber(combined, ["remaining", "r"]);
  const reset = headerNumber(header("ratelimit-reset") ?? header("x-ratelimit-reset")) ?? headerNumber(combined, ["reset", "t"]);
  const window = headerNumber(policy, ["w"], false) ?? headerNumber(header("ratelimit-limit") ?? header("x-ratelimit-limit"), ["w"], false);
  const resetMs = reset === undefined ? undefined : reset > 1e12 ? reset - nowDate : reset > 1e9 ? reset * 1000 - nowDate : reset * 1000;
  return {
    ...(limit !== undefined && limit > 0 ? { limit } : {}),
    ...(remaining !== undefined ? { remaining } : {}),
    ...(resetMs !== undefined ? { resetMs: Math.max(0, resetMs) } : {}),
    ...(window !== undefined && window > 0 ? { windowMs: window * 1000 } : {}),
  };
}

export class RateLimiter {
  /** The least time between two request starts, in ms; 0 while no 429 has been met. */
  #gapMs = 0;
  /** When the next request may start. */
  #nextAt = 0;
  /** Until when the target asked for nothing (Retry-After, a reset): a request whose turn fell in it waits again. */
  #holdUntil = 0;
  /** When the pace was last set: a 429 of a request sent before then says nothing of the new pace. */
  #pacedAt = -Infinity;
  /** Start times of recent requests, oldest first (within `windowMs`), and those of them answered 429. */
  readonly #starts: number[] = [];
  readonly #refused: number[] = [];
  #limited = 0;
  #waitedMs = 0;

  /** `now` is the clock of the pacing (monotonic ms) and `clock` what it sleeps on: the run's clock (tests give their own `now`). */
  constructor(
    readonly now: () => number = () => performance.now(),
    readonly clock: RunClock = wallClock,
  ) {}

  /** Waits for this request's turn; resolves with the time it starts (rejects with BudgetExceeded on abort). */
  async turn(signal: AbortSignal): Promise<number> {
    let at: number;
    do {
      const now = this.now();
      at = Math.max(now, this.#nextAt);
      if (this.#gapMs > 0 || at > now) this.#nextAt = at + this.#gapMs;
      if (at > now) {
        this.#waitedMs += at - now;
        await sleep(at - now, signal, this.clock);
      }
      // A hold set while this request slept (a 429 of another) covers its turn: it waits for a turn after it.
    } while (this.#holdUntil > at);
    this.#starts.push(at);
    this.#forget(at);
    return at;
  }

  /** Requests the target took in the last `span` ms (those started and not answered 429). */
  #accepted(now: number, span: number): number {
    const since = now - span;
    return this.#starts.filter((t) => t >= since).length - this.#refused.filter((t) => t >= since).length;
  }

  #forget(now: number): void {
    for (const list of [this.#starts, this.#refused]) while (list.length && list[0]! < now - windowMs) list.shift();
  }

  /** Holds every request back until `ms` from now. */
  #hold(ms: number): void {
    this.#holdUntil = Math.max(this.#holdUntil, this.now() + ms);
    this.#nextAt = Math.max(this.#nextAt, this.#holdUntil);
  }

  /** Any answer's rate-limit headers: one that says nothing is left in the window holds requests until it resets. */
  observe(hint: RateLimitHint): void {
    if (hint.remaining === 0 && hint.resetMs !== undefined) this.#hold(Math.min(hint.resetMs, windowMs));
  }

  /**
   * A 429 answered a request that started at `sentAt`; nothing of the target starts again for `retryAfterMs`. The
   * pace is set just under the limit the headers state, or else the rate the target accepted over the Retry-After's
   * span; a 429 of a request sent at the pace already kept slows it by a step. Requests already on their way when the
   * pace was set say nothing of it.
   */
  limited(sentAt: number, retryAfterMs: number, hint: RateLimitHint = {}): void {
    this.#limited++;
    const now = this.now();
    this.#refused.push(sentAt);
    this.#refused.sort((a, b) => a - b);
    this.#hold(retryAfterMs);
    this.observe(hint);
    if (sentAt < this.#pacedAt) return;
    const span = Math.min(windowMs, Math.max(shortestWindowMs, retryAfterMs));
    // Met again at the pace kept: the limit is a step tighter than the pace (the window before this 429 holds the
    // last hold, so its accepted rate would understate the limit). Met unpaced: what the window accepted is the limit.
    const told = hint.limit !== undefined && hint.windowMs !== undefined ? hint.windowMs / hint.limit : undefined;
    const limitGap = this.#gapMs > 0 ? Math.max(told ?? 0, this.#gapMs * slower * margin) : (told ?? span / Math.max(1, this.#accepted(now, span)));
    this.#gapMs = Math.max(this.#gapMs, limitGap / margin);
    this.#pacedAt = Math.max(now, this.#holdUntil);
  }

  /**
   * A 429 whose Retry-After reaches past the run's budget (returned, not waited): counted, but the pace is kept —
   * slowing down cannot reach a time the target names beyond the run, and would only spend the budget.
   */
  beyondBudget(): void {
    this.#limited++;
  }

  report(): RateLimitReport {
    return { limited: this.#limited, waitedMs: Math.round(this.#waitedMs), ...(this.#gapMs > 0 ? { perMinute: Math.max(1, Math.round(windowMs / this.#gapMs)) } : {}) };
  }
}

const limiters = new WeakMap<object, RateLimiter>();

/** The rate limiter of a target (one per target of a run: every client of that target shares it). */
export function rateLimiterFor(target: { clock: RunClock }): RateLimiter {
  let l = limiters.get(target);
  // Paced on the run's time: against a target on time the run drives, a limit per second is per second of that time.
  if (!l) limiters.set(target, (l = new RateLimiter(() => target.clock.now(), target.clock)));
  return l;
}

/** One line per rate-limited suite of a run, for the reports (none when no target answered 429). */
export function rateLimitLines(result: { rateLimits?: Partial<Record<string, RateLimitReport>> }): string[] {
  return Object.entries(result.rateLimits ?? {}).map(
    ([suite, r]) =>
      `${suite.toUpperCase()} target rate-limited: ${r!.limited} × 429, ${(r!.waitedMs / 1000).toFixed(1)} s waited in all (Retry-After and pacing)${r!.perMinute ? `, paced to ${r!.perMinute} requests a minute` : ""}`,
  );
}
