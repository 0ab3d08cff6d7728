// The polite HTTP client of the MCP suite, on node:http(s), with the same guarantees as the REST client
// (conformance/http.ts): at most `concurrency` requests in flight, a timeout per request, the run's budget, a
// 429 waited out as Retry-After says, the bearer token only ever sent to the target's origin, redirects never
// followed, and no token in anything it throws. It differs in what MCP needs: any request headers (Streamable
// HTTP wants `Accept: application/json, text/event-stream` and the protocol-version header), a raw body, and a
// `fetch` the MCP SDK client runs on, so every SDK request goes through the same limits.
import http from "node:http";
import https from "node:https";
import { BudgetExceeded, retryAfterMs, sleep, TransportError } from "../http.js";
import type { Redactor } from "../redact.js";
import type { Target } from "../target.js";

export interface McpHttpRequest {
  method: "GET" | "POST" | "DELETE";
  /** Extra headers (Authorization, Host and Content-Length are set here and cannot be given). */
  headers?: Record<string, string>;
  /** The raw body. */
  body?: string;
  /** The bearer token, or undefined for none. */
  token?: string;
  /** Wait out a 429 and retry (default true). */
  retry429?: boolean;
}

export interface McpHttpResponse {
  status: number;
  /** Lower-case names. */
  headers: http.IncomingHttpHeaders;
  header(name: string): string | undefined;
  text: string;
  /** The JSON body, or the first JSON-RPC message of an event stream; undefined when neither. */
  body: any;
  ms: number;
  waited429: number;
}

const maxRetries429 = 3;
const maxBodyBytes = 8 * 1024 * 1024;
const forbiddenHeaders = new Set(["authorization", "host", "content-length", "connection"]);

