// The clock every mock runs on. "Now" follows the wall clock, so timestamps, validity windows (link expiry, token
// lifetime, scheduling horizons) and "today" read as they would on the real service. The time scale shrinks only
// how long background work takes (reading, thinking, builds, renders, provider delays): work the seed says takes
// 5 minutes ends `5 min × timeScale` after it starts. Work ends at an absolute instant on this clock, so
// `advance(D)` moves now and brings every pending deadline D closer at once; `freeze()` stops now (and work).
export interface Clock {
  /** Now, in epoch milliseconds: the wall clock plus every advance (held while frozen). */
  now(): number;
  /** Now as an ISO 8601 string. */
  iso(): string;
  /** Real duration of background work = seed duration × timeScale. */
  readonly timeScale: number;
  /** How long background work the seed gives `ms` for takes here (ms × timeScale). */
  work(ms: number): number;
  /** How long a validity window the seed gives `ms` for lasts here: real time unless `scaleWindows` was asked. */
  window(ms: number): number;
  /** Moves now (and with it every pending deadline) forward at once. */
  advance(ms: number): void;
  /** Holds now still until unfreeze(); requests keep working, nothing in the background progresses. */
  freeze(): void;
  /** Lets now run again at the wall clock's pace, from where it was held (it never runs backwards). */
  unfreeze(): void;
  readonly frozen: boolean;
  /** Back to the wall clock: drops every advance and unfreezes (the mocks' reset does this with fresh state). */
  resync(): void;
}

export interface ClockOptions {
  timeScale?: number;
  /** Validity windows shrink with the time scale too (default false: they stay in real time). */
  scaleWindows?: boolean;
  /** Now at start; defaults to the wall clock. */
  start?: number;
  /** Wall-clock source, replaceable in tests. */
  realNow?: () => number;
}

export function createClock(options: ClockOptions = {}): Clock {
  const timeScale = options.timeScale ?? 1;
  if (!(timeScale > 0) || !Number.isFinite(timeScale)) throw new RangeError(`time scale must be a positive number, got ${timeScale}`);
  const realNow = options.realNow ?? Date.now;
  const windowScale = options.scaleWindows ? timeScale : 1;
  let offset = options.start === undefined ? 0 : options.start - realNow();
  let heldAt: number | null = null;
  const now = () => heldAt ?? Math.floor(realNow() + offset);
  return {
    now,
    iso: () => new Date(now()).toISOString(),
    timeScale,
    work: (ms) => ms * timeScale,
    window: (ms) => ms * windowScale,
    advance(ms: number) {
      if (!(ms >= 0) || !Number.isFinite(ms)) throw new RangeError(`can only move time forward, got ${ms}`);
      if (heldAt !== null) heldAt += ms;
      else offset += ms;
    },
    freeze() {
      if (heldAt === null) heldAt = now();
    },
    unfreeze() {
      if (heldAt === null) return;
      offset = heldAt - realNow();
      heldAt = null;
    },
    get frozen() {
      return heldAt !== null;
    },
    resync() {
      heldAt = null;
      offset = 0;
    },
  };
}

/** A clock whose now can be held at one instant while a call runs. */
export interface HoldableClock extends Clock {
  /**
   * Runs `fn` with now held at the instant it starts (nested holds keep the outer instant), so a call that reads
   * now twice cannot straddle the instant some background work ends. The clock underneath keeps running.
   */
  hold<T>(fn: () => T): T;
}

/** `base` seen through a hold: every other member passes straight through to it. */
export function holdable(base: Clock): HoldableClock {
  let held: number | null = null;
  const now = () => held ?? base.now();
  return {
    now,
    iso: () => new Date(now()).toISOString(),
    get timeScale() {
      return base.timeScale;
    },
    work: (ms) => base.work(ms),
    window: (ms) => base.window(ms),
    advance: (ms) => base.advance(ms),
    freeze: () => base.freeze(),
    unfreeze: () => base.unfreeze(),
    get frozen() {
      return base.frozen;
    },
    resync: () => base.resync(),
    hold(fn) {
      if (held !== null) return fn();
      held = base.now();
      try {
        return fn();
      } finally {
        held = null;
      }
    },
  };
}
