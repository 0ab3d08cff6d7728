// Forwards one request to the upstream unchanged and streams the answer back as it comes (event streams
// included): bodies are piped, never buffered; a bounded copy of each is teed off for the judges. Only the
// hop-by-hop headers are dropped, Host is set to the upstream's and Accept-Encoding to identity (the judges read
// the bytes); every other header passes through untouched, repeats and order included.
import http from "node:http";
import https from "node:https";
import type { Socket } from "node:net";
import { readCa, targetUrl } from "../conformance/suites/rest/target.js";

/** Where a proxy forwards to, with the connection pool (and TLS trust) to use. */
export interface Upstream {
  url: URL;
  /** Prepended to every request path (the upstream URL's path, without a trailing slash). */
  prefix: string;
  agent: http.Agent;
}

export interface TlsOptions {
  /** Accept a self-signed or otherwise untrusted certificate. */
  insecure?: boolean;
  /** A CA file (PEM) to trust besides the system's. */
  caFile?: string;
}

/** How long an idle upstream connection is kept for reuse at most (see upstreamOf). */
export const upstreamIdleMs = 4_000;

/** The upstream of a URL (checked as the conformance command checks its targets), with a keep-alive pool. */
export function upstreamOf(raw: string, what: string, prefix: string, tls: TlsOptions = {}): Upstream {
  const url = targetUrl(raw, what);
  url.search = "";
  const ca = readCa(tls.caFile, "--ca");
  // An idle kept-alive connection is closed by the proxy before the upstream closes it, so a request never goes
  // out on a connection the upstream is closing at that instant (the keep-alive race: a reset or a broken pipe).
  // Node's agent closes an idle socket after `timeout`, or 1 s before the time the upstream announces in
  // Keep-Alive if that is sooner, but only when `timeout` is set: without it, it keeps idle sockets forever and
  // ignores the announcement. 4 s stays below the 5 s that Node servers (the mocks among them) keep an idle
  // connection and announce; a connection reset anyway is retried (see forward).
  const options = { keepAlive: true, maxSockets: 64, timeout: upstreamIdleMs };
  const agent =
    url.protocol === "https:" ? new https.Agent({ ...options, rejectUnauthorized: !tls.insecure, ...(ca ? { ca } : {}) }) : new http.Agent(options);
  return { url, prefix, agent };
}

const empty = Buffer.alloc(0);

/** A bounded copy of a stream's bytes. */
export class Tee {
  readonly #chunks: Buffer[] = [];
  #kept = 0;
  truncated = false;
  constructor(readonly limit: number) {}

  push(chunk: Buffer): void {
    if (this.#kept >= this.limit) {
      this.truncated = true;
      return;
    }
    const room = this.limit - this.#kept;
    if (chunk.length > room) this.truncated = true;
    const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
    this.#chunks.push(part);
    this.#kept += part.length;
  }

  /** The bytes kept so far (joined once, then kept joined: the judges ask for them more than once). */
  bytes(): Buffer {
    if (this.#chunks.length > 1) this.#chunks.splice(0, this.#chunks.length, Buffer.concat(this.#chunks));
    return this.#chunks[0] ?? empty;
  }

  text(): string {
    return this.bytes().toString("utf8");
  }
}

export const hopByHop: ReadonlySet<string> = new Set(["connection", "keep-alive", "proxy-connection", "proxy-authenticate", "proxy-authorization", "te", "trailer", "transfer-encoding", "upgrade"]);
/** What is not passed up: the hop-by-hop headers, and Host and Accept-Encoding (the proxy sets its own). */
const notPassedUp = new Set([...hopByHop, "host", "accept-encoding"]);

/**
 * The headers to pass on, as raw name/value pairs in the order sent, so that a header sent twice reaches the
 * other side twice (Node's parsed headers keep only the first of many): without those in `skip` and those the
 * Connection header names. Runs for every request and answer: the sets are made once, and a set of the names
 * Connection lists only when it lists one not skipped anyway (`Connection: keep-alive` names nothing new).
 */
export function passOn(raw: readonly string[], skip: ReadonlySet<string>): string[] {
  let named: Set<string> | undefined;
  // Headers named in Connection are hop-by-hop too (RFC 9110 §7.6.1).
  for (let i = 0; i < raw.length; i += 2)
    if (raw[i]!.length === 10 && raw[i]!.toLowerCase() === "connection")
      for (const n of raw[i + 1]!.toLowerCase().split(",")) {
        const name = n.trim();
        if (name && !skip.has(name)) (named ??= new Set()).add(name);
      }
  const lengths = named ? undefined : lengthsOf(skip);
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    // A name of no skipped name's length passes as it is (most do: no lower-case copy of it is made).
    if (lengths && !lengths.has(raw[i]!.length)) out.push(raw[i]!, raw[i + 1]!);
    else {
      const name = raw[i]!.toLowerCase();
      if (!skip.has(name) && !named?.has(name)) out.push(raw[i]!, raw[i + 1]!);
    }
  }
  return out;
}

