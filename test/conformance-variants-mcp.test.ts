// The allowed-variant corpus of the MCP suite (test/variants/mcp.ts): the MCP mock behind the mutant proxy,
// changed only in ways seed 001 allows. The suite must pass each (exit 0, no check failed or skipped for it);
// failures of inferred rules may show as drift (they are what --strict fails on), never failures of seed rules.
import { describe, expect, it } from "vitest";
import { runConformance, type RunResult } from "../conformance/index.js";
import { rateLimitLines } from "../conformance/core/pacing.js";
import { referenceTargetPath } from "../conformance/core/paths.js";
import { mcpRulesPath } from "../conformance/suites/mcp/paths.js";
import { expandRuleRef, loadRules } from "../conformance/core/rules.js";
import { loadTargetFile } from "../conformance/target-file.js";
import { startRestMock } from "../mock/rest/server.js";
import { startMutantProxy } from "./mutants/rest/proxy.js";
import { drivenTime } from "./support/driven-time.js";
import { mcpNonPasses } from "./support/mutants.js";
import { mcpVariants as listed, rateLimit } from "./variants/mcp.js";
import { moreMcpVariants } from "./variants/mcp-more.js";
import { runVariant } from "./variants/run-mcp.js";
import { hangGuardMs } from "./support/hang-guard.js";

/** The whole corpus: ./variants/mcp.ts and the variants added beside it. */
const mcpVariants = [...listed, ...moreMcpVariants];

/** Drift (failures of inferred rules only) is allowed; anything else that did not pass is a false failure. */
const falseFailures = (result: RunResult) => mcpNonPasses(result).filter((line) => !result.checks.some((c) => c.verdict === "drift" && line.startsWith(`${c.id}:`)));

describe("MCP allowed variants", () => {
  it("has at least 40 variants, unique ids, each citing the seed", () => {
    expect(mcpVariants.length).toBeGreaterThanOrEqual(40);
    expect(new Set(mcpVariants.map((v) => v.id)).size).toBe(mcpVariants.length);
    for (const v of mcpVariants) expect(v.basis, v.id).toMatch(/\w{3,}.*\w{3,}/);
  });

  // One at a time: each is a whole run on driven time, bound by CPU alone, so running several at once gains nothing on
  // two cores and multiplies each test's wall time (five at once met the hang guard on a loaded host).
  it.each(mcpVariants.map((v) => [v.id, v] as const))("passes %s", async (_id, variant) => {
    const result = await runVariant(variant);
    if (variant.changed) expect(variant.changed(), `${variant.id} changed nothing`).toBeGreaterThan(0);
    expect(falseFailures(result)).toEqual([]);
    expect(result.exitCode).toBe(0);
    // A hang guard, not a speed limit: a whole run on two loaded cores (the rate-limited one waits for its limit).
  }, hangGuardMs);
});

describe("a gateway without the arguments the seed does not define", () => {
  // The second takes none anywhere: the shared scenarios' calls (run.ts, never wrapped) must need none of them.
  it.each(["inferred-only-arguments-refused", "seed-arguments-only"])("%s fails only inferred rules under --strict, and those as drift on inferred-input-not-tightened", async (id) => {
    const variant = mcpVariants.find((v) => v.id === id)!;
    const result = await runVariant(variant, { strict: true });
    const rules = loadRules(mcpRulesPath);
    const failing = result.checks.filter((c) => c.status === "fail" || c.status === "error");
    expect(failing.filter((c) => c.status === "error").map((c) => c.id)).toEqual([]);
    const named = failing.flatMap((c) => c.failures.flatMap((f) => f.rules.flatMap((ref) => expandRuleRef(rules, ref) ?? [ref])));
    expect(named.filter((id) => rules.byId.get(id)?.provenance !== "inferred")).toEqual([]);
    expect(named.some((id) => id.startsWith("inferred-input-not-tightened/"))).toBe(true);
  }, hangGuardMs);
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
