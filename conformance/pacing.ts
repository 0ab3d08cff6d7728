// Pacing below a rate limit the target has shown. The seeds publish no number (REST: a limit per client id; MCP: per
// IP address per minute at the edge), so the suite learns it: unpaced until the first 429, then no faster than
// half the rate it was sending at, halved again on each 429 of a request sent at the current pace, and never
// faster afterwards. A 429's Retry-After holds every request of the target back until it has passed, not only the
// one refused. Whatever was waited (Retry-After and pacing) is counted, so a run can say how long the limit cost it.
import { sleep } from "./run-clock.js";

/** The window over which the sending rate is measured when a 429 arrives (the MCP edge counts per minute). */
const windowMs = 60_000;

export interface RateLimitReport {
  /** 429 answers met (and waited out, or returned when past the budget). */
  limited: number;
  /** Time requests spent held back for rate limits: Retry-After and pacing, summed over requests. */
  waitedMs: number;
  /** The pace the suite kept at the end, in requests per minute; undefined while unpaced. */
  perMinute?: number;
}

export class RateLimiter {
  /** The least time between two request starts, in ms; 0 while no 429 has been met. */
  #gapMs = 0;
  /** When the next request may start (performance.now() time). */
  #nextAt = 0;
  /** When the pace was last lowered: a 429 of a request sent before then says nothing of the new pace. */
  #loweredAt = -Infinity;
  /** Start times of recent requests, oldest first (within `windowMs`). */
  readonly #starts: number[] = [];
  #limited = 0;
  #waitedMs = 0;

  /** Waits for this request's turn; resolves with the time it starts (rejects with BudgetExceeded on abort). */
  async turn(signal: AbortSignal): Promise<number> {
    const now = performance.now();
    const at = Math.max(now, this.#nextAt);
    if (this.#gapMs > 0 || at > now) this.#nextAt = at + this.#gapMs;
    if (at > now) {
      this.#waitedMs += at - now;
      await sleep(at - now, signal);
    }
    this.#starts.push(at);
    while (this.#starts.length && this.#starts[0]! < at - windowMs) this.#starts.shift();
    return at;
  }

  /**
   * A 429 answered a request that started at `sentAt`; nothing of the target starts again for `retryAfterMs`. The
   * pace halves from the rate sent over the last Retry-After (1 s to a minute: the window the target counts in),
   * once per block: requests already on their way when it was lowered say nothing of the new pace.
   */
  limited(sentAt: number, retryAfterMs: number): void {
    this.#limited++;
    const now = performance.now();
    this.#nextAt = Math.max(this.#nextAt, now + retryAfterMs);
    if (sentAt < this.#loweredAt) return;
    const window = Math.min(windowMs, Math.max(1_000, retryAfterMs));
    const recent = this.#starts.filter((t) => t >= now - window).length;
    const sentGapMs = window / Math.max(1, recent);
    this.#gapMs = Math.max(this.#gapMs * 2, sentGapMs * 2);
    this.#loweredAt = now + retryAfterMs;
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
export function rateLimiterFor(target: object): RateLimiter {
  let l = limiters.get(target);
  if (!l) limiters.set(target, (l = new RateLimiter()));
  return l;
}

/** One line per rate-limited suite of a run, for the reports (none when no target answered 429). */
export function rateLimitLines(result: { rateLimits?: Partial<Record<string, RateLimitReport>> }): string[] {
  return Object.entries(result.rateLimits ?? {}).map(
    ([suite, r]) =>
      `${suite.toUpperCase()} target rate-limited: ${r!.limited} × 429, ${(r!.waitedMs / 1000).toFixed(1)} s waited in all (Retry-After and pacing)${r!.perMinute ? `, paced to ${r!.perMinute} requests a minute` : ""}`,
  );
}
