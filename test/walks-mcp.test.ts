// The MCP walks (conformance/suites/mcp/walks/): the same seed gives the same walk — the same plan, and the same
// tools/call requests against a fresh gateway — plans name only what they made before and do only what the target
// allows, replay files of MCP walks round-trip, and the embedded reference passes the walks.
import { describe, expect, it } from "vitest";
import { runConformance } from "../conformance/index.js";
import { referenceTargetPath } from "../conformance/core/paths.js";
import { loadTargetFile } from "../conformance/target-file.js";
import { describeMcpStep, mcpOps, planMcpWalk, type McpAbilities } from "../conformance/suites/mcp/walks/steps.js";
import { parseReplay, replayFormats, replayText } from "../conformance/replay.js";
import { startMcpMock } from "../mock/mcp/server.js";
import { callOf } from "./mutants/mcp/rewrite.js";
import { startMutantProxy } from "./mutants/rest/proxy.js";
import { hangGuardMs } from "./support/hang-guard.js";
import { drivenTime } from "./support/driven-time.js";

const all: McpAbilities = { clients: true, batches: true, otherTenant: true };

describe("MCP walk plans", () => {
  it("the same seed gives the same walk; another seed or walk number another one", () => {
    for (const seed of ["0", "1a2b3c4d", "seed-with-words"])
      for (const walk of [0, 1, 6]) {
        const a = planMcpWalk(seed, walk, 30, all);
        expect(planMcpWalk(seed, walk, 30, all)).toEqual(a);
        expect(a).toHaveLength(30);
        expect(planMcpWalk(seed, walk, 45, all).slice(0, 30)).toEqual(a);
        expect(planMcpWalk(`${seed}x`, walk, 30, all)).not.toEqual(a);
        expect(planMcpWalk(seed, walk + 2, 30, all)).not.toEqual(a);
      }
  });

  it("names only clients, batches and posts made before, and does only what the target allows", () => {
    const variants: McpAbilities[] = [all, { clients: false, batches: true, otherTenant: false }, { clients: true, batches: false, otherTenant: true }, { clients: false, batches: false, otherTenant: false }];
    for (const can of variants)
      for (let i = 0; i < 60; i++) {
        const made = new Set<string>();
        for (const s of planMcpWalk(`p${i}`, i % 4, 25, can)) {
          const step = s as Record<string, unknown>;
          if (s.op === "create-client") made.add(s.client);
          else if (typeof step.client === "string") expect(made.has(step.client), `${s.op} names ${step.client} before it exists`).toBe(true);
          if (s.op === "create-batch") made.add(s.batch);
          else if (typeof step.batch === "string") expect(made.has(step.batch)).toBe(true);
          if (typeof step.post === "string") expect(made.has(step.post.split("#")[0]!)).toBe(true);
          if (!can.clients) expect(["create-client", "repeat-client", "deactivate", "delete-client"]).not.toContain(s.op);
          if (!can.batches) expect(["create-batch", "view-post", "approve", "edit-post"]).not.toContain(s.op);
          if (!can.otherTenant) expect(s.op).not.toBe("other-tenant");
        }
      }
  });

  it("every kind of step appears over a few walks", () => {
    const ops = new Set(Array.from({ length: 30 }, (_, i) => planMcpWalk("kinds", i, 30, all)).flat().map((s) => s.op));
    expect([...ops].sort()).toEqual([...mcpOps].sort());
  });

  it("replay files of MCP walks round-trip and are told apart from REST walks", () => {
    const steps = planMcpWalk("r", 0, 12, all);
    expect(parseReplay(replayText(replayFormats.mcp, steps, "walk 1"))).toEqual({ format: replayFormats.mcp, from: "walk 1", steps });
    expect(() => parseReplay(JSON.stringify({ format: replayFormats.mcp, steps: [{ op: "create-brand", brand: "b1", body: {} }] }))).toThrow(/step 1 is not a step/);
    for (const s of steps) expect(describeMcpStep(s).length).toBeGreaterThan(5);
  });
});

