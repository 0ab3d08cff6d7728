// The byte-level pieces of the proxy's fast path (fast-path.ts): reading an HTTP/1.1 request head strictly
// enough to know it is plain (anything else is left to node:http, which refuses or handles it), reading an
// upstream's answer incrementally (Content-Length, chunked, or until close), and the header object Node would
// make of raw headers (what the judges read).
import type { IncomingHttpHeaders } from "node:http";

const requestLine = /^(GET|POST|PUT|PATCH|DELETE|OPTIONS) (\/[\x21-\x7e]*) HTTP\/1\.1$/;
/** Headers whose presence sends a request to node:http: framing, expectations and hop-by-hop headers it handles. */
const leftToNode = new Set(["transfer-encoding", "expect", "upgrade", "te", "trailer", "keep-alive", "proxy-connection", "proxy-authorization", "http2-settings"]);

/** As node:http's parser: at most this many bytes of head. */
export const maxHeadBytes = 16 * 1024;
const maxHeaderLines = 200;

export interface PlainRequest {
  method: string;
  /** Origin-form target, as sent. */
  url: string;
  /** Name, value, … as received (values without surrounding whitespace), as node:http gives them. */
  rawHeaders: string[];
  /** Bytes of the head, CRLFCRLF included. */
  headBytes: number;
  contentLength: number;
}

const crlf2 = Buffer.from("\r\n\r\n");

/** Where the head ends (after CRLFCRLF) within `buf`, or -1 when it has not all arrived. */
export function headEnd(buf: Buffer, from = 0): number {
  const i = buf.indexOf(crlf2, from);
  return i < 0 ? -1 : i + 4;
}

/** `s` from `start` to `end` without the spaces and tabs around it (a loop: every header value passes here, and nearly every one starts with a space). */
function trimmedSlice(s: string, start: number, end: number): string {
  let a = start;
  let b = end;
  for (let c = s.charCodeAt(a); a < b && (c === 32 || c === 9); c = s.charCodeAt(++a));
  for (let c = s.charCodeAt(b - 1); b > a && (c === 32 || c === 9); c = s.charCodeAt(--b - 1));
  return s.slice(a, b);
}

/**
 * The header lines after a head's first line, each checked in one pass (one regular expression for the whole
 * block rather than two per line: this runs for every request and answer the fast path forwards): a name of
 * token characters, a colon, a value of the characters given. A name ends at the line's first colon.
 */
const headerBlock = (value: string) => new RegExp(`^(?:\\r\\n[!#$%&'*+\\-.^_\`|~0-9A-Za-z]+:${value}*)*$`);
const plainBlock = headerBlock("[\\t\\x20-\\x7e]");
const answerBlock = headerBlock("[\\t\\x20-\\x7e\\x80-\\xff]");

/**
 * Each header line of `head` from `from` (where its first CRLF is), as name and value (surrounding whitespace
 * trimmed); false when `each` says so or the head has more than `maxLines` lines.
 */
function eachHeader(head: string, from: number, maxLines: number, each: (name: string, value: string) => boolean | void): boolean {
  let lines = 1;
  for (let at = from; at >= 0; ) {
    if (++lines > maxLines) return false;
    const next = head.indexOf("\r\n", at + 2);
    const colon = head.indexOf(":", at + 2);
    const name = head.slice(at + 2, colon);
    if (each(name, trimmedSlice(head, colon + 1, next < 0 ? head.length : next)) === false) return false;
    at = next;
  }
  return true;
}

/**
 * A request head that is plain HTTP/1.1 (one of the usual methods, an origin-form target of visible ASCII,
 * well-formed headers of visible ASCII, framed by at most one Content-Length, no Expect, Upgrade or hop-by-hop
 * header but `Connection: keep-alive`), or undefined: anything else is not read here.
 */
export function plainRequest(buf: Buffer, end: number): PlainRequest | undefined {
  if (end > maxHeadBytes) return undefined;
  const head = buf.toString("latin1", 0, end - 4);
  const first = head.indexOf("\r\n");
  const m = requestLine.exec(first < 0 ? head : head.slice(0, first));
  if (!m || (first >= 0 && !plainBlock.test(head.slice(first)))) return undefined;
  const rawHeaders: string[] = [];
  let contentLength = -1;
  const plain = eachHeader(head, first, maxHeaderLines, (name, v) => {
    const lower = name.toLowerCase();
    if (leftToNode.has(lower)) return false;
    if (lower === "content-length") {
      if (contentLength >= 0 || !/^\d{1,15}$/.test(v)) return false;
      contentLength = Number(v);
    } else if (lower === "connection" && v.toLowerCase() !== "keep-alive") return false;
    rawHeaders.push(name, v);
  });
  return plain ? { method: m[1]!, url: m[2]!, rawHeaders, headBytes: end, contentLength: Math.max(0, contentLength) } : undefined;
}

/** Headers Node keeps only the first copy of (http.IncomingMessage#headers); set-cookie is a list, cookie joined by "; ", the rest by ", ". */
const firstOnly = new Set(["age", "authorization", "content-length", "content-type", "etag", "expires", "from", "host", "if-modified-since", "if-unmodified-since", "last-modified", "location", "max-forwards", "proxy-authorization", "referer", "retry-after", "server", "user-agent"]);

