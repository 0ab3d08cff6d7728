// The stateful walks (conformance/core/walks/, and each suite's walks/): the same seed gives the same walk, shrinking finds the smallest
// failing sequence, replay files round-trip, and the embedded reference passes long walks.
import { describe, expect, it } from "vitest";
import { runConformance } from "../conformance/index.js";
import { parseReplay, replayFormats, replayText } from "../conformance/replay.js";
import { shrinkList } from "../conformance/core/walks/shrink.js";
import { inTurn, neededWaits } from "../conformance/core/walks/engine.js";
import { restWalkKind } from "../conformance/suites/rest/walks/walk.js";
import { planWalk } from "../conformance/suites/rest/walks/steps.js";
import { prng } from "../conformance/core/walks/prng.js";
import { sameUrl as sameWebsite } from "../conformance/suites/rest/kept.js";
import { buildLedger } from "../conformance/core/report/ledger.js";
import { mcpCatalogue } from "../conformance/suites/mcp/catalogue.js";
import { hangGuardMs } from "./support/hang-guard.js";

describe("walk plans", () => {
  it("the same seed gives the same walk; another seed or walk number another one", () => {
    for (const seed of ["0", "1a2b3c4d", "seed-with-words", "ffffffff"])
      for (const walk of [0, 1, 7]) {
        const a = planWalk(seed, walk, 30);
        expect(planWalk(seed, walk, 30)).toEqual(a);
        expect(a).toHaveLength(30);
        // A longer walk of the same seed starts with the shorter one: a seed and a length name a walk.
        expect(planWalk(seed, walk, 45).slice(0, 30)).toEqual(a);
        expect(planWalk(`${seed}x`, walk, 30)).not.toEqual(a);
        expect(planWalk(seed, walk + 1, 30)).not.toEqual(a);
      }
  });

  it("every walk starts by creating a brand and names only brands and batches made before", () => {
    for (let i = 0; i < 200; i++) {
      const steps = planWalk(`p${i}`, i % 5, 25);
      expect(steps[0]?.op).toBe("create-brand");
      const made = new Set<string>();
      for (const s of steps) {
        if (s.op === "create-brand") made.add(s.brand);
        if (s.op === "create-batch") made.add(s.batch);
        for (const ref of ["brand", "batch"] as const) {
          const label = (s as Record<string, unknown>)[ref];
          if (typeof label === "string" && !(s.op === "create-brand" && ref === "brand") && !(s.op === "create-batch" && ref === "batch")) expect(made.has(label), `${s.op} names ${label} before it exists`).toBe(true);
        }
      }
    }
  });

  it("the generator is uniform enough: every kind of step appears over a few walks", () => {
    const ops = new Set(Array.from({ length: 20 }, (_, i) => planWalk("kinds", i, 30)).flat().map((s) => s.op));
    expect([...ops].sort()).toEqual(["create-batch", "create-brand", "feedback", "get-batch", "get-brand", "other-team", "patch-brand", "predict", "unknown-id", "wait"]);
    const r = prng("x");
    const draws = Array.from({ length: 4000 }, () => r.int(4));
    for (let k = 0; k < 4; k++) expect(draws.filter((d) => d === k).length).toBeGreaterThan(850);
  });
});

describe("shrinking", () => {
  it("finds the smallest sublist that still fails, order kept", async () => {
    const items = Array.from({ length: 20 }, (_, i) => i);
    let tests = 0;
    const fails = async (c: number[]) => (tests++, c.includes(3) && c.includes(11) && c.includes(17));
    expect(await shrinkList(items, fails)).toEqual([3, 11, 17]);
    expect(tests).toBeLessThanOrEqual(60);
  });

  it("a wait after work started since the previous wait is never cut; one with nothing to wait for can go", () => {
    const wait = () => ({ op: "wait" as const });
    const [w1, w2, w3, w4] = [wait(), wait(), wait(), wait()];
    const create = { op: "create-brand" as const, brand: "b1", website: "website" as const, body: {} };
    const quiet = { op: "patch-brand" as const, brand: "b1", body: { name: "A" } };
    const moved = { op: "patch-brand" as const, brand: "b1", website: "other_website" as const, body: {} };
    const batch = { op: "create-batch" as const, batch: "x1", brand: "b1", body: {} };
    expect(neededWaits(restWalkKind, [w1, create, w2, quiet, w3, moved, batch, w4])).toEqual([w2, w4]);
    expect(neededWaits(restWalkKind, [create, quiet, w1, w2])).toEqual([w1]);
  });

  it("stops at its budget of replays with what it has", async () => {
    let tests = 0;
    const shrunk = await shrinkList(Array.from({ length: 40 }, (_, i) => i), async (c) => (tests++, c.length > 5), 3);
    expect(tests).toBe(3);
    expect(shrunk.length).toBeGreaterThan(5);
  });
});

