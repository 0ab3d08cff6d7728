// Guards both mocks share against clients that misbehave at the HTTP level: time limits for slow (trickling)
// connections, requests Node's parser refuses answered in the mock's own error shape where the socket still
// takes an answer, and a request that repeats Authorization (which token would be meant?).
import type http from "node:http";
import type { Duplex } from "node:stream";

export interface HttpLimits {
  /** All request headers must arrive within this (default 10 s). */
  headersTimeoutMs?: number;
  /** The whole request, body included, must arrive within this (default 30 s). */
  requestTimeoutMs?: number;
}

/**
 * Server options that enforce the limits; Node checks them every connectionsCheckingInterval. A request without
 * Host is let through to the handler (`requireHostHeader: false`), which refuses it in its own error shape
 * (`missingHost`): Node's own refusal is a 400 with no body.
 */
export function limitOptions(limits: HttpLimits = {}): http.ServerOptions {
  const headersTimeout = limits.headersTimeoutMs ?? 10_000;
  const requestTimeout = Math.max(limits.requestTimeoutMs ?? 30_000, headersTimeout);
  return { headersTimeout, requestTimeout, connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(headersTimeout / 4))), requireHostHeader: false };
}

/** An HTTP/1.1 request without Host (RFC 9112 §3.2: a server MUST answer 400; HTTP/1.0 may omit it). */
export const missingHost = (req: Pick<http.IncomingMessage, "headers" | "httpVersion">): boolean => req.headers.host === undefined && req.httpVersion === "1.1";

export interface ParserRefusal {
  status: number;
  reason: string;
  code: string;
  message: string;
}

/** What to answer a request Node's HTTP parser (or its timers) refused. */
export function parserRefusal(err: NodeJS.ErrnoException): ParserRefusal {
  switch (err.code) {
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return { status: 408, reason: "Request Timeout", code: "request_timeout", message: "The request did not arrive in time; send it whole and promptly." };
    case "HPE_HEADER_OVERFLOW":
      // 400, not 431: the contracts' statuses for a request that cannot be taken as sent.
      return { status: 400, reason: "Bad Request", code: "headers_too_large", message: "The request line or headers are too large." };
    case "HPE_INVALID_HEADER_TOKEN":
    case "HPE_INVALID_CONSTANT":
      return { status: 400, reason: "Bad Request", code: "malformed_request", message: "A header holds characters HTTP does not allow (control characters, spaces in names)." };
    case "HPE_UNEXPECTED_CONTENT_LENGTH":
    case "HPE_INVALID_CONTENT_LENGTH":
    case "HPE_INVALID_TRANSFER_ENCODING":
      return { status: 400, reason: "Bad Request", code: "malformed_request", message: "The body's length is given in conflicting or invalid ways." };
    default:
      return { status: 400, reason: "Bad Request", code: "malformed_request", message: "The request could not be read as HTTP/1.1." };
  }
}

