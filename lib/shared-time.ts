// Now, shared between threads: a run that drives its own time (conformance/core/run-clock.ts) writes it here as it
// moves, and a mock started in a worker thread reads it as its wall clock. Atomics, so a reader never sees a torn
// or stale value once the writer has moved on (the run moves time only while no request is in flight).
export class SharedTime {
  readonly #cell: BigInt64Array;

  constructor(readonly buffer: SharedArrayBuffer = new SharedArrayBuffer(8)) {
    this.#cell = new BigInt64Array(buffer);
  }

  /** Epoch milliseconds. */
  get(): number {
    return Number(Atomics.load(this.#cell, 0));
  }

  set(ms: number): void {
    Atomics.store(this.#cell, 0, BigInt(Math.floor(ms)));
  }
}