describe("running walks", () => {
  it("runs at most --concurrency walks at once, the results in the walks' order", async () => {
    let running = 0;
    let most = 0;
    const waiting: (() => void)[] = [];
    const run = inTurn([0, 1, 2, 3, 4, 5, 6], 3, async (n) => {
      most = Math.max(most, ++running);
      await new Promise<void>((resolve) => waiting.push(resolve));
      running--;
      return n * 10;
    });
    // Walks end one at a time, the newest first: each freed place goes to the next walk.
    for (let ended = 0; ended < 7; ended++) {
      await new Promise((r) => setImmediate(r));
      expect(running).toBe(Math.min(3, 7 - ended));
      waiting.pop()!();
    }
    expect(await run).toEqual([0, 10, 20, 30, 40, 50, 60]);
    expect(most).toBe(3);
  });
});

describe("the ledger of walks", () => {
  it("a rule only walks judge, which this seed's walks did not come to, says so (never 'no check names this rule')", () => {
    const walks = { id: "mcp-walks", description: "", group: "walks", rules: [], incidental: ["erased-client-gone"], status: "pass" as const, failures: [], notes: [], durationMs: 1, requests: 1, cases: {} };
    const entry = buildLedger(mcpCatalogue(), [walks], new Set(), "mcp").find((e) => e.id === "erased-client-gone/get-workspaces")!;
    expect(entry.status).toBe("not-covered");
    expect(entry.why).toMatch(/^judged only in passing, by mcp-walks, which did not come to it in this run \(the walks of this walk seed did not come to it/);
  });
});

describe("replay files", () => {
  it("round-trip, and anything else is refused in one line", () => {
    const steps = planWalk("r", 0, 12);
    expect(parseReplay(replayText(replayFormats.rest, steps, "walk 1"))).toEqual({ format: replayFormats.rest, from: "walk 1", steps });
    expect(() => parseReplay("{")).toThrow(/not JSON/);
    expect(() => parseReplay(JSON.stringify({ format: "other", steps }))).toThrow(/not a walk/);
    expect(() => parseReplay(JSON.stringify({ format: "ideas-contract/rest-walk@1", steps: [{ op: "drop-table" }] }))).toThrow(/step 1 is not a step/);
  });
});

describe("the model", () => {
  it("compares websites as URLs (a target may normalise them), and nothing else loosely", () => {
    expect(sameWebsite("https://www.Example.org", "https://www.example.org/")).toBe(true);
    expect(sameWebsite("https://www.example.org:443/", "https://www.example.org")).toBe(true);
    expect(sameWebsite("https://www.example.org/shop", "https://www.example.org")).toBe(false);
    expect(sameWebsite(null, "https://www.example.org")).toBe(false);
  });
});

describe("walks against the embedded reference", () => {
  it("it passes long walks; the ledger counts the rules they judged; the seed is reported", async () => {
    const result = await runConformance({ suites: ["rest"], only: ["rest-walks"], walks: 12, walkSteps: 30, walkSeed: "reference", env: {}, budgetSeconds: 600 });
    const check = result.checks.find((c) => c.id === "rest-walks")!;
    expect(check.failures.map((f) => f.message)).toEqual([]);
    expect(check.status).toBe("pass");
    expect(result.walks).toEqual({ seed: "reference", walks: 12, steps: 30, replay: false });
    const judged = result.ledger.filter((e) => e.cases.some((c) => c.check === "rest-walks" && c.outcome === "pass")).map((e) => e.id);
    for (const rule of ["brand-terminal-stays", "brand-patch-lists-replaced/never", "brand-supplied-values-kept/rules", "batch-terminal-stays", "brand-patch-partial/name"]) expect(judged).toContain(rule);
  }, hangGuardMs);

  it("runs a replayed walk instead of the seeded ones; --walks 0 skips the check", async () => {
    const steps = planWalk("replayed", 0, 10);
    const replayed = await runConformance({ suites: ["rest"], only: ["rest-walks"], walkReplay: { format: replayFormats.rest, steps }, env: {}, budgetSeconds: 600 });
    expect(replayed.checks[0]?.status).toBe("pass");
    expect(replayed.checks[0]?.notes.join(" ")).toMatch(/1 walk of up to 10 steps \(replayed from a file\)/);
    const none = await runConformance({ suites: ["rest"], only: ["rest-walks"], walks: 0, env: {} });
    expect(none.checks[0]?.status).toBe("skip");
  }, hangGuardMs);
});
