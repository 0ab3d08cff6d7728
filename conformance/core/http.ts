// The polite HTTP client of the suite, on node:http(s):
// - at most `concurrency` requests in flight, a timeout per request, and a run-wide abort (the budget);
// - a 429 is waited out as its Retry-After says (seconds or an HTTP date; else the reset its rate-limit headers
//   name), as often as the run's budget allows, unless the caller wants to see it, and the target is paced just
//   under the limit from then on (pacing.ts, which also reads RateLimit-* and X-RateLimit-* headers); a
//   Retry-After past the budget is not waited (the 429 is returned, with a note);
// - an answer is read up to a size limit (a larger one fails the request as soon as it is seen, unbuffered);
// - the bearer token goes only to the target's origin: every URL is checked against it before the header is
//   set, and redirects are never followed (a 3xx fails the request; only sendPlain returns it as it is);
// - nothing it throws or returns carries a token (messages, and the text, body and headers of every answer, go
//   through the Redactor).
import http from "node:http";
import https from "node:https";
import zlib from "node:zlib";
import { currentExchangeLog, excerpt, pickHeaders, type Exchange } from "./evidence.js";
import type { Redactor } from "./redact.js";
import { rateLimitHint, rateLimiterFor } from "./pacing.js";
import type { Credential, RunTarget } from "./run-target.js";
import { BudgetExceeded, sleep, wallClock, type RunClock } from "./run-clock.js";

/** Which credentials a request carries: a token of the target's by name (its `credentials`), none, one given here, or a raw header. */
export type Auth =
  | (string & {})
  | "none"
  | Credential
  /** The Authorization header exactly as given (another scheme, a malformed value); tokens in it stay on the target's origin. */
  | { authorization: string };

/** A short description of a response for failure messages. */
export function describeResponse(res: ApiResponse): string {
  const body = res.body === undefined ? res.text.slice(0, 200) : JSON.stringify(res.body).slice(0, 300);
  return `${res.method} ${res.path} → ${res.status} ${body}`;
}
export type { Credential };

export interface RequestSpec {
  method: "GET" | "POST" | "PATCH" | "PUT" | "DELETE";
  /** Path from the API root, starting with /v1. */
  path: string;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as it is instead of `body` (give its Content-Type in `headers`). */
  rawBody?: string;
  /** Headers to add or replace (Authorization, Host, Content-Length and Connection are the client's own). */
  headers?: Record<string, string>;
  /** Default "team". */
  auth?: Auth;
  /** Wait out a 429 and retry (default true). */
  retry429?: boolean;
  /** Answer a redirect as it is, not followed (a link opened the way a browser would); by default it fails the request. */
  returnRedirects?: boolean;
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
  /** Set when a 429's Retry-After was not waited out because it reaches past the run's budget: why. */
  notWaited?: string;
  /** The exchange as evidence (redacted): a check that judges an answer another check fetched shows it with this. */
  exchange?: Exchange;
}

export class TransportError extends Error {}
export { BudgetExceeded };

export { sleep };

/** The longest delay setTimeout takes; a longer one would fire at once (TimeoutOverflowWarning). */
const maxTimerMs = 2 ** 31 - 1;

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

/** Headers the client sets itself; a request's own `headers` cannot replace them. */
const ownHeaders = new Set(["authorization", "host", "content-length", "connection"]);
/** The largest answer read; nothing in the contract comes near it. */
export const maxBodyBytes = 4 * 1024 * 1024;

/** A body undone of its content coding (gzip, deflate, br; identity as it is), within maxBodyBytes; else why not. */
function decoded(body: Buffer, coding: string | undefined): Buffer | string {
  const c = (coding ?? "identity").trim().toLowerCase();
  const limit = { maxOutputLength: maxBodyBytes };
  try {
    if (c === "identity" || c === "") return body;
    if (c === "gzip" || c === "x-gzip") return zlib.gunzipSync(body, limit);
    if (c === "deflate") return zlib.inflateSync(body, limit);
    if (c === "br") return zlib.brotliDecompressSync(body, limit);
  } catch (err) {
    return `the answer's Content-Encoding ${c} could not be undone: ${(err as Error).message}`;
  }
  return `the answer's Content-Encoding ${JSON.stringify(c)} is none the suite reads (gzip, deflate, br)`;
}

