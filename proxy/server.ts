// startProxy: one listener per protocol on 127.0.0.1 (by default), each forwarding to its upstream unchanged and
// handing every exchange, once its answer has ended, to the judge (judge-queue.ts: a worker thread with a bounded
// backlog), so judging never delays the bytes the client gets nor the next exchange.
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { answerOnSocket, limitOptions, type HttpLimits } from "../mock/http-guards.js";
import { serveFast, type FastContext } from "./fast-path.js";
import { keepClientsAlive } from "./keep-alive.js";
import { RawPool } from "./raw-pool.js";
import { forward, upstreamOf, type Forwarded, type TlsOptions, type Upstream } from "./forward.js";
import { setAsideVerdict, type ExchangeData } from "./judge-exchange.js";
import { defaultJudgeBacklog, JudgeQueue } from "./judge-queue.js";
import { freezeAll } from "./deep-freeze.js";
import { exchangeLine } from "./output.js";
import { Recorder, type ProxyReport, type ViolationRecord } from "./recorder.js";
import { checkRequest, errorBody, guardServer, hostCheck, refuse, refuseOnSocket, requestTimeout, type Refusal, type RequestHead } from "./refusals.js";
import type { Exchange, Protocol, Verdict } from "./types.js";

export interface ProxyOptions {
  /** The REST service's base URL (paths start with /v1). */
  restUpstream?: string;
  /** 0 = any free port (default). */
  restPort?: number;
  /** The MCP gateway's Streamable HTTP endpoint, e.g. https://gateway.example.com/mcp. */
  mcpUpstream?: string;
  mcpPort?: number;
  /** Where the proxy listens (default 127.0.0.1). */
  host?: string;
  /** TLS trust for HTTPS upstreams. */
  tls?: TlsOptions;
  /** Bytes of each body kept for judging (default 1 MiB); a longer body is forwarded whole but not judged. */
  captureBytes?: number;
  /** Called after each exchange is judged, with the line the CLI prints. */
  onExchange?: (event: ExchangeEvent) => void;
  /** Header names whose values are secrets (never shown, and learnt to be redacted wherever they are echoed), besides Authorization, Proxy-Authorization, Cookie, Set-Cookie, X-Api-Key and those a credential word names (secrets.ts). */
  secretHeaders?: readonly string[];
  /** Host names clients may address the proxy by (any port); default the loopback names and `host`. A request with another Host is refused (403). */
  allowedHosts?: readonly string[];
  /** Time limits for a client's headers and whole request; the mocks' by default (10 s, 30 s), never longer. */
  limits?: HttpLimits;
  /**
   * Exchanges that may wait for their verdict at once (default 2,000; 0 judges none); beyond it an exchange is
   * forwarded but recorded unjudged ("judge backlog full"), never as passed.
   */
  judgeBacklog?: number;
  /**
   * Judge in a worker thread (the CLI does), beside forwarding rather than between exchanges; by default the
   * proxy's own thread judges, deferred. A worker takes seconds to load the judges (many on a busy machine);
   * what ends meanwhile waits in the backlog.
   */
  judgeWorker?: boolean;
  /**
   * Client connections open at once, per listener (default 1,024): one more is answered 503 in the protocol's
   * error shape and closed (recorded as a client fault), so a flood of connections cannot exhaust the proxy.
   */
  maxConnections?: number;
  /**
   * Forward plain HTTP/1.1 exchanges to an http: upstream at the byte level (fast-path.ts; default true): the same
   * forwarding for far less CPU per request. Anything not plain goes through node:http as before, as does all of
   * an https: upstream's traffic.
   */
  fastPath?: boolean;
}

export interface ExchangeEvent {
  /** The exchange as judged: secret headers hidden (Authorization shows a known scheme only); bodies as they were sent (see `line` and the report for redacted text). */
  exchange: Exchange;
  /** The verdict: frozen (copy it to change it), and shared by the exchanges judged alike. */
  verdict: Verdict;
  /** The exchange's violations, redacted. */
  violations: ViolationRecord[];
  /** One line: what, outcome, ms, ✓ or the rules broken with a short reason (redacted). */
  line: string;
}