/** The header object node:http would make of raw headers. */
export function headersOf(raw: readonly string[]): IncomingHttpHeaders {
  const out: Record<string, string | string[]> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    const value = raw[i + 1]!;
    const had = out[name];
    if (had === undefined) out[name] = name === "set-cookie" ? [value] : value;
    else if (name === "set-cookie") (had as string[]).push(value);
    else if (!firstOnly.has(name)) out[name] = `${had}${name === "cookie" ? "; " : ", "}${value}`;
  }
  return out as IncomingHttpHeaders;
}

export type Framing = { kind: "length"; length: number } | { kind: "chunked" } | { kind: "close" } | { kind: "none" };

export interface AnswerHead {
  status: number;
  reason: string;
  rawHeaders: string[];
  headers: IncomingHttpHeaders;
  framing: Framing;
  /** The upstream may keep the connection for another request. */
  keepAlive: boolean;
}

/** An answer's head (after CRLFCRLF at `end`), or a string saying why it is not HTTP/1.1. */
export function answerHead(buf: Buffer, end: number): AnswerHead | string {
  const head = buf.toString("latin1", 0, end - 4);
  const first = head.indexOf("\r\n");
  const m = /^HTTP\/1\.([01]) (\d{3})(?: ([^\r\n]*))?$/.exec(first < 0 ? head : head.slice(0, first));
  if (!m) return "HPE_INVALID_CONSTANT";
  if (first >= 0 && !answerBlock.test(head.slice(first))) return "HPE_INVALID_HEADER_TOKEN";
  const rawHeaders: string[] = [];
  // The headers that decide framing and the connection, read as the lines pass (their names by length first:
  // every answer the fast path forwards passes here).
  let length: string | undefined;
  let lengthsDiffer = false;
  let te: string | undefined;
  let connection = "";
  // An answer's lines are not counted (as Node's client does not refuse many): its head is bounded by bytes only.
  eachHeader(head, first, Infinity, (name, v) => {
    rawHeaders.push(name, v);
    const n = name.length;
    if (n !== 10 && n !== 14 && n !== 17) return;
    const lower = name.toLowerCase();
    if (lower === "content-length") {
      if (length === undefined) length = v;
      else if (v !== length) lengthsDiffer = true;
    } else if (lower === "transfer-encoding") te = te === undefined ? v : `${te}, ${v}`;
    else if (lower === "connection") connection = connection ? `${connection}, ${v}` : v;
  });
  const headers = headersOf(rawHeaders);
  const status = Number(m[2]);
  connection = connection.toLowerCase();
  let keepAlive = m[1] === "1" ? !/\bclose\b/.test(connection) : /\bkeep-alive\b/.test(connection);
  let framing: Framing;
  if ((status >= 100 && status < 200) || status === 204 || status === 304) framing = { kind: "none" };
  else if (te !== undefined) {
    if (length !== undefined) return "HPE_UNEXPECTED_CONTENT_LENGTH";
    framing = /(^|,)\s*chunked\s*$/i.test(te) ? { kind: "chunked" } : { kind: "close" };
  } else if (length !== undefined) {
    if (lengthsDiffer || !/^\d{1,15}$/.test(length)) return "HPE_INVALID_CONTENT_LENGTH";
    framing = { kind: "length", length: Number(length) };
  } else framing = { kind: "close" };
  if (framing.kind === "close") keepAlive = false;
  return { status, reason: m[3] ?? "", rawHeaders, headers, framing, keepAlive };
}

/**
 * Reads a chunked body as it comes (RFC 9112 §7.1): how many of the bytes given belong to the message, the
 * data they carry, and when the message has ended (after the last chunk and its trailers). Strict: a malformed
 * size line or a missing CRLF is an error.
 */
export class ChunkedReader {
  #state: "size" | "data" | "data-crlf" | "trailer" = "size";
  #left = 0;
  #line = "";
  done = false;

  /** Feeds bytes; returns how many belong to the message (the rest follow it), or an error. */
  feed(chunk: Buffer, onData: (data: Buffer) => void): number | string {
    let i = 0;
    while (i < chunk.length && !this.done) {
      if (this.#state === "data") {
        const n = Math.min(this.#left, chunk.length - i);
        onData(chunk.subarray(i, i + n));
        i += n;
        this.#left -= n;
        if (!this.#left) ((this.#state = "data-crlf"), (this.#line = ""));
        continue;
      }
      // A line: the size (with extensions), the CRLF after the data, or a trailer.
      const lf = chunk.indexOf(10, i);
      const part = chunk.toString("latin1", i, lf < 0 ? chunk.length : lf + 1);
      i = lf < 0 ? chunk.length : lf + 1;
      this.#line += part;
      if (this.#line.length > 4096) return "HPE_CHUNK_EXTENSIONS_OVERFLOW";
      if (lf < 0) break;
      if (!this.#line.endsWith("\r\n")) return "HPE_STRICT";
      const line = this.#line.slice(0, -2);
      this.#line = "";
      if (this.#state === "data-crlf") {
        if (line !== "") return "HPE_STRICT";
        this.#state = "size";
      } else if (this.#state === "size") {
        const size = /^([0-9a-fA-F]{1,12})[ \t]*(;[^\r\n]*)?$/.exec(line);
        if (!size) return "HPE_INVALID_CHUNK_SIZE";
        this.#left = parseInt(size[1]!, 16);
        this.#state = this.#left ? "data" : "trailer";
      } else if (line === "") this.done = true;
    }
    return i;
  }
}