/** A transport error in words that name the problem (the node:http message kept for the details). */
function describeError(err: NodeJS.ErrnoException): string {
  const code = err.code ?? "";
  if (code === "ECONNRESET" || code === "EPIPE" || err.message === "aborted" || err.message === "socket hang up")
    return `the connection was reset before the answer was complete (${err.message})`;
  if (code === "ECONNREFUSED") return `the connection was refused (${err.message})`;
  if (code.startsWith("HPE_")) return `the answer is not valid HTTP (${err.message})`;
  return err.message;
}

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
  /** When the run's budget ends (on the run's clock): no Retry-After is waited past it. */
  readonly #deadline: number;
  /** The run's clock: waits are on it, and each request holds a driven clock still until it is answered. */
  readonly #clock: RunClock;
  #requests = 0;

  constructor(
    readonly target: RunTarget,
    readonly redactor: Redactor,
    readonly signal: AbortSignal,
  ) {
    this.#semaphore = new Semaphore(target.concurrency);
    this.#clock = target.clock;
    this.#deadline = this.#clock.now() + target.timing.budgetMs;
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

  /** The token for an Auth with its variable, or undefined for none; throws when the target has no such token. */
  credential(auth: Auth): Credential | undefined {
    if (auth === "none" || (typeof auth === "object" && "authorization" in auth)) return undefined;
    if (typeof auth === "object") return auth;
    const credential = this.target.credentials[auth];
    if (!credential) throw new TransportError(`no ${auth} token is configured`);
    return credential;
  }

  /** A header value with each known token written as its environment variable (`$IDEAS_TOKEN`), the rest redacted. */
  #asVariables(value: string): string {
    let out = value;
    const known = Object.values(this.target.credentials).filter((c): c is Required<Credential> => c.env !== undefined);
    for (const { bearer, env } of known.sort((a, b) => b.bearer.length - a.bearer.length)) out = out.split(bearer).join(`$${env}`);
    return this.redactor.text(out);
  }

  /** The absolute URL of an API path; throws unless it stays on the target's origin. */
  url(path: string): URL {
    if (!path.startsWith("/")) throw new TransportError(`request paths start with /, got ${path}`);
    const base = this.target.url;
    const url = new URL(base.origin + base.pathname.replace(/\/$/, "") + path);
    if (url.origin !== base.origin) throw new TransportError(`refusing to send the token to ${url.origin}: it is not the target's origin`);
    return url;
  }

  /**
   * One request, queued behind the concurrency limit, with 429s waited out unless retry429 is false (or the
   * Retry-After reaches past the budget). A redirect is refused: it fails the request, and is not followed.
   */
  async send(spec: RequestSpec): Promise<ApiResponse> {
    const token = this.credential(spec.auth ?? "team");
    const url = this.url(spec.path);
    // A request that wants to see a 429 neither waits for the target's pace nor teaches it one.
    const pacer = spec.retry429 === false ? undefined : rateLimiterFor(this.target);
    let waited = 0;
    for (;;) {
      if (this.signal.aborted) throw new BudgetExceeded("the run's budget is spent");
      const release = spec.priority ? () => {} : await this.#semaphore.acquire();
      let res: ApiResponse;
      let sentAt = 0;
      try {
        // Paced once it may go (not before it queues): a request queued while a 429's hold began waits it out too.
        if (pacer) sentAt = await pacer.turn(this.signal);
        if (this.signal.aborted) throw new BudgetExceeded("the run's budget is spent");
        res = await this.#once(url, spec, token);
      } finally {
        release();
      }
      res.waited429 = waited;
      if (res.status >= 300 && res.status < 400 && res.status !== 304 && !spec.returnRedirects) throw new TransportError(this.redactor.text(`${spec.method} ${spec.path}: ${refusedRedirect(res, url)}`));
      if (!pacer) return res;
      const hint = rateLimitHint(res.header);
      if (res.status !== 429) {
        pacer.observe(hint);
        return res;
      }
      // Waited out as often as it takes within the run's budget: the pacer keeps every request of the target just
      // under the limit it has shown after each 429, so a limited target is met more slowly, never hammered.
      const wait = retryAfterMs(res.header("retry-after")) ?? hint.resetMs ?? Math.max(1000 * this.target.timing.timeScale, 10);
      const left = this.#deadline - this.#clock.now();
      if (wait > left) {
        res.notWaited = this.redactor.text(
          `${spec.method} ${spec.path}: 429 with Retry-After ${JSON.stringify(res.header("retry-after") ?? "")} (${Math.round(wait / 1000)} s), longer than the ${Math.max(0, Math.round(left / 1000))} s left of the run's budget: not waited out`,
        );
        pacer.beyondBudget();
        return res;
      }
      waited++;
      pacer.limited(sentAt, wait, hint);
    }
  }

  /** A plain-HTTP request to the target's host and port, never with a token (for the HTTPS-only check). */
  async sendPlain(path: string): Promise<ApiResponse> {
    const url = this.url(path);
    url.protocol = "http:";
    if (!url.port) url.port = "443";
    return this.#once(url, { method: "GET", path, auth: "none" }, undefined, new http.Agent({ keepAlive: false }));
  }

  /** `agent` false: a request on a new connection of its own (a resend after a kept-alive socket was closed). */
  #once(url: URL, spec: RequestSpec, token: Credential | undefined, agent: http.Agent | false = this.#agent): Promise<ApiResponse> {
    this.#requests++;
    const raw = spec.rawBody !== undefined;
    const payload = raw ? Buffer.from(spec.rawBody!, "utf8") : spec.body === undefined ? undefined : Buffer.from(JSON.stringify(spec.body), "utf8");
    const headers: Record<string, string> = { accept: "application/json", "user-agent": "ideas-contract-conformance" };
    if (payload && !raw) headers["content-type"] = "application/json";
    for (const [k, v] of Object.entries(spec.headers ?? {})) if (!ownHeaders.has(k.toLowerCase())) headers[k.toLowerCase()] = v;
    if (payload) headers["content-length"] = String(payload.length);
    // The origin guard of url() ran before we got here; check once more right where the header is set.
    const rawAuthorization = typeof spec.auth === "object" && "authorization" in spec.auth ? spec.auth.authorization : undefined;
    if (token !== undefined || rawAuthorization !== undefined) {
      if (url.origin !== this.target.url.origin) throw new TransportError("refusing to send the token off the target's origin");
      headers.authorization = rawAuthorization ?? `Bearer ${token!.bearer}`;
    }
    const started = performance.now();
    // Logged for the check the request is made for; kept on the answer for any other check that judges it.
    const log = currentExchangeLog();
    const exchange: Exchange = {
      method: spec.method,
      url: this.redactor.text(url.href),
      requestHeaders: Object.fromEntries(Object.entries(headers).filter(([k]) => !["authorization", "user-agent", "content-length"].includes(k))),
      ...(payload ? { requestBody: this.redactor.text(payload.length > maxReproducedBody ? `${payload.subarray(0, maxReproducedBody).toString("utf8")}…` : payload.toString("utf8")) } : {}),
      ...(token?.env !== undefined ? { tokenEnv: token.env } : token !== undefined ? { madeUpToken: this.redactor.text(token.bearer) } : {}),
      ...(rawAuthorization !== undefined ? { authorization: this.#asVariables(rawAuthorization) } : {}),
      responseHeaders: {},
    };
    const lib = url.protocol === "https:" ? https : http;
    const timeoutMs = this.target.timing.requestTimeoutMs;
    const where = `${spec.method} ${spec.path}`;
    return new Promise<ApiResponse>((resolve, reject) => {
      if (this.signal.aborted) return reject(new BudgetExceeded("the run's budget is spent"));
      let settled = false;
      const endInFlight = this.#clock.busy();
      const cleanUp = () => {
        settled = true;
        endInFlight();
        clearTimeout(timer);
        this.signal.removeEventListener("abort", onAbort);
      };
      const fail = (message: string) => {
        if (settled) return;
        cleanUp();
        log?.add({ ...exchange, error: this.redactor.text(message), ms: Math.round(performance.now() - started) });
        if (this.signal.aborted) reject(new BudgetExceeded("the run's budget is spent"));
        else reject(new TransportError(this.redactor.text(`${where}: ${message}`)));
      };
      let answered = false;
      const req = lib.request(url, { method: spec.method, headers, agent }, (incoming) => {
        answered = true;
        const chunks: Buffer[] = [];
        let size = 0;
        const tooLarge = (what: string) => {
          fail(`the answer is too large (${what}; the limit is ${maxBodyBytes} bytes): not read`);
          req.destroy();
        };
        incoming.on("error", (err) => fail(describeError(err)));
        // Closed without an end (and without an error): the answer was cut short.
        incoming.on("close", () => fail(incoming.complete ? "the connection closed" : "the connection was reset before the answer was complete"));
        const declared = Number(incoming.headers["content-length"]);
        if (declared > maxBodyBytes) return tooLarge(`Content-Length ${declared} bytes`);
        incoming.on("data", (chunk: Buffer) => {
          if (settled) return;
          size += chunk.length;
          if (size > maxBodyBytes) return tooLarge(`over ${maxBodyBytes} bytes and counting`);
          chunks.push(chunk);
        });
        incoming.on("end", () => {
          if (settled) return;
          // A request without Accept-Encoding accepts any coding (RFC 9110 12.5.3): a compressed answer is read.
          const body = decoded(Buffer.concat(chunks), incoming.headers["content-encoding"]);
          if (typeof body === "string") return fail(body);
          cleanUp();
          // Redacted here, whole, before anyone quotes or cuts it: a target that echoes a token gets it
          // nowhere (a token cut in half by a later slice(0, 200) would no longer be recognised).
          const raw = body.toString("utf8");
          const text = this.redactor.text(raw);
          // Parsed on first use: the SDK client reads its answers as text (and parses them itself).
          let parsed: { body: unknown } | undefined;
          const parseBody = (): unknown => {
            try {
              return raw.length ? this.redactor.parseJson(raw, text) : undefined;
            } catch {
              return undefined;
            }
          };
          const h = this.redactor.value(incoming.headers);
          const answeredExchange: Exchange = {
            ...exchange,
            status: incoming.statusCode ?? 0,
            responseHeaders: pickHeaders(h),
            ...(text.length ? { responseBody: excerpt(text)! } : {}),
            ms: Math.round(performance.now() - started),
          };
          log?.add(answeredExchange);
          resolve({
            exchange: answeredExchange,
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
            get body() {
              return (parsed ??= { body: parseBody() }).body;
            },
            ms: performance.now() - started,
            waited429: 0,
          });
        });
      });
      const timer = setTimeout(() => {
        fail(`no answer within ${timeoutMs / 1000} s`);
        req.destroy();
      }, Math.min(timeoutMs, maxTimerMs));
      const onAbort = () => {
        fail("the run's budget is spent");
        req.destroy();
      };
      this.signal.addEventListener("abort", onAbort, { once: true });
      req.on("error", (err: NodeJS.ErrnoException) => {
        // The target closed a kept-alive connection just as this request went out on it, before any answer: the
        // request never reached it, so it is sent once more on a new connection (Node's documented remedy).
        if (!settled && !answered && req.reusedSocket && agent !== false && err.code === "ECONNRESET" && !this.signal.aborted) {
          cleanUp();
          resolve(this.#once(url, spec, token, false));
        } else fail(describeError(err));
      });
      if (payload) req.write(payload);
      req.end();
    });
  }
}

/** Request bodies longer than this are cut in the evidence (a reproduction then says so). */
const maxReproducedBody = 16 * 1024;

/** Why a 3xx is refused: where it pointed (its origin only: the rest may carry anything) and that it is not followed. */
function refusedRedirect(res: ApiResponse, from: URL): string {
  const location = res.header("location");
  let where = "without a Location";
  if (location !== undefined) {
    let to: URL | undefined;
    try {
      to = new URL(location, from);
    } catch {
      to = undefined;
    }
    where = !to ? "to an unreadable Location" : to.origin === from.origin ? "within the target's origin" : `to another origin (${to.origin})`;
  }
  return `answered ${res.status}, a redirect ${where}: redirect refused, not followed (the token goes to the target's origin only)`;
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

/** `onReply` sees every answer as it comes back (the runner judges it there: replies.ts). */
export function apiClient(transport: Transport, onNote: (text: string) => void, onReply?: (res: ApiResponse) => void): ApiClient {
  let requests = 0;
  const send = async (spec: RequestSpec) => {
    requests++;
    const res = await transport.send(spec);
    if (res.notWaited) onNote(res.notWaited);
    if (res.waited429) onNote(`${spec.method} ${spec.path}: waited out ${res.waited429} × 429 as Retry-After asked`);
    onReply?.(res);
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
