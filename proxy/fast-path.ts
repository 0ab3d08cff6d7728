// The proxy's fast path: a plain HTTP/1.1 exchange forwarded at the byte level, on a pool of raw connections
// to an http: upstream, for a fraction of what node:http's server and client cost per request (on a busy
// machine the proxy's CPU per request is what limits its throughput). Only a request that is whole and plain
// (raw-http.ts plainRequest: the usual methods, a path, well-formed ASCII headers, at most one Content-Length
// within the judged copy, nothing the proxy would refuse) takes it; on anything else (a partial request, a slow
// one, odd bytes, a refusal, Expect, chunked, a CONNECT, …) the connection is handed to node:http as it is, with
// what was read, for the rest of its life: every check, limit and refusal of the node:http path stays where it
// is. What the fast path does itself is what forward.ts does: Host named after the upstream, Accept-Encoding
// identity, hop-by-hop headers dropped both ways, a bounded copy of each body for the judge, a request sent
// again once when the connection went away under it (mayResend), the upstream's failures answered in the
// protocol's shape, a client that leaves stops the upstream exchange. A head that is byte for byte the last one
// read (the connection's last request, the upstream's last answer) is not read again: what was made of it is
// kept and shared (frozen), since clients repeat their requests and services their answers' heads.
import type { Socket } from "node:net";
import type { IncomingHttpHeaders } from "node:http";
import { hopByHop, mayResend, passOn, Tee, type Forwarded, type Upstream } from "./forward.js";
import { clientIdleCloseMs, keepAliveValue } from "./keep-alive.js";
import { keepFor, type Conn, type RawPool } from "./raw-pool.js";
import { answerHead, ChunkedReader, headEnd, headersOf, maxHeadBytes, plainRequest, type AnswerHead } from "./raw-http.js";

/** A request the fast path may forward, as the rest of the proxy reads requests (a node:http IncomingMessage's fields). */
export interface FastRequest {
  method: string;
  url: string;
  httpVersion: "1.1";
  rawHeaders: string[];
  headers: IncomingHttpHeaders;
}

export interface FastContext {
  upstream: Upstream;
  pool: RawPool;
  captureBytes: number;
  failureBody: (message: string) => { contentType: string; body: string };
  /** Takes a request (its target to forward, and what to call once it has ended), or declines it (node:http then serves the connection). */
  accept(req: FastRequest): { target: string; done: (f: Forwarded) => void } | undefined;
  /** Gives the connection to node:http, with the bytes already read put back. */
  handOver(socket: Socket): void;
  /** How long a new connection may stay silent before its request is late (node:http's headersTimeout). */
  headersTimeoutMs: number;
  /** Answers a connection that sent nothing in time (408 in the protocol's shape, a client fault) and closes it, as node:http's path does. */
  timedOut(socket: Socket): void;
  /** Records what the client sent but left before it was read: bytes that are no whole plain request (a client fault). */
  leftUnread(): void;
}


let dateAt = 0;
let dateText = "";
/** The Date header node:http adds when the answer has none (one string per second). */
function httpDate(): string {
  const now = Date.now();
  if (now - dateAt >= 1000) dateText = new Date((dateAt = now - (now % 1000))).toUTCString();
  return dateText;
}

/** The request as sent upstream: Host the upstream's, Accept-Encoding identity, the rest as the client sent it. */
function upstreamHead(method: string, path: string, host: string, raw: readonly string[]): string {
  let s = `${method} ${path} HTTP/1.1\r\nHost: ${host}\r\n`;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    const lower = name.length === 4 || name.length === 10 || name.length === 15 ? name.toLowerCase() : "";
    if (lower === "host" || lower === "connection" || lower === "accept-encoding") continue;
    s += `${name}: ${raw[i + 1]}\r\n`;
  }
  return `${s}Accept-Encoding: identity\r\nConnection: keep-alive\r\n\r\n`;
}

