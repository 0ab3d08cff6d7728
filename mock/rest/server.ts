// The stateful REST reference server of the Ideas service: node:http only, everything in memory, every answer
// valid against the generated contract. Background work is lazy: brands and batches keep the instant they
// settle at and are settled when read, so nothing runs between requests and the answers are deterministic for
// the same requests, seed and clock.
//
// Order of checks for each request: a repeated Host (400) → route (404) → method (405 + Allow) → token (401) →
// rate limit (429 + Retry-After) → a compressed body (415) → body size (413) → content type and JSON (400) →
// fields (400 naming `param`) → ids (404/403) → state (409). An unexpected exception answers 500 `server_error` and the server keeps serving.
import http from "node:http";
import https from "node:https";
import net from "node:net";
import type { AddressInfo } from "node:net";
import { createBrowserAccess, preflightRefusal, type BrowserAccess, type BrowserAccessOptions } from "../browser-access.js";
import { createClock, type Clock } from "../clock.js";
import { createControl, serveControl, type Control } from "../control.js";
import { listen } from "../listen.js";
import { answerOnSocket, asteriskAnswer, asteriskRefusal, bodyCoding, codingRefusalHeaders, guardEdges, limitOptions, missingHost, originTarget, parserRefusal, repeatsHost, type HttpLimits, type ParserRefusal } from "../http-guards.js";
import { logRequest, loggedPath, type LogSink, type RequestRecord } from "../request-log.js";
import { authenticate, RateLimiter, type Caller } from "./auth.js";
import { createBrand, findBrand, brandView, updateBrand } from "./brands.js";
import { createFeedback } from "./feedback.js";
import { ApiError, errorBody, parseJsonObject, readBody, sendError, sendJson } from "./http.js";
import { batchView, createBatch, findBatch } from "./ideas.js";
import { createPrediction } from "./predictions.js";
import { parsePrefer, preferredAnswer } from "./prefer.js";
import { route, type Route } from "./router.js";
import { createState, type State } from "./state.js";
import { restTestTokens } from "./tokens.js";
import { selfSignedCertificate } from "./tls.js";
import { printable } from "../../conformance/core/printable.js";

export interface RestMockOptions {
  /** 0 = any free port (default). */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Background work takes the seed's duration × timeScale (default 1); now is the wall clock. Ignored when `clock` is given. */
  timeScale?: number;
  /** The clock to run on; made from `timeScale` when omitted. */
  clock?: Clock;
  /** Serve TLS with a self-signed certificate made at start; plain HTTP to the port answers 400. */
  https?: boolean;
  /** Varies ids and content; the same seed and requests give the same answers. Default `ideas-mock`. */
  seed?: string;
  /** Records kept per team and kind before the oldest is evicted (default 10,000). */
  capPerTeam?: number;
  /** Origins that get CORS headers; default every loopback origin (browser-access.ts). */
  browser?: BrowserAccessOptions;
  /** Shared with other mocks so /__control/ acts on all of them; its clock wins over `clock` and `timeScale`. */
  control?: Control;
  /** Gets one line per request (none by default; the CLI prints them unless --quiet). */
  log?: LogSink;
  /** Time limits for slow connections (http-guards.ts). */
  limits?: HttpLimits;
}

export interface RestMock {
  /** Origin with a trailing slash, e.g. http://127.0.0.1:4010/ */
  url: URL;
  clock: Clock;
  /** Reset, advance, freeze: what /__control/ does, for code. */
  control: Control;
  /** This run's control token: send it as X-Control-Token to use /__control/ from anywhere (control-guard.ts). */
  controlToken: string;
  stop(): Promise<void>;
  /** With `https: true`: the self-signed certificate (PEM), for clients to trust. */
  certificate?: string;
}

interface Request {
  caller: Caller;
  params: Record<string, string>;
  body: Record<string, unknown>;
}
type Handler = (state: State, req: Request) => { status: number; body: unknown };

