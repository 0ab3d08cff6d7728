// A run against a real target on a starved host (conformance/core/host-load.ts): the event loop is kept late on
// purpose, and every timing problem of the run carries a note that says so and suggests --budget.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import type { CheckResult } from "../conformance/core/check.js";
import { isTimingProblem } from "../conformance/core/host-load.js";
import { runConformance } from "../conformance/index.js";

const result = (over: Partial<CheckResult>): CheckResult => ({
  id: "x",
  description: "x",
  group: "x",
  rules: [],
  status: "fail",
  failures: [],
  notes: [],
  durationMs: 0,
  requests: 0,
  cases: {},
  ...over,
});

describe("a starved host", () => {
  it("tells timing problems from other failures", () => {
    expect(isTimingProblem(result({ status: "error", error: { kind: "budget", message: "not finished within the run's budget (1 s); raise --budget" } }))).toBe(true);
    expect(isTimingProblem(result({ failures: [{ rules: ["answers-within-seconds"], message: "GET /v1/brands/b took 11705 ms (limit 10000 ms)" }] }))).toBe(true);
    expect(isTimingProblem(result({ failures: [{ rules: ["brand-reading-to-ready"], message: "GET /v1/brands/b: no answer within 30 s" }] }))).toBe(true);
    expect(isTimingProblem(result({ failures: [{ rules: ["error-envelope"], message: "expected 404: GET /v1/brands/b → 200" }] }))).toBe(false);
    expect(isTimingProblem(result({ status: "error", error: { kind: "suite", message: "the suite broke" } }))).toBe(false);
  });

  it("says so beside each timing problem of a run against a real target, and suggests --budget", async () => {
    const hang = http.createServer(() => {});
    await new Promise<void>((resolve) => hang.listen(0, "127.0.0.1", resolve));
    // Starve the event loop: most of every turn goes to a busy wait, as on a host with too few cores to go round.
    const starve = setInterval(() => {
      const end = performance.now() + 150;
      while (performance.now() < end);
    }, 1);
    try {
      const url = `http://127.0.0.1:${(hang.address() as AddressInfo).port}/`;
      const run = await runConformance({ restUrl: url, probe: false, env: { IDEAS_TOKEN: "t" }, budgetSeconds: 1, only: ["no-token-*"] });
      clearInterval(starve);
      expect(run.host?.starved).toBe(true);
      const timing = run.checks.filter(isTimingProblem);
      expect(timing.length).toBeGreaterThan(0);
      for (const c of timing) expect(c.notes.join("\n")).toMatch(/host running the suite was starved .*event-loop delay .*--budget/);
    } finally {
      clearInterval(starve);
      hang.closeAllConnections();
      await new Promise((resolve) => hang.close(resolve));
    }
  }, 120_000);
});
