// The embedded references (the mocks an argument-less run is judged against), started in a worker thread so the
// reference answers on one core while the suite judges on the other; in this thread when no worker can run (the
// TypeScript sources without tsx). Either way the reference's clock reads the run's time when the run drives it.
import type { EmbeddedOptions, EmbeddedServer } from "./suite.js";

export async function startReference(kind: "rest" | "mcp", { timeScale, https, time }: EmbeddedOptions): Promise<EmbeddedServer> {
  const { startMockInWorker } = await import("../mock/in-worker.js");
  const inWorker = await startMockInWorker({ kind, timeScale, https, ...(time ? { time } : {}) });
  if (inWorker) return inWorker;
  const { createClock } = await import("../mock/clock.js");
  const clock = createClock({ timeScale, ...(time ? { realNow: () => time.get() } : {}) });
  if (kind === "rest") return (await import("../mock/rest/server.js")).startRestMock({ port: 0, https, clock });
  return (await import("../mock/mcp/server.js")).startMcpMock({ port: 0, clock });
}
