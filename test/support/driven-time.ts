// A target the test runs itself, on time the conformance run drives (as the embedded run's references are): the
// mock's clock reads the run's time, which moves only when every request has been answered and every check waits.
// Whether the target's background work is done when a check looks then follows from the run's steps, never from
// how fast a loaded host answered (at time scale 0.001 a stall of a second is 16 minutes of the target's time).
import { drivenClock, type RunClock } from "../../conformance/core/run-clock.js";
import { SharedTime } from "../../lib/shared-time.js";
import { createClock, type Clock } from "../../mock/clock.js";

export interface DrivenTime {
  /** The run's clock: pass it to runConformance as `clock`. */
  clock: RunClock;
  /** The target's clock: pass it to the mock as `clock`. */
  mockClock: Clock;
}

export function drivenTime(timeScale: number): DrivenTime {
  const time = new SharedTime();
  const clock = drivenClock({ onMove: (date) => time.set(date) });
  return { clock, mockClock: createClock({ timeScale, realNow: () => time.get() }) };
}

/**
 * The service's time as a variant or mutant reads it (how long its own background work has run, its rate limit's
 * windows): the wall clock until the run hands it the target's own (`useTime`), so it moves with driven time.
 */
export function serviceTime(): { now: () => number; useTime: (now: () => number) => void } {
  let clock = Date.now;
  return { now: () => clock(), useTime: (now) => void (clock = now) };
}
