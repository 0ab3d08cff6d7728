// The judge worker: judges the exchanges the proxy hands over, in the order it forwarded them, with its own
// remembered state, and answers each exchange's verdict by its sequence number. Loaded by judge-queue.ts in a
// worker thread only; in the main thread this module does nothing.
import { isMainThread, parentPort, workerData } from "node:worker_threads";
import { exchangeOf, judgeExchange, newJudgeStates, type ExchangeData } from "./judge-exchange.js";
import { SecretHeaders } from "./secrets.js";
import type { Verdict } from "./types.js";

/** What marks a worker as the proxy's judge (workerData.kind). */
export const judgeWorkerKind = "ideas-contract proxy judge";

export interface JudgeWorkerData {
  kind: typeof judgeWorkerKind;
  secretHeaders: string[];
}

/** Main → worker: exchanges to judge. Worker → main: their verdicts, or that it is ready. */
export type ToJudge = { jobs: ExchangeData[] };
export type FromJudge = { verdicts: [number, Verdict][] } | { ready: true };

if (!isMainThread && parentPort && (workerData as JudgeWorkerData | undefined)?.kind === judgeWorkerKind) {
  const port = parentPort;
  const secrets = new SecretHeaders((workerData as JudgeWorkerData).secretHeaders);
  const states = newJudgeStates();
  port.on("message", (m: ToJudge) => {
    const verdicts: [number, Verdict][] = m.jobs.map((d) => [d.seq, judgeExchange(exchangeOf(d, secrets), d.request, states)]);
    port.postMessage({ verdicts } satisfies FromJudge);
  });
  port.postMessage({ ready: true } satisfies FromJudge);
}
