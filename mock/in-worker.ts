// Starts a mock (REST or MCP) in a worker thread of this process: what the conformance suite's embedded run uses,
// so the reference and the suite share the two cores instead of one event loop. The mock is the same code
// (embedded-worker.ts starts it as `ideas-contract mock` would); only its clock can be a shared one.
import { siblingModule, startModuleWorker } from "../lib/module-worker.js";
import { SharedTime } from "../lib/shared-time.js";
import { createClock } from "./clock.js";

export interface MockWorkerData {
  kind: "rest" | "mcp";
  timeScale: number;
  https: boolean;
  /** The run's time (SharedTime's buffer), when the run drives it; otherwise the mock runs on the wall clock. */
  time?: SharedArrayBuffer;
}
export type FromMockWorker = { type: "ready"; url: string } | { type: "failed"; message: string };

/** Starts the mock `data` describes in this thread (the worker's entry does this; so does a run that cannot start one). */
export async function startMockFrom(data: MockWorkerData): Promise<{ url: URL; stop(): Promise<void> }> {
  const time = data.time ? new SharedTime(data.time) : undefined;
  const clock = createClock({ timeScale: data.timeScale, ...(time ? { realNow: () => time.get() } : {}) });
  if (data.kind === "rest") return (await import("./rest/server.js")).startRestMock({ port: 0, https: data.https, clock });
  return (await import("./mcp/server.js")).startMcpMock({ port: 0, clock });
}

export interface MockInWorker {
  url: URL;
  /** Ends the worker, and with it the mock's server and connections; resolves once it has ended. */
  stop(): Promise<void>;
}

/** Started and listening, or undefined when no worker can run here (the TypeScript source without tsx). */
export async function startMockInWorker(data: MockWorkerData): Promise<MockInWorker | undefined> {
  const worker = startModuleWorker(siblingModule(import.meta.url, "embedded-worker"), data);
  if (!worker) return undefined;
  const ended = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
  let crashed: Error | undefined;
  // A crash after the start leaves the suite's requests unanswered; say why where the run's user sees it.
  worker.on("error", (err) => {
    crashed ??= err;
    process.stderr.write(`the embedded ${data.kind} reference crashed: ${err.stack ?? err.message}\n`);
  });
  const first = await new Promise<FromMockWorker>((resolve, reject) => {
    worker.once("message", resolve);
    void ended.then(() => reject(crashed ?? new Error(`the ${data.kind} mock's worker ended before it answered`)));
  });
  if (first.type !== "ready") {
    await worker.terminate();
    throw new Error(`the ${data.kind} mock did not start in its worker: ${first.message}`);
  }
  return {
    url: new URL(first.url),
    // Nothing is in flight when a run stops its reference, so ending the thread is the whole stop.
    stop: async () => {
      await worker.terminate();
      await ended;
    },
  };
}
