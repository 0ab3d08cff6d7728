// The time a run keeps. Against a real target it is the wall clock. Against the embedded references it is driven
// by the run itself, as fake timers are: time stands still while any request is in flight or anything but a wait
// is going on, and jumps to the earliest wake-up once every request has been answered and every check waits. A
// saturated host then only makes the run slower in real time; what the checks and the target see of time (polls,
// deadlines, the budget, the target's background work) is the same on any machine.

export class BudgetExceeded extends Error {}

export interface RunClock {
  /** True when the run drives time (the embedded references); false for the wall clock. */
  readonly driven: boolean;
  /** Milliseconds on a monotonic scale: only differences mean something. */
  now(): number;
  /** Now as epoch milliseconds (the target's date when time is driven). */
  date(): number;
  /** Resolves after `ms` of this clock; rejects with BudgetExceeded when `signal` aborts first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /**
   * Calls `fn` after `ms` of this clock unless the returned cancel is called first. A driven clock reaches it
   * only when nothing else waits (the run's budget: a run stuck without a request or a wait still ends).
   */
  lastResort(ms: number, fn: () => void): () => void;
  /** Marks a request in flight until the returned function is called: a driven clock does not move meanwhile. */
  busy(): () => void;
}

const budgetSpent = () => new BudgetExceeded("the run's budget is spent");
/** The longest delay setTimeout takes; a longer one would fire at once (TimeoutOverflowWarning). */
const maxTimerMs = 2 ** 31 - 1;

/** The wall clock. */
export const wallClock: RunClock = {
  driven: false,
  now: () => performance.now(),
  date: () => Date.now(),
  sleep(ms, signal) {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(budgetSpent());
      const timer = setTimeout(() => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      }, Math.min(maxTimerMs, Math.max(0, ms)));
      const onAbort = () => {
        clearTimeout(timer);
        reject(budgetSpent());
      };
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  },
  lastResort(ms, fn) {
    const timer = setTimeout(fn, Math.min(maxTimerMs, Math.max(0, ms)));
    return () => clearTimeout(timer);
  },
  busy: () => () => {},
};

interface Waiter {
  at: number;
  /** Registration order: waiters due at the same instant wake in it. */
  seq: number;
  lastResort: boolean;
  wake(): void;
}

export interface DrivenClockOptions {
  /** The date (epoch ms) time starts at; default the wall clock's now. */
  start?: number;
  /**
   * Event-loop turns (setImmediate) with nothing in flight and nothing new before time moves: what a check does
   * between an answer and its next request or wait (promise continuations, parsing) finishes within them.
   */
  quietTurns?: number;
  /** Real milliseconds of complete quiet before time jumps to a last resort (the budget). */
  graceMs?: number;
  /** Told the date (epoch ms) at the start and each time time moves, before any waiter wakes (a reference in another thread reads it). */
  onMove?: (date: number) => void;
}

/** A clock the run drives (see the top of this file). */
export function drivenClock(options: DrivenClockOptions = {}): RunClock & { readonly waiting: number } {
  const start = options.start ?? Date.now();
  const quietTurns = options.quietTurns ?? 3;
  const graceMs = options.graceMs ?? 1_000;
  let now = 0;
  let inFlight = 0;
  let seq = 0;
  /** Bumped by anything that happens (a request starts or ends, a wait starts or is cancelled). */
  let changes = 0;
  let seen = -1;
  let quiet = 0;
  let scheduled = false;
  let grace: NodeJS.Timeout | undefined;
  const waiters = new Set<Waiter>();
  options.onMove?.(start);

  const changed = () => {
    changes++;
    if (grace) {
      clearTimeout(grace);
      grace = undefined;
    }
    kick();
  };
  const kick = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(settle);
  };
  /** Moves time to `at` and wakes every waiter due by then, earliest (then first registered) first. */
  const advance = (at: number) => {
    now = Math.max(now, at);
    options.onMove?.(start + now);
    const due = [...waiters].filter((w) => w.at <= now).sort((a, b) => a.at - b.at || a.seq - b.seq);
    for (const w of due) waiters.delete(w);
    for (const w of due) w.wake();
    changes++;
    kick();
  };
  function settle() {
    scheduled = false;
    if (inFlight > 0 || waiters.size === 0) return; // the answer, or the next wait, kicks again
    if (changes !== seen) {
      seen = changes;
      quiet = 0;
    }
    if (++quiet < quietTurns) return kick();
    const ordinary = [...waiters].filter((w) => !w.lastResort);
    if (ordinary.length) return advance(Math.min(...ordinary.map((w) => w.at)));
    // Only a last resort is left: nothing in the run can move any more without it, unless something still
    // happens outside requests and waits. Give that real time before ending the run.
    grace ??= setTimeout(() => {
      grace = undefined;
      if (inFlight === 0 && changes === seen) advance(Math.min(...[...waiters].map((w) => w.at)));
    }, graceMs);
  }
  const wait = (ms: number, lastResort: boolean, wake: () => void): (() => void) => {
    const w: Waiter = { at: now + Math.max(0, ms), seq: seq++, lastResort, wake };
    waiters.add(w);
    changed();
    return () => {
      if (waiters.delete(w)) changed();
    };
  };

  return {
    driven: true,
    now: () => now,
    date: () => start + now,
    get waiting() {
      return waiters.size;
    },
    sleep(ms, signal) {
      return new Promise((resolve, reject) => {
        if (signal?.aborted) return reject(budgetSpent());
        const onAbort = () => {
          cancel();
          reject(budgetSpent());
        };
        const cancel = wait(ms, false, () => {
          signal?.removeEventListener("abort", onAbort);
          resolve();
        });
        signal?.addEventListener("abort", onAbort, { once: true });
      });
    },
    lastResort: (ms, fn) => wait(ms, true, fn),
    busy() {
      inFlight++;
      changed();
      let done = false;
      return () => {
        if (done) return;
        done = true;
        inFlight--;
        changed();
      };
    },
  };
}

/** Sleeps on the run's clock (the wall clock unless given), unless the signal aborts first (then rejects with BudgetExceeded). */
export function sleep(ms: number, signal?: AbortSignal, clock: RunClock = wallClock): Promise<void> {
  return clock.sleep(ms, signal);
}
