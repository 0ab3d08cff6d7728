// Hostile HTTP against both stateful mocks over raw sockets: what Node's parser refuses, a repeated
// Authorization header, an unmeetable Expect and a trickling client each get an answer in the mock's own error
// shape (REST envelope; JSON-RPC error or OAuth-style error for MCP), never an empty body or a held connection;
// an HTTP/1.1 request without Host is refused the same way; and no log line carries client text unescaped.
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { printable } from "../conformance/core/printable.js";
import { startMcpMock, type McpMock } from "../mock/mcp/server.js";
import { startRestMock, type RestMock } from "../mock/rest/server.js";
import { at } from "./support/json.js";

let rest: RestMock;
let mcp: McpMock;
/** The same mocks with short time limits, for the trickle test only: with them, a loaded host that took over
 * 300 ms to read 20 KB of headers turned the 400 other tests expect into a 408. */
let quickRest: RestMock;
let quickMcp: McpMock;
/** Every line both mocks logged. */
const lines: string[] = [];
beforeAll(async () => {
  rest = await startRestMock({ port: 0, log: (l) => lines.push(l) });
  mcp = await startMcpMock({ port: 0, log: (l) => lines.push(l) });
  // Short limits so the trickle test need not wait; the defaults are 10 s (headers) and 30 s (request).
  const limits = { headersTimeoutMs: 300, requestTimeoutMs: 600 };
  quickRest = await startRestMock({ port: 0, limits });
  quickMcp = await startMcpMock({ port: 0, limits });
});
afterAll(async () => {
  await Promise.all([rest?.stop(), mcp?.stop(), quickRest?.stop(), quickMcp?.stop()]);
});

/** Writes raw bytes, reads until the server closes (or answers in full), and splits status and JSON body. */
function raw(url: URL, bytes: string, { hold = false } = {}): Promise<{ status: number; body: unknown; text: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(url.port), "127.0.0.1");
    let text = "";
    socket.setEncoding("latin1");
    socket.on("data", (d: string) => (text += d));
    socket.on("error", reject);
    socket.on("close", () => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
      const json = text.slice(text.indexOf("\r\n\r\n") + 4);
      let body: unknown = null;
      try {
        body = JSON.parse(json);
      } catch {
        /* left null: the test says what it expected */
      }
      resolve({ status, body, text });
    });
    socket.write(bytes, "latin1");
    if (!hold) setTimeout(() => socket.end(), 2000).unref();
  });
}

const targets = (r = rest, m = mcp) => [
  { name: "rest", url: r.url, path: "/v1/brands/brand_x", token: "test_team_a", shape: (b: unknown) => expect(at(b, "error")).toMatchObject({ type: "invalid_request", code: expect.any(String), message: expect.any(String), param: null }) },
  { name: "mcp", url: new URL(m.url.origin), path: "/mcp", token: "mcp_user", shape: (b: unknown) => expect(b).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32600 } }) },
];

describe("requests Node's parser refuses get the protocol's error shape", () => {
  it.each([
    ["a control character in a header", (p: string) => `GET ${p} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ab\x01cd\r\n\r\n`, 400],
    ["conflicting body lengths", (p: string) => `POST ${p} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`, 400],
    ["oversized headers", (p: string) => `GET ${p} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`, 400],
  ] as const)("%s", async (_label, request, status) => {
    for (const t of targets()) {
      const r = await raw(t.url, request(t.path));
      expect(r.status, `${t.name}: ${r.text.slice(0, 200)}`).toBe(status);
      t.shape(r.body);
    }
  });

  it("an Expect other than 100-continue: 417 with a body", async () => {
    for (const t of targets()) {
      const r = await raw(t.url, `GET ${t.path} HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: bogus\r\nConnection: close\r\n\r\n`);
      expect(r.status, t.name).toBe(417);
      expect(r.body, t.name).not.toBeNull();
    }
  });

  it("a trickling client is answered 408 and let go", async () => {
    for (const t of targets(quickRest, quickMcp)) {
      const r = await raw(t.url, `GET ${t.path} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: `, { hold: true });
      expect(r.status, `${t.name}: ${r.text.slice(0, 200)}`).toBe(408);
      t.shape(r.body);
    }
  });
});

describe("a repeated Authorization header", () => {
  it("is refused with 400, whichever token comes first", async () => {
    const rr = await raw(rest.url, `GET /v1/brands/brand_x HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer test_team_a\r\nAuthorization: Bearer test_team_b\r\nConnection: close\r\n\r\n`);
    expect(rr.status).toBe(400);
    expect(at(rr.body, "error")).toMatchObject({ type: "invalid_request", code: "duplicate_authorization" });
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" });
    const mr = await raw(
      new URL(mcp.url.origin),
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer mcp_user\r\nAuthorization: Bearer mcp_partner\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
    );
    expect(mr.status).toBe(400);
    expect(mr.body).toMatchObject({ error: "invalid_request" });
  });
});

describe("an HTTP/1.1 request without Host", () => {
  it("is refused with 400 in the mock's error shape, never Node's empty 400", async () => {
    for (const t of targets()) {
      const r = await raw(t.url, `GET ${t.path} HTTP/1.1\r\nAuthorization: Bearer ${t.token}\r\nConnection: close\r\n\r\n`);
      expect(r.status, `${t.name}: ${r.text.slice(0, 200)}`).toBe(400);
      t.shape(r.body);
    }
  });
});

describe("the request log", () => {
  it("escapes a JSON-RPC method, a tool name and a path a client sent: no forged, recoloured or reordered line", async () => {
    // A newline forging a second line, ANSI colour, a right-to-left override, a C1 control and a line separator.
    const evil = "x\n2026-01-01T00:00:00.000Z mcp tools/call forged 200 ok\u001b[31m\u202e\u0085\u2028";
    const from = lines.length;
    const mcpOrigin = new URL(mcp.url.origin);
    for (const message of [
      { jsonrpc: "2.0", id: 1, method: evil, params: {} },
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: evil, arguments: {} } },
    ]) {
      // Written as latin1 bytes, so anything beyond ASCII goes as a JSON escape, which the server decodes.
      const body = JSON.stringify(message).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
      await raw(
        mcpOrigin,
        `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer mcp_user\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    }
    // C1 controls (bytes 0x85 and 0x9b, a CSI) in a REST path: refused by the parser or logged escaped.
    await raw(rest.url, `GET /v1/brands/\u0085\u009b31m HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer test_team_a\r\nConnection: close\r\n\r\n`);
    await expect.poll(() => lines.length - from).toBeGreaterThanOrEqual(2);
    const logged = lines.slice(from);
    for (const line of logged) expect(printable(line), line).toBe(line);
    expect(logged.some((l) => l.includes(printable(evil.slice(0, 80))))).toBe(true);
  });
});
