// The mutant catalogue (test/mutants/rest/): each mutant is the reference server behind a proxy that breaks
// exactly one rule. The conformance suite must catch each with a failing check that names that rule. Prints
// the kill rate.
import { afterAll, describe, expect, it } from "vitest";
import { restChecks, runConformance, type RunResult } from "../conformance/index.js";
import { referenceTargetPath } from "../conformance/core/paths.js";
import { restCatalogue } from "../conformance/suites/rest/catalogue.js";
import { loadTargetFile } from "../conformance/target-file.js";
import { startRestMock } from "../mock/rest/server.js";
import { mutants } from "./mutants/rest/catalogue.js";
import { startMutantProxy, type Mutant } from "./mutants/rest/proxy.js";
import type { ScopedMutant } from "./mutants/rest/skips.js";
import { drivenTime } from "./support/driven-time.js";
import { hangGuardMs } from "./support/hang-guard.js";
import { checksNaming, expectKilled, killersOf, printKillRate } from "./support/mutants.js";

const timeScale = 0.001;

/** `whole`: every check runs, not only those naming the mutant's rule (what a baseline test needs). */
async function runAgainst(mutant: Mutant | null, extra: { expectedFailures?: string[] } = {}, whole = false): Promise<RunResult> {
  // On time the run drives: whether a check sees the target's background work done follows from its steps, not the host's speed.
  const { clock, mockClock } = drivenTime(timeScale);
  const reference = await startRestMock({ port: 0, clock: mockClock });
  const proxy = await startMutantProxy(reference.url, mutant);
  try {
    const file = loadTargetFile(referenceTargetPath, {});
    if (mutant?.timing) file.rest = { ...file.rest, timing: { ...file.rest?.timing, ...mutant.timing } };
    // Strict: a mutant of an inferred rule must fail the run too, not pass as contract drift.
    // A mutant runs on the checks that name its rule, or on those its entry names (./mutants/rest/skips.ts).
    const only = (mutant as ScopedMutant | null)?.run?.only ?? (mutant && !whole ? checksNaming(restChecks, mutant.rule) : undefined);
    return await runConformance({ restUrl: proxy.url.href, targetFile: file, timeScale, env: {}, strict: true, clock, ...extra, ...(only ? { only } : {}) });
  } finally {
    await proxy.stop();
    await reference.stop();
  }
}

const outcomes = new Map<string, { rule: string; killers: string[] }>();

describe("mutant catalogue", () => {
  it("has at least 20 mutants, unique ids, each breaking one known rule", () => {
    const rules = restCatalogue();
    expect(mutants.length).toBeGreaterThanOrEqual(20);
    expect(new Set(mutants.map((m) => m.id)).size).toBe(mutants.length);
    for (const m of mutants) expect(rules.byId.get(m.rule)?.testable, `${m.id} breaks ${m.rule}, not a testable rule of rest.yaml`).toMatch(/^(direct|trigger)$/);
  });

  it("proves every rule family of rest.yaml with a mutant of one of its members", () => {
    const rules = restCatalogue();
    const proven = new Set(mutants.map((m) => rules.byId.get(m.rule)?.family));
    expect([...rules.families.keys()].filter((f) => !proven.has(f))).toEqual([]);
  });

  it("the proxy alone changes nothing: the reference behind it passes", async () => {
    const result = await runAgainst(null);
    expect(result.checks.filter((c) => c.status === "fail").map((c) => `${c.id}: ${c.failures[0]?.message}`)).toEqual([]);
  }, hangGuardMs);

  it.concurrent.each(mutants.map((m) => [m.id, m] as const))("catches %s", async (_id, mutant) => {
    const result = await runAgainst(mutant);
    outcomes.set(mutant.id, { rule: mutant.rule, killers: killersOf(result, mutant.rule).map((c) => c.id) });
    expectKilled(result, mutant);
    // A hang guard, never a verdict on speed (./support/hang-guard.ts): many runs share the cores.
  }, hangGuardMs);

  it("an expected failure in the baseline keeps the run green; a new one does not", async () => {
    const ranks = mutants.find((m) => m.id === "ranks-out-of-order")!;
    const known = await runAgainst(ranks, { expectedFailures: ["batch-ranks-ordered"] }, true);
    expect(known.checks.find((c) => c.id === "batch-ranks-ordered")?.verdict).toBe("expected-failure");
    expect(known.exitCode).toBe(0);
    const stale = await runAgainst(ranks, { expectedFailures: ["batch-ranks-ordered", "get-brand"] }, true);
    expect(stale.checks.find((c) => c.id === "get-brand")?.verdict).toBe("fixed");
    expect(stale.exitCode).toBe(1);
  }, hangGuardMs);

  afterAll(() => printKillRate("REST mutant", outcomes));
});
