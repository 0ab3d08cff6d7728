// The judges' verdict cache: a busy client repeats the same exchange (the same read, answered the same), and
// judging it again gives the same verdict. A hit answers the verdict judged before (the JSON text it was kept as,
// which the judge worker sends on as it is), at a lookup's cost; the exchange still counts as judged, and its
// findings are exactly those judging it again would give.
//
// Why a hit is exact. judgeExchange's verdict is a function of:
//  - what it reads of the exchange: protocol, method, path, status, the truncated flags, the headers it reads
//    (keyedHeaders, with the values the judge sees: as hidden; a verdict whose judging read any other header, or
//    listed the headers, is not kept, so a judge that starts reading another header is never wrong, only
//    uncached until it is added here), the request's bytes
//    (precheck reads them: a body that is not UTF-8 decodes to the same text as one that is), the answer's text,
//    a failure, and the times (precheck's slow client, REST's "within seconds"). The key holds all but the times
//    and failures (the answer by its bytes, which decide its text): an exchange with a failure, a slow request or a slow answer is never cached, and for any other
//    the times change nothing (each check passes whatever the exact figure).
//  - what it reads of the remembered state (JudgeStates: LRUs only; a judge reads and writes them by get and set,
//    nothing else). Their values are frozen throughout (lru.ts `frozen`; the cache takes no other LRU): an entry
//    changes only by a set, never in place. Judging traces each get with the value it returned; a hit needs every
//    traced value to be what the state holds now: the very value (an identity test: a live tool's schemas are
//    kilobytes of JSON, read by every tools/call), or one with the same JSON text. Once the judge has written, a
//    later read could see its own write or what the write evicted: such an exchange is not cached, nor one whose
//    write evicted an entry.
//  - nothing else: the judges' module-level tables are constants or memos of pure functions, and they read no
//    clock or random numbers.
// Then an uncached judge, on the same key and the same state, makes the same reads, gets the same values, and so
// writes the same values in the same order and gives the same verdict. A hit replays those reads and writes in
// order (a get marks an entry used, as judging does; a write stores the value written, which nothing can change),
// so the state after a hit is the state after judging.
import type { IncomingHttpHeaders } from "node:http";
import type { Lru, LruTrace } from "./lru.js";
import type { SecretHeaders } from "./secrets.js";
import type { Exchange, ExchangeData, Verdict } from "./types.js";

type AnyLru = Lru<unknown, unknown>;
interface Op {
  /** Which of the judges' LRUs (by its place in the list given). */
  lru: number;
  key: unknown;
  /** The value read or written (frozen throughout: it cannot change). */
  value: unknown;
  /** A read value's JSON text ("" for none), made only when a hit finds another value in its place to compare with. */
  json?: string;
  write: boolean;
}

interface Entry {
  /** The verdict's JSON text. */
  verdict: string;
  ops: Op[];
}

/** The headers the judges read (rest-judge.ts, mcp-judge.ts, client-faults.ts, the conformance assertions): the key holds these. */
const keyedHeaders = { request: ["authorization", "content-type", "accept", "mcp-protocol-version"], response: ["content-type", "www-authenticate", "retry-after"] };

/** Watches which header names a judge reads; `other` once it reads one the key does not hold, or lists them. */
class HeaderReads {
  other = false;
  watch(headers: object, keyed: readonly string[]): object {
    return new Proxy(headers, {
      get: (t, name) => {
        if (typeof name !== "string" || !keyed.includes(name)) this.other = true;
        return (t as Record<string | symbol, unknown>)[name];
      },
      has: (t, name) => ((this.other = this.other || typeof name !== "string" || !keyed.includes(name)), name in t),
      ownKeys: (t) => ((this.other = true), Reflect.ownKeys(t)),
      getOwnPropertyDescriptor: (t, name) => ((this.other = true), Reflect.getOwnPropertyDescriptor(t, name)),
    });
  }
}

