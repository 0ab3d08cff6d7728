// What the proxy answers itself, always with a body in the protocol's error shape (REST's error envelope, a
// JSON-RPC error for MCP), never an empty one: requests it refuses before forwarding (a repeated Authorization or
// Host, a foreign Host, a target that is not a path), what Node's parser refuses or times out, an Expect it
// cannot meet, and an upstream it cannot reach.
import type http from "node:http";
import type { Duplex } from "node:stream";
import { errorTypeForStatus } from "../conformance/suites/rest/contract.js";
import { createBrowserAccess } from "../mock/browser-access.js";
import { answerOnSocket, asteriskRefusal, guardEdges, missingHost, parserRefusal } from "../mock/http-guards.js";
import type { Protocol } from "./types.js";

export interface Refusal {
  status: number;
  /** REST error code; for MCP the message says it. */
  code: string;
  message: string;
}

/** The protocol's error body for a refusal (REST: the seed's type for the status; 502, 504: server_error). */
export function errorBody(protocol: Protocol, r: Refusal): { contentType: string; body: string } {
  const message = `ideas-contract proxy: ${r.message}`;
  if (protocol === "rest") {
    const type = errorTypeForStatus[r.status] ?? (r.status >= 500 ? "server_error" : "invalid_request");
    return { contentType: "application/json", body: JSON.stringify({ error: { type, code: r.code, message, param: null } }) };
  }
  // JSON-RPC: -32600 for a request that cannot be taken, -32000 (server-defined) for a forbidden Host as the
  // gateway mock answers it, -32603 when the proxy cannot reach the gateway.
  const code = r.status >= 500 ? -32603 : r.status === 403 ? -32000 : -32600;
  return { contentType: "application/json", body: JSON.stringify({ jsonrpc: "2.0", id: null, error: { code, message } }) };
}

/** Answers a refusal on a response that has not started. */
export function refuse(res: http.ServerResponse, protocol: Protocol, r: Refusal): void {
  const { contentType, body } = errorBody(protocol, r);
  res.writeHead(r.status, { "content-type": contentType, "content-length": Buffer.byteLength(body) });
  res.end(body);
}

/** Connections answered with a refusal on the socket (and being closed). */
const refusedSockets = new WeakSet<Duplex>();

/** What Node's parser refuses or times out (`err`), answered on the raw socket in the protocol's shape and closed. */
export function refuseOnSocket(socket: Duplex, protocol: Protocol, err: NodeJS.ErrnoException, onRefused: (r: Refusal) => void): void {
  // The client's connection broke (reset, broken pipe): nobody to answer. A connection already refused is
  // refused once: the client's end after the answer (node:http reads it as a head cut short) is no second fault.
  if (err.code === "ECONNRESET" || err.code === "EPIPE" || refusedSockets.has(socket)) return void socket.destroy();
  refusedSockets.add(socket);
  const p = parserRefusal(err);
  const r = { status: p.status, code: p.code, message: p.message };
  onRefused(r);
  answerOnSocket(socket, p, JSON.parse(errorBody(protocol, r).body));
}

/** The error node:http's server raises for a request that did not arrive in time (its headersTimeout). */
export const requestTimeout = (): NodeJS.ErrnoException => Object.assign(new Error("the request did not arrive in time"), { code: "ERR_HTTP_REQUEST_TIMEOUT" });

/** What Node's parser refuses, its timeouts and an unmeetable Expect: answered in the protocol's shape. */
export function guardServer(server: http.Server, protocol: Protocol, onRefused: (r: Refusal) => void): void {
  server.on("clientError", (err: NodeJS.ErrnoException, socket) => refuseOnSocket(socket, protocol, err, onRefused));
  guardEdges(server, (r) => {
    onRefused(r);
    return JSON.parse(errorBody(protocol, r).body);
  });
  server.on("checkExpectation", (req: http.IncomingMessage, res: http.ServerResponse) => {
    req.resume();
    refuse(res, protocol, { status: 417, code: "expectation_failed", message: "the only Expect this proxy meets is 100-continue." });
  });
}

export interface Checked {
  /** The path and query to forward (origin-form), or `*` for a server-wide OPTIONS (forwarded as it is). */
  target: string;
}

