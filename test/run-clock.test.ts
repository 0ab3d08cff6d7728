// The run's driven clock (conformance/core/run-clock.ts): time moves only when nothing is in flight and everything
// waits, to the earliest wake-up; the budget is a last resort. No assertion here reads the wall clock.
import { describe, expect, it } from "vitest";
import { BudgetExceeded, drivenClock } from "../conformance/core/run-clock.js";

describe("the driven clock", () => {
  it("jumps to each wake-up in order, earliest (then first asked) first", async () => {
    const clock = drivenClock({ start: 1_000_000 });
    const woke: string[] = [];
    const at = (name: string, ms: number) => clock.sleep(ms).then(() => woke.push(`${name}@${clock.now()}`));
    await Promise.all([at("c", 300), at("a", 100), at("b", 100), at("d", 60_000)]);
    expect(woke).toEqual(["a@100", "b@100", "c@300", "d@60000"]);
    expect(clock.date()).toBe(1_000_000 + 60_000);
  });

  it("stands still while a request is in flight, however long it takes", async () => {
    const clock = drivenClock();
    const done = clock.busy();
    let woke = false;
    const sleeping = clock.sleep(10).then(() => (woke = true));
    // Many turns of the event loop with the request unanswered: time does not move.
    for (let i = 0; i < 50; i++) await new Promise((r) => setImmediate(r));
    expect(woke).toBe(false);
    expect(clock.now()).toBe(0);
    done();
    await sleeping;
    expect(clock.now()).toBe(10);
  });

  it("lets a chain of waits and requests run in the same order every time", async () => {
    const trace = async () => {
      const clock = drivenClock({ start: 0 });
      const events: string[] = [];
      const worker = async (name: string, pause: number) => {
        for (let i = 0; i < 3; i++) {
          const done = clock.busy();
          await new Promise((r) => setImmediate(r));
          done();
          events.push(`${name}${i}@${clock.now()}`);
          await clock.sleep(pause);
        }
      };
      await Promise.all([worker("a", 15), worker("b", 10)]);
      return events;
    };
    const first = await trace();
    expect(first).toEqual(["a0@0", "b0@0", "b1@10", "a1@15", "b2@20", "a2@30"]);
    expect(await trace()).toEqual(first);
  });

  it("reaches a last resort (the budget) only when nothing else waits, and not once it is cancelled", async () => {
    const clock = drivenClock({ graceMs: 0 });
    let spent = false;
    const cancel = clock.lastResort(1_000, () => (spent = true));
    await clock.sleep(999);
    expect(spent).toBe(false);
    // Nothing else is left: the budget ends the run.
    await new Promise<void>((resolve) => clock.lastResort(5_000, resolve));
    expect(spent).toBe(true);
    expect(clock.now()).toBe(999 + 5_000);
    const clock2 = drivenClock({ graceMs: 0 });
    let reached = false;
    clock2.lastResort(10, () => (reached = true))();
    await clock2.sleep(20);
    expect(reached).toBe(false);
    cancel();
  });

  it("rejects a sleep when the run's budget is spent", async () => {
    const clock = drivenClock();
    const abort = new AbortController();
    const sleeping = clock.sleep(1_000, abort.signal);
    abort.abort();
    await expect(sleeping).rejects.toBeInstanceOf(BudgetExceeded);
    expect(clock.waiting).toBe(0);
  });
});