/** Answers a parser-level refusal on the raw socket with `body` (the mock's error shape) and closes it. */
export function answerOnSocket(socket: Duplex, refusal: ParserRefusal, body: unknown): void {
  if (!socket.writable) return void socket.destroy();
  const text = JSON.stringify(body);
  socket.end(
    `HTTP/1.1 ${refusal.status} ${refusal.reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
  );
}

/** A CONNECT asks for a tunnel these servers never open (without a listener Node closes the socket unanswered). */
export const tunnelRefusal: ParserRefusal = { status: 405, reason: "Method Not Allowed", code: "method_not_allowed", message: "CONNECT is not served here: this server opens no tunnels." };

/**
 * Edges Node leaves open on an HTTP server: a CONNECT is answered (405 with `body`, the server's error shape)
 * instead of dropped; and every header is read, not only the first 2000 (Node's default count, past which it
 * drops the rest silently: a repeated Authorization or Host sent after 2000 filler headers would go unseen; the
 * 16 KB header size limit still bounds them).
 */
export function guardEdges(server: http.Server, body: (r: ParserRefusal) => unknown): void {
  server.maxHeadersCount = 0;
  server.on("connect", (_req: http.IncomingMessage, socket: Duplex) => answerOnSocket(socket, tunnelRefusal, body(tunnelRefusal)));
}

/** True when the request sends the header more than once (Node would silently keep the first). */
const repeats = (req: http.IncomingMessage, name: string): boolean => (req.headersDistinct[name]?.length ?? 0) > 1;
export const repeatsAuthorization = (req: http.IncomingMessage): boolean => repeats(req, "authorization");
/** Two Host headers: which server is meant? (RFC 9112 §3.2: a server MUST answer 400.) */
export const repeatsHost = (req: http.IncomingMessage): boolean => repeats(req, "host");

/**
 * The coding of a request body other than identity (Content-Encoding) or chunked (Transfer-Encoding; Node
 * undoes only chunked and hands `gzip, chunked` over still compressed), or null. The mocks decode none: a
 * compressed body is refused with 415 rather than read as if plain (RFC 9110 §8.4.1 allows 415 for a coding
 * the server does not accept; RFC 7694 has it name what it does accept in Accept-Encoding; a 5xx would blame
 * the server for the client's choice), and a decompression bomb is never opened.
 */
export function bodyCoding(req: http.IncomingMessage): string | null {
  const listed = (name: string, plain: string) =>
    (req.headersDistinct[name] ?? []).flatMap((v) => v.split(",")).map((c) => c.trim().toLowerCase()).filter((c) => c !== "" && c !== plain);
  const codings = [...listed("content-encoding", "identity"), ...listed("transfer-encoding", "chunked")];
  return codings.length ? codings.join(", ") : null;
}
/** Headers of the 415 answer to an encoded body: what the mocks accept instead. */
export const codingRefusalHeaders = { "Accept-Encoding": "identity" };

/**
 * A request target as it may appear in a message: an origin-form path of plain URL characters (clipped), else
 * "this path" — an absolute-form target (`http://evil/…`) or odd bytes are never echoed back.
 */
export function shownPath(target: string | undefined): string {
  const path = (target ?? "/").split(/[?#]/)[0]!;
  return /^\/[A-Za-z0-9\-._~%!$&'()*+,;=:@/]{0,120}$/.test(path) && !path.startsWith("//") ? path : "this path";
}

/**
 * The authority of an absolute-form request target (`GET http://host:port/v1/… HTTP/1.1`), else undefined. RFC
 * 9112 §3.2.2: a server MUST accept the absolute form, and takes the host from it, ignoring Host.
 */
export function targetAuthority(target: string | undefined): string | undefined {
  if (!target || !/^https?:\/\//i.test(target)) return undefined;
  try {
    return new URL(target).host;
  } catch {
    return undefined;
  }
}

/** The origin form (path and query) of a request target: an absolute form's own, anything else as sent. */
export function originTarget(target: string | undefined): string {
  const raw = target ?? "/";
  if (targetAuthority(raw) === undefined) return raw;
  const url = new URL(raw);
  return url.pathname + url.search;
}

/**
 * The answer to the asterisk form (`OPTIONS * HTTP/1.1`, RFC 9112 §3.2.4, RFC 9110 §9.3.7: about the server in
 * general): 204 with the methods the server serves; the same from both mocks (and from them through the proxy).
 * Any other method with `*` is not a request a server can take (null: the caller refuses it with 400).
 */
export function asteriskAnswer(req: http.IncomingMessage, res: http.ServerResponse, methods: string): boolean | null {
  if (req.url !== "*") return false;
  if (req.method !== "OPTIONS") return null;
  req.resume();
  res.writeHead(204, { Allow: methods, "Content-Length": "0" });
  res.end();
  return true;
}

/** What a server says to `*` with a method other than OPTIONS. */
export const asteriskRefusal = "The request target * is only for OPTIONS (RFC 9112 §3.2.4); send a path.";