/**
 * One walk of `seed` against a fresh gateway behind a recording proxy: per tool, its calls in order (repeated polls
 * counted once). What the gateway issues (ids, digests) and the clock differ from run to run, and are left out.
 */
async function requestsOf(seed: string): Promise<Record<string, string[]>> {
  const { clock, mockClock } = drivenTime(0.001);
  const gateway = await startMcpMock({ port: 0, clock: mockClock });
  const calls: { name: string; args: Record<string, unknown> }[] = [];
  const proxy = await startMutantProxy(gateway.url, {
    request: (req) => {
      const c = callOf(req);
      if (c) calls.push(c);
      return req;
    },
  });
  try {
    const file = loadTargetFile(referenceTargetPath, {});
    const r = await runConformance({ mcpUrl: new URL(gateway.url.pathname, proxy.url).href, targetFile: file, timeScale: 0.001, env: {}, only: ["mcp-walks"], walks: 1, walkSteps: 24, walkSeed: seed, budgetSeconds: 600, clock });
    expect(r.checks[0]?.status).toBe("pass");
  } finally {
    await proxy.stop();
    await gateway.stop();
  }
  // The run's own letters (in names, externalIds, briefs) differ from run to run; the gateway's ids do not.
  const runId = calls.map((c) => /walk-([0-9a-f]{6})-/.exec(JSON.stringify(c.args))?.[1] ?? /walk ([0-9a-f]{6})/i.exec(JSON.stringify(c.args))?.[1]).find(Boolean);
  const byTarget: Record<string, string[]> = {};
  for (const c of calls) {
    const text = runId ? JSON.stringify(c.args).split(runId).join("<run>") : JSON.stringify(c.args);
    // Ids the gateway issued (and those nobody issued: the deliberate wrong calls) are random by design; so are the
    // digests of what the gateway wrote, and the time of day the walk books for (the day is the walk's).
    const args = text
      .replace(/conformance-unknown-[0-9a-f]+|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, "<id>")
      .replace(/"platformPostId":"[^"]*"/g, '"platformPostId":"<id>"')
      .replace(/"[0-9a-f]{32}"/g, '"<digest>"')
      .replace(/T\d\d:\d\d:\d\d(\.\d+)?Z/g, "T<time>Z");
    const key = c.name;
    const list = (byTarget[key] ??= []);
    if (list.at(-1) !== args) list.push(args);
  }
  return byTarget;
}

describe("MCP walks against a gateway", () => {
  it("the same seed sends the same requests (per tool, polls counted once)", async () => {
    for (const seed of ["same-a", "same-b"]) {
      const [a, b] = [await requestsOf(seed), await requestsOf(seed)];
      expect(Object.keys(a).length).toBeGreaterThan(3);
      expect(b).toEqual(a);
    }
  }, hangGuardMs);

  it("the embedded reference passes long walks; the ledger counts the rules they judged", async () => {
    const result = await runConformance({ suites: ["mcp"], only: ["mcp-walks"], walks: 8, walkSteps: 30, walkSeed: "reference", env: {}, budgetSeconds: 600 });
    const check = result.checks.find((c) => c.id === "mcp-walks")!;
    expect(check.failures.map((f) => f.message)).toEqual([]);
    expect(check.status).toBe("pass");
    expect(result.walks).toMatchObject({ seed: "reference", walks: 8, steps: 30, replay: false });
    const judged = result.ledger.filter((e) => e.cases.some((c) => c.check === "mcp-walks" && c.outcome === "pass")).map((e) => e.id);
    for (const rule of ["client-ids-agree/get-profile", "deactivation-progress/ends-deactivated", "erased-client-gone/get-workspaces", "create-profile-idempotent/same-ids", "digest-follows-content/stable", "approve-records-digest/answer"])
      expect(judged).toContain(rule);
  }, hangGuardMs);
});
