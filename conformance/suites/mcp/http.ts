// The HTTP side of the MCP suite: the REST suite's polite client (conformance/core/http.ts: concurrency limit, timeouts,
// the run's budget, 429s waited out, the token only ever sent to the target's origin, redirects refused, size
// limits, redaction) pointed at the MCP endpoint, with what MCP needs on top: any request headers (Streamable
// HTTP wants `Accept: application/json, text/event-stream` and the protocol-version header), a raw body, answers
// that may be an event stream, and a `fetch` the MCP SDK client runs on, so every SDK request keeps those limits.
import { sseData } from "../../../proxy/mcp-wire.js";
import { Transport, TransportError, type ApiResponse, type Credential } from "../../core/http.js";
import type { Redactor } from "../../core/redact.js";
import type { McpRunTargetView } from "./target.js";

export interface McpHttpRequest {
  method: "GET" | "POST" | "DELETE";
  /** Extra headers (Authorization, Host and Content-Length are set by the client and cannot be given). */
  headers?: Record<string, string>;
  /** The raw body. */
  body?: string;
  /** The bearer token with its variable, the Authorization header exactly as given, or undefined for none. */
  token?: Credential | { authorization: string };
  /** Wait out a 429 and retry (default true). */
  retry429?: boolean;
}

/** An answer; `body` is the JSON body, or the first JSON-RPC message of an event stream. */
export type McpHttpResponse = ApiResponse;

/**
 * The JSON of a body, or of a text/event-stream answer the JSON-RPC response it carries: a stream may send the
 * server's notifications (a log line, progress) before the response, so the first message whose data is a response
 * (result or error) wins, else the first whose data is JSON.
 */
export function parseBody(text: string, contentType: string | undefined): any {
  if (!text.length) return undefined;
  if (/^text\/event-stream/i.test(contentType ?? "")) {
    const messages: unknown[] = [];
    for (const data of sseData(text)) {
      try {
        messages.push(JSON.parse(data));
      } catch {
        /* not JSON (a priming event has none): keep looking */
      }
    }
    return messages.find((m) => !!m && typeof m === "object" && ("result" in m || "error" in m)) ?? messages[0];
  }
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export class McpHttp {
  readonly #transport: Transport;

  constructor(
    readonly target: McpRunTargetView,
    redactor: Redactor,
    signal: AbortSignal,
  ) {
    this.#transport = new Transport(target, redactor, signal);
  }

  get requestCount(): number {
    return this.#transport.requestCount;
  }

  /** The MCP endpoint. */
  get endpoint(): URL {
    return this.target.mcp.endpoint;
  }

  close(): void {
    this.#transport.close();
  }

  /** One request to the MCP endpoint (the target's URL is the endpoint's folder, `mcp.path` the rest). */
  async send(spec: McpHttpRequest): Promise<McpHttpResponse> {
    const res = await this.#transport.send({
      method: spec.method,
      path: this.target.mcp.path,
      ...(spec.headers ? { headers: spec.headers } : {}),
      ...(spec.body !== undefined ? { rawBody: spec.body } : {}),
      auth: spec.token ?? "none",
      ...(spec.retry429 === false ? { retry429: false } : {}),
    });
    return /^text\/event-stream/i.test(res.contentType ?? "") ? { ...res, body: parseBody(res.text, res.contentType) } : res;
  }

  /**
   * A GET of a link the gateway handed out (a connect link), without a token, as the client's browser opens it:
   * a redirect is answered, not followed. Undefined for a link off the endpoint's origin and folder (the suite
   * sends nothing elsewhere).
   */
  async open(link: URL): Promise<McpHttpResponse | undefined> {
    const base = this.target.url;
    const folder = base.pathname.replace(/\/$/, "");
    if (link.origin !== base.origin || !link.pathname.startsWith(`${folder}/`)) return undefined;
    return this.#transport.send({ method: "GET", path: `${link.pathname.slice(folder.length)}${link.search}`, auth: "none", returnRedirects: true });
  }

  /**
   * A `fetch` for the SDK client, bound to one token: every POST goes through send(); the standalone GET event
   * stream (server-initiated messages, which a stateless gateway does not need) is answered 405 here without a
   * request, as a server without one would. A redirect fails the request (the client never follows one).
   */
  fetchFor(token: Credential | undefined, onRequest?: () => void): (url: string | URL, init?: RequestInit) => Promise<Response> {
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
      if (empty || res.status < 200 || res.status > 299 || !isJson(res.contentType)) return new Response(empty ? null : res.text, { status: res.status, headers: out });
      // A JSON answer (the SDK reads it with json() alone) parses the text already read, as fetch would (a BOM
      // dropped), instead of being encoded to bytes and read back through a stream: tools/list is ~330 KB.
      const text = res.text;
      const response = new Response(null, { status: res.status, headers: out });
      const json = async () => JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text) as unknown;
      Object.defineProperties(response, { json: { value: json }, text: { value: async () => text } });
      return response;
    };
  }
}

/** Whether a Content-Type is JSON as the SDK client takes it (application/json, parameters aside). */
const isJson = (contentType: string | undefined) => contentType?.split(";")[0]?.trim().toLowerCase() === "application/json";
