// A mock running in a worker thread (started by in-worker.ts): the conformance suite's embedded reference, so the
// reference answers on the second core while the suite judges on the first. Its clock reads the run's time from
// shared memory when the run drives time.
import { parentPort, workerData } from "node:worker_threads";
import { startMockFrom, type FromMockWorker, type MockWorkerData } from "./in-worker.js";

const post = (message: FromMockWorker) => parentPort!.postMessage(message);

try {
  const mock = await startMockFrom(workerData as MockWorkerData);
  post({ type: "ready", url: mock.url.href });
} catch (err) {
  post({ type: "failed", message: err instanceof Error ? (err.stack ?? err.message) : String(err) });
}