/** The JSON of a body, or of the first `data:` line of a text/event-stream answer. */
export function parseBody(text: string, contentType: string | undefined): any {
  if (!text.length) return undefined;
  if (/^text\/event-stream/i.test(contentType ?? "")) {
    for (const line of text.split(/\r?\n/)) {
      if (!line.startsWith("data:")) continue;
      try {
        return JSON.parse(line.slice(5).trim());
      } catch {
        /* not JSON: keep looking */
      }
    }
    return undefined;
  }
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

class Gate {
  #free: number;
  readonly #queue: (() => void)[] = [];
  constructor(size: number) {
    this.#free = size;
  }
  async acquire(): Promise<() => void> {
    if (this.#free > 0) this.#free--;
    else await new Promise<void>((resolve) => this.#queue.push(resolve));
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.#queue.shift();
      if (next) next();
      else this.#free++;
    };
  }
}

export class McpHttp {
  readonly #gate: Gate;
  readonly #agent: http.Agent;
  #requests = 0;

  constructor(
    readonly target: Target,
    readonly redactor: Redactor,
    readonly signal: AbortSignal,
  ) {
    this.#gate = new Gate(target.concurrency);
    const agentOptions = { keepAlive: true, maxSockets: target.concurrency + 2 };
    this.#agent =
      target.url.protocol === "https:"
        ? new https.Agent({ ...agentOptions, rejectUnauthorized: !target.tls.insecure, ...(target.tls.ca ? { ca: target.tls.ca } : {}) })
        : new http.Agent(agentOptions);
  }

  get requestCount(): number {
    return this.#requests;
  }

  /** The MCP endpoint. */
  get endpoint(): URL {
    return this.target.mcp!.endpoint;
  }

  close(): void {
    this.#agent.destroy();
  }

  /** One request to the MCP endpoint, queued behind the concurrency limit, 429s waited out unless asked not to. */
  async send(spec: McpHttpRequest): Promise<McpHttpResponse> {
    let waited = 0;
    for (;;) {
      if (this.signal.aborted) throw new BudgetExceeded("the run's budget is spent");
      const release = await this.#gate.acquire();
      let res: McpHttpResponse;
      try {
        if (this.signal.aborted) throw new BudgetExceeded("the run's budget is spent");
        res = await this.#once(spec);
      } finally {
        release();
      }
      res.waited429 = waited;
      if (res.status !== 429 || spec.retry429 === false || waited >= maxRetries429) return res;
      waited++;
      await sleep(retryAfterMs(res.header("retry-after")) ?? Math.max(1000 * this.target.timing.timeScale, 10), this.signal);
    }
  }

  /** `fresh`: a retry after a kept-alive socket was found closed; it goes out on a new connection. */
  #once(spec: McpHttpRequest, fresh = false): Promise<McpHttpResponse> {
    this.#requests++;
    const url = new URL(this.endpoint.href);
    // The endpoint is the target: the origin guard is the same as the REST client's.
    if (url.origin !== this.target.url.origin) throw new TransportError("refusing to send the token off the target's origin");
    const payload = spec.body === undefined ? undefined : Buffer.from(spec.body, "utf8");
    const headers: Record<string, string> = { "user-agent": "ideas-contract-conformance" };
    for (const [k, v] of Object.entries(spec.headers ?? {})) if (!forbiddenHeaders.has(k.toLowerCase())) headers[k.toLowerCase()] = v;
    if (payload) headers["content-length"] = String(payload.length);
    if (spec.token !== undefined) headers.authorization = `Bearer ${spec.token}`;
    const started = performance.now();
    const lib = url.protocol === "https:" ? https : http;
    const timeoutMs = this.target.timing.requestTimeoutMs;
    const where = `${spec.method} ${url.pathname}`;
    return new Promise<McpHttpResponse>((resolve, reject) => {
      if (this.signal.aborted) return reject(new BudgetExceeded("the run's budget is spent"));
      const fail = (message: string) => reject(new TransportError(this.redactor.text(`${where}: ${message}`)));
      const req = lib.request(url, { method: spec.method, headers, agent: fresh ? false : this.#agent }, (incoming) => {
        const chunks: Buffer[] = [];
        let size = 0;
        incoming.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBodyBytes) {
            req.destroy(new Error(`the answer is larger than ${maxBodyBytes} bytes`));
            return;
          }
          chunks.push(chunk);
        });
        incoming.on("error", (err) => fail(err.message));
        incoming.on("end", () => {
          clearTimeout(timer);
          this.signal.removeEventListener("abort", onAbort);
          const text = Buffer.concat(chunks).toString("utf8");
          const h = incoming.headers;
          resolve({
            status: incoming.statusCode ?? 0,
            headers: h,
            header: (name) => {
              const v = h[name.toLowerCase()];
              return Array.isArray(v) ? v.join(", ") : v;
            },
            text,
            body: parseBody(text, h["content-type"]),
            ms: performance.now() - started,
            waited429: 0,
          });
        });
      });
      const timer = setTimeout(() => req.destroy(new Error(`no answer within ${timeoutMs / 1000} s`)), timeoutMs);
      const onAbort = () => req.destroy(new Error("the run's budget is spent"));
      this.signal.addEventListener("abort", onAbort, { once: true });
      req.on("error", (err: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        this.signal.removeEventListener("abort", onAbort);
        if (this.signal.aborted) reject(new BudgetExceeded("the run's budget is spent"));
        // The server closed a kept-alive connection as this request went out on it (before any answer): the
        // request never reached it, so it is sent once more, on a new connection (Node's documented remedy).
        else if (req.reusedSocket && !fresh && err.code === "ECONNRESET") resolve(this.#once(spec, true));
        else fail(err.message);
      });
      if (payload) req.write(payload);
      req.end();
    });
  }

  /**
   * A `fetch` for the SDK client, bound to one token: every POST goes through send(); the standalone GET event
   * stream (server-initiated messages, which a stateless gateway does not need) is answered 405 here without a
   * request, as a server without one would. Redirects come back as they are, and the SDK refuses them.
   */
  fetchFor(token: string | undefined, onRequest?: () => void): (url: string | URL, init?: RequestInit) => Promise<Response> {
    return async (url, init) => {
      const target = new URL(url instanceof URL ? url.href : url);
      if (target.href !== this.endpoint.href) throw new TransportError(`the SDK client asked for ${target.origin}${target.pathname}, not the MCP endpoint`);
      const method = (init?.method ?? "GET").toUpperCase();
      if (method !== "POST") return new Response(null, { status: 405, headers: { allow: "POST" } });
      const headers: Record<string, string> = {};
      new Headers(init?.headers).forEach((value, key) => {
        headers[key] = value;
      });
      onRequest?.();
      const res = await this.send({ method: "POST", headers, body: typeof init?.body === "string" ? init.body : "", ...(token !== undefined ? { token } : {}) });
      const out = new Headers();
      for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) out.set(k, Array.isArray(v) ? v.join(", ") : v);
      const empty = res.status === 204 || res.status === 205 || res.status === 304 || res.text.length === 0;
      return new Response(empty ? null : res.text, { status: res.status, headers: out });
    };
  }
}
