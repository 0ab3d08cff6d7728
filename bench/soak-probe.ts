// Loaded into each mock process `npm run bench:soak` starts (`node --expose-gc --import tsx --import
// bench/soak-probe.ts bin/ideas-contract.js mock …`), for measuring only: on `{ type: "soak:heap" }` over the IPC
// channel it runs two full garbage collections and answers with the heap that survived them and the RSS. Nothing
// else in the mock changes: it collects only when asked, prints nothing, and the channel does not keep the
// process alive.

export interface HeapFigures {
  type: "soak:heap";
  /** Bytes of JS heap still in use after the collections: what the process keeps. */
  heapUsed: number;
  /** Bytes V8 has committed for the heap (it keeps them after a collection until it decides to shrink). */
  heapTotal: number;
  rss: number;
}

const gc = (globalThis as { gc?: () => void }).gc;
if (process.send && gc) {
  process.on("message", (message: { type?: unknown } | null) => {
    if (message?.type !== "soak:heap") return;
    gc();
    gc();
    const { heapUsed, heapTotal, rss } = process.memoryUsage();
    const answer: HeapFigures = { type: "soak:heap", heapUsed, heapTotal, rss };
    process.send!(answer);
  });
  // Adding a "message" listener refs the channel on the next tick; unref it after that.
  setImmediate(() => process.channel?.unref());
}
