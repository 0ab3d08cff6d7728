// The walks' focus plan (conformance/core/walks/focus.ts): walk i of a run dwells on the i-th family of its protocol, so
// the default walks dwell on every family on every seed, and the scenarios that take a chain of steps (the ones
// only walks judge, and the walk-only mutants need) come up in the default walks' plans on nearly every seed, while
// each walk stays a random draw of its seed. Plans only: what a target answers is judged by test/walks*.test.ts.
import { describe, expect, it } from "vitest";
import { defaultWalks } from "../conformance/suites/rest/walks/defaults.js";
import { defaultMcpWalks } from "../conformance/suites/mcp/walks/defaults.js";
import { focused, pickFresh } from "../conformance/core/walks/focus.js";
import { mcpFamilies, mcpFocusOf, planMcpWalk, type McpAbilities, type McpStep } from "../conformance/suites/mcp/walks/steps.js";
import { prng } from "../conformance/core/walks/prng.js";
import { planWalk, restFamilies, restFocusOf, type Step } from "../conformance/suites/rest/walks/steps.js";

const all: McpAbilities = { clients: true, batches: true, otherTenant: true };
const seeds = Array.from({ length: 200 }, (_, i) => `focus-${i}`);

/** The index of the first step from `from` on that `f` holds for (-1: none). */
const find = <S>(steps: readonly S[], f: (s: S) => boolean, from = 0) => steps.findIndex((s, i) => i >= from && f(s));

/** A chain: each predicate holds for a later step than the one before. */
function chain<S>(steps: readonly S[], ...links: ((s: S) => boolean)[]): boolean {
  let at = -1;
  for (const link of links) if ((at = find(steps, link, at + 1)) < 0) return false;
  return true;
}

type Scenario<S> = (walk: readonly S[]) => boolean;

/** Each client erased, then the wait that ends it, then a view of it: for each view. */
const erasedThen =
  (view: (s: McpStep, client: string) => boolean): Scenario<McpStep> =>
  (w) =>
    w.some((s, i) => s.op === "delete-client" && chain(w.slice(i + 1), (x) => x.op === "wait", (x) => view(x, s.client)));

const mcpScenarios: Record<string, Scenario<McpStep>> = {
  "erased client, then get_profile": erasedThen((x, c) => x.op === "get-profile" && x.brand === c),
  "erased client, then list_brands": erasedThen((x, c) => x.op === "list-brands" && x.brand === c),
  "erased client, then get_workspaces": erasedThen((x) => x.op === "get-workspaces"),
  "deactivated, waited for, deactivated again": (w) =>
    w.some((s, i) => s.op === "deactivate" && chain(w.slice(i + 1), (x) => x.op === "wait", (x) => x.op === "deactivate" && x.client === s.client)),
  // The model judges a name against the one a view showed before the renamed repeat.
  "read, renamed repeat, read": (w) => {
    const read = (c: string) => (x: McpStep) => (x.op === "get-profile" || x.op === "list-brands") && x.brand === c;
    return w.some((s, i) => s.op === "repeat-client" && s.renamed && find(w.slice(0, i), read(s.client)) >= 0 && find(w, read(s.client), i + 1) >= 0);
  },
  "approved, then viewed twice unchanged": (w) =>
    w.some((s, i) => {
      if (s.op !== "approve") return false;
      const changed = find(w, (x) => (x.op === "edit-post" || x.op === "reject" || x.op === "approve") && x.post === s.post, i + 1);
      return w.slice(i + 1, changed < 0 ? undefined : changed).filter((x) => x.op === "view-post" && x.post === s.post).length >= 2;
    }),
  "booked, withdrawn, booked again": (w) =>
    w.some((s, i) => s.op === "schedule" && chain(w.slice(i + 1), (x) => x.op === "unschedule" && x.post === s.post, (x) => x.op === "schedule" && x.post === s.post)),
};

const restScenarios: Record<string, Scenario<Step>> = {
  "ideas, then the brand read": (w) => w.some((s, i) => s.op === "create-batch" && find(w, (x) => x.op === "get-brand" && x.brand === s.brand, i + 1) >= 0),
  "a wait, then two PATCHes": (w) => w.some((s, i) => s.op === "wait" && w.slice(i + 1).filter((x) => x.op === "patch-brand" && !x.website).length >= 2),
  "rules.never PATCHed twice": (w) =>
    w.some((s, i) => s.op === "patch-brand" && !!s.body.rules?.never && find(w, (x) => x.op === "patch-brand" && x.brand === s.brand && !!x.body.rules?.never, i + 1) >= 0),
  "rules.always PATCHed, then a PATCH without rules": (w) =>
    w.some((s, i) => s.op === "patch-brand" && !!s.body.rules?.always && find(w, (x) => x.op === "patch-brand" && x.brand === s.brand && !x.body.rules, i + 1) >= 0),
  "feedback": (w) => w.some((s) => s.op === "feedback"),
  "every kind of unknown id": (w) => ["brand", "batch", "idea"].every((k) => w.some((s) => s.op === "unknown-id" && s.kind === k)),
};

