// The judge worker: judges the exchanges the proxy hands over, in the order it forwarded them, with its own
// remembered state, and answers each exchange's verdict by its sequence number. Loaded by judge-queue.ts in a
// worker thread only; in the main thread this module does nothing.
import { isMainThread, parentPort, workerData } from "node:worker_threads";
import { judgeExchange, newJudgeStates, type ExchangeData } from "./judge-exchange.js";
import { SecretHeaders } from "./secrets.js";
import type { Verdict } from "./types.js";

/** What marks a worker as the proxy's judge (workerData.kind). */
export const judgeWorkerKind = "ideas-contract proxy judge";

export interface JudgeWorkerData {
  kind: typeof judgeWorkerKind;
  secretHeaders: string[];
}

/** An exchange as handed over: its bodies are ranges of the batch's one buffer (`bodies`), not buffers of their own. */
export type JobData = Omit<ExchangeData, "request" | "response"> & { request: [start: number, end: number]; response: [start: number, end: number] };

/**
 * Main → worker: exchanges to judge, with every body of the batch in one buffer (moved, not copied: one buffer
 * per batch costs far less to hand over than two per exchange). Worker → main: their verdicts, or that it is ready.
 * The rest goes as one JSON text each way: a string is copied whole, where cloning the objects (every exchange's
 * headers, every verdict) costs the forwarding thread more than JSON does.
 */
export type ToJudge = { jobs: string; bodies: ArrayBuffer };
export type FromJudge = { verdicts: string } | { ready: true };

/** A batch of exchanges as one message: the bodies copied once into a single buffer. */
export function packJobs(jobs: readonly ExchangeData[]): ToJudge {
  let size = 0;
  for (const d of jobs) size += d.request.byteLength + d.response.byteLength;
  const bodies = new Uint8Array(size);
  let at = 0;
  const out: JobData[] = [];
  for (const d of jobs) {
    const request: [number, number] = [at, (at += d.request.byteLength)];
    const response: [number, number] = [at, (at += d.response.byteLength)];
    bodies.set(d.request, request[0]);
    bodies.set(d.response, response[0]);
    out.push(jobOf(d, request, response));
  }
  return { jobs: JSON.stringify(out), bodies: bodies.buffer };
}

/**
 * An exchange's fields named one by one (the bodies replaced): an object rest or spread costs several times as
 * much per exchange, and this runs for every exchange the proxy forwards.
 */
function jobOf<B>(d: Omit<ExchangeData, "request" | "response">, request: B, response: B): Omit<ExchangeData, "request" | "response"> & { request: B; response: B } {
  const job = {
    protocol: d.protocol,
    seq: d.seq,
    method: d.method,
    path: d.path,
    requestHeaders: d.requestHeaders,
    request,
    requestTruncated: d.requestTruncated,
    status: d.status,
    responseHeaders: d.responseHeaders,
    response,
    responseTruncated: d.responseTruncated,
    ms: d.ms,
    serviceMs: d.serviceMs,
  };
  return d.failure === undefined ? job : Object.assign(job, { failure: d.failure, failureBy: d.failureBy });
}

/** The exchanges of a batch, their bodies as views of its buffer. */
export function unpackJobs(m: ToJudge): ExchangeData[] {
  const view = ([start, end]: [number, number]) => new Uint8Array(m.bodies, start, end - start);
  return (JSON.parse(m.jobs) as JobData[]).map((j) => jobOf(j, view(j.request), view(j.response)));
}

if (!isMainThread && parentPort && (workerData as JudgeWorkerData | undefined)?.kind === judgeWorkerKind) {
  const port = parentPort;
  const secrets = new SecretHeaders((workerData as JudgeWorkerData).secretHeaders);
  const states = newJudgeStates();
  port.on("message", (m: ToJudge) => {
    const verdicts: [number, Verdict][] = unpackJobs(m).map((d) => [d.seq, judgeExchange(d, secrets, states)]);
    port.postMessage({ verdicts: JSON.stringify(verdicts) } satisfies FromJudge);
  });
  port.postMessage({ ready: true } satisfies FromJudge);
}