export interface RunningProxy {
  /** Base URL for REST clients (in place of the service's), when a REST upstream was given. */
  restUrl?: URL;
  /** The MCP endpoint for clients (in place of the gateway's), when an MCP upstream was given. */
  mcpUrl?: URL;
  /** The most recent violations (bounded). */
  violations(): ViolationRecord[];
  /** The session so far: counts, violations by rule with redacted exchanges, notes. */
  report(): ProxyReport;
  /** What redaction has cost so far: secret forms added, characters scanned, tokens remembered (for tests and benches). */
  redactionStats(): { added: number; scanned: number; tokens: number };
  /** Resolves once every exchange forwarded so far is judged and recorded (judging follows forwarding). */
  settled(): Promise<void>;
  /** Where judging runs: a worker thread, or the proxy's own thread (by default, or when no worker could start). */
  judgeMode(): "worker" | "inline";
  /** Closes the listeners and the upstream connections, and records the verdicts still being made. */
  stop(): Promise<void>;
}

export const defaultCaptureBytes = 1024 * 1024;
export const defaultMaxConnections = 1024;

/** What each protocol answers when the upstream cannot be reached: its own error shape. */
const failureBody = (protocol: Protocol) => (message: string) => errorBody(protocol, { status: 502, code: "upstream_unreachable", message });

interface Listener {
  server: http.Server;
  sockets: Set<Socket>;
  upstream: Upstream;
  /** The fast path's raw connections to the upstream (http: upstreams). */
  pool?: RawPool;
}

/** The fast path of a listener: serves a connection at the byte level, handing it to node:http (`handOver`) when it must. */
type FastServe = (socket: Socket, handOver: (socket: Socket) => void) => void;