/** The fields of an exchange as handed over (types.ts ExchangeData) that the key is made from. */
export type KeyedData = Pick<ExchangeData, "protocol" | "method" | "path" | "status" | "requestTruncated" | "responseTruncated" | "requestHeaders" | "responseHeaders" | "request" | "response" | "ms" | "serviceMs" | "failure">;

/**
 * The keyed headers' values as the judges see them, in the order named: each as `secrets.hide` shows it
 * (`hideValue`, which `hide` applies to every header), without copying the headers to hide them.
 */
function keyed(h: IncomingHttpHeaders, names: readonly string[], secrets: SecretHeaders): unknown[] {
  const out = new Array<unknown>(names.length);
  for (let i = 0; i < names.length; i++) out[i] = secrets.hideValue(names[i]!, h[names[i]!]);
  return out;
}

const latin1 = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString("latin1");

const sameBytes = (a: Uint8Array, b: Uint8Array) => a === b || (a.byteLength === b.byteLength && Buffer.compare(a, b) === 0);

/** Whether two exchanges have the same key (keyOf): the same keyed fields, header objects (frozen) and bytes. */
const sameKeyed = (a: KeyedData, b: KeyedData) =>
  a.requestHeaders === b.requestHeaders &&
  a.responseHeaders === b.responseHeaders &&
  a.status === b.status &&
  a.path === b.path &&
  a.method === b.method &&
  a.protocol === b.protocol &&
  a.requestTruncated === b.requestTruncated &&
  a.responseTruncated === b.responseTruncated &&
  sameBytes(a.request, b.request) &&
  sameBytes(a.response, b.response);

const none = "";
const snapshot = (v: unknown): string | undefined => (v === undefined ? none : JSON.stringify(v));

/**
 * Records a judge's reads and writes of the state, and whether they allow caching its verdict. The values are kept
 * as they are: frozen throughout, they are what was read or written whenever looked at again.
 */
class Trace implements LruTrace {
  constructor(readonly lrus: readonly AnyLru[]) {}
  ops: Op[] = [];
  wrote = false;
  cacheable = true;
  read(lru: AnyLru, key: unknown, value: unknown): void {
    if (!this.cacheable) return;
    if (this.wrote) return void (this.cacheable = false);
    this.ops.push({ lru: this.lrus.indexOf(lru), key, value, write: false });
  }
  write(lru: AnyLru, key: unknown, value: unknown, forgot: boolean): void {
    this.wrote = true;
    if (!this.cacheable) return;
    if (forgot || value === undefined) return void (this.cacheable = false);
    this.ops.push({ lru: this.lrus.indexOf(lru), key, value, write: true });
  }
}

export interface VerdictCacheOptions {
  /** Verdicts kept (default 256); the oldest is let go first. */
  entries?: number;
  /** Exchanges with more body bytes (or characters) than this are not cached (default 32 Ki): with the default count, the keys stay under 8 Mi characters. */
  maxBytes?: number;
  /** An answer taking longer than this may break a timing rule: not cached. */
  answerWithinMs: number;
  /** A request taking longer than this to arrive is a slow client: not cached. */
  sendWithinMs: number;
}

export class VerdictCache {
  readonly #map = new Map<string, Entry>();
  readonly #entries: number;
  readonly #maxBytes: number;
  readonly #options: VerdictCacheOptions;
  hits = 0;
  misses = 0;
  constructor(options: VerdictCacheOptions) {
    this.#options = options;
    this.#entries = options.entries ?? 256;
    this.#maxBytes = options.maxBytes ?? 32 * 1024;
  }

