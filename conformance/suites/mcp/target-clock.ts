// The target's clock as the suite sees it: the latest time the target wrote, carried forward at the run clock's
// pace (the wall clock, or the driven time of an embedded run). A target's clock may be ahead of ours (a mock
// advanced through its control path); times the checks send ("in 3 days") are counted from it so the target
// never sees them as past.
import { wallClock, type RunClock } from "../../core/run-clock.js";

export class TargetClock {
  /** The latest target time seen (epoch ms) and the run clock's time it was seen at. */
  #seen?: { target: number; at: number };

  constructor(readonly clock: RunClock = wallClock) {}

  /** Notes a time the target wrote (ISO 8601). */
  saw(iso: unknown): void {
    if (typeof iso !== "string") return;
    const t = Date.parse(iso);
    if (Number.isNaN(t)) return;
    const at = this.clock.now();
    if (!this.#seen || t > this.#seen.target + (at - this.#seen.at)) this.#seen = { target: t, at };
  }

  /** The target's now: the estimate from the latest time it wrote, or ours when that is later. The time scale
   * shortens a target's background work, not its time, so its clock runs at the run clock's pace. */
  now(): number {
    const s = this.#seen;
    const estimate = s ? s.target + (this.clock.now() - s.at) : 0;
    return Math.max(this.clock.date(), estimate);
  }

  /** An ISO time `days` ahead of the target's now, in whole seconds with Z. */
  future(days: number): string {
    return new Date(this.now() + days * 86_400_000).toISOString().replace(/\.\d{3}Z$/, "Z");
  }
}
