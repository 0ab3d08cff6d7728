// The allowed-variant corpus of the MCP suite (test/variants/mcp.ts, mcp-more.ts): the MCP mock behind the mutant
// proxy, changed only in ways seed 001 allows. The suite must pass each (exit 0, no check failed or skipped for it);
// failures of inferred rules may show as drift (they are what --strict fails on), never failures of seed rules.
// Half the corpus runs here, the other half in conformance-variants-mcp-second-half.test.ts.
import { describe, expect, it } from "vitest";
import { mcpCatalogue } from "../conformance/suites/mcp/catalogue.js";
import { expandRuleRef } from "../conformance/core/rules.js";
import { eachVariantPasses, mcpVariants, runVariant } from "./variants/run-mcp.js";
import { hangGuardMs } from "./support/hang-guard.js";

describe("MCP allowed variants (first half; the second is in conformance-variants-mcp-second-half.test.ts)", () => {
  it("has at least 40 variants, unique ids, each citing the seed", () => {
    expect(mcpVariants.length).toBeGreaterThanOrEqual(40);
    expect(new Set(mcpVariants.map((v) => v.id)).size).toBe(mcpVariants.length);
    for (const v of mcpVariants) expect(v.basis, v.id).toMatch(/\w{3,}.*\w{3,}/);
  });

  eachVariantPasses(0);
});

describe("a gateway without the arguments the seed does not define", () => {
  // The second takes none anywhere: the shared scenarios' calls (run.ts, never wrapped) must need none of them.
  it.each(["inferred-only-arguments-refused", "seed-arguments-only"])("%s fails only inferred rules under --strict, and those as drift on inferred-input-not-tightened", async (id) => {
    const variant = mcpVariants.find((v) => v.id === id)!;
    const { result } = await runVariant(variant, { strict: true });
    const rules = mcpCatalogue();
    const failing = result.checks.filter((c) => c.status === "fail" || c.status === "error");
    expect(failing.filter((c) => c.status === "error").map((c) => c.id)).toEqual([]);
    const named = failing.flatMap((c) => c.failures.flatMap((f) => f.rules.flatMap((ref) => expandRuleRef(rules, ref) ?? [ref])));
    expect(named.filter((id) => rules.byId.get(id)?.provenance !== "inferred")).toEqual([]);
    expect(named.some((id) => id.startsWith("inferred-input-not-tightened/"))).toBe(true);
  }, hangGuardMs);
});
