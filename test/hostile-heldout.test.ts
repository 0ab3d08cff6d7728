// Hostile cases beyond those issue 28 listed, over raw sockets against both mocks directly and through the
// proxy in front of them: a CONNECT, a repeat hidden after 2000 filler headers, a transfer coding other than
// chunked, folded headers, chunk extensions and trailers, Expect: 100-continue, HEAD and OPTIONS on every route,
// credentials in a query or an absolute-form target's user info. Every refusal has a body in the protocol's
// shape, nothing answers 5xx or hangs, the proxy keeps what the service would refuse refused, and no credential
// reaches a log line or a report.
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operations } from "../conformance/suites/rest/contract.js";
import { startMcpMock, type McpMock } from "../mock/mcp/server.js";
import { startRestMock, type RestMock } from "../mock/rest/server.js";
import { jsonReport, markdownReport, summaryLine } from "../proxy/output.js";
import { startProxy, type ExchangeEvent, type RunningProxy } from "../proxy/server.js";
import { at } from "./support/json.js";

const logs: string[] = [];
const events: ExchangeEvent[] = [];
let rest: RestMock;
let mcp: McpMock;
let proxy: RunningProxy;
beforeAll(async () => {
  rest = await startRestMock({ port: 0, log: (l) => logs.push(l) });
  mcp = await startMcpMock({ port: 0, log: (l) => logs.push(l) });
  proxy = await startProxy({ restUpstream: rest.url.href, mcpUpstream: mcp.url.href, onExchange: (e) => events.push(e) });
});
afterAll(async () => {
  await proxy?.stop();
  await rest?.stop();
  await mcp?.stop();
});

/** Raw bytes on a fresh socket; resolves with the last answer's status and body once the server closes it. */
function raw(port: number, bytes: string): Promise<{ status: number; statuses: number[]; body: unknown; text: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    socket.on("data", (c: Buffer) => chunks.push(c));
    socket.on("error", (err) => (chunks.length ? undefined : reject(err)));
    socket.on("close", () => {
      const all = Buffer.concat(chunks).toString("utf8");
      const statuses = [...all.matchAll(/(?:^|\r\n)HTTP\/1\.1 (\d{3})/g)].map((m) => Number(m[1]));
      const last = all.lastIndexOf("HTTP/1.1 ");
      const text = all.slice(all.indexOf("\r\n\r\n", last) + 4);
      let body: unknown = null;
      try {
        body = JSON.parse(text);
      } catch {
        /* left null: the test says what it expected */
      }
      resolve({ status: statuses.at(-1) ?? 0, statuses, body, text });
    });
    socket.write(bytes, "latin1");
  });
}

interface Door {
  name: string;
  port: () => number;
  path: string;
  auth: string;
  /** The protocol's error shape (REST envelope; a JSON-RPC error or the gateway's OAuth-style error for MCP). */
  shape(body: unknown): void;
}
const restShape = (b: unknown) => expect(at(b, "error")).toMatchObject({ type: expect.any(String), code: expect.any(String), message: expect.any(String) });
const mcpShape = (b: unknown) => expect(typeof at(b, "error", "code") === "number" || typeof at(b, "error_description") === "string", JSON.stringify(b)).toBe(true);
const doors = (): Door[] => [
  { name: "REST mock", port: () => Number(rest.url.port), path: "/v1/brands/brand_x", auth: "Bearer test_team_a", shape: restShape },
  { name: "REST via proxy", port: () => Number(proxy.restUrl!.port), path: "/v1/brands/brand_x", auth: "Bearer test_team_a", shape: restShape },
  { name: "MCP mock", port: () => Number(new URL(mcp.url).port), path: "/mcp", auth: "Bearer mcp_user", shape: mcpShape },
  { name: "MCP via proxy", port: () => Number(proxy.mcpUrl!.port), path: "/mcp", auth: "Bearer mcp_user", shape: mcpShape },
];
const json = 'Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n';
const rpc = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} });

