// Whether the host itself was starved during a run against a real target: the event loop's delay (how late this
// process got to run what was due) measured for the whole run. A starved host makes a target look slow (answers
// "take" seconds, polls miss deadlines, the budget runs out), so such a failure is reported beside what the host
// went through, with the way out (a quieter host, or --budget).
import { monitorEventLoopDelay } from "node:perf_hooks";
import type { CheckResult } from "./check.js";

export interface HostLoad {
  /** Event-loop delay over the run, in milliseconds. */
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** The delay was long enough, often enough, to explain timing failures. */
  starved: boolean;
}

/** Half of the samples this late, or one in a hundred this late, is a host that cannot keep time. */
const starvedP50Ms = 50;
const starvedP99Ms = 500;

/** Starts watching the event loop; `stop()` says what the host went through since. */
export function watchHost(): { stop(): HostLoad } {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  return {
    stop() {
      histogram.disable();
      const ms = (ns: number) => Math.round(ns / 1e6);
      const count = histogram.count;
      const p50Ms = count ? ms(histogram.percentile(50)) : 0;
      const p99Ms = count ? ms(histogram.percentile(99)) : 0;
      const maxMs = count ? ms(histogram.max) : 0;
      return { p50Ms, p99Ms, maxMs, starved: p50Ms >= starvedP50Ms || p99Ms >= starvedP99Ms };
    },
  };
}

/** A check's result says something about time: out of budget, an answer too slow or missing, a deadline missed. */
const timingWords = /budget|no answer within|took \d+ ms|deadline|give-up time|still [a-z_]+ after|had not settled|after the give-up/i;

export function isTimingProblem(result: CheckResult): boolean {
  if (result.error?.kind === "budget") return true;
  return result.failures.some((f) => f.rules.includes("answers-within-seconds") || timingWords.test(f.message)) || (result.status === "skip" && timingWords.test(result.reason ?? ""));
}

/** The note beside a timing problem on a starved host. */
export function starvedNote(load: HostLoad): string {
  return `the host running the suite was starved during this run (event-loop delay p50 ${load.p50Ms} ms, p99 ${load.p99Ms} ms, max ${load.maxMs} ms): this timing problem may be the host's, not the target's; rerun on a quieter host or raise --budget`;
}