/** For each scenario, on how many of the seeds some walk of the run plans it. */
function reached<S>(scenarios: Record<string, Scenario<S>>, run: (seed: string) => S[][]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const seed of seeds) {
    const walks = run(seed);
    for (const [name, holds] of Object.entries(scenarios)) out[name] = (out[name] ?? 0) + (walks.some(holds) ? 1 : 0);
  }
  return out;
}

describe("the walks' focus plan", () => {
  it("walk i dwells on family i (round and round): the default walks on every family", () => {
    expect(new Set(Array.from({ length: defaultMcpWalks.walks }, (_, i) => mcpFocusOf(i, all)?.name))).toEqual(new Set(mcpFamilies.map((f) => f.name)));
    expect(new Set(Array.from({ length: defaultWalks.walks }, (_, i) => restFocusOf(i).name))).toEqual(new Set(restFamilies.map((f) => f.name)));
    expect(mcpFocusOf(mcpFamilies.length, all)).toBe(mcpFamilies[0]);
    // A target that lets walks make no clients (or no batches) leaves out the families that need them.
    expect(Array.from({ length: 8 }, (_, i) => mcpFocusOf(i, { ...all, clients: false })?.needs)).not.toContain("clients");
    expect(Array.from({ length: 8 }, (_, i) => mcpFocusOf(i, { ...all, batches: false })?.needs)).not.toContain("batches");
    expect(mcpFocusOf(0, { clients: false, batches: false, otherTenant: true })).toBeUndefined();
  });

  it("a focus weights the draw, it does not script it: two walks of one focus differ, and every op stays possible", () => {
    const family = mcpFamilies.length;
    expect(planMcpWalk("a", 0, 20, all)).not.toEqual(planMcpWalk("a", family, 20, all));
    expect(planMcpWalk("a", 0, 20, all)).not.toEqual(planMcpWalk("b", 0, 20, all));
    const ops = new Set(seeds.slice(0, 40).flatMap((seed) => planMcpWalk(seed, 0, 20, all).map((s) => s.op)));
    expect(ops.size).toBeGreaterThan(15);
    expect(focused([["a", 2], ["b", 0]], { name: "x", weights: { a: 3, b: 5 }, after: { a: { a: 2 } } }, "a")).toEqual([["a", 12], ["b", 0]]);
  });

  it("pickFresh draws what the walk has not drawn yet, then anything", () => {
    const r = prng("fresh");
    const drawn = new Set<string>();
    const first = Array.from({ length: 3 }, () => pickFresh(r, ["a", "b", "c"], drawn));
    expect([...first].sort()).toEqual(["a", "b", "c"]);
    expect(["a", "b", "c"]).toContain(pickFresh(r, ["a", "b", "c"], drawn));
  });

  // The scenarios only walks judge (erased-client-gone/*, in the ledger) and the walk-only mutants' scenarios: each
  // in the default walks' plans of (nearly) every one of 200 seeds. Without the focus plan, several came up on
  // 60-90% of them.
  it("the default MCP walks plan every family's scenario on nearly every seed", () => {
    const counts = reached(mcpScenarios, (seed) => Array.from({ length: defaultMcpWalks.walks }, (_, i) => planMcpWalk(seed, i, defaultMcpWalks.steps, all)));
    for (const [name, n] of Object.entries(counts)) expect(n, `${name}: ${n} of ${seeds.length} seeds`).toBeGreaterThanOrEqual(seeds.length - 6);
  });

  it("the default REST walks plan every family's scenario on nearly every seed", () => {
    const counts = reached(restScenarios, (seed) => Array.from({ length: defaultWalks.walks }, (_, i) => planWalk(seed, i, defaultWalks.steps)));
    for (const [name, n] of Object.entries(counts)) expect(n, `${name}: ${n} of ${seeds.length} seeds`).toBeGreaterThanOrEqual(seeds.length - 6);
  });
});
