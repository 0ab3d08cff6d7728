// The MCP mutant catalogue (test/mutants/mcp/): each mutant is the MCP gateway mock behind a proxy that breaks
// exactly one rule of spec/rules/mcp.yaml. The MCP suite must catch each with a failing check that names that
// rule. Prints the kill rate.
import { afterAll, describe, expect, it } from "vitest";
import { runConformance, type RunResult } from "../conformance/index.js";
import { mcpRulesPath } from "../conformance/mcp/paths.js";
import { referenceTargetPath } from "../conformance/paths.js";
import { loadRules } from "../conformance/rules.js";
import { loadTargetFile } from "../conformance/target.js";
import { startMcpMock } from "../mock/mcp/server.js";
import { mcpMutants, type McpMutant } from "./mutants/mcp/catalogue.js";
import { mutants as restMutants } from "./mutants/rest/catalogue.js";
import { startMutantProxy } from "./mutants/rest/proxy.js";
import { expectKilled, killersOf, mcpNonPasses, printKillRate } from "./support/mutants.js";

const timeScale = 0.001;

async function runAgainst(mutant: McpMutant | null): Promise<RunResult> {
  const scale = mutant?.run?.timeScale ?? timeScale;
  const gateway = await startMcpMock({ port: 0, timeScale: scale });
  const proxy = await startMutantProxy(gateway.url, mutant);
  try {
    const file = loadTargetFile(referenceTargetPath, {});
    const only = mutant?.run?.only ? { only: mutant.run.only } : {};
    return await runConformance({ mcpUrl: new URL(gateway.url.pathname, proxy.url).href, targetFile: file, timeScale: scale, env: {}, ...only });
  } finally {
    await proxy.stop();
    await gateway.stop();
  }
}

const outcomes = new Map<string, { rule: string; killers: string[] }>();

describe("MCP mutant catalogue", () => {
  it("has at least 20 mutants (40 with the REST ones), unique ids, each breaking one known rule", () => {
    const rules = loadRules(mcpRulesPath);
    expect(mcpMutants.length).toBeGreaterThanOrEqual(20);
    expect(mcpMutants.length + restMutants.length).toBeGreaterThanOrEqual(40);
    expect(new Set([...mcpMutants, ...restMutants].map((m) => m.id)).size).toBe(mcpMutants.length + restMutants.length);
    for (const m of mcpMutants) expect(rules.byId.get(m.rule)?.testable, `${m.id} breaks ${m.rule}, not a testable rule of mcp.yaml`).toMatch(/^(direct|trigger)$/);
  });

  it("the proxy alone changes nothing: the MCP mock behind it passes every check", async () => {
    const result = await runAgainst(null);
    expect(result.suites).toEqual(["mcp"]);
    expect(mcpNonPasses(result)).toEqual([]);
  });

  it.concurrent.each(mcpMutants.map((m) => [m.id, m] as const))("catches %s", async (_id, mutant) => {
    const result = await runAgainst(mutant);
    outcomes.set(mutant.id, { rule: mutant.rule, killers: killersOf(result, mutant.rule).map((c) => c.id) });
    expectKilled(result, mutant);
    // A hang guard, not a speed limit: every check now tries every member, and five runs share two loaded cores.
  }, 120_000);

  afterAll(() => printKillRate("MCP mutant", outcomes));
});
