// The embedded run keeps the target's time on the run's driven clock (conformance/core/run-clock.ts), so its verdict
// and ledger are the same on an idle host and on one whose cores are all busy. Two busy loops saturate both
// cores of a CI-sized machine for the second run; they are killed whatever happens (test/support/children.ts).
// Wall time is not asserted (see bench/busy-host.ts for measurements).
import os from "node:os";
import { describe, expect, it } from "vitest";
import { runConformance, type RunResult } from "../conformance/index.js";
import { busyLoops } from "./support/children.js";

/** What must not change between runs: each check's status and each rule's status with its cases. */
function verdict(result: RunResult): string[] {
  const checks = result.checks.map((c) => `check ${c.id}: ${c.status}`).sort();
  const rules = result.ledger.map((e) => `rule ${e.suite}/${e.id}: ${e.status} ${e.cases.map((k) => `${k.check}=${k.outcome}`).join(",")}`).sort();
  return [...checks, ...rules];
}

/** A hang guard for two whole runs, not a speed limit. */
const guardMs = 1_800_000;

describe("the embedded run on a busy host", () => {
  it("passes with the same ledger whether or not both cores are saturated", async () => {
    // One walk seed for both runs: the walks are the same sequence, so their cases land on the same rules.
    const idle = await runConformance({ env: {}, walkSeed: "busy-host" });
    const loops = busyLoops(Math.max(2, os.availableParallelism()));
    let busy: RunResult;
    try {
      busy = await runConformance({ env: {}, walkSeed: "busy-host" });
    } finally {
      loops.stop();
    }
    // Measurements for the record (not asserted): real time and requests of each run, and the load it ran under.
    console.log(`embedded run: idle ${idle.durationMs} ms (${idle.requests} requests), busy ${busy.durationMs} ms (${busy.requests} requests), load ${os.loadavg()[0]!.toFixed(1)}`);
    expect(idle.exitCode).toBe(0);
    expect(busy.exitCode).toBe(0);
    // (Each check's duration, in the target's time, is not compared: the run's random letters go into names the
    // reference derives its work durations from.)
    expect(verdict(busy)).toEqual(verdict(idle));
  }, guardMs);
});
