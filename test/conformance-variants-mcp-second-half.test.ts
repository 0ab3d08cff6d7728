// The second half of the MCP allowed-variant corpus (see conformance-variants-mcp.test.ts), and the REST suite
// behind a real rate limit: a file of its own so that vitest's two workers share the corpus.
import { describe, expect, it } from "vitest";
import { runConformance } from "../conformance/index.js";
import { rateLimitLines } from "../conformance/core/pacing.js";
import { referenceTargetPath } from "../conformance/core/paths.js";
import { loadTargetFile } from "../conformance/target-file.js";
import { startRestMock } from "../mock/rest/server.js";
import { startMutantProxy } from "./mutants/rest/proxy.js";
import { drivenTime } from "./support/driven-time.js";
import { rateLimit } from "./variants/mcp.js";
import { eachVariantPasses } from "./variants/run-mcp.js";
import { hangGuardMs } from "./support/hang-guard.js";

describe("MCP allowed variants (second half)", () => {
  eachVariantPasses(1);
});

describe("the REST suite behind a rate limit", () => {
  it("passes, only slower: 429 with Retry-After waited out, the rest paced, the wait reported", async () => {
    // Seed 000: a per-client-id limit exists (value not shown), 429 rate_limit, wait as many seconds as Retry-After says.
    const body = { error: { type: "rate_limit", code: null, message: "Too many requests.", param: null } };
    const limit = rateLimit(50, { perToken: true, body });
    // On time the run drives: the limit counts the service's seconds, so it is met however fast the host is.
    const { clock, mockClock } = drivenTime(0.001);
    limit.useTime(() => mockClock.now());
    const reference = await startRestMock({ port: 0, clock: mockClock });
    const proxy = await startMutantProxy(reference.url, { id: "rest-rate-limit", rule: "none", description: "50 requests a second per token", answer: limit.answer });
    try {
      // The full run, walks included, within the default variants' budget: paced just under the limit it met.
      const result = await runConformance({ restUrl: proxy.url.href, targetFile: loadTargetFile(referenceTargetPath, {}), timeScale: 0.001, env: {}, budgetSeconds: 300, clock });
      expect(limit.limited(), "the limit was never met").toBeGreaterThan(0);
      // Skips for a race the checks lost, or for HTTPS, are the REST suite's own; nothing may fail or end in error.
      expect(result.checks.filter((c) => c.status === "fail" || c.status === "error").map((c) => `${c.id}: ${c.status} ${c.failures[0]?.message ?? c.error?.message ?? ""}`)).toEqual([]);
      expect(result.exitCode).toBe(0);
      expect(result.rateLimits?.rest?.limited).toBeGreaterThan(0);
      // The run says how long the limit cost it.
      expect(result.rateLimits?.rest?.waitedMs).toBeGreaterThan(0);
      expect(rateLimitLines(result).join("\n")).toMatch(/REST target rate-limited: \d+ × 429, [\d.]+ s waited/);
    } finally {
      await proxy.stop();
      await reference.stop();
    }
  }, hangGuardMs);
});
