// The judge worker: judges the exchanges the proxy hands over, in the order it forwarded them, with its own
// remembered state, and answers each exchange's verdict by its sequence number. Loaded by judge-queue.ts in a
// worker thread only; in the main thread this module does nothing.
import { isMainThread, parentPort, workerData } from "node:worker_threads";
import { freezeAll } from "./deep-freeze.js";
import { judgeExchangeText, newJudgeStates, type ExchangeData } from "./judge-exchange.js";
import { SecretHeaders } from "./secrets.js";
import type { Verdict } from "./types.js";

/** What marks a worker as the proxy's judge (workerData.kind). */
export const judgeWorkerKind = "ideas-contract proxy judge";

export interface JudgeWorkerData {
  kind: typeof judgeWorkerKind;
  secretHeaders: string[];
}

/**
 * An exchange as handed over: its bodies are ranges of the batch's one buffer (`bodies`), not buffers of their own,
 * and its headers the index of their object in the batch's `headers`.
 */
export type JobData = Omit<ExchangeData, "request" | "response" | "requestHeaders" | "responseHeaders"> & {
  request: [start: number, end: number];
  response: [start: number, end: number];
  requestHeaders: number;
  responseHeaders: number;
};

/**
 * Main → worker: exchanges to judge, with every body of the batch in one buffer (moved, not copied: one buffer
 * per batch costs far less to hand over than two per exchange), the rest as one JSON text (`JobsText`): a string
 * is copied whole, where cloning the objects (every exchange's headers) costs the forwarding thread more than
 * JSON does. Worker → main: their verdicts (`VerdictBatch`), or that it is ready.
 */
export type ToJudge = { jobs: string; bodies: ArrayBuffer };
export type FromJudge = VerdictBatch | { ready: true };

/**
 * The JSON of a batch's exchanges: each distinct header object once (by identity: the fast path hands the same,
 * frozen, object for a head byte for byte the last one, as an upstream answers the same head again and again).
 */
interface JobsText {
  headers: ExchangeData["requestHeaders"][];
  jobs: JobData[];
}

/** The distinct values met (by identity, or equality for strings), each with its index in `items`. */
class Distinct<T> {
  readonly items: T[] = [];
  readonly #index = new Map<T, number>();
  at(x: T): number {
    let i = this.#index.get(x);
    if (i === undefined) this.#index.set(x, (i = this.items.push(x) - 1));
    return i;
  }
}

/** A batch of exchanges as one message: the bodies copied once into a single buffer, each distinct header object once. */
export function packJobs(jobs: readonly ExchangeData[]): ToJudge {
  let size = 0;
  for (const d of jobs) size += d.request.byteLength + d.response.byteLength;
  const bodies = new Uint8Array(size);
  const headers = new Distinct<ExchangeData["requestHeaders"]>();
  let at = 0;
  const out: JobData[] = [];
  for (const d of jobs) {
    const request: [number, number] = [at, (at += d.request.byteLength)];
    const response: [number, number] = [at, (at += d.response.byteLength)];
    bodies.set(d.request, request[0]);
    bodies.set(d.response, response[0]);
    out.push(jobOf(d, request, response, headers.at(d.requestHeaders), headers.at(d.responseHeaders)));
  }
  return { jobs: JSON.stringify({ headers: headers.items, jobs: out } satisfies JobsText), bodies: bodies.buffer };
}

type Plain = Omit<ExchangeData, "request" | "response" | "requestHeaders" | "responseHeaders">;

/**
 * An exchange's fields named one by one (the bodies and headers replaced): an object rest or spread costs several
 * times as much per exchange, and this runs for every exchange the proxy forwards.
 */
function jobOf<B, H>(d: Plain, request: B, response: B, requestHeaders: H, responseHeaders: H): Plain & { request: B; response: B; requestHeaders: H; responseHeaders: H } {
  const job = {
    protocol: d.protocol,
    seq: d.seq,
    method: d.method,
    path: d.path,
    requestHeaders,
    request,
    requestTruncated: d.requestTruncated,
    status: d.status,
    responseHeaders,
    response,
    responseTruncated: d.responseTruncated,
    ms: d.ms,
    serviceMs: d.serviceMs,
  };
  return d.failure === undefined ? job : Object.assign(job, { failure: d.failure, failureBy: d.failureBy });
}

/** The exchanges of a batch, their bodies as views of its buffer; exchanges that shared a header object share one (frozen) here too. */
export function unpackJobs(m: ToJudge): ExchangeData[] {
  const view = ([start, end]: [number, number]) => new Uint8Array(m.bodies, start, end - start);
  const { headers, jobs } = JSON.parse(m.jobs) as JobsText;
  for (const h of headers) Object.freeze(h);
  return jobs.map((j) => jobOf(j, view(j.request), view(j.response), headers[j.requestHeaders]!, headers[j.responseHeaders]!));
}

/**
 * A batch's verdicts as JSON texts: each distinct text once (a busy proxy's verdicts are nearly all the same clean
 * pass), and per exchange its sequence number and the index of its text, in pairs (`refs`: seq, index, seq, …).
 */
export interface VerdictBatch {
  texts: string[];
  refs: Float64Array;
}

/** The verdicts of a batch (`seqs[i]`'s verdict is `texts[i]`, a verdict's JSON text) as one message. */
export function packVerdicts(seqs: readonly number[], texts: readonly string[]): VerdictBatch {
  const distinct = new Distinct<string>();
  const refs = new Float64Array(seqs.length * 2);
  for (let i = 0; i < seqs.length; i++) {
    refs[2 * i] = seqs[i]!;
    refs[2 * i + 1] = distinct.at(texts[i]!);
  }
  return { texts: distinct.items, refs };
}

/**
 * Verdict texts parsed, each once while it is among the last `max` distinct texts parsed (the oldest let go first):
 * a verdict seen before costs a lookup, across batches. The verdicts are shared and frozen: no one may change one.
 */
export class ParsedVerdicts {
  readonly #map = new Map<string, Verdict>();
  constructor(readonly max = 256) {}
  of(text: string): Verdict {
    let v = this.#map.get(text);
    if (v === undefined) {
      v = freezeAll(JSON.parse(text) as Verdict);
      if (this.#map.size >= this.max) this.#map.delete(this.#map.keys().next().value!);
      this.#map.set(text, v);
    }
    return v;
  }
  get size(): number {
    return this.#map.size;
  }
}

/** Each exchange's sequence number with its verdict (parsed by `parsed`), in the order judged. */
export function unpackVerdicts(m: VerdictBatch, parsed: ParsedVerdicts, each: (seq: number, verdict: Verdict) => void): void {
  const verdicts = m.texts.map((t) => parsed.of(t));
  for (let i = 0; i + 1 < m.refs.length; i += 2) each(m.refs[i]!, verdicts[m.refs[i + 1]!]!);
}

if (!isMainThread && parentPort && (workerData as JudgeWorkerData | undefined)?.kind === judgeWorkerKind) {
  const port = parentPort;
  const secrets = new SecretHeaders((workerData as JudgeWorkerData).secretHeaders);
  const states = newJudgeStates();
  port.on("message", (m: ToJudge) => {
    const jobs = unpackJobs(m);
    const batch = packVerdicts(
      jobs.map((d) => d.seq),
      jobs.map((d) => judgeExchangeText(d, secrets, states)),
    );
    port.postMessage(batch satisfies FromJudge);
  });
  port.postMessage({ ready: true } satisfies FromJudge);
}