/** The lengths of a set's names (for each set passOn is given: a few, made once). */
const skipLengths = new WeakMap<ReadonlySet<string>, ReadonlySet<number>>();
function lengthsOf(skip: ReadonlySet<string>): ReadonlySet<number> {
  let lengths = skipLengths.get(skip);
  if (!lengths) skipLengths.set(skip, (lengths = new Set([...skip].map((n) => n.length))));
  return lengths;
}

export interface Forwarded {
  status: number;
  responseHeaders: http.IncomingHttpHeaders;
  request: Tee;
  response: Tee;
  /** From the request's arrival to the answer's end. */
  ms: number;
  /** From the request's last byte to the answer's end (0 when the answer ended first). */
  serviceMs: number;
  failure?: string;
  /** Whose the failure was: the client that went away, or the upstream. */
  failureBy?: "client" | "service";
}

/** Errors that mean the connection went away under the request, before any answer: safe to send again. */
const resetCodes = new Set(["ECONNRESET", "EPIPE", "ECONNABORTED"]);
/** Methods a repeat cannot change anything twice with (RFC 9110 §9.2.2). */
const idempotent = new Set(["GET", "HEAD", "OPTIONS", "PUT", "DELETE", "TRACE"]);

/**
 * Whether a request that failed with `code` before any answer may be sent again: the connection went away under
 * it (reset, broken pipe, aborted) and either it was a kept-alive connection the upstream closed as the request
 * went out (the upstream never took it: Node's documented remedy) or taking it twice changes nothing.
 */
export function mayResend(code: string | undefined, reusedSocket: boolean, method: string | undefined): boolean {
  return resetCodes.has(code ?? "") && (reusedSocket || idempotent.has(method ?? ""));
}

/** What runs when a client connection closes, one listener per connection however many requests wait on it. */
const onClientClose = new WeakMap<Socket, Set<() => void>>();

/** Runs `fn` when `socket` closes; returns what stops it. */
function whenClosed(socket: Socket, fn: () => void): () => void {
  let fns = onClientClose.get(socket);
  if (!fns) {
    const set = (fns = new Set());
    onClientClose.set(socket, set);
    socket.once("close", () => {
      for (const f of set) f();
      set.clear();
    });
  }
  fns.add(fn);
  return () => void fns.delete(fn);
}

/**
 * Forwards `req` (its `target`, in origin form) to the upstream and streams the answer into `res`; calls `done`
 * once, when the answer has ended (or failed). `failureBody` writes the proxy's own answer when the upstream
 * cannot be reached.
 */
