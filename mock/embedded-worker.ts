// A mock running in a worker thread (started by in-worker.ts): the conformance suite's embedded reference, so the
// reference answers on the second core while the suite judges on the first. Its clock reads the run's time from
// shared memory when the run drives time.
import { parentPort, workerData } from "node:worker_threads";
import { createClock } from "./clock.js";
import { SharedTime } from "../lib/shared-time.js";
import type { FromMockWorker, MockWorkerData } from "./in-worker.js";

const data = workerData as MockWorkerData;
const port = parentPort!;
const post = (message: FromMockWorker) => port.postMessage(message);

async function start(): Promise<{ url: URL }> {
  const time = data.time ? new SharedTime(data.time) : undefined;
  const clock = createClock({ timeScale: data.timeScale, ...(time ? { realNow: () => time.get() } : {}) });
  if (data.kind === "rest") return (await import("./rest/server.js")).startRestMock({ port: 0, https: data.https, clock });
  return (await import("./mcp/server.js")).startMcpMock({ port: 0, clock });
}

try {
  const mock = await start();
  post({ type: "ready", url: mock.url.href });
} catch (err) {
  post({ type: "failed", message: err instanceof Error ? (err.stack ?? err.message) : String(err) });
}
