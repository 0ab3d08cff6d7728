// The suite's pacing below a rate limit (conformance/pacing.ts) and the polite client's 429 handling: waited out
// as often as it takes (seconds and HTTP-date forms), the target paced from then on, the wait reported.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { Transport, retryAfterMs } from "../conformance/http.js";
import { RateLimiter, rateLimiterFor, rateLimitLines } from "../conformance/pacing.js";
import { Redactor } from "../conformance/redact.js";
import { resolveTarget } from "../conformance/target.js";

describe("the rate limiter", () => {
  it("sends unpaced until a 429, then halves its pace on each 429 sent at the current pace, never faster again", async () => {
    const limiter = new RateLimiter();
    const signal = new AbortController().signal;
    expect(limiter.report()).toEqual({ limited: 0, waitedMs: 0 });
    for (let i = 0; i < 10; i++) await limiter.turn(signal);
    limiter.limited(performance.now(), 0);
    const first = limiter.report().perMinute!;
    expect(first).toBeGreaterThan(0);
    // A request already on its way when the pace was lowered says nothing of the new pace.
    limiter.limited(-1, 0);
    expect(limiter.report().perMinute).toBe(first);
    limiter.limited(performance.now(), 0);
    expect(limiter.report().perMinute).toBeLessThanOrEqual(Math.ceil(first / 2));
    expect(limiter.report().limited).toBe(3);
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
      // wait: the pacing alone spaces the retries (doubling: 2, 4 and 8 s).
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
    // A hang guard: the pacing waits about 14 s.
  }, 120_000);
});