/**
 * The answer's head as the client gets it: hop-by-hop headers dropped, this hop's framing and connection. An
 * answer the upstream ends by closing its connection reaches the client chunked, as node:http's path sends it:
 * the client's connection stays open, and requests it sent behind that one are forwarded on a new upstream
 * connection, as any other. (Closing the client's connection too would leave them unanswered for no fault of the
 * client's: a proxy user expects the connection the proxy keeps alive to carry on.)
 */
function clientHead(h: AnswerHead): { bytes: Buffer; date: string } {
  let s = `HTTP/1.1 ${h.status} ${h.reason}\r\n`;
  const pass = passOn(h.rawHeaders, hopByHop);
  let dated = false;
  for (let i = 0; i < pass.length; i += 2) {
    if (pass[i]!.length === 4 && pass[i]!.toLowerCase() === "date") dated = true;
    s += `${pass[i]}: ${pass[i + 1]}\r\n`;
  }
  const date = dated ? "" : httpDate();
  if (date) s += `Date: ${date}\r\n`;
  if (h.framing.kind === "chunked" || h.framing.kind === "close") s += "Transfer-Encoding: chunked\r\n";
  return { bytes: Buffer.from(`${s}Connection: keep-alive\r\nKeep-Alive: ${keepAliveValue}\r\n\r\n`, "latin1"), date };
}

/** A plain request head as read (fast-path.ts serveFast keeps the last of each connection). */
interface ReadRequest {
  /** The head's bytes, when kept (heads over keptHeadBytes are not). */
  bytes?: Buffer;
  req: FastRequest;
  contentLength: number;
  /** The head as sent upstream, for the path it was sent to. */
  upstream?: { path: string; bytes: Buffer };
}

/** Heads longer than this are read afresh each time, not kept (what a connection keeps stays small: 1,024 of them at most). */
const keptHeadBytes = 4096;

/** Whether `buf` starts with the bytes of `head` and they end at `end`. */
const sameHead = (buf: Buffer, end: number, head: Buffer | undefined) => head !== undefined && head.length === end && buf.compare(head, 0, end, 0, end) === 0;

/**
 * The answer heads of one upstream as read and as sent on: an upstream answers the same head again and again (the
 * same resource, within the same second), and the same bytes always read the same, so the last head read is kept
 * with what was made of it, and an answer whose head is byte for byte that one costs a comparison. Its header
 * object is then shared by the exchanges that read it (frozen: nothing may change it).
 */
class AnswerHeads {
  #bytes: Buffer | undefined;
  #head: AnswerHead | undefined;
  #client: { bytes: Buffer; date: string } | undefined;

