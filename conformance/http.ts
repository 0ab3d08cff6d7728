// The polite HTTP client of the suite, on node:http(s):
// - at most `concurrency` requests in flight, a timeout per request, and a run-wide abort (the budget);
// - a 429 is waited out as its Retry-After says (a few times at most) unless the caller wants to see it;
// - the bearer token goes only to the target's origin: every URL is checked against it before the header is
//   set, and redirects are never followed (a 3xx is returned as it is);
// - nothing it throws or returns carries a token (messages go through the Redactor).
import http from "node:http";
import https from "node:https";
import type { Redactor } from "./redact.js";
import type { Target } from "./target.js";

/** Which credentials a request carries. */
export type Auth = "team" | "other-team" | "expired" | "rate-limited" | "none" | { bearer: string };

export interface RequestSpec {
  method: "GET" | "POST" | "PATCH" | "PUT" | "DELETE";
  /** Path from the API root, starting with /v1. */
  path: string;
  /** Sent as JSON. */
  body?: unknown;
  /** Default "team". */
  auth?: Auth;
  /** Wait out a 429 and retry (default true). */
  retry429?: boolean;
  /** Skip the concurrency queue (for a request that must follow another at once). */
  priority?: boolean;
}

export interface ApiResponse {
  method: string;
  path: string;
  status: number;
  /** Lower-case header names. */
  headers: http.IncomingHttpHeaders;
  header(name: string): string | undefined;
  contentType: string | undefined;
  text: string;
  /** The parsed JSON body; undefined when the body is not JSON. */
  body: any;
  /** Time to the full answer, in milliseconds. */
  ms: number;
  /** How many 429s were waited out before this answer. */
  waited429: number;
}

export class TransportError extends Error {}
export class BudgetExceeded extends Error {}