async function listen(
  host: string,
  port: number,
  handler: http.RequestListener,
  upstream: Upstream,
  serverOptions: http.ServerOptions,
  cap: { max: number; refuse: (socket: Socket) => void },
  fast?: FastServe,
): Promise<Listener & { port: number }> {
  const server = http.createServer(serverOptions, handler);
  // Every connection starts on the fast path (fast-path.ts) when there is one; node:http's own connection
  // listener takes a connection the fast path hands over (read from JavaScript, so the bytes the fast path
  // already read and put back come first), and every one over the cap.
  const nodeConnection = server.listeners("connection")[0] as (socket: Socket) => void;
  server.removeAllListeners("connection");
  const toNode = (s: Socket) => {
    const handle = (s as Socket & { _handle?: { _consumed?: boolean } })._handle;
    if (handle) handle._consumed = true;
    nodeConnection.call(server, s);
  };
  // Kept-alive client connections: one policy for both paths (keep-alive.ts).
  keepClientsAlive(server);
  const sockets = new Set<Socket>();
  let served = 0;
  server.on("connection", (s: Socket) => {
    // Every socket is kept for stop() to close; only those served count against the cap.
    sockets.add(s);
    if (served >= cap.max) {
      // Answered and closed here, its bytes read and dropped: no parser reads them, so nothing it sends (half a
      // head, garbage, a CONNECT, its end) is refused or recorded a second time. Recorded once, by cap.refuse.
      s.on("close", () => sockets.delete(s));
      s.on("data", () => {});
      return cap.refuse(s);
    }
    served++;
    s.on("close", () => {
      served--;
      sockets.delete(s);
    });
    if (fast) fast(s, toNode);
    else nodeConnection.call(server, s);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  return { server, sockets, upstream, port: (server.address() as AddressInfo).port };
}

function checkedPort(port: number | undefined, what: string): number {
  const p = port ?? 0;
  if (!Number.isInteger(p) || p < 0 || p > 65535) throw new Error(`${what} must be a port number, got ${port}`);
  return p;
}

export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  if (!options.restUpstream && !options.mcpUpstream) throw new Error("give a REST upstream, an MCP upstream, or both");
  const host = options.host ?? "127.0.0.1";
  const capture = options.captureBytes ?? defaultCaptureBytes;
  if (!Number.isInteger(capture) || capture < 0) throw new Error(`captureBytes must be a whole number ≥ 0, got ${capture}`);
  const recorder = new Recorder(options.secretHeaders ? { secretHeaders: options.secretHeaders } : {});
  const hostAllowed = hostCheck(host, options.allowedHosts);
  // The proxy never waits on a slow client longer than the services it fronts would (mock/http-guards.ts).
  const mockLimits = limitOptions();
  // A request without Host reaches checkRequest, which refuses it with a body (Node's own refusal has none).
  const serverOptions = limitOptions(options.limits);
  if (serverOptions.headersTimeout! > mockLimits.headersTimeout! || serverOptions.requestTimeout! > mockLimits.requestTimeout!)
    throw new Error(`the proxy's limits must not exceed the services' (${mockLimits.headersTimeout} ms for headers, ${mockLimits.requestTimeout} ms for a request)`);
  let seq = 0;
  const maxConnections = options.maxConnections ?? defaultMaxConnections;
  if (!Number.isInteger(maxConnections) || maxConnections < 1) throw new Error(`maxConnections must be a whole number ≥ 1, got ${maxConnections}`);
  /** Refuses a connection over the cap: 503 in the protocol's shape, then closed; counted as the client's. */
  const capOf = (protocol: Protocol) => ({
    max: maxConnections,
    refuse: (socket: Socket) => {
      const r = { status: 503, reason: "Service Unavailable", code: "too_many_connections", message: `more than ${maxConnections} connections are open to this proxy at once; close one or retry later.` };
      recorder.setAside("clientFaults", { seq: ++seq, protocol }, "(connection)", `too many connections: ${r.message}`);
      socket.on("error", () => socket.destroy());
      answerOnSocket(socket, r, JSON.parse(errorBody(protocol, r).body));
      socket.setTimeout(5_000, () => socket.destroy());
    },
  });

  const emit = (exchange: Exchange, verdict: Verdict) => {
    // Every verdict handed out is frozen, as the judged ones are (shared by the exchanges judged alike): one rule for users.
    freezeAll(verdict);
    const violations = recorder.record(exchange, verdict);
    if (!options.onExchange) return;
    // The line is made (and redacted) only if it is read: a quiet CLI prints only the lines with violations.
    let line: string | undefined;
    options.onExchange({
      exchange,
      verdict,
      violations,
      get line() {
        return (line ??= recorder.text(exchangeLine(exchange, verdict, violations)));
      },
    });
  };

  /** What every recorded exchange says of its request; the judges need only to know a token was sent, so secrets stay out. */
  const requestOf = (protocol: Protocol, req: http.IncomingMessage, n: number) => ({
    protocol,
    seq: n,
    method: req.method ?? "GET",
    path: req.url ?? "/",
    requestHeaders: recorder.hide(req.headers),
  });

  const queue = new JudgeQueue({
    secrets: recorder.secretHeaders,
    maxBacklog: options.judgeBacklog ?? defaultJudgeBacklog.exchanges,
    inline: !options.judgeWorker,
    onVerdict: emit,
  });
  const backlogFull = `judge backlog full: more than ${options.judgeBacklog ?? defaultJudgeBacklog.exchanges} exchanges were waiting for a verdict (forwarded, not judged)`;

  /** An exchange whose answer has ended: a failed forward is recorded at once, anything else goes to the judge. */
  const judge = (protocol: Protocol, req: RequestHead, target: string, f: Forwarded, n: number) => {
    recorder.learn(f.responseHeaders);
    const data: ExchangeData = {
      protocol,
      seq: n,
      method: req.method ?? "GET",
      // As forwarded: an absolute-form target is judged (and shown) by its path, as the service routes it.
      path: target,
      // Hidden, and shared with the last exchanges' that hid alike: the judge worker reads only hidden headers
      // (and so never gets a credential), and each distinct object crosses to it once per batch.
      requestHeaders: recorder.secretHeaders.hideShared(req.headers),
      request: f.request.bytes(),
      requestTruncated: f.request.truncated,
      status: f.status,
      responseHeaders: recorder.secretHeaders.hideShared(f.responseHeaders),
      response: f.response.bytes(),
      responseTruncated: f.response.truncated,
      ms: f.ms,
      serviceMs: f.serviceMs,
    };
    if (f.failure) ((data.failure = f.failure), (data.failureBy = f.failureBy ?? "service"));
    // Nothing to judge without an answer, and a failure must be counted even with the judge's backlog full.
    if (f.failure) return queue.record(data, setAsideVerdict(data, f.failureBy === "client" ? { clientFault: `went away: ${f.failure}` } : { noAnswer: f.failure }));
    if (!queue.submit(data)) queue.record(data, setAsideVerdict(data, { unjudged: backlogFull }));
  };

  /** A request node:http's parser (or the fast path's header timeout) refused: recorded as the client's fault. */
  const unparsed = (protocol: Protocol) => (r: Refusal) =>
    recorder.setAside("clientFaults", { seq: ++seq, protocol }, "(unparsed request)", `${r.status === 408 ? "slow" : "malformed HTTP"}: ${r.message}`);

  /** A request the proxy refuses itself: answered in the protocol's shape, recorded as the client's fault. */
  const refused = (protocol: Protocol, req: http.IncomingMessage, res: http.ServerResponse, r: Refusal, n: number) => {
    req.resume();
    refuse(res, protocol, r);
    const exchange: Exchange = {
      ...requestOf(protocol, req, n),
      requestText: "",
      requestTruncated: false,
      status: r.status,
      responseHeaders: {},
      responseText: "",
      responseTruncated: false,
      ms: 0,
    };
    emit(exchange, { label: `${exchange.method} ${exchange.path.split("?")[0]}`, outcome: String(r.status), violations: [], notes: [], clientFault: `refused by the proxy: ${r.message}` });
  };

  /** The fast path towards an http: upstream (an https: one is served by node:http alone). */
  const fastPath = (protocol: Protocol, upstream: Upstream): { pool: RawPool; serve: FastServe } | undefined => {
    if (upstream.url.protocol !== "http:" || options.fastPath === false) return undefined;
    const pool = new RawPool(upstream.url.hostname.replace(/^\[|\]$/g, ""), Number(upstream.url.port || 80));
    const context = (handOver: (socket: Socket) => void): FastContext => ({
      upstream,
      pool,
      captureBytes: capture,
      failureBody: failureBody(protocol),
      handOver,
      headersTimeoutMs: serverOptions.headersTimeout!,
      timedOut: (socket) => refuseOnSocket(socket, protocol, requestTimeout(), unparsed(protocol)),
      leftUnread: () => recorder.setAside("clientFaults", { seq: ++seq, protocol }, "(unparsed request)", "went away: the client closed the connection with a request not whole or not read"),
      // What the node:http handler does first, for a request it would forward; one it would refuse is left to it.
      accept: (req) => {
        const checked = checkRequest(req, hostAllowed);
        if ("status" in checked) return undefined;
        const n = ++seq;
        recorder.learnRaw(req.rawHeaders, req.url);
        return { target: checked.target, done: (f) => judge(protocol, req, checked.target, f, n) };
      },
    });
    return { pool, serve: (socket, handOver) => serveFast(socket, context(handOver)) };
  };

  const handler =
    (protocol: Protocol, upstream: Upstream): http.RequestListener =>
    (req, res) => {
      const n = ++seq;
      recorder.learnRaw(req.rawHeaders, req.url);
      const checked = checkRequest(req, hostAllowed);
      if ("status" in checked) return refused(protocol, req, res, checked, n);
      forward(upstream, req, res, checked.target, capture, failureBody(protocol), (f) => judge(protocol, req, checked.target, f, n));
    };

  const listeners: Listener[] = [];
  const stop = async () => {
    await Promise.all(
      listeners.map(
        (l) =>
          new Promise<void>((resolve) => {
            l.server.close(() => resolve());
            for (const s of l.sockets) s.destroy();
            l.upstream.agent.destroy();
            l.pool?.close();
          }),
      ),
    );
    await queue.close();
  };
  const out: RunningProxy = {
    violations: () => recorder.violations(),
    report: () => recorder.report(),
    redactionStats: () => recorder.redaction,
    settled: () => queue.settled(),
    judgeMode: () => queue.mode,
    stop,
  };
  try {
    if (options.restUpstream) {
      // Paths already start with /v1: a base URL ending in /v1 is taken as its parent (as the conformance command does).
      const upstream = upstreamOf(options.restUpstream, "the REST upstream", "", options.tls);
      upstream.prefix = upstream.url.pathname.replace(/\/v1\/?$/, "").replace(/\/$/, "");
      const fast = fastPath("rest", upstream);
      const l = { ...(await listen(host, checkedPort(options.restPort, "the REST port"), handler("rest", upstream), upstream, serverOptions, capOf("rest"), fast?.serve)), pool: fast?.pool };
      guardServer(l.server, "rest", unparsed("rest"));
      listeners.push(l);
      out.restUrl = new URL(`http://${host}:${l.port}/`);
    }
    if (options.mcpUpstream) {
      // The client calls the same path on the proxy as on the gateway; it is forwarded as it is.
      const upstream = upstreamOf(options.mcpUpstream, "the MCP upstream", "", options.tls);
      const fast = fastPath("mcp", upstream);
      const l = { ...(await listen(host, checkedPort(options.mcpPort, "the MCP port"), handler("mcp", upstream), upstream, serverOptions, capOf("mcp"), fast?.serve)), pool: fast?.pool };
      guardServer(l.server, "mcp", unparsed("mcp"));
      listeners.push(l);
      out.mcpUrl = new URL(upstream.url.pathname, `http://${host}:${l.port}/`);
    }
  } catch (err) {
    await stop();
    throw err;
  }
  return out;
}