  /**
   * The cache key of an exchange as handed over, or undefined when its verdict may depend on more than the key
   * (see above). Made from the plain data, so that a hit never builds the exchange the judges read: the keyed
   * headers hidden as the judges see them (`secrets.hideValue`: each value as `secrets.hide` hides it, the
   * headers not copied), the bodies' bytes (finer than their text: the same bytes always decode to the same text).
   */
  keyOf(d: KeyedData, secrets: SecretHeaders): string | undefined {
    if (d.failure !== undefined) return undefined;
    if (!(d.serviceMs <= this.#options.answerWithinMs) || !(d.ms - d.serviceMs <= this.#options.sendWithinMs)) return undefined;
    if (d.request.byteLength + d.response.byteLength > this.#maxBytes) return undefined;
    const last = this.#lastKeyed;
    if (last && sameKeyed(last.d, d) && last.secrets === secrets) return last.key;
    const head = JSON.stringify([d.protocol, d.method, d.path, d.status, d.requestTruncated, d.responseTruncated, keyed(d.requestHeaders, keyedHeaders.request, secrets), keyed(d.responseHeaders, keyedHeaders.response, secrets), d.request.byteLength, d.response.byteLength]);
    const key = `${head}${latin1(d.request)}${latin1(d.response)}`;
    // Only frozen headers are known to read the same later (the worker's are frozen; so are the proxy's shared ones).
    this.#lastKeyed = Object.isFrozen(d.requestHeaders) && Object.isFrozen(d.responseHeaders) ? { d, secrets, key } : undefined;
    return key;
  }
  /**
   * The last exchange keyed, with its key: a busy client repeats an exchange, and the same fields, the same (frozen)
   * header objects and the same bytes make the same key, so it is given again (the very string: its hash is kept)
   * at the cost of comparing the bytes, not made and hashed anew.
   */
  #lastKeyed: { d: KeyedData; secrets: SecretHeaders; key: string } | undefined;

  /**
   * The verdict judged before for `key`, as its JSON text (the very text kept: nothing parsed or made), with its
   * reads and writes of `lrus` (the judges' state) replayed; undefined on a miss.
   */
  hit(key: string, lrus: readonly AnyLru[]): string | undefined {
    const e = this.#map.get(key);
    if (!e) return void this.misses++;
    for (const op of e.ops) if (!op.write && !this.#sameRead(op, lrus[op.lru]!)) return void this.misses++;
    // A value written is set again as it is: frozen, it is what the judge wrote.
    for (const op of e.ops) op.write ? lrus[op.lru]!.set(op.key, op.value) : lrus[op.lru]!.get(op.key);
    this.hits++;
    return e.verdict;
  }

  /**
   * Whether what a read got then is what the state holds now: the same value (frozen: it cannot have changed), or
   * one with the same JSON text, which is then kept in its place, to be found by identity next.
   */
  #sameRead(op: Op, lru: AnyLru): boolean {
    const now = lru.peek(op.key);
    if (now === op.value) return true;
    op.json ??= snapshot(op.value);
    if (op.json === undefined || snapshot(now) !== op.json) return false;
    op.value = now;
    return true;
  }

  /**
   * Judges `ex` with `judge`, tracing its reads of the headers and its reads and writes of `lrus`; keeps the
   * verdict for `key` if it may. The judge gets a copy of the exchange whose headers tell what is read of them.
   * Returns the verdict's JSON text, made once: the text kept is the text returned, and a hit returns it again.
   */
  judge(key: string, ex: Exchange, lrus: readonly AnyLru[], judge: (ex: Exchange) => Verdict): string {
    if (!lrus.every((l) => l.frozen)) throw new Error("the verdict cache needs LRUs whose values are frozen (lru.ts frozen): a value changed in place would make a hit wrong");
    const trace = new Trace(lrus);
    const reads = new HeaderReads();
    const watched: Exchange = { ...ex, requestHeaders: reads.watch(ex.requestHeaders, keyedHeaders.request) as Exchange["requestHeaders"], responseHeaders: reads.watch(ex.responseHeaders, keyedHeaders.response) as Exchange["responseHeaders"] };
    for (const l of lrus) l.trace = trace;
    let verdict: Verdict;
    try {
      verdict = judge(watched);
    } finally {
      for (const l of lrus) l.trace = undefined;
    }
    const text = JSON.stringify(verdict);
    if (trace.cacheable && !reads.other) {
      if (this.#map.size >= this.#entries) this.#map.delete(this.#map.keys().next().value!);
      this.#map.set(key, { verdict: text, ops: trace.ops });
    }
    return text;
  }

  get size(): number {
    return this.#map.size;
  }
}