/**
 * Checks what the proxy must not pass on changed: a header the service would refuse when repeated is never
 * collapsed into its first copy (which token would be meant?), and the Host is the proxy's own.
 *
 * Why the Host is checked here and then replaced: the client addresses the proxy, so its Host names the proxy;
 * the upstream (a virtual host, a TLS name) must get its own name, as from any reverse proxy. Replacing a
 * foreign Host would hand the service a valid one for a request that was never meant for it (a DNS-rebinding
 * page reaching the proxy under its own domain), so a Host that does not name the proxy is refused, as the
 * gateway refuses one that does not name it.
 */
/** What the refusals read of a request: its head, from node:http or the fast path alike. */
export type RequestHead = Pick<http.IncomingMessage, "method" | "url" | "httpVersion" | "rawHeaders" | "headers">;

export function checkRequest(req: RequestHead, hostAllowed: (host: string | undefined) => boolean): Checked | Refusal {
  // One pass over the raw headers (every copy of each, as received), counting the ones that must come once. Only
  // names of their lengths are compared (this runs for every request; most headers are none of them).
  let authorizations = 0;
  let proxyAuthorizations = 0;
  let hosts = 0;
  let transferCodings: string[] | undefined;
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const n = raw[i]!.length;
    if (n !== 4 && n !== 13 && n !== 17 && n !== 19) continue;
    const name = raw[i]!.toLowerCase();
    if (name === "authorization") authorizations++;
    else if (name === "proxy-authorization") proxyAuthorizations++;
    else if (name === "host") hosts++;
    else if (name === "transfer-encoding") (transferCodings ??= []).push(raw[i + 1]!);
  }
  const repeated = authorizations > 1 ? "authorization" : proxyAuthorizations > 1 ? "proxy-authorization" : hosts > 1 ? "host" : undefined;
  if (repeated) return { status: 400, code: `repeated_${repeated.replace("-", "_")}`, message: `the request sends ${repeated} more than once; send it once.` };
  // A transfer coding other than chunked (`gzip, chunked`): Node undoes only chunked and the proxy forwards the
  // body re-chunked, so the coding would be lost in transit and the service read compressed bytes as plain. The
  // services refuse it with 415 (mock/http-guards.ts bodyCoding); so does the proxy.
  const coding = transferCodings?.flatMap((v) => v.split(",")).map((c) => c.trim().toLowerCase()).filter((c) => c && c !== "chunked") ?? [];
  if (coding.length) return { status: 415, code: "unsupported_transfer_coding", message: `the body is sent with the transfer coding ${coding.join(", ")}; send it uncompressed (chunked or with a Content-Length).` };
  let target = req.url ?? "/";
  let host = req.headers.host;
  // RFC 9112 §3.2: an HTTP/1.1 request without Host is refused (Node would answer it 400 with no body).
  if (missingHost(req)) return { status: 400, code: "missing_host", message: "the request has no Host header; HTTP/1.1 requires one." };
  // The asterisk form asks about the server itself (RFC 9112 §3.2.4): an OPTIONS is forwarded as it is, for the
  // service to answer; with any other method it is no request at all, refused as the mocks refuse it.
  if (target === "*") {
    if (req.method !== "OPTIONS") return { status: 400, code: "malformed_request", message: asteriskRefusal };
  } else if (!target.startsWith("/")) {
    // The absolute form (RFC 9112 §3.2.2): its authority stands for the Host; forwarded in origin form.
    let url: URL | undefined;
    try {
      url = /^https?:\/\//i.test(target) ? new URL(target) : undefined;
    } catch {
      url = undefined;
    }
    if (!url) return { status: 400, code: "malformed_request", message: "the request target is neither a path nor an http(s) URL." };
    target = url.pathname + url.search;
    host = url.host;
  }
  if (!hostAllowed(host)) return { status: 403, code: "host_not_allowed", message: "this Host does not name the proxy." };
  return { target };
}

/** Host names the proxy answers: loopback names and the host it listens on, or exactly the ones given. */
export function hostCheck(listenHost: string, allowedHosts?: readonly string[]): (host: string | undefined) => boolean {
  const allowed = createBrowserAccess(allowedHosts ? { allowedHosts } : {}, listenHost).hostAllowed;
  // Every request asks, with one of a few Hosts: the answers are kept (parsing a Host costs a URL each time),
  // bounded so that a client cycling Hosts cannot grow it.
  const known = new Map<string | undefined, boolean>();
  return (host) => {
    let ok = known.get(host);
    if (ok === undefined) {
      if (known.size >= 256) known.clear();
      known.set(host, (ok = allowed(host)));
    }
    return ok;
  };
}