const withBody = true;
// rule: version-in-path, create-brand-201, get-brand-200, update-brand-200, get-batch-200, create-feedback-201, create-prediction-200
const routes: Route<{ handler: Handler; body: boolean }>[] = [
  {
    pattern: "/v1/brands",
// rule: response-matches-schema
    handlers: { POST: { body: withBody, handler: (s, r) => ({ status: 201, body: createBrand(s, r.caller.team, r.body) }) } },
  },
  {
    pattern: "/v1/brands/:brand_id",
    handlers: {
      GET: {
        body: false,
        handler: (s, r) => ({ status: 200, body: brandView(s, findBrand(s, r.caller.team, r.params.brand_id!, "brand_id")) }),
      },
      PATCH: {
        body: withBody,
        handler: (s, r) => {
          const brand = findBrand(s, r.caller.team, r.params.brand_id!, "brand_id");
          return { status: 200, body: updateBrand(s, brand, r.body) };
        },
      },
    },
  },
  {
    pattern: "/v1/ideas",
    handlers: { POST: { body: withBody, handler: (s, r) => ({ status: 202, body: createBatch(s, r.caller.team, r.body) }) } },
  },
  {
    pattern: "/v1/ideas/:batch_id",
    handlers: {
      GET: { body: false, handler: (s, r) => ({ status: 200, body: batchView(s, findBatch(s, r.caller.team, r.params.batch_id!)) }) },
    },
  },
  {
    pattern: "/v1/feedback",
    handlers: { POST: { body: withBody, handler: (s, r) => ({ status: 201, body: createFeedback(s, r.caller.team, r.body) }) } },
  },
  {
    pattern: "/v1/predictions",
    handlers: { POST: { body: withBody, handler: (s, r) => ({ status: 200, body: createPrediction(s, r.caller.team, r.body) }) } },
  },
];

const serverError = () => new ApiError(500, "server_error", "Something went wrong on our side; please try again.");

export interface ListenerOptions {
  access?: BrowserAccess;
  /** Serves /__control/ when given. */
  control?: Control;
  log?: LogSink;
}

const controlError = (code: string, message: string, status: number) =>
  errorBody(new ApiError(status, status === 403 ? "permission_error" : status === 404 ? "not_found" : "invalid_request", message, null, code));

// rule: answers-within-seconds
/** The server's request handler over `state` (a function when a reset can replace it). */
export function createRequestListener(state: State | (() => State), options: ListenerOptions = {}): http.RequestListener {
  const current = typeof state === "function" ? state : () => state;
  const access = options.access ?? createBrowserAccess();
  const limiter = new RateLimiter(current().clock);
  return async (req, res) => {
    const record: RequestRecord = { what: `${req.method} ${loggedPath(req.url)}` };
    logRequest(options.log, "rest", res, record);
    try {
      // A page from an allowed origin gets CORS headers and its preflight answered; others are served without
      // them (the browser withholds the answer), as the real service would. A refused preflight says why.
      if (repeatsHost(req)) throw new ApiError(400, "invalid_request", "Send the Host header once; this request repeats it.", null, "duplicate_host");
      if (missingHost(req)) throw new ApiError(400, "invalid_request", "Send a Host header; HTTP/1.1 requires one.", null, "missing_host");
      const verdict = access.check(req, res);
      if (verdict === "answered") return;
      if (verdict === "refused-preflight") throw new ApiError(403, "permission_error", preflightRefusal(req.headers.origin!), null, "origin_not_allowed");
      const asterisk = asteriskAnswer(req, res, "GET, POST, PATCH, DELETE, OPTIONS");
      if (asterisk) return;
      if (asterisk === null) throw new ApiError(400, "invalid_request", asteriskRefusal, null, "malformed_request");
      // An absolute-form target is routed by its path (a control path only in origin form: control-guard.ts).
      const path = originTarget(req.url).split("?")[0]!.split("#")[0]!;
      if (options.control && serveControl(options.control, req, (s, b, h) => sendJson(res, s, b, h), controlError)) return;
      const { handler, params } = route(routes, req.method ?? "GET", path);
      const caller = authenticate(req, restTestTokens);
      limiter.hit(caller.token);
      // Prefer: code= / example= (as with Prism): the contract's own answer, state untouched.
      const preference = parsePrefer(req.headers.prefer);
      if (preference) {
        req.resume();
        const answer = preferredAnswer(req.method ?? "GET", path, preference);
        record.outcome = "prefer";
        sendJson(res, answer.status, answer.body, answer.headers);
        return;
      }
      let body: Record<string, unknown> = {};
      if (handler.body && bodyCoding(req))
        throw new ApiError(415, "invalid_request", "Send the body uncompressed: this server decodes no Content-Encoding.", null, "unsupported_content_encoding", codingRefusalHeaders);
      if (handler.body) body = parseJsonObject(req, await readBody(req));
      else req.resume();
      // One instant per request: a reply cannot straddle the moment background work ends (a new brand settled
      // before its own create is answered), however long the host takes between two readings of the clock.
      const state = current();
      const answer = state.clock.hold(() => handler.handler(state, { caller, params, body }));
      sendJson(res, answer.status, answer.body);
    } catch (err) {
      req.resume();
      // A client that went away mid-body (or whose bytes node:http refused, answered by clientError below) has
      // nobody left to answer: not a server error.
      if (res.headersSent || req.socket.destroyed) {
        res.destroy();
        return;
      }
      if (err instanceof ApiError) {
        record.outcome = err.code ?? err.type;
        sendError(res, err);
      } else {
        console.error(`[rest mock] unexpected error: ${printable(String((err as Error)?.stack ?? err))}`);
        sendError(res, serverError());
      }
    }
  };
}

