// Forwards one request to the upstream unchanged and streams the answer back as it comes (event streams
// included): bodies are piped, never buffered; a bounded copy of each is teed off for the judges. Only the
// hop-by-hop headers are dropped, Host is set to the upstream's and Accept-Encoding to identity (the judges read
// the bytes); Authorization passes through untouched.
import http from "node:http";
import https from "node:https";
import { readCa, targetUrl } from "../conformance/target.js";

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

/** The upstream of a URL (checked as the conformance command checks its targets), with a keep-alive pool. */
export function upstreamOf(raw: string, what: string, prefix: string, tls: TlsOptions = {}): Upstream {
  const url = targetUrl(raw, what);
  url.search = "";
  const ca = readCa(tls.caFile, "--ca");
  const options = { keepAlive: true, maxSockets: 64 };
  const agent =
    url.protocol === "https:" ? new https.Agent({ ...options, rejectUnauthorized: !tls.insecure, ...(ca ? { ca } : {}) }) : new http.Agent(options);
  return { url, prefix, agent };
}

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

  bytes(): Buffer {
    return Buffer.concat(this.#chunks);
  }

  text(): string {
    return this.bytes().toString("utf8");
  }
}

const hopByHop = new Set(["connection", "keep-alive", "proxy-connection", "proxy-authenticate", "proxy-authorization", "te", "trailer", "transfer-encoding", "upgrade"]);

function forwardHeaders(headers: http.IncomingHttpHeaders, host?: string): http.OutgoingHttpHeaders {
  const out: http.OutgoingHttpHeaders = {};
  // Headers named in Connection are hop-by-hop too (RFC 9110 §7.6.1).
  const named = new Set(String(headers.connection ?? "").toLowerCase().split(",").map((s) => s.trim()).filter(Boolean));
  for (const [k, v] of Object.entries(headers)) if (v !== undefined && !hopByHop.has(k) && !named.has(k)) out[k] = v;
  if (host !== undefined) out.host = host;
  return out;
}

export interface Forwarded {
  status: number;
  responseHeaders: http.IncomingHttpHeaders;
  request: Tee;
  response: Tee;
  ms: number;
  failure?: string;
}

/**
 * Forwards `req` to the upstream and streams the answer into `res`; calls `done` once, when the answer has ended
 * (or failed). `failureBody` writes the proxy's own answer when the upstream cannot be reached.
 */
export function forward(
  upstream: Upstream,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  captureBytes: number,
  failureBody: (message: string) => { contentType: string; body: string },
  done: (f: Forwarded) => void,
): void {
  const started = performance.now();
  const request = new Tee(captureBytes);
  const response = new Tee(captureBytes);
  let finished = false;
  let status = 0;
  let responseHeaders: http.IncomingHttpHeaders = {};
  const end = (failure?: string) => {
    if (finished) return;
    finished = true;
    done({ status, responseHeaders, request, response, ms: performance.now() - started, ...(failure ? { failure } : {}) });
  };
  const { url } = upstream;
  const lib = url.protocol === "https:" ? https : http;
  const options = {
    protocol: url.protocol,
    hostname: url.hostname,
    port: url.port || undefined,
    path: upstream.prefix + (req.url ?? "/"),
    method: req.method,
    // The judges read the answer's bytes: ask the upstream for them uncompressed (fetch-based clients offer gzip).
    headers: { ...forwardHeaders(req.headers, url.host), "accept-encoding": "identity" },
  };
  const onAnswer = (answer: http.IncomingMessage) => {
    status = answer.statusCode ?? 502;
    responseHeaders = answer.headers;
    res.writeHead(status, answer.statusMessage, forwardHeaders(answer.headers));
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
    // The upstream closed a kept-alive connection just as this request went out on it, before any answer: the
    // request never reached it, so it is sent once more on a new connection (Node's documented remedy), from the
    // copy of the body — possible only when the copy is the whole body.
    if (up.reusedSocket && err.code === "ECONNRESET" && !res.headersSent && !request.truncated && !finished) {
      const resend = () => {
        if (request.truncated) return fail(err);
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
    } else fail(err);
  });
  // The client went away: stop the upstream exchange too (an event stream would otherwise run on).
  res.on("close", () => {
    if (!res.writableFinished) {
      up.destroy();
      end("the client closed the connection before the answer ended");
    }
  });
  req.on("data", (chunk: Buffer) => request.push(chunk));
  req.pipe(up);
}
