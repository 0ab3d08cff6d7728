// The mutant catalogue (test/mutants/rest/): each mutant is the reference server behind a proxy that breaks
// exactly one rule. The conformance suite must catch each with a failing check that names that rule. Prints
// the kill rate.
import { afterAll, describe, expect, it } from "vitest";
import { runConformance, type RunResult } from "../conformance/index.js";
import { referenceTargetPath } from "../conformance/paths.js";
import { loadRules } from "../conformance/rules.js";
import { loadTargetFile } from "../conformance/target.js";
import { startRestMock } from "../mock/rest/server.js";
import { mutants } from "./mutants/rest/catalogue.js";
import { startMutantProxy, type Mutant } from "./mutants/rest/proxy.js";

const timeScale = 0.001;

async function runAgainst(mutant: Mutant | null, extra: { expectedFailures?: string[] } = {}): Promise<RunResult> {
  const reference = await startRestMock({ port: 0, timeScale });
  const proxy = await startMutantProxy(reference.url, mutant);
  try {
    const file = loadTargetFile(referenceTargetPath, {});
    if (mutant?.timing) Object.assign(file.timing, mutant.timing);
    return await runConformance({ restUrl: proxy.url.href, targetFile: file, timeScale, env: {}, ...extra });
  } finally {
    await proxy.stop();
    await reference.stop();
  }
}

/** The failing checks that name the rule and attribute a failure to it. */
const killersOf = (result: RunResult, rule: string) =>
  result.checks.filter((c) => c.status === "fail" && c.rules.includes(rule) && c.failures.some((f) => f.rules.includes(rule)));

const outcomes = new Map<string, { rule: string; killers: string[] }>();

describe("mutant catalogue", () => {
  it("has at least 20 mutants, unique ids, each breaking one known rule", () => {
    const rules = loadRules();
    expect(mutants.length).toBeGreaterThanOrEqual(20);
    expect(new Set(mutants.map((m) => m.id)).size).toBe(mutants.length);
    for (const m of mutants) expect(rules.byId.has(m.rule), `${m.id} breaks unknown rule ${m.rule}`).toBe(true);
  });

  it("the proxy alone changes nothing: the reference behind it passes", async () => {
    const result = await runAgainst(null);
    expect(result.checks.filter((c) => c.status === "fail").map((c) => `${c.id}: ${c.failures[0]?.message}`)).toEqual([]);
  });

  it.concurrent.each(mutants.map((m) => [m.id, m] as const))("catches %s", async (_id, mutant) => {
    const result = await runAgainst(mutant);
    const killers = killersOf(result, mutant.rule);
    outcomes.set(mutant.id, { rule: mutant.rule, killers: killers.map((c) => c.id) });
    // Every failure names rules its check declares, so the ledger and this test see the same thing.
    for (const c of result.checks) for (const f of c.failures) for (const r of f.rules) expect(c.rules, `${c.id} attributes a failure to undeclared ${r}`).toContain(r);
    expect(killers.map((c) => c.id), `${mutant.id} (breaks ${mutant.rule}) was not caught`).not.toEqual([]);
    expect(result.exitCode).toBe(1);
    expect(result.ledger.find((e) => e.id === mutant.rule)?.status).toBe("fail");
  }, 60_000);

  it("an expected failure in the baseline keeps the run green; a new one does not", async () => {
    const ranks = mutants.find((m) => m.id === "ranks-out-of-order")!;
    const known = await runAgainst(ranks, { expectedFailures: ["batch-ranks-ordered"] });
    expect(known.checks.find((c) => c.id === "batch-ranks-ordered")?.verdict).toBe("expected-failure");
    expect(known.exitCode).toBe(0);
    const stale = await runAgainst(ranks, { expectedFailures: ["batch-ranks-ordered", "get-brand"] });
    expect(stale.checks.find((c) => c.id === "get-brand")?.verdict).toBe("fixed");
    expect(stale.exitCode).toBe(1);
  }, 60_000);

  afterAll(() => {
    const killed = [...outcomes.values()].filter((o) => o.killers.length).length;
    const lines = [...outcomes].map(([id, o]) => `  ${o.killers.length ? "killed" : "ALIVE "} ${id.padEnd(36)} ${o.rule.padEnd(36)} ${o.killers.slice(0, 3).join(", ")}`);
    console.log(`Mutant kill rate: ${killed}/${outcomes.size} (${outcomes.size ? Math.round((100 * killed) / outcomes.size) : 0}%)\n${lines.join("\n")}`);
  });
});
