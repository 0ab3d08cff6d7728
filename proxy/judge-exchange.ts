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

/**
 * The exchange the judges and the recorder see: secret headers hidden, bodies decoded. Both are made when first
 * read, once: the judges read everything, but the record of an exchange that passed reads neither (only a
 * violation's example shows them), and that is nearly every exchange of a busy proxy. The lazy fields are own,
 * enumerable accessors: a spread or JSON of the exchange still carries every field. What they are made from is
 * a private field (no spread, JSON or inspection shows it: it holds the headers as sent, secrets and all).
 */
class LazyExchange {
  #d: ExchangeData;
  #secrets: SecretHeaders;
  #requestHeaders?: IncomingHttpHeaders;
  #responseHeaders?: IncomingHttpHeaders;
  #requestText?: string;
  #responseText?: string;
  // The fields below are own data properties, made in this order by the constructor (`declare`: no field is
  // made before, so an exchange without a failure has no `failure` at all, as before).
  declare protocol: Exchange["protocol"];
  declare seq: number;
  declare method: string;
  declare path: string;
  declare requestTruncated: boolean;
  declare status: number;
  declare responseTruncated: boolean;
  declare ms: number;
  declare serviceMs: number;
  declare failure?: string;
  declare failureBy?: Exchange["failureBy"];

  constructor(d: ExchangeData, secrets: SecretHeaders) {
    this.protocol = d.protocol;
    this.seq = d.seq;
    this.method = d.method;
    this.path = d.path;
    this.requestTruncated = d.requestTruncated;
    this.status = d.status;
    this.responseTruncated = d.responseTruncated;
    this.ms = d.ms;
    this.serviceMs = d.serviceMs;
    if (d.failure) {
      this.failure = d.failure;
      this.failureBy = d.failureBy ?? "service";
    }
    this.#d = d;
    this.#secrets = secrets;
    // One descriptor per field shared by every exchange, defined one by one: objects made alike keep one fast
    // shape (accessors written in an object literal are new functions for every exchange, ~10× the cost), and
    // Object.defineProperties with a descriptor map costs about twice these four calls.
    const f = LazyExchange.#fields;
    Object.defineProperty(this, "requestHeaders", f.requestHeaders);
    Object.defineProperty(this, "requestText", f.requestText);
    Object.defineProperty(this, "responseHeaders", f.responseHeaders);
    Object.defineProperty(this, "responseText", f.responseText);
  }

  static readonly #fields = {
    requestHeaders: { enumerable: true, get(this: LazyExchange) { return (this.#requestHeaders ??= this.#secrets.hide(this.#d.requestHeaders)); } },
    requestText: { enumerable: true, get(this: LazyExchange) { return (this.#requestText ??= utf8(this.#d.request)); } },
    responseHeaders: { enumerable: true, get(this: LazyExchange) { return (this.#responseHeaders ??= this.#secrets.hide(this.#d.responseHeaders)); } },
    responseText: { enumerable: true, get(this: LazyExchange) { return (this.#responseText ??= utf8(this.#d.response)); } },
  } satisfies Record<"requestHeaders" | "requestText" | "responseHeaders" | "responseText", PropertyDescriptor>;
}

/** The exchange the judges and the recorder see (LazyExchange): secret headers hidden, bodies decoded, when first read. */
export function exchangeOf(d: ExchangeData, secrets: SecretHeaders): Exchange {
  return new LazyExchange(d, secrets) as LazyExchange & Exchange;
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