/** Starts the REST reference server. */
export async function startRestMock(options: RestMockOptions = {}): Promise<RestMock> {
  const clock = options.control?.clock ?? options.clock ?? createClock({ timeScale: options.timeScale ?? 1 });
  const control = options.control ?? createControl(clock);
  const fresh = () => createState(clock, options.seed ?? "ideas-mock", options.capPerTeam);
  let state = fresh();
  control.onReset(() => (state = fresh()));
  const host = options.host ?? "127.0.0.1";
  const listener = createRequestListener(() => state, { access: createBrowserAccess(options.browser, host), control, log: options.log });

  let server: net.Server;
  let inner: http.Server | https.Server;
  let certificate: string | undefined;
  if (options.https) {
    const { key, cert } = await selfSignedCertificate(host);
    certificate = cert;
    const tlsServer = https.createServer({ key, cert, ...limitOptions(options.limits) }, listener);
    inner = tlsServer;
    // One port, two doors: a TLS handshake goes to the HTTPS server, anything else is plain HTTP and is
    // answered 400 with the error envelope, then closed (see refusePlainHttp).
    server = net.createServer((socket) => {
      const silent = () => socket.destroy(); // a connection that never speaks
      socket.setTimeout(10_000);
      socket.once("timeout", silent);
      socket.once("readable", () => {
        socket.setTimeout(0);
        socket.off("timeout", silent);
        const first = socket.read(1) as Buffer | null;
        if (first === null) return void socket.destroy();
        socket.unshift(first);
        if (first[0] === 0x16) tlsServer.emit("connection", socket);
        else refusePlainHttp(socket);
      });
      socket.on("error", () => socket.destroy());
    });
  } else {
    inner = http.createServer(limitOptions(options.limits), listener);
    server = inner;
  }
  inner.keepAliveTimeout = 5_000;
  // A request node:http cannot parse (headers over its limit, a broken request line) still gets the envelope.
  // An Expect other than 100-continue: Node would answer 417 with an empty body.
  inner.on("checkExpectation", (req: http.IncomingMessage, res: http.ServerResponse) => {
    req.resume();
    sendError(res, new ApiError(417, "invalid_request", "The only Expect this server meets is 100-continue.", null, "expectation_failed"));
  });
  const refusalBody = (refusal: ParserRefusal) => errorBody(new ApiError(refusal.status, "invalid_request", refusal.message, null, refusal.code));
  inner.on("clientError", (err: NodeJS.ErrnoException, socket) => {
    const refusal = parserRefusal(err);
    answerOnSocket(socket, refusal, refusalBody(refusal));
  });
  guardEdges(inner, refusalBody);

  const sockets = new Set<net.Socket>();
  server.on("connection", (socket: net.Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });

  await listen(server, options.port ?? 0, host, "REST reference server");
  const { port } = server.address() as AddressInfo;
  const hostInUrl = net.isIPv6(host) ? `[${host}]` : host;
  const url = new URL(`${options.https ? "https" : "http"}://${hostInUrl}:${port}/`);

  let stopping: Promise<void> | undefined;
  return {
    url,
    clock,
    control,
    controlToken: control.token,
    ...(certificate ? { certificate } : {}),
    stop() {
      stopping ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        if (inner !== server) inner.close();
        for (const socket of sockets) socket.destroy();
      });
      return stopping;
    },
  };
}

/** Answers a plain-HTTP request on the TLS port: 400 in the error envelope, then closes the connection. */
// rule: https-only
function refusePlainHttp(socket: net.Socket): void {
  const body = JSON.stringify(
    errorBody(new ApiError(400, "invalid_request", "This server only accepts HTTPS; plain HTTP is refused.", null, "https_required")),
  );
  socket.end(
    `HTTP/1.1 400 Bad Request\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
  socket.on("error", () => socket.destroy());
}
