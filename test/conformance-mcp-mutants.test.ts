// The MCP mutant catalogue (test/mutants/mcp/): each mutant is the MCP gateway mock behind a proxy that breaks
// exactly one rule of spec/rules/mcp.yaml. The MCP suite must catch each with a failing check that names that
// rule. Prints the kill rate.
import { afterAll, describe, expect, it } from "vitest";
import { mcpChecks, runConformance, type RunResult } from "../conformance/index.js";
import { mcpCatalogue } from "../conformance/suites/mcp/catalogue.js";
import { referenceTargetPath } from "../conformance/core/paths.js";
import { openOutput } from "../lib/open-output.js";
import { loadTargetFile } from "../conformance/target-file.js";
import { startMcpMock } from "../mock/mcp/server.js";
import { mcpMutants, type McpMutant } from "./mutants/mcp/catalogue.js";
import { mutants as restMutants } from "./mutants/rest/catalogue.js";
import { startMutantProxy } from "./mutants/rest/proxy.js";
import { throughProxy } from "./mutants/mcp/links.js";
import { toolsOf, withTools } from "./mutants/mcp/rewrite.js";
import { drivenTime } from "./support/driven-time.js";
import { hangGuardMs } from "./support/hang-guard.js";
import { checksNaming, expectKilled, killersOf, mcpNonPasses, printKillRate } from "./support/mutants.js";

const timeScale = 0.001;

async function runAgainst(mutant: McpMutant | null): Promise<RunResult> {
  const scale = mutant?.run?.timeScale ?? timeScale;
  // On time the run drives: whether a check sees the target's background work done follows from its steps, not the host's speed.
  const { clock, mockClock } = drivenTime(scale);
  const gateway = await startMcpMock({ port: 0, clock: mockClock });
  const proxy = await startMutantProxy(gateway.url, throughProxy(mutant, gateway.url));
  try {
    const file = loadTargetFile(referenceTargetPath, {});
    // A mutant runs on the checks that name its rule (or those its entry names); the evolved gateway and the proxy alone on all.
    const scope = mutant?.run?.only ?? (mutant && mutant.rule !== "none" ? checksNaming(mcpChecks, mutant.rule) : undefined);
    const only = scope ? { only: scope } : {};
    // strict: a failure of an inferred rule fails the run, as against the embedded reference (some mutants break one).
    // The budget is the run's own (driven) time, which a loaded host does not spend: well under the hang guard below.
    return await runConformance({ mcpUrl: new URL(gateway.url.pathname, proxy.url).href, targetFile: file, timeScale: scale, env: {}, strict: true, budgetSeconds: 110, clock, ...only });
  } finally {
    await proxy.stop();
    await gateway.stop();
  }
}

const outcomes = new Map<string, { rule: string; killers: string[] }>();

describe("MCP mutant catalogue", () => {
  it("has at least 20 mutants (40 with the REST ones), unique ids, each breaking one known rule", () => {
    const rules = mcpCatalogue();
    expect(mcpMutants.length).toBeGreaterThanOrEqual(20);
    expect(mcpMutants.length + restMutants.length).toBeGreaterThanOrEqual(40);
    expect(new Set([...mcpMutants, ...restMutants].map((m) => m.id)).size).toBe(mcpMutants.length + restMutants.length);
    for (const m of mcpMutants) expect(rules.byId.get(m.rule)?.testable, `${m.id} breaks ${m.rule}, not a testable rule of mcp.yaml`).toMatch(/^(direct|trigger)$/);
  });

  it("a gateway that evolved as seed 001 allows (new output fields and enum values, advertised) passes every check", async () => {
    // Conventions 7 and Versioning 5: new output fields and enum values are not breaking. The gateway advertises
    // them in its tools/list (open schemas), adds a field to every payload and reports a picture's slide text as
    // coming from a source the contract does not list.
    const evolved: McpMutant = {
      id: "evolved-gateway",
      rule: "none",
      description: "new output fields and enum values",
      response: (_req, res) => {
        const result = res.body?.result;
        const tools = toolsOf(res);
        if (tools) return withTools(res, tools.map((t) => ({ ...t, outputSchema: t.outputSchema && openOutput(t.outputSchema, { enums: true }) })));
        const data = result?.structuredContent?.data;
        if (result?.isError || !data || typeof data !== "object" || Array.isArray(data)) return res;
        const next = structuredClone({ ...data, addedInANewRelease: { kind: "new" } });
        for (const d of Array.isArray(next.destinations) ? next.destinations : [])
          for (const image of Array.isArray(d?.images) ? d.images : []) if (image?.slideTextSource) image.slideTextSource = "vision";
        const evolvedResult = { ...result, structuredContent: { data: next }, content: [{ type: "text", text: JSON.stringify(next) }] };
        return { ...res, body: { ...res.body, result: evolvedResult } };
      },
    };
    let changed = 0;
    const counting: McpMutant = {
      ...evolved,
      response: async (req, res, ctx) => {
        const out = await evolved.response!(req, res, ctx);
        if (JSON.stringify(out.body ?? null).includes('"vision"')) changed++;
        return out;
      },
    };
    const result = await runAgainst(counting);
    expect(changed, "no picture's slideTextSource was rewritten: the test saw no new enum value").toBeGreaterThan(0);
    expect(mcpNonPasses(result)).toEqual([]);
    expect(result.exitCode).toBe(0);
    // Accepted, and noted: the report shows what the contract does not list yet.
    expect(result.checks.flatMap((c) => c.notes).some((n) => /does not list yet/.test(n) && /vision|slideTextSource/.test(n))).toBe(true);
  }, hangGuardMs);

  it("the proxy alone changes nothing: the MCP mock behind it passes every check", async () => {
    const result = await runAgainst(null);
    expect(result.suites).toEqual(["mcp"]);
    expect(mcpNonPasses(result)).toEqual([]);
    // A hang guard, as for the mutants: a whole run on two loaded cores.
  }, hangGuardMs);

  it.concurrent.each(mcpMutants.map((m) => [m.id, m] as const))("catches %s", async (_id, mutant) => {
    const result = await runAgainst(mutant);
    outcomes.set(mutant.id, { rule: mutant.rule, killers: killersOf(result, mutant.rule).map((c) => c.id) });
    expectKilled(result, mutant);
    // A hang guard, never a verdict on speed (./support/hang-guard.ts): every check tries every member, and five
    // runs share two loaded cores. A mutant that needs one check alone says so (run.only), to stay a short run.
  }, hangGuardMs);

  afterAll(() => printKillRate("MCP mutant", outcomes));
});
