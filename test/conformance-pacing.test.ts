// The suite's pacing below a rate limit (conformance/core/pacing.ts) and the polite client's 429 handling: waited out
// as often as it takes (seconds and HTTP-date forms), the target paced from then on, the wait reported.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { Transport, retryAfterMs } from "../conformance/core/http.js";
import { RateLimiter, rateLimitHint, rateLimiterFor, rateLimitLines } from "../conformance/core/pacing.js";
import { Redactor } from "../conformance/core/redact.js";
import { resolveTarget } from "../conformance/suites/rest/target.js";

describe("the rate limiter", () => {
  /** A limiter on a clock the test moves: `send(n, everyMs)` starts n requests that far apart. */
  function onTestClock() {
    let t = 100_000;
    const limiter = new RateLimiter(() => t);
    const signal = new AbortController().signal;
    return {
      limiter,
      advance: (ms: number) => (t += ms),
      async send(n: number, everyMs: number): Promise<number> {
        let last = 0;
        for (let i = 0; i < n; i++) {
          t += everyMs;
          last = await limiter.turn(signal);
        }
        return last;
      },
    };
  }

  it("sends unpaced until a 429, then just under the rate the target accepted in the window before it", async () => {
    const { limiter, send } = onTestClock();
    expect(limiter.report()).toEqual({ limited: 0, waitedMs: 0 });
    // 100 a second for two seconds, then a 429 asking for a second: 100 accepted in that second, paced just under.
    const last = await send(200, 10);
    limiter.limited(last, 1000);
    const pace = limiter.report().perMinute!;
    expect(pace).toBeLessThan(100 * 60);
    expect(pace).toBeGreaterThanOrEqual(0.85 * 100 * 60);
  });

  it("met again at its pace, slows by a step, not by half; a request sent before the pace was set says nothing", async () => {
    const { limiter, send, advance } = onTestClock();
    limiter.limited(await send(100, 10), 1000);
    const first = limiter.report().perMinute!;
    limiter.limited(-1, 0);
    expect(limiter.report().perMinute).toBe(first);
    advance(1000);
    limiter.limited(await send(5, 0), 1000);
    const second = limiter.report().perMinute!;
    expect(second).toBeLessThan(first);
    expect(second).toBeGreaterThanOrEqual(0.75 * first);
    expect(limiter.report().limited).toBe(3);
  });

  it("paces under the limit the target's headers state, and a 429 past the budget never slows it", async () => {
    const { limiter, send } = onTestClock();
    limiter.limited(await send(10, 1), 1000, { limit: 50, windowMs: 1000, remaining: 0 });
    const pace = limiter.report().perMinute!;
    expect(pace).toBeLessThan(50 * 60);
    expect(pace).toBeGreaterThanOrEqual(0.85 * 50 * 60);
    limiter.beyondBudget();
    expect(limiter.report()).toMatchObject({ limited: 2, perMinute: pace });
  });

  it("reads the standard rate-limit headers", () => {
    const h = (headers: Record<string, string>) => (name: string) => headers[name];
    expect(rateLimitHint(h({}))).toEqual({});
    expect(rateLimitHint(h({ "ratelimit-limit": "100", "ratelimit-remaining": "0", "ratelimit-reset": "30", "ratelimit-policy": "100;w=60" }))).toEqual({ limit: 100, remaining: 0, resetMs: 30_000, windowMs: 60_000 });
    expect(rateLimitHint(h({ "x-ratelimit-limit": "60", "x-ratelimit-remaining": "3", "x-ratelimit-reset": "1700000010" }), 1_700_000_000_000)).toEqual({ limit: 60, remaining: 3, resetMs: 10_000 });
    expect(rateLimitHint(h({ ratelimit: "limit=10, remaining=0, reset=5" }))).toEqual({ limit: 10, remaining: 0, resetMs: 5000 });
    expect(rateLimitHint(h({ ratelimit: '"default";r=0;t=7', "ratelimit-policy": '"default";q=20;w=10' }))).toEqual({ limit: 20, remaining: 0, resetMs: 7000, windowMs: 10_000 });
  });

  it("reads Retry-After as seconds or an HTTP date", () => {
    expect(retryAfterMs("3")).toBe(3000);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4_000)).toBe(6_000);
    expect(retryAfterMs("soon")).toBeUndefined();
  });

  it("reports how long a limited run waited, per suite", () => {
    expect(rateLimitLines({})).toEqual([]);
    expect(rateLimitLines({ rateLimits: { mcp: { limited: 3, waitedMs: 2500, perMinute: 60 } } })).toEqual(["MCP target rate-limited: 3 × 429, 2.5 s waited in all (Retry-After and pacing), paced to 60 requests a minute"]);
  });
});