  read(buf: Buffer, end: number): AnswerHead | string {
    if (sameHead(buf, end, this.#bytes)) return this.#head!;
    const h = answerHead(buf, end);
    if (typeof h === "string") return h;
    Object.freeze(h.headers);
    if (end > keptHeadBytes) return h;
    this.#bytes = Buffer.from(buf.subarray(0, end));
    this.#head = h;
    this.#client = undefined;
    return h;
  }

  /** The head sent to the client (with the Date added when the answer has none: kept for as long as that Date is now). */
  client(h: AnswerHead): Buffer {
    const kept = h === this.#head ? this.#client : undefined;
    if (kept && (kept.date === "" || kept.date === httpDate())) return kept.bytes;
    const made = clientHead(h);
    if (h === this.#head) this.#client = made;
    return made.bytes;
  }
}
const answerHeads = new WeakMap<RawPool, AnswerHeads>();
const answerHeadsOf = (pool: RawPool) => {
  let heads = answerHeads.get(pool);
  if (!heads) answerHeads.set(pool, (heads = new AnswerHeads()));
  return heads;
};

const crlf = Buffer.from("\r\n", "latin1");
const noBody = Buffer.alloc(0);
const lastChunk = Buffer.from("0\r\n\r\n", "latin1");

/** Bytes read ahead of the request being answered before reading stops: a whole plain request at most. */
const readAhead = maxHeadBytes;

/** Serves a client connection on the fast path while its requests are plain; hands it to node:http at the first that is not. */
export function serveFast(socket: Socket, ctx: FastContext): void {
  /** The upstream's answer heads as read (one per pool, found once per connection). */
  const heads = answerHeadsOf(ctx.pool);
  let pending: Buffer | undefined;
  let busy = false;
  let halfClosed = false;
  let handedOver = false;
  /** Nothing has arrived yet: the connection's first request is late after headersTimeoutMs, as on node:http. */
  let fresh = true;
  /** Called when the client goes away during an exchange. */
  let abort: (() => void) | undefined;

  const onData = (chunk: Buffer) => {
    if (fresh) {
      fresh = false;
      socket.setTimeout(clientIdleCloseMs);
    }
    pending = pending ? Buffer.concat([pending, chunk]) : chunk;
    // During an exchange what the client sends ahead waits here, up to a request's worth (then in the socket).
    if (busy) return void (pending.length > readAhead && socket.pause());
    next();
  };
  // The client's end: as node:http's server (which does not allow half-open connections), a request whose answer
  // has not ended is abandoned (the client went away: its fault, never the service's) and the connection ends.
  const onEnd = () => {
    halfClosed = true;
    socket.end();
    abort?.();
    leave();
  };
  const onClose = () => {
    abort?.();
    leave();
  };
  const onError = () => socket.destroy();
  // A connection that never sent a byte is answered as node:http answers it (408); an idle kept-alive one is closed.
  const onTimeout = () => (busy ? undefined : fresh ? ((fresh = false), ctx.timedOut(socket)) : socket.destroy());
  socket.on("data", onData);
  socket.on("end", onEnd);
  socket.on("close", onClose);
  socket.on("error", onError);
  socket.on("timeout", onTimeout);
  // Before the first byte, node:http's header timeout; between requests, its keep-alive time (keep-alive.ts);
  // during an exchange the timeout closes nothing.
  socket.setTimeout(ctx.headersTimeoutMs);
  socket.setNoDelay(true);

  const handOver = () => {
    handedOver = true;
    socket.off("data", onData);
    socket.off("end", onEnd);
    socket.off("close", onClose);
    socket.off("error", onError);
    socket.off("timeout", onTimeout);
    socket.setTimeout(0);
    socket.pause();
    if (pending) socket.unshift(pending);
    pending = undefined;
    ctx.handOver(socket);
    socket.resume();
  };

  /**
   * The client left with requests read ahead of the one being answered (pipelined): node:http's server abandons
   * them as it abandons that one, so each is recorded as the client's leaving; what is not a whole plain request
   * is recorded once, as bytes the client left unread. None vanishes from the report.
   */
  const leave = () => {
    while (pending && !handedOver) {
      const end = headEnd(pending);
      const plain = end > 0 ? plainAt(end) : undefined;
      const taken = plain && pending.length >= end + plain.contentLength ? takeRequest(plain, end) : undefined;
      if (!taken) {
        pending = undefined;
        return ctx.leftUnread();
      }
      const request = new Tee(ctx.captureBytes);
      if (taken.body.length) request.push(taken.body);
      taken.done({ status: 0, responseHeaders: {}, request, response: new Tee(0), ms: 0, serviceMs: 0, failure: "the client closed the connection before its request was forwarded", failureBy: "client" });
    }
  };

  /**
   * The last plain request head read on this connection, with what was made of it: a client sends the same head
   * again and again, and the same bytes always read the same, so a head byte for byte that one costs a comparison.
   * What was made of it is shared by the exchanges that read it (frozen: nothing may change it).
   */
  let last: ReadRequest | undefined;
  /** The plain request whose head ends at `end` in `pending`, or undefined (not plain). */
  const plainAt = (end: number): ReadRequest | undefined => {
    if (sameHead(pending!, end, last?.bytes)) return last;
    const plain = plainRequest(pending!, end);
    if (!plain) return undefined;
    const req: FastRequest = { method: plain.method, url: plain.url, httpVersion: "1.1", rawHeaders: plain.rawHeaders, headers: Object.freeze(headersOf(plain.rawHeaders)) };
    Object.freeze(plain.rawHeaders);
    if (end > keptHeadBytes) return { req: Object.freeze(req), contentLength: plain.contentLength };
    return (last = { bytes: Buffer.from(pending!.subarray(0, end)), req: Object.freeze(req), contentLength: plain.contentLength });
  };

  /** The whole plain request at the head of `pending`, taken off it if the proxy accepts it (else it stays). */
  const takeRequest = (read: ReadRequest, end: number) => {
    const taken = ctx.accept(read.req);
    if (!taken) return undefined;
    const body = read.contentLength ? pending!.subarray(end, end + read.contentLength) : noBody;
    pending = pending!.length > end + read.contentLength ? pending!.subarray(end + read.contentLength) : undefined;
    return { read, body, target: taken.target, done: taken.done };
  };

  const next = (): void => {
    if (!pending || busy || halfClosed || socket.destroyed) return;
    const end = headEnd(pending);
    const plain = end > 0 ? plainAt(end) : undefined;
    if (!plain || plain.contentLength > ctx.captureBytes || pending.length < end + plain.contentLength) return handOver();
    const taken = takeRequest(plain, end);
    if (!taken) return handOver();
    busy = true;
    // Reading goes on during the exchange (so the client's end is seen when it comes), but no next request is
    // taken until the answer has ended: what is read ahead is kept whole, for the next exchange or node:http.
    exchange(taken.read, taken.body, taken.target, taken.done);
  };

  const exchange = (read: ReadRequest, body: Buffer, target: string, done: (f: Forwarded) => void) => {
    const req = read.req;
    const started = performance.now();
    const request = new Tee(ctx.captureBytes);
    if (body.length) request.push(body);
    const response = new Tee(ctx.captureBytes);
    const { upstream, pool } = ctx;
    // The head as sent upstream, made once per head read and target.
    const path = upstream.prefix + target;
    if (read.upstream?.path !== path) read.upstream = { path, bytes: Buffer.from(upstreamHead(req.method, path, upstream.url.host, req.rawHeaders), "latin1") };
    const head = read.upstream.bytes;
    const payload = body.length ? Buffer.concat([head, body]) : head;
    let status = 0;
    let responseHeaders: IncomingHttpHeaders = {};
    let finished = false;
    let resent = false;
    let conn: Conn | undefined;

    const finish = (failure?: string, by: "client" | "service" = "service") => {
      if (finished) return;
      finished = true;
      abort = undefined;
      const now = performance.now();
      const f: Forwarded = { status, responseHeaders, request, response, ms: now - started, serviceMs: now - started };
      if (failure) ((f.failure = failure), (f.failureBy = by));
      done(f);
      busy = false;
      if (socket.destroyed || socket.writableEnded) return;
      // The next request already read, if any (which may hand the connection over); else read on.
      next();
      if (!busy && !handedOver && !socket.destroyed) socket.resume();
    };
    /** The upstream could not be reached (nothing sent to the client yet): the protocol's 502. */
    const unreachable = (code: string) => {
      const message = `the upstream ${upstream.url.origin} could not be reached: ${code}`;
      const { contentType, body: text } = ctx.failureBody(message);
      status = 502;
      responseHeaders = {};
      socket.write(`HTTP/1.1 502 Bad Gateway\r\nContent-Type: ${contentType}\r\nContent-Length: ${Buffer.byteLength(text)}\r\nDate: ${httpDate()}\r\nConnection: keep-alive\r\nKeep-Alive: ${keepAliveValue}\r\n\r\n${text}`);
      finish(message);
    };
    abort = () => {
      if (conn) pool.release(conn, undefined);
      conn = undefined;
      finish("the client closed the connection before the answer ended", "client");
    };

    const send = (fresh: boolean) =>
      pool.acquire(fresh, (c, reused) => {
        if (finished) return pool.release(c, undefined);
        conn = c;
        let buf: Buffer | undefined;
        let answer: AnswerHead | undefined;
        let left = 0;
        let chunked: ChunkedReader | undefined;
        let reusable = true;
        const toClient = (data: Buffer) => {
          if (!socket.write(data) && !c.socket.isPaused()) {
            c.socket.pause();
            socket.once("drain", () => c.socket.resume());
          }
        };
        const complete = () => {
          conn = undefined;
          pool.release(c, reusable ? keepFor(answer!) : undefined);
          if (answer!.framing.kind === "close") toClient(lastChunk);
          finish();
        };
        /** The answer broke off after its head reached the client: the client's connection goes too. */
        const brokeOff = (why: string) => {
          conn = undefined;
          pool.release(c, undefined);
          socket.destroy();
          finish(why);
        };
        /** The body bytes of a chunk (after the head): to the client and the copy; true once the answer has ended. */
        const bodyOf = (chunk: Buffer, first: Buffer | undefined): boolean | string => {
          const framing = answer!.framing;
          let used = chunk.length;
          let ended = false;
          if (framing.kind === "length") {
            used = Math.min(left, chunk.length);
            left -= used;
            ended = left === 0;
            if (used) response.push(chunk.subarray(0, used));
          } else if (framing.kind === "chunked") {
            const r = chunked!.feed(chunk, (d) => response.push(d));
            if (typeof r === "string") {
              if (first !== undefined) toClient(first);
              return r;
            }
            used = r;
            ended = chunked!.done;
          } else if (framing.kind === "none") {
            used = 0;
            ended = true;
          } else if (used) response.push(chunk);
          if (used < chunk.length) reusable = false;
          let part = used < chunk.length ? chunk.subarray(0, used) : chunk;
          // Until close: sent on as chunks (clientHead).
          if (framing.kind === "close" && part.length) part = Buffer.concat([Buffer.from(`${part.length.toString(16)}\r\n`, "latin1"), part, crlf]);
          if (first !== undefined) toClient(part.length ? Buffer.concat([first, part]) : first);
          else if (part.length) toClient(part);
          return ended;
        };
        c.owner = {
          data(chunk) {
            let first: Buffer | undefined;
            if (!answer) {
              buf = buf ? Buffer.concat([buf, chunk]) : chunk;
              for (;;) {
                const end = headEnd(buf);
                if (end < 0) {
                  if (buf.length > maxHeadBytes) return fail("HPE_HEADER_OVERFLOW");
                  return;
                }
                const h = heads.read(buf, end);
                if (typeof h === "string") return fail(h);
                if (h.status === 101) return fail("HPE_UNEXPECTED_UPGRADE");
                buf = buf.subarray(end);
                // Interim answers (100, 103) are not passed on, as node:http's client does not.
                if (h.status >= 200) {
                  answer = h;
                  break;
                }
              }
              status = answer.status;
              responseHeaders = answer.headers;
              if (answer.framing.kind === "length") left = answer.framing.length;
              if (answer.framing.kind === "chunked") chunked = new ChunkedReader();
              first = heads.client(answer);
              chunk = buf;
              buf = undefined;
            }
            const ended = bodyOf(chunk, first);
            if (typeof ended === "string") return brokeOff(`the upstream's answer broke off: ${ended}`);
            if (ended) complete();
          },
          gone(err) {
            if (conn !== c) return;
            if (answer) {
              if (answer.framing.kind === "close" && !err) return complete();
              return brokeOff(err ? `the upstream's answer broke off: ${err.message}` : "the upstream's answer broke off");
            }
            // Gone before any answer: sent once more on a new connection if the upstream cannot have taken it
            // (or taking it twice changes nothing), as forward.ts does.
            const code = err?.code ?? "ECONNRESET";
            conn = undefined;
            pool.release(c, undefined);
            if (!resent && buf === undefined && mayResend(code, reused, req.method)) {
              resent = true;
              return send(true);
            }
            unreachable(code);
          },
        };
        const fail = (code: string) => {
          conn = undefined;
          pool.release(c, undefined);
          unreachable(code);
        };
        c.socket.write(payload);
      });
    send(false);
  };

  next();
}