/** Sleeps, unless the signal aborts first (then rejects with BudgetExceeded). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new BudgetExceeded("the run's budget is spent"));
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, Math.max(0, ms));
    const onAbort = () => {
      clearTimeout(timer);
      reject(new BudgetExceeded("the run's budget is spent"));
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

class Semaphore {
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

const maxRetries429 = 3;
const maxBodyBytes = 4 * 1024 * 1024;

/** Parses Retry-After as whole seconds (the contract's form) or an HTTP date; undefined when absent or bad. */
export function retryAfterMs(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  if (/^\s*\d+\s*$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export class Transport {
  readonly #semaphore: Semaphore;
  readonly #agent: http.Agent;
  #requests = 0;

  constructor(
    readonly target: Target,
    readonly redactor: Redactor,
    readonly signal: AbortSignal,
  ) {
    this.#semaphore = new Semaphore(target.concurrency);
    const agentOptions = { keepAlive: true, maxSockets: target.concurrency + 2 };
    this.#agent =
      target.url.protocol === "https:"
        ? new https.Agent({ ...agentOptions, rejectUnauthorized: !target.tls.insecure, ...(target.tls.ca ? { ca: target.tls.ca } : {}) })
        : new http.Agent(agentOptions);
  }

  get requestCount(): number {
    return this.#requests;
  }

  close(): void {
    this.#agent.destroy();
  }

  /** The token for an Auth, or undefined for none; throws when the target has no such token. */
  token(auth: Auth): string | undefined {
    const t = this.target;
    if (auth === "none") return undefined;
    if (typeof auth === "object") return auth.bearer;
    const token =
      auth === "team" ? t.tokens.team : auth === "other-team" ? t.tokens.otherTeam : auth === "expired" ? t.tokens.expired : t.triggers.rateLimitedToken;
    if (!token) throw new TransportError(`no ${auth} token is configured`);
    return token;
  }

  /** The absolute URL of an API path; throws unless it stays on the target's origin. */
  url(path: string): URL {
    if (!path.startsWith("/")) throw new TransportError(`request paths start with /, got ${path}`);
    const base = this.target.url;
    const url = new URL(base.origin + base.pathname.replace(/\/$/, "") + path);
    if (url.origin !== base.origin) throw new TransportError(`refusing to send the token to ${url.origin}: it is not the target's origin`);
    return url;
  }

  /** One request, queued behind the concurrency limit, with 429s waited out unless retry429 is false. */
  async send(spec: RequestSpec): Promise<ApiResponse> {
    const token = this.token(spec.auth ?? "team");
    const url = this.url(spec.path);
    let waited = 0;
    for (;;) {
      if (this.signal.aborted) throw new BudgetExceeded("the run's budget is spent");
      const release = spec.priority ? () => {} : await this.#semaphore.acquire();
      let res: ApiResponse;
      try {
        if (this.signal.aborted) throw new BudgetExceeded("the run's budget is spent");
        res = await this.#once(url, spec, token);
      } finally {
        release();
      }
      res.waited429 = waited;
      if (res.status !== 429 || spec.retry429 === false || waited >= maxRetries429) return res;
      waited++;
      const wait = retryAfterMs(res.header("retry-after")) ?? Math.max(1000 * this.target.timing.timeScale, 10);
      await sleep(wait, this.signal);
    }
  }

  /** A plain-HTTP request to the target's host and port, never with a token (for the HTTPS-only check). */
  async sendPlain(path: string): Promise<ApiResponse> {
    const url = this.url(path);
    url.protocol = "http:";
    if (!url.port) url.port = "443";
    return this.#once(url, { method: "GET", path, auth: "none" }, undefined, new http.Agent({ keepAlive: false }));
  }

  #once(url: URL, spec: RequestSpec, token: string | undefined, agent: http.Agent = this.#agent): Promise<ApiResponse> {
    this.#requests++;
    const payload = spec.body === undefined ? undefined : Buffer.from(JSON.stringify(spec.body), "utf8");
    const headers: Record<string, string> = { Accept: "application/json", "User-Agent": "ideas-contract-conformance" };
    if (payload) {
      headers["Content-Type"] = "application/json";
      headers["Content-Length"] = String(payload.length);
    }
    // The origin guard of url() ran before we got here; check once more right where the header is set.
    if (token !== undefined) {
      if (url.origin !== this.target.url.origin) throw new TransportError("refusing to send the token off the target's origin");
      headers.Authorization = `Bearer ${token}`;
    }
    const started = performance.now();
    const lib = url.protocol === "https:" ? https : http;
    const timeoutMs = this.target.timing.requestTimeoutMs;
    const where = `${spec.method} ${spec.path}`;
    return new Promise<ApiResponse>((resolve, reject) => {
      if (this.signal.aborted) return reject(new BudgetExceeded("the run's budget is spent"));
      const fail = (message: string) => reject(new TransportError(this.redactor.text(`${where}: ${message}`)));
      const req = lib.request(url, { method: spec.method, headers, agent }, (incoming) => {
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
          let body: unknown;
          try {
            body = text.length ? JSON.parse(text) : undefined;
          } catch {
            body = undefined;
          }
          const h = incoming.headers;
          resolve({
            method: spec.method,
            path: spec.path,
            status: incoming.statusCode ?? 0,
            headers: h,
            header: (name) => {
              const v = h[name.toLowerCase()];
              return Array.isArray(v) ? v.join(", ") : v;
            },
            contentType: h["content-type"],
            text,
            body,
            ms: performance.now() - started,
            waited429: 0,
          });
        });
      });
      const timer = setTimeout(() => req.destroy(new Error(`no answer within ${timeoutMs / 1000} s`)), timeoutMs);
      const onAbort = () => req.destroy(new Error("the run's budget is spent"));
      this.signal.addEventListener("abort", onAbort, { once: true });
      req.on("error", (err) => {
        clearTimeout(timer);
        this.signal.removeEventListener("abort", onAbort);
        if (this.signal.aborted) reject(new BudgetExceeded("the run's budget is spent"));
        else fail(err.message);
      });
      if (payload) req.write(payload);
      req.end();
    });
  }
}

/** The client a check uses: the shared transport, with this check's requests and waits counted. */
export interface ApiClient {
  send(spec: RequestSpec): Promise<ApiResponse>;
  get(path: string, auth?: Auth): Promise<ApiResponse>;
  post(path: string, body: unknown, auth?: Auth): Promise<ApiResponse>;
  patch(path: string, body: unknown, auth?: Auth): Promise<ApiResponse>;
  sendPlain(path: string): Promise<ApiResponse>;
  readonly requests: number;
}

export function apiClient(transport: Transport, onNote: (text: string) => void): ApiClient {
  let requests = 0;
  const send = async (spec: RequestSpec) => {
    requests++;
    const res = await transport.send(spec);
    if (res.waited429) onNote(`${spec.method} ${spec.path}: waited out ${res.waited429} × 429 as Retry-After asked`);
    return res;
  };
  return {
    send,
    get: (path, auth) => send({ method: "GET", path, ...(auth ? { auth } : {}) }),
    post: (path, body, auth) => send({ method: "POST", path, body, ...(auth ? { auth } : {}) }),
    patch: (path, body, auth) => send({ method: "PATCH", path, body, ...(auth ? { auth } : {}) }),
    sendPlain: (path) => {
      requests++;
      return transport.sendPlain(path);
    },
    get requests() {
      return requests;
    },
  };
}
