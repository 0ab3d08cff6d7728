// startProxy: one listener per protocol on 127.0.0.1 (by default), each forwarding to its upstream unchanged and
// judging every exchange once its answer has ended, so judging never delays the bytes the client gets.
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { forward, upstreamOf, type Forwarded, type TlsOptions, type Upstream } from "./forward.js";
import { judgeMcp } from "./mcp-judge.js";
import { defaultMcpCaps, McpState } from "./mcp-state.js";
import { exchangeLine } from "./output.js";
import { Recorder, schemeOnly, type ProxyReport, type ViolationRecord } from "./recorder.js";
import { judgeRest } from "./rest-judge.js";
import { defaultRestCaps, RestState } from "./rest-state.js";
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
}

export interface ExchangeEvent {
  /** The exchange as judged: Authorization shows its scheme only; bodies as they were sent (see `line` and the report for redacted text). */
  exchange: Exchange;
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
  /** Closes the listeners and the upstream connections. */
  stop(): Promise<void>;
}

export const defaultCaptureBytes = 1024 * 1024;

/** What each protocol answers when the upstream cannot be reached: its own error shape. */
const failureBodies: Record<Protocol, (message: string) => { contentType: string; body: string }> = {
  rest: (message) => ({ contentType: "application/json", body: JSON.stringify({ error: { type: "server_error", code: "upstream_unreachable", message: `ideas-contract proxy: ${message}`, param: null } }) }),
  mcp: (message) => ({ contentType: "application/json", body: JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32603, message: `ideas-contract proxy: ${message}` } }) }),
};

interface Listener {
  server: http.Server;
  sockets: Set<Socket>;
  upstream: Upstream;
}

async function listen(host: string, port: number, handler: http.RequestListener, upstream: Upstream): Promise<Listener & { port: number }> {
  const server = http.createServer(handler);
  const sockets = new Set<Socket>();
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
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
  const recorder = new Recorder();
  const restState = new RestState(defaultRestCaps);
  const mcpState = new McpState(defaultMcpCaps);
  let seq = 0;

  const judge = (protocol: Protocol, req: http.IncomingMessage, f: Forwarded, n: number) => {
    const exchange: Exchange = {
      protocol,
      seq: n,
      method: req.method ?? "GET",
      path: req.url ?? "/",
      // The judges need only to know a token was sent; the token itself stays out of everything the proxy keeps.
      requestHeaders: req.headers.authorization === undefined ? req.headers : { ...req.headers, authorization: schemeOnly(req.headers.authorization) },
      requestText: f.request.text(),
      requestTruncated: f.request.truncated,
      status: f.status,
      responseHeaders: f.responseHeaders,
      responseText: f.response.text(),
      responseTruncated: f.response.truncated,
      ms: f.ms,
      ...(f.failure ? { failure: f.failure } : {}),
    };
    let verdict: Verdict;
    try {
      verdict = protocol === "rest" ? judgeRest(exchange, restState) : judgeMcp(exchange, mcpState);
    } catch (err) {
      // A judge that trips over an answer must not take the proxy down: say so and go on.
      verdict = { label: `${exchange.method} ${exchange.path}`, outcome: String(exchange.status), violations: [], notes: [`the proxy could not judge this exchange: ${(err as Error).message}`] };
    }
    const violations = recorder.record(exchange, verdict);
    options.onExchange?.({ exchange, verdict, violations, line: recorder.text(exchangeLine(exchange, verdict, violations)) });
  };

  const handler =
    (protocol: Protocol, upstream: Upstream): http.RequestListener =>
    (req, res) => {
      const n = ++seq;
      recorder.learnToken(req.headers.authorization);
      forward(upstream, req, res, capture, failureBodies[protocol], (f) => judge(protocol, req, f, n));
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
          }),
      ),
    );
  };
  const out: RunningProxy = { violations: () => recorder.violations(), report: () => recorder.report(), stop };
  try {
    if (options.restUpstream) {
      // Paths already start with /v1: a base URL ending in /v1 is taken as its parent (as the conformance command does).
      const upstream = upstreamOf(options.restUpstream, "the REST upstream", "", options.tls);
      upstream.prefix = upstream.url.pathname.replace(/\/v1\/?$/, "").replace(/\/$/, "");
      const l = await listen(host, checkedPort(options.restPort, "the REST port"), handler("rest", upstream), upstream);
      listeners.push(l);
      out.restUrl = new URL(`http://${host}:${l.port}/`);
    }
    if (options.mcpUpstream) {
      // The client calls the same path on the proxy as on the gateway; it is forwarded as it is.
      const upstream = upstreamOf(options.mcpUpstream, "the MCP upstream", "", options.tls);
      const l = await listen(host, checkedPort(options.mcpPort, "the MCP port"), handler("mcp", upstream), upstream);
      listeners.push(l);
      out.mcpUrl = new URL(upstream.url.pathname, `http://${host}:${l.port}/`);
    }
  } catch (err) {
    await stop();
    throw err;
  }
  return out;
}
