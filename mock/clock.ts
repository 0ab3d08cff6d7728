// The virtual clock every mock runs on. Virtual time advances `1 / timeScale` times as fast as real time, so
// at timeScale 1 a batch takes the seed's minutes and at 0.001 it takes milliseconds, while every timestamp the
// mocks report still reads like the real service's (done_at − created_at is minutes, not milliseconds).
export interface Clock {
  /** Virtual now, in epoch milliseconds. */
  now(): number;
  /** Virtual now as an ISO 8601 string. */
  iso(): string;
  /** The real-time scale: real duration = virtual duration × timeScale. */
  readonly timeScale: number;
  /** Moves virtual time forward at once (tests and the admin route use it). */
  advance(ms: number): void;
}

export interface ClockOptions {
  timeScale?: number;
  /** Virtual time at start; defaults to the real time. */
  start?: number;
  /** Real time source, replaceable in tests. */
  realNow?: () => number;
}

export function createClock(options: ClockOptions = {}): Clock {
  const timeScale = options.timeScale ?? 1;
  if (!(timeScale > 0) || !Number.isFinite(timeScale)) throw new RangeError(`time scale must be a positive number, got ${timeScale}`);
  const realNow = options.realNow ?? Date.now;
  const realStart = realNow();
  const virtualStart = options.start ?? realStart;
  let skipped = 0;
  const now = () => Math.floor(virtualStart + skipped + (realNow() - realStart) / timeScale);
  return {
    now,
    iso: () => new Date(now()).toISOString(),
    timeScale,
    advance(ms: number) {
      if (!(ms >= 0)) throw new RangeError(`can only move time forward, got ${ms}`);
      skipped += ms;
    },
  };
}
