// The embedded references (the mocks an argument-less run is judged against), started in a worker thread so the
// reference answers on one core while the suite judges on the other; in this thread when no worker can run (the
// TypeScript sources without tsx). Either way the reference's clock reads the run's time when the run drives it.
import type { MockWorkerData } from "../../mock/in-worker.js";
import type { EmbeddedOptions, EmbeddedServer } from "./suite.js";

export async function startReference(kind: MockWorkerData["kind"], { timeScale, https, time, inThread }: EmbeddedOptions): Promise<EmbeddedServer> {
  const { startMockFrom, startMockInWorker } = await import("../../mock/in-worker.js");
  const data = { kind, timeScale, https, ...(time ? { time: time.buffer } : {}) };
  return (!inThread && (await startMockInWorker(data))) || (await startMockFrom(data));
}
