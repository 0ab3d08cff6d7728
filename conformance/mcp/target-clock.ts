// The target's clock as the suite sees it: the latest time the target wrote, carried forward at the wall clock's
// pace. A target's clock may be ahead of ours (a mock advanced through its control path); times the checks send
// ("in 3 days") are counted from it so the target never sees them as past.

export class TargetClock {
  /** The latest target time seen (epoch ms) and the real time it was seen at. */
  #seen?: { target: number; real: number };

  /** Notes a time the target wrote (ISO 8601). */
  saw(iso: unknown): void {
    if (typeof iso !== "string") return;
    const t = Date.parse(iso);
    if (Number.isNaN(t)) return;
    if (!this.#seen || t > this.#seen.target + (performance.now() - this.#seen.real)) this.#seen = { target: t, real: performance.now() };
  }

  /** The target's now: the estimate from the latest time it wrote, or ours when that is later. The time scale
   * shortens a target's background work, not its time, so its clock runs at the wall clock's pace. */
  now(): number {
    const s = this.#seen;
    const estimate = s ? s.target + (performance.now() - s.real) : 0;
    return Math.max(Date.now(), estimate);
  }

  /** An ISO time `days` ahead of the target's now, in whole seconds with Z. */
  future(days: number): string {
    return new Date(this.now() + days * 86_400_000).toISOString().replace(/\.\d{3}Z$/, "Z");
  }
}