describe("held-out hostile HTTP, against the mocks and through the proxy", () => {
  it("a CONNECT is refused 405 with a body, never dropped unanswered", async () => {
    for (const d of doors()) {
      const r = await raw(d.port(), `CONNECT 127.0.0.1:${d.port()} HTTP/1.1\r\nHost: 127.0.0.1:${d.port()}\r\n\r\n`);
      expect(r.status, `${d.name}: ${r.text}`).toBe(405);
      d.shape(r.body);
    }
  });

  it("a repeated Authorization after 2000 filler headers is still seen and refused (Node reads only 2000 by default)", async () => {
    for (const d of doors()) {
      const body = d.path === "/mcp" ? rpc : "";
      const method = d.path === "/mcp" ? "POST" : "GET";
      const r = await raw(
        d.port(),
        `${method} ${d.path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${"a:b\r\n".repeat(2100)}Authorization: ${d.auth}\r\nAuthorization: Bearer other\r\n${json}Content-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
      );
      expect(r.status, `${d.name}: ${r.text}`).toBe(400);
      d.shape(r.body);
    }
  });

  it("a transfer coding other than chunked is refused 415 (never forwarded as a plain body)", async () => {
    for (const d of doors()) {
      const r = await raw(d.port(), `POST ${d.path === "/mcp" ? d.path : "/v1/brands"} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${d.auth}\r\n${json}Transfer-Encoding: gzip, chunked\r\nConnection: close\r\n\r\n2\r\n{}\r\n0\r\n\r\n`);
      expect(r.status, `${d.name}: ${r.text}`).toBe(415);
      d.shape(r.body);
    }
  });

  it("a folded header is refused 400 with a body; chunk extensions and trailers are read as the body they frame", async () => {
    for (const d of doors()) {
      const folded = await raw(d.port(), `GET ${d.path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${d.auth}\r\nX-A: a\r\n b\r\nConnection: close\r\n\r\n`);
      expect(folded.status, `${d.name}: ${folded.text}`).toBe(400);
      d.shape(folded.body);
      const framed = await raw(
        d.port(),
        `POST ${d.path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${d.auth}\r\n${json}Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n${rpc.length.toString(16)};ext=1;x="y"\r\n${rpc}\r\n0\r\nX-Trailer: tok_SECRET_never_a_header\r\n\r\n`,
      );
      expect(framed.status, `${d.name}: ${framed.text}`).toBeLessThan(500);
      expect(framed.text.length, d.name).toBeGreaterThan(0);
    }
  });

  it("Expect: 100-continue gets 100 and then the answer; HEAD and OPTIONS on every route answer without 5xx (bodies on refusals)", async () => {
    for (const d of doors()) {
      const r = await raw(d.port(), `POST ${d.path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${d.auth}\r\n${json}Expect: 100-continue\r\nContent-Length: ${rpc.length}\r\nConnection: close\r\n\r\n${rpc}`);
      expect(r.statuses[0], `${d.name}: ${r.text}`).toBe(100);
      expect(r.status, `${d.name}: ${r.text}`).toBeLessThan(500);
    }
    const paths = [...new Set(Object.values(operations).map((o) => o.template.replace(/\{[^}]+\}/g, "x_1")))];
    for (const d of doors()) {
      for (const path of d.path === "/mcp" ? ["/mcp", "/.well-known/oauth-protected-resource", "/nowhere"] : [...paths, "/nowhere"]) {
        for (const method of ["HEAD", "OPTIONS"]) {
          const r = await raw(d.port(), `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${d.auth}\r\nConnection: close\r\n\r\n`);
          expect(r.status, `${d.name} ${method} ${path}: ${r.text}`).toBeGreaterThanOrEqual(200);
          expect(r.status, `${d.name} ${method} ${path}`).toBeLessThan(500);
          if (method === "HEAD") expect(r.text, `${d.name} HEAD ${path} has no body`).toBe("");
          else if (r.status >= 400) d.shape(r.body);
        }
      }
    }
  });

  it("credentials in a query or in an absolute-form target's user info reach no log line and no report", async () => {
    const secrets = ["tok_SECRET_query_access_1", "tok_SECRET_query_apikey_2", "tok_SECRET_userinfo_3"];
    for (const d of doors()) {
      await raw(d.port(), `GET ${d.path}?access_token=${secrets[0]}&api_key=${secrets[1]} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${d.auth}\r\nConnection: close\r\n\r\n`);
      await raw(d.port(), `GET http://partner:${secrets[2]}@127.0.0.1:${d.port()}${d.path} HTTP/1.1\r\nHost: 127.0.0.1:${d.port()}\r\nAuthorization: ${d.auth}\r\nConnection: close\r\n\r\n`);
    }
    await expect.poll(() => events.length).toBeGreaterThanOrEqual(4);
    const report = proxy.report();
    const outputs = [...logs, ...events.map((e) => e.line), jsonReport(report), markdownReport(report), summaryLine(report), JSON.stringify(events.map((e) => e.violations))].join("\n");
    for (const s of secrets) expect(outputs, s).not.toContain(s);
    expect(outputs).not.toContain("tok_SECRET");
  });
});