describe("the polite client against a rate limit", () => {
  it("waits out every 429 within the budget, in both Retry-After forms, and paces the target afterwards", async () => {
    let calls = 0;
    const server = http.createServer((_req, res) => {
      calls++;
      // Four refusals in a row (more than the three retries of old), alternating the two forms, each asking for no
      // wait: the pacing alone spaces the retries (nothing was accepted: about a second, then a step slower each).
      if (calls <= 4) res.writeHead(429, { "retry-after": calls % 2 ? "0" : new Date(0).toUTCString(), "content-type": "application/json" }).end('{"error":{}}');
      else res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    const target = resolveTarget({ overrides: { restUrl: url.href, tokens: { team: "t" } }, env: {} });
    const transport = new Transport(target, new Redactor([]), new AbortController().signal);
    try {
      const res = await transport.send({ method: "GET", path: "/v1/brands/brand_x" });
      expect(res.status).toBe(200);
      expect(res.waited429).toBe(4);
      const report = rateLimiterFor(target).report();
      expect(report.limited).toBe(4);
      expect(report.perMinute).toBeGreaterThan(0);
      // A request that wants to see the 429 is neither paced nor counted.
      calls = 0;
      const seen = await transport.send({ method: "GET", path: "/v1/brands/brand_x", retry429: false });
      expect(seen.status).toBe(429);
      expect(rateLimiterFor(target).report().limited).toBe(4);
    } finally {
      transport.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    // A hang guard: the pacing waits a few seconds.
  }, 120_000);

  it("paces concurrent requests under the limit the headers state, every one answered, the wait reported", async () => {
    let calls = 0;
    // Every eleventh request is refused (by count, not time: the test does not depend on how fast the host sends),
    // with a second's hold that the requests still to go wait out (so some wait is reported whatever the host's speed).
    const server = http.createServer((_req, res) => {
      const policy = { "ratelimit-policy": "20;w=1", "ratelimit-limit": "20", "content-type": "application/json" };
      if (++calls % 11 === 0) res.writeHead(429, { ...policy, "retry-after": "1" }).end('{"error":{}}');
      else res.writeHead(200, policy).end("{}");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    const target = resolveTarget({ overrides: { restUrl: url.href, tokens: { team: "t" } }, env: {} });
    const transport = new Transport(target, new Redactor([]), new AbortController().signal);
    try {
      const answers = await Promise.all(Array.from({ length: 40 }, () => transport.send({ method: "GET", path: "/v1/brands/brand_x" })));
      expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
      const report = rateLimiterFor(target).report();
      expect(report.limited).toBeGreaterThan(0);
      expect(report.limited).toBe(answers.reduce((n, a) => n + a.waited429, 0));
      expect(report.perMinute).toBeLessThan(20 * 60);
      expect(report.waitedMs).toBeGreaterThan(0);
      expect(rateLimitLines({ rateLimits: { rest: report } })[0]).toMatch(/^REST target rate-limited: \d+ × 429, [\d.]+ s waited/);
    } finally {
      transport.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  }, 120_000);
});
