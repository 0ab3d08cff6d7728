// A small HTTP proxy in front of the REST reference server that turns it into a mutant: it may rewrite each
// request before forwarding it and each answer before returning it. JSON bodies are parsed for the rewriters
// and serialised again; everything else passes through.
import type { RuleId } from "../../../generated/rules.js";
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface Exchange {
  method: string;
  /** Path with the query, as received. */
  path: string;
  headers: Record<string, string>;
  /** Parsed JSON body, or undefined. */
  body: any;
  /** The bearer token sent, if any. */
  token: string | undefined;
}

export interface Answer {
  status: number;
  headers: Record<string, string>;
  /** Parsed JSON body, or undefined (then `raw` is sent). */
  body: any;
  raw: Buffer;
  /** How the proxy frames the answer it sends (default: Content-Length on a kept-alive connection). */
  framing?: { chunked?: boolean; close?: boolean };
}

export interface ProxyContext {
  /** A request to the reference itself (e.g. to read a brand before rewriting a PATCH). */
  upstream(method: string, path: string, token: string | undefined, body?: unknown, headers?: Record<string, string>): Promise<Answer>;
}

/** What the proxy does to each exchange (a mutant, or an allowed variant in test/variants/). */
export interface Rewriter {
  /** Rewrites the request before it goes to the reference. */
  request?(req: Exchange, ctx: ProxyContext): Exchange | Promise<Exchange>;
  /** Answers a request itself, without forwarding it (a rate limit at the edge): undefined forwards it. */
  answer?(req: Exchange): Answer | undefined;
  /** Rewrites the reference's answer before it goes back. */
  response?(req: Exchange, res: Answer, ctx: ProxyContext): Answer | Promise<Answer>;
}

export interface Mutant extends Rewriter {
  /** Stable kebab-case id. */
  id: string;
  /** The one rule of spec/rules/rest.yaml (mcp.yaml for the MCP catalogue) the mutant breaks (a misspelt one does not compile); "none" for an allowed variant, which breaks nothing. */
  rule: RuleId | "none";
  description: string;
  /** Timing of the target file to use against this mutant (the target's seconds, e.g. answer_within_seconds). */
  timing?: Record<string, number>;
}

/**
 * An answer with its JSON body rewritten on a copy. The body is whatever JSON the reference answered, and a mutant
 * spoils it freely (a wrong type, a missing field), so the copy is handed over untyped; the typed readers are the
 * catalogues' guards (isBrand, isDone) and test/support/json.ts.
 */
export const rewriteBody = (res: Answer, f: (body: any) => unknown): Answer => ({ ...res, body: f(structuredClone(res.body)) });

/** A response rewriter that drops one header from every answer of `status` (a 401 without its challenge, a 429 without Retry-After). */
export const withoutHeader =
  (status: number, name: string) =>
  (_req: Exchange, res: Answer): Answer => {
    if (res.status !== status) return res;
    const headers = { ...res.headers };
    delete headers[name];
    return { ...res, headers };
  };

export interface MutantProxy {
  url: URL;
  stop(): Promise<void>;
}

function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on("data", (c: Buffer) => chunks.push(c));
    stream.on("end", () => resolve(Buffer.concat(chunks)));
    stream.on("error", reject);
  });
}

const parse = (buf: Buffer): unknown => {
  if (!buf.length) return undefined;
  try {
    return JSON.parse(buf.toString("utf8"));
  } catch {
    return undefined;
  }
};

/**
 * Kept-alive connections to the upstreams (a new connection per request cost about a tenth of a whole run's CPU). The
 * upstream may close an idle one just as a request goes out on it (ECONNRESET or EPIPE before any answer): that request never
 * reached it and is sent once more on a new connection (Node's documented remedy), never read as the mutant's fault.
 */
const upstreamAgent = new http.Agent({ keepAlive: true });

function send(upstream: URL, method: string, path: string, headers: Record<string, string>, payload: Buffer | undefined, agent: http.Agent | false = upstreamAgent): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const h = { ...headers };
    delete h["content-length"];
    delete h.host;
    delete h.connection;
    // The mutants rewrite the answer's JSON: ask for it uncompressed (the MCP mock gzips tools/list for fetch).
    h["accept-encoding"] = "identity";
    if (payload) h["content-length"] = String(payload.length);
    let answered = false;
    const req = http.request(new URL(path, upstream), { method, headers: h, agent }, async (res) => {
      answered = true;
      try {
        const raw = await readAll(res);
        const out: Record<string, string> = {};
        for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(", ") : v;
        resolve({ status: res.statusCode ?? 502, headers: out, body: parse(raw), raw });
      } catch (err) {
        reject(err);
      }
    });
    req.on("error", (err: NodeJS.ErrnoException) => {
      if (!answered && req.reusedSocket && agent && (err.code === "ECONNRESET" || err.code === "EPIPE")) send(upstream, method, path, headers, payload, false).then(resolve, reject);
      else reject(err);
    });
    if (payload) req.write(payload);
    req.end();
  });
}

/** Starts a proxy on 127.0.0.1 (ephemeral port) that forwards to `upstream` through the mutant's rewriters. */
export async function startMutantProxy(upstream: URL, mutant: Mutant | Rewriter | null): Promise<MutantProxy> {
  const ctx: ProxyContext = {
    upstream: (method, path, token, body, extra = {}) => {
      const headers: Record<string, string> = { accept: "application/json", ...extra };
      if (token) headers.authorization = `Bearer ${token}`;
      let payload: Buffer | undefined;
      if (body !== undefined) {
        headers["content-type"] = "application/json";
        payload = Buffer.from(JSON.stringify(body));
      }
      return send(upstream, method, path, headers, payload);
    },
  };
  const server = http.createServer(async (req, res) => {
    try {
      const raw = await readAll(req);
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(", ") : v;
      const token = /^Bearer +(\S+)/i.exec(headers.authorization ?? "")?.[1];
      let exchange: Exchange = { method: req.method ?? "GET", path: req.url ?? "/", headers, body: parse(raw), token };
      if (mutant?.request) exchange = await mutant.request(exchange, ctx);
      if (exchange.token !== token) {
        if (exchange.token) exchange.headers.authorization = `Bearer ${exchange.token}`;
        else delete exchange.headers.authorization;
      }
      const payload = exchange.body !== undefined ? Buffer.from(JSON.stringify(exchange.body)) : raw.length ? raw : undefined;
      let answer = mutant?.answer?.(exchange) ?? (await send(upstream, exchange.method, exchange.path, exchange.headers, payload));
      if (mutant?.response) answer = await mutant.response(exchange, answer, ctx);
      const out = answer.body !== undefined ? Buffer.from(JSON.stringify(answer.body)) : answer.raw;
      const h = { ...answer.headers };
      delete h["transfer-encoding"];
      delete h.connection;
      delete h["keep-alive"];
      // Chunked: no Content-Length, the body in two writes (Node frames them as chunks); close: the socket ends after.
      if (!answer.framing?.chunked) h["content-length"] = String(out.length);
      if (answer.framing?.close) h.connection = "close";
      res.writeHead(answer.status, h);
      if (answer.framing?.chunked && out.length > 1) res.write(out.subarray(0, out.length >> 1));
      res.end(answer.framing?.chunked && out.length > 1 ? out.subarray(out.length >> 1) : out);
    } catch (err) {
      res.writeHead(502, { "content-type": "text/plain" });
      res.end(`mutant proxy: ${(err as Error).message}`);
    }
  });
  const sockets = new Set<import("node:net").Socket>();
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: new URL(`http://127.0.0.1:${port}/`),
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      }),
  };
}
