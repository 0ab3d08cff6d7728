// Allowed variants, dialects (test/variants/mcp-dialects.ts): the MCP reference behind a proxy that writes its
// tools/list schemas in another JSON Schema dialect, meaning the same. Seed 001 says only "JSON Schema": the whole
// MCP suite must pass each one, strict, and the advertised dialect must really be the variant's.
import { describe, expect, it } from "vitest";
import { runConformance, type RunResult } from "../conformance/index.js";
import { referenceTargetPath } from "../conformance/core/paths.js";
import { loadTargetFile } from "../conformance/target-file.js";
import { startMcpMock } from "../mock/mcp/server.js";
import { mcpMutants } from "./mutants/mcp/catalogue.js";
import { throughProxy } from "./mutants/mcp/links.js";
import { startMutantProxy } from "./mutants/rest/proxy.js";
import type { Mutant } from "./mutants/rest/proxy.js";
import { drivenTime } from "./support/driven-time.js";
import { expectKilled, mcpNonPasses } from "./support/mutants.js";
import { dialectVariants, type McpVariant } from "./variants/mcp-dialects.js";

const timeScale = 0.001;

/** The run against the variant (or mutant), and every `$schema` its tools/list answers advertised. */
async function runAgainst(variant: Mutant, only?: string[]): Promise<{ result: RunResult; advertised: Set<string | undefined> }> {
  const advertised = new Set<string | undefined>();
  const seeing: Mutant = {
    ...variant,
    async response(req, res, ctx) {
      const out = await variant.response!(req, res, ctx);
      for (const t of req.body?.method === "tools/list" ? (out.body?.result?.tools ?? []) : []) for (const s of [t.inputSchema, t.outputSchema]) if (s) advertised.add(s.$schema);
      return out;
    },
  };
  const { clock, mockClock } = drivenTime(timeScale);
  const gateway = await startMcpMock({ port: 0, clock: mockClock });
  const proxy = await startMutantProxy(gateway.url, throughProxy(seeing, gateway.url));
  try {
    const file = loadTargetFile(referenceTargetPath, {});
    const result = await runConformance({ mcpUrl: new URL(gateway.url.pathname, proxy.url).href, targetFile: file, timeScale, env: {}, strict: true, budgetSeconds: 600, clock, ...(only ? { only } : {}) });
    return { result, advertised };
  } finally {
    await proxy.stop();
    await gateway.stop();
  }
}

describe("allowed variants: JSON Schema dialects of tools/list", () => {
  it("each variant cites the seed sentence that allows it, under a unique id", () => {
    expect(new Set(dialectVariants.map((v) => v.id)).size).toBe(dialectVariants.length);
    for (const v of dialectVariants) expect(v.basis, v.id).toMatch(/^Seed 001, .*JSON Schema/);
  });

  it.each(dialectVariants.map((v) => [v.id, v] as const))("%s passes the MCP suite", async (_id, variant) => {
    const { result, advertised } = await runAgainst(variant, variant.only);
    expect([...advertised], "the tools/list answers did not all carry the variant's dialect").toEqual([variant.advertises]);
    expect(mcpNonPasses(result)).toEqual([]);
    expect(result.exitCode).toBe(0);
    // One run at a time (the reference mock refuses requests that arrive late on overloaded cores); a hang guard, not a speed limit.
  }, 900_000);

  it("a schema invalid in its own dialect fails the schema rule of its tool, and only that: every other check still runs and passes", async () => {
    const mutant = mcpMutants.find((m) => m.id === "mcp-get-profile-schema-invalid-in-dialect")!;
    const { result } = await runAgainst(mutant, mutant.run!.only);
    expect(expectKilled(result, mutant)).toEqual(["mcp-tools-list-schemas"]);
    const schemaCheck = result.checks.find((c) => c.id === "mcp-tools-list-schemas")!;
    expect(schemaCheck.failures.map((f) => f.message)).toEqual([expect.stringMatching(/^get_profile: outputSchema is not valid JSON Schema draft-07: /)]);
    const others = (ids: string[]) => ids.filter((id) => !id.startsWith("mcp-tools-list-schemas")).sort();
    expect(others(result.checks.map((c) => `${c.id}: ${c.status}`))).toEqual(others(mutant.run!.only!.map((id) => `${id}: pass`)));
  }, 900_000);
});
