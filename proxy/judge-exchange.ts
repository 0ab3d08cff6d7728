// One exchange judged, wherever judging runs (the judge worker, or in the proxy's own thread when no worker can
// start): what the proxy hands over is plain data (structured-clonable), from which the exchange is rebuilt the
// same way on both sides, so a verdict never depends on where it was made.
import type { IncomingHttpHeaders } from "node:http";
import { precheck } from "./client-faults.js";
import { judgeMcp } from "./mcp-judge.js";
import { defaultMcpCaps, McpState } from "./mcp-state.js";
import { judgeRest } from "./rest-judge.js";
import { defaultRestCaps, RestState } from "./rest-state.js";
import type { Lru } from "./lru.js";
import type { SecretHeaders } from "./secrets.js";
import { VerdictCache } from "./verdict-cache.js";
import { slowRequestMs } from "./client-faults.js";
import { defaultTiming } from "../conformance/suites/rest/target.js";
import type { Exchange, ExchangeData, Verdict } from "./types.js";

export type { ExchangeData } from "./types.js";

const utf8 = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString("utf8");

/** What an exchange's fields made on first read are made from, and what they came to (not enumerable: no spread or JSON shows it). */
const source = Symbol("exchange source");
interface Source {
  d: ExchangeData;
  secrets: SecretHeaders;
  requestHeaders?: IncomingHttpHeaders;
  responseHeaders?: IncomingHttpHeaders;
  requestText?: string;
  responseText?: string;
}
type Lazy = Exchange & { [source]: Source };

// One set of accessors shared by every exchange: objects made alike keep one fast shape. Accessors written in an
// object literal are new functions for every exchange, which made an exchange cost ~10× as much to make and read.
const lazyFields: PropertyDescriptorMap = {
  requestHeaders: { enumerable: true, get(this: Lazy) { const s = this[source]; return (s.requestHeaders ??= s.secrets.hide(s.d.requestHeaders)); } },
  requestText: { enumerable: true, get(this: Lazy) { const s = this[source]; return (s.requestText ??= utf8(s.d.request)); } },
  responseHeaders: { enumerable: true, get(this: Lazy) { const s = this[source]; return (s.responseHeaders ??= s.secrets.hide(s.d.responseHeaders)); } },
  responseText: { enumerable: true, get(this: Lazy) { const s = this[source]; return (s.responseText ??= utf8(s.d.response)); } },
};

/**
 * The exchange the judges and the recorder see: secret headers hidden, bodies decoded. Both are made when first
 * read, once: the judges read everything, but the record of an exchange that passed reads neither (only a
 * violation's example shows them), and that is nearly every exchange of a busy proxy. The accessors are own and
 * enumerable: a spread or JSON of the exchange still carries every field.
 */
export function exchangeOf(d: ExchangeData, secrets: SecretHeaders): Exchange {
  const ex = { protocol: d.protocol, seq: d.seq, method: d.method, path: d.path, requestTruncated: d.requestTruncated, status: d.status, responseTruncated: d.responseTruncated, ms: d.ms, serviceMs: d.serviceMs } as Lazy;
  if (d.failure) Object.assign(ex, { failure: d.failure, failureBy: d.failureBy ?? "service" });
  Object.defineProperty(ex, source, { value: { d, secrets } satisfies Source });
  return Object.defineProperties(ex, lazyFields);
}

/** A verdict that judged nothing: the exchange's label and status, with why it was set aside. */
export function setAsideVerdict(ex: Pick<Exchange, "method" | "path" | "status" | "failure">, aside: Pick<Verdict, "clientFault" | "unjudged" | "noAnswer">): Verdict {
  return { label: `${ex.method} ${ex.path.split("?")[0]}`, outcome: ex.failure ? "—" : String(ex.status), violations: [], notes: [], ...aside };
}

/** What the judges remember across exchanges, one per protocol (bounded). */
export interface JudgeStates {
  rest: RestState;
  mcp: McpState;
  /** Verdicts of exchanges judged before (verdict-cache.ts: a hit is exactly what judging again gives). */
  cache?: VerdictCache;
}

/** The judges' state, with a verdict cache unless `cache` is false. */
export const newJudgeStates = (options: { cache?: boolean } = {}): JudgeStates => ({
  rest: new RestState(defaultRestCaps),
  mcp: new McpState(defaultMcpCaps),
  ...(options.cache === false ? {} : { cache: new VerdictCache({ answerWithinMs: defaultTiming.answer_within_seconds * 1000, sendWithinMs: slowRequestMs }) }),
});

/** Every LRU the judges read and write. */
const lrusOf = (s: JudgeStates) => [s.rest.brands, s.rest.batches, s.mcp.tools, s.mcp.batches, s.mcp.deleted, s.mcp.deactivations, s.mcp.externalIds] as Lru<unknown, unknown>[];

/**
 * The verdict on one exchange as handed over, as its JSON text (what the judge worker sends back, and what the
 * verdict cache keeps): prechecked (client faults, what cannot be judged), then judged by its protocol's judge. A
 * verdict cache hit is answered from the plain data with the text kept, nothing parsed or made: the exchange the
 * judges read (secret headers hidden, bodies decoded) is made only when judging, and its verdict stringified once.
 */
export function judgeExchangeText(d: ExchangeData, secrets: SecretHeaders, states: JudgeStates): string {
  const cache = states.cache;
  const key = cache?.keyOf(d, secrets);
  if (key === undefined) return JSON.stringify(judgeAfresh(exchangeOf(d, secrets), d.request, states));
  const lrus = lrusOf(states);
  return cache!.hit(key, lrus) ?? cache!.judge(key, exchangeOf(d, secrets), lrus, (watched) => judgeAfresh(watched, d.request, states));
}

/** The verdict on one exchange as an object: its text (judgeExchangeText) parsed, as the proxy's thread takes it. */
export const judgeExchange = (d: ExchangeData, secrets: SecretHeaders, states: JudgeStates): Verdict => JSON.parse(judgeExchangeText(d, secrets, states)) as Verdict;

function judgeAfresh(exchange: Exchange, requestBytes: Uint8Array, states: JudgeStates): Verdict {
  const pre = precheck(exchange, Buffer.from(requestBytes.buffer, requestBytes.byteOffset, requestBytes.byteLength));
  const aside = { ...(pre.clientFault ? { clientFault: pre.clientFault } : {}), ...(pre.unjudged ? { unjudged: pre.unjudged } : {}), ...(pre.noAnswer ? { noAnswer: pre.noAnswer } : {}) };
  if (!pre.judge) return setAsideVerdict(exchange, aside);
  try {
    const v = exchange.protocol === "rest" ? judgeRest(exchange, states.rest) : judgeMcp(exchange, states.mcp);
    return { ...v, ...aside, ...(v.clientFault && aside.clientFault ? { clientFault: `${aside.clientFault}; ${v.clientFault}` } : {}) };
  } catch (err) {
    // A judge that trips over an exchange must not take the proxy down, nor pass it: unjudged, with why.
    return { ...setAsideVerdict(exchange, aside), outcome: String(exchange.status), unjudged: `judge failed: ${(err as Error).message}` };
  }
}
