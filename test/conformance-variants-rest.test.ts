// Allowed variants (test/variants/rest.ts): the REST reference behind a proxy that changes it only as seed 000
// allows. The suite must pass each (exit 0), and with --strict fail only on drift that names inferred rules: a
// seed verdict that fails here is a false failure of the suite.
import { describe, expect, it } from "vitest";
import { runConformance, type RunResult } from "../conformance/index.js";
import { referenceTargetPath } from "../conformance/core/paths.js";
import { expandRuleRef } from "../conformance/core/rules.js";
import { restCatalogue } from "../conformance/suites/rest/catalogue.js";
import { loadTargetFile } from "../conformance/target-file.js";
import { startRestMock } from "../mock/rest/server.js";
import { startMutantProxy, type Rewriter } from "./mutants/rest/proxy.js";
import { drivenTime } from "./support/driven-time.js";
import { contractProxyBefore } from "./support/contract-proxy.js";
import { variants as listed, variantTimeScale, type Variant } from "./variants/rest.js";
import { moreVariants } from "./variants/rest-more.js";

// Slower than the mutant runs' 0.001: the one variant on the wall clock (re-read-keeps-ready) holds requests in
// real milliseconds.
const timeScale = variantTimeScale;
const rules = restCatalogue();
/** The whole corpus: ./variants/rest.ts and the variants added beside it. */
const variants = [...listed, ...moreVariants];

/** The variant's rewriters, counting the exchanges they changed (a variant that changes nothing proves nothing). */
function counted(variant: Variant): { rewriter: Rewriter; changed: () => number } {
  let n = 0;
  const rewriter: Rewriter = {
    ...(variant.request ? { request: async (req, ctx) => { const out = await variant.request!(req, ctx); if (out !== req) n++; return out; } } : {}),
    ...(variant.response ? { response: async (req, res, ctx) => { const out = await variant.response!(req, res, ctx); if (out !== res) n++; return out; } } : {}),
    ...(variant.answer ? { answer: (req) => { const out = variant.answer!(req); if (out) n++; return out; } } : {}),
  };
  return { rewriter, changed: () => n };
}

async function runThrough(variant: Variant, strict: boolean): Promise<{ result: RunResult; changed: number; blamed: string[] }> {
  variant.reset?.();
  // On the run's driven time (as the embedded run): whether the reference's work is done when a check looks follows
  // from the run's steps, not from how fast a loaded host answered.
  const driven = variant.wallClock ? undefined : drivenTime(timeScale);
  if (driven) variant.useTime?.(() => driven.mockClock.now());
  const reference = await startRestMock({ port: 0, ...(driven ? { clock: driven.mockClock } : { timeScale }) });
  const { rewriter, changed } = counted(variant);
  const proxy = await startMutantProxy(reference.url, rewriter);
  // The strict run goes through our contract proxy, which on the same traffic must blame the variant for nothing
  // either; the lenient run calls the variant itself (the proxy asks for identity coding, which would leave a
  // variant of content codings unexercised).
  const contract = strict ? await contractProxyBefore("rest", proxy.url.href) : undefined;
  try {
    // With the default walks: their model compares kept values as the scripted checks do (conformance/suites/rest/kept.ts).
    // A generous budget: many variants run side by side on a shared machine, and a budget error proves nothing.
    const result = await runConformance({ restUrl: (contract?.url ?? proxy.url).href, targetFile: loadTargetFile(referenceTargetPath, {}), timeScale, env: {}, strict, budgetSeconds: 600, ...(driven ? { clock: driven.clock } : {}) });
    return { result, changed: changed(), blamed: (await contract?.blamed()) ?? [] };
  } finally {
    await contract?.stop();
    await proxy.stop();
    await reference.stop();
  }
}

/** The checks that fail the run or broke, each with the rules it names and its first message. */
const unexpected = (r: RunResult) =>
  r.checks
    .filter((c) => c.status === "error" || (c.status === "fail" && c.verdict !== "drift"))
    .map((c) => `${c.id} [${c.failures.flatMap((f) => f.rules).join(", ")}] ${c.error?.message ?? c.failures[0]?.message ?? ""}`);
/** The rule ids a failure names, families expanded. */
const named = (c: RunResult["checks"][number]) => [...new Set(c.failures.flatMap((f) => f.rules.flatMap((ref) => expandRuleRef(rules, ref) ?? [ref])))];

describe("allowed REST variants", () => {
  it("has at least 39 variants, unique ids, each citing the seed and changing something", () => {
    expect(variants.length).toBeGreaterThanOrEqual(39);
    expect(new Set(variants.map((v) => v.id)).size).toBe(variants.length);
    for (const v of variants) {
      expect(v.basis, v.id).toMatch(/"[^"]{10,}"/);
      expect(v.request ?? v.response ?? v.answer, v.id).toBeDefined();
      for (const r of v.drift ?? []) expect(rules.byId.get(r)?.provenance, `${v.id} expects drift on ${r}`).toBe("inferred");
    }
  });

  it.concurrent.each(variants.map((v) => [v.id, v] as const))("passes %s (and --strict fails only inferred rules)", async (_id, variant) => {
    const lenient = await runThrough(variant, false);
    expect(lenient.changed, "the variant changed no exchange").toBeGreaterThan(0);
    expect(unexpected(lenient.result)).toEqual([]);
    expect(lenient.result.exitCode).toBe(0);
    const drifted = new Set(lenient.result.checks.filter((c) => c.verdict === "drift").flatMap(named));
    for (const r of variant.drift ?? []) expect([...drifted], `${variant.id}: the inferred part ${r} is still judged (as drift)`).toContain(r);

    const strict = await runThrough(variant, true);
    expect(strict.blamed, "the contract proxy blames the variant").toEqual([]);
    expect(strict.result.checks.filter((c) => c.status === "error").map((c) => c.id)).toEqual([]);
    for (const c of strict.result.checks.filter((c) => c.status === "fail"))
      expect(named(c).filter((id) => rules.byId.get(id)?.provenance !== "inferred"), `${c.id} fails seed rules under --strict`).toEqual([]);
  }, 900_000);
});