export function forward(
  upstream: Upstream,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  target: string,
  captureBytes: number,
  failureBody: (message: string) => { contentType: string; body: string },
  done: (f: Forwarded) => void,
): void {
  const started = performance.now();
  let requestEnded: number | undefined;
  const request = new Tee(captureBytes);
  const response = new Tee(captureBytes);
  let finished = false;
  let answered = false;
  let status = 0;
  let responseHeaders: http.IncomingHttpHeaders = {};
  let upstreamAnswer: http.IncomingMessage | undefined;
  /** Stops watching the client's connection once the exchange has ended. */
  let onEnd = () => {};
  const end = (failure?: string, failureBy?: "client" | "service") => {
    if (finished) return;
    finished = true;
    onEnd();
    const now = performance.now();
    done({
      status,
      responseHeaders,
      request,
      response,
      ms: now - started,
      serviceMs: Math.max(0, now - (requestEnded ?? now)),
      ...(failure ? { failure, failureBy: failureBy ?? "service" } : {}),
    });
  };
  req.on("end", () => (requestEnded = performance.now()));
  const { url } = upstream;
  const lib = url.protocol === "https:" ? https : http;
  const options = {
    protocol: url.protocol,
    hostname: url.hostname,
    port: url.port || undefined,
    path: target === "*" ? target : upstream.prefix + target,
    method: req.method,
    // Host names the upstream (the client's was checked to name the proxy: proxy/refusals.ts says why). The
    // judges read the answer's bytes: ask the upstream for them uncompressed (fetch-based clients offer gzip).
    // Host first: an upstream that reads only the first 2000 headers (Node's default) still gets it.
    headers: ["Host", url.host, ...passOn(req.rawHeaders, notPassedUp), "Accept-Encoding", "identity"],
  };
  const onAnswer = (answer: http.IncomingMessage) => {
    answered = true;
    upstreamAnswer = answer;
    status = answer.statusCode ?? 502;
    responseHeaders = answer.headers;
    res.writeHead(status, answer.statusMessage, passOn(answer.rawHeaders, hopByHop));
    // An event stream must reach the client event by event: its headers now, each chunk as it comes (pipe does).
    if (/^text\/event-stream/i.test(String(answer.headers["content-type"] ?? ""))) res.flushHeaders();
    answer.on("data", (chunk: Buffer) => response.push(chunk));
    answer.on("end", () => end());
    answer.on("error", (err) => {
      end(`the upstream's answer broke off: ${err.message}`);
      res.destroy();
    });
    answer.on("aborted", () => end("the upstream's answer broke off"));
    answer.pipe(res);
  };
  const fail = (err: NodeJS.ErrnoException) => {
    if (finished) return;
    const message = `the upstream ${url.origin} could not be reached: ${err.code ?? err.message}`;
    if (!res.headersSent) {
      const { contentType, body } = failureBody(message);
      status = 502;
      res.writeHead(502, { "content-type": contentType, "content-length": Buffer.byteLength(body) });
      res.end(body);
    } else res.destroy();
    end(message);
  };
  let up = lib.request({ ...options, agent: upstream.agent }, onAnswer);
  up.on("error", (err: NodeJS.ErrnoException) => {
    // Sending broke off after the answer began (an upstream that answers early and closes): the answer runs on.
    if (answered) return;
    // The connection went away under the request before any answer (a kept-alive connection the upstream
    // closed as the request went out, a broken pipe while sending): the upstream did not take it, or, for an
    // idempotent method, taking it twice changes nothing. It is sent once more on a new connection (Node's
    // documented remedy), from the copy of the body: possible only when the copy is the whole body.
    const retry = mayResend(err.code, up.reusedSocket, req.method) && !answered && !res.headersSent && !request.truncated && !finished;
    if (!retry) return fail(err);
    const resend = () => {
      if (request.truncated || finished) return fail(err);
      up = lib.request({ ...options, agent: false }, onAnswer);
      up.on("error", fail);
      up.end(request.bytes());
    };
    if (req.complete) resend();
    else {
      // The failed request's pipe is gone, which paused the client's body: read the rest into the copy.
      req.once("end", resend);
      req.resume();
    }
  });
  // The client went away: stop the upstream exchange too (an event stream would otherwise run on). A client
  // that closes as soon as it has read the whole answer has not gone away early.
  const clientLeft = () => {
    if (upstreamAnswer?.complete) {
      upstreamAnswer.once("end", () => end());
      upstreamAnswer.resume();
    } else if (!res.writableFinished) {
      up.destroy();
      end("the client closed the connection before the answer ended", "client");
    }
  };
  res.on("close", clientLeft);
  // A pipelined request queued behind another's answer has a response that never closes when the client leaves
  // (node:http closes only the one being answered): the connection's close is its client's leaving too.
  onEnd = whenClosed(req.socket, clientLeft);
  req.on("data", (chunk: Buffer) => request.push(chunk));
  req.pipe(up);
}
