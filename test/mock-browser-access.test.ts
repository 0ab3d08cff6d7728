// CORS on both stateful mocks and the MCP endpoint's Origin/Host check (DNS-rebinding protection), over real
// HTTP with the headers a browser sends. The real-browser run is in mock-browser.test.ts.
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBrowserAccess, isLoopbackHostname } from "../mock/browser-access.js";
import { startMcpMock, type McpMock } from "../mock/mcp/server.js";
import { startRestMock, type RestMock } from "../mock/rest/server.js";

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One request with exactly these headers (fetch would not let a test set Origin or Host). */
function send(url: URL, method: string, headers: Record<string, string>, body?: string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (text += c));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

const page = "http://localhost:5173";
const preflight = (origin: string, requestHeaders: string) => ({
  origin,
  "access-control-request-method": "POST",
  "access-control-request-headers": requestHeaders,
});
const initialize = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "page", version: "1" } },
});
const mcpHeaders = { authorization: "Bearer mcp_user", "content-type": "application/json", accept: "application/json, text/event-stream" };

describe("loopback names", () => {
  it("are localhost, *.localhost, 127.0.0.0/8 and ::1", () => {
    for (const h of ["localhost", "app.localhost", "127.0.0.1", "127.1.2.3", "[::1]", "::1"]) expect(isLoopbackHostname(h), h).toBe(true);
    for (const h of ["example.com", "localhost.evil.com", "10.0.0.1", "128.0.0.1", "0.0.0.0"]) expect(isLoopbackHostname(h), h).toBe(false);
  });

  it("an allow-list adds to the loopback origins; * allows any origin", () => {
    const listed = createBrowserAccess({ allowedOrigins: ["https://app.example.com"] });
    expect(listed.originAllowed("https://app.example.com")).toBe(true);
    expect(listed.originAllowed(page)).toBe(true);
    expect(listed.originAllowed("https://other.example.com")).toBe(false);
    expect(createBrowserAccess({ allowedOrigins: ["*"] }).originAllowed("https://anything.example")).toBe(true);
    expect(createBrowserAccess().originAllowed("null")).toBe(false);
    expect(createBrowserAccess({ allowedHosts: ["mock.test"] }).hostAllowed("mock.test:4012")).toBe(true);
    expect(createBrowserAccess({ allowedHosts: ["mock.test"] }).hostAllowed("127.0.0.1:4012")).toBe(false);
  });
});

describe("REST reference CORS", () => {
  let rest: RestMock;
  beforeAll(async () => {
    rest = await startRestMock({ port: 0 });
  });
  afterAll(() => rest.stop());

  it("answers a loopback page's preflight with the methods and headers it needs", async () => {
    const r = await send(new URL("v1/brands", rest.url), "OPTIONS", preflight(page, "authorization, content-type"));
    expect(r.status).toBe(204);
    expect(r.headers["access-control-allow-origin"]).toBe(page);
    expect(r.headers["access-control-allow-methods"]).toMatch(/POST/);
    expect(r.headers["access-control-allow-methods"]).toMatch(/PATCH/);
    const allowed = r.headers["access-control-allow-headers"]!.split(/,\s*/);
    for (const h of ["authorization", "content-type", "mcp-session-id", "mcp-protocol-version"]) expect(allowed).toContain(h);
  });

  it("lets the page read answers and Retry-After; a foreign origin gets no CORS headers", async () => {
    const own = await send(new URL("v1/brands/brand_x", rest.url), "GET", { origin: page });
    expect(own.status).toBe(401);
    expect(own.headers["access-control-allow-origin"]).toBe(page);
    expect(own.headers.vary).toMatch(/Origin/);
    expect(own.headers["access-control-expose-headers"]).toMatch(/Retry-After/);
    expect(own.headers["access-control-expose-headers"]).toMatch(/WWW-Authenticate/);
    const foreign = await send(new URL("v1/brands/brand_x", rest.url), "GET", { origin: "https://evil.example" });
    expect(foreign.headers["access-control-allow-origin"]).toBeUndefined();
    expect(JSON.parse(foreign.body).error.type).toBe("authentication_error");
  });

  it("still answers OPTIONS that is not a preflight 405", async () => {
    const r = await send(new URL("v1/brands", rest.url), "OPTIONS", {});
    expect(r.status).toBe(405);
  });

  it("refuses a foreign origin's preflight with a CORS hint, not the API's method rules", async () => {
    const r = await send(new URL("v1/brands", rest.url), "OPTIONS", preflight("https://evil.example", "authorization"));
    expect(r.status).toBe(403);
    expect(r.headers["access-control-allow-origin"]).toBeUndefined();
    const error = JSON.parse(r.body).error;
    expect(error).toMatchObject({ type: "permission_error", code: "origin_not_allowed" });
    expect(error.message).toContain('--allow-origin "https://evil.example"');
    expect(error.message).toMatch(/^CORS: /);
    expect(error.message).not.toMatch(/use (GET|POST)/);
  });

  it("takes more origins, the loopback ones still allowed", async () => {
    const listed = await startRestMock({ port: 0, browser: { allowedOrigins: ["https://app.example.com"] } });
    try {
      const ok = await send(new URL("v1/brands", listed.url), "OPTIONS", preflight("https://app.example.com", "authorization"));
      expect(ok.headers["access-control-allow-origin"]).toBe("https://app.example.com");
      const loop = await send(new URL("v1/brands", listed.url), "OPTIONS", preflight(page, "authorization"));
      expect(loop.status).toBe(204);
      expect(loop.headers["access-control-allow-origin"]).toBe(page);
    } finally {
      await listed.stop();
    }
  });
});

describe("MCP gateway mock: CORS and DNS-rebinding protection", () => {
  let mcp: McpMock;
  beforeAll(async () => {
    mcp = await startMcpMock({ port: 0 });
  });
  afterAll(() => mcp.stop());

  it("answers a loopback page's preflight, and initialize with readable headers", async () => {
    const pre = await send(mcp.url, "OPTIONS", preflight(page, "authorization, content-type, mcp-protocol-version, mcp-session-id"));
    expect(pre.status).toBe(204);
    expect(pre.headers["access-control-allow-origin"]).toBe(page);
    for (const h of ["authorization", "mcp-session-id", "mcp-protocol-version"]) expect(pre.headers["access-control-allow-headers"]).toContain(h);
    const r = await send(mcp.url, "POST", { ...mcpHeaders, origin: page }, initialize);
    expect(r.status).toBe(200);
    expect(r.headers["access-control-allow-origin"]).toBe(page);
    expect(r.headers["access-control-expose-headers"]).toMatch(/Mcp-Session-Id/);
    expect(JSON.parse(r.body).result.serverInfo.name).toBeTruthy();
  });

  it("refuses a foreign Origin with 403 before anything runs, also a preflight", async () => {
    for (const [method, headers] of [
      ["POST", { ...mcpHeaders, origin: "https://evil.example" }],
      ["OPTIONS", preflight("https://evil.example", "authorization")],
      ["POST", { ...mcpHeaders, origin: "null" }],
    ] as const) {
      const r = await send(mcp.url, method, headers, method === "POST" ? initialize : undefined);
      expect(r.status, `${method} ${headers.origin}`).toBe(403);
      expect(JSON.parse(r.body)).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32000 } });
      expect(r.headers["access-control-allow-origin"]).toBeUndefined();
      // The preflight says what to do about it.
      if (method === "OPTIONS") expect(JSON.parse(r.body).error.message).toContain('--allow-origin "https://evil.example"');
    }
  });

  it("refuses a foreign Host (a rebound domain name) with 403, with or without a token", async () => {
    for (const headers of [{ ...mcpHeaders, host: "evil.example:80" }, { host: "rebind.attacker.test" }]) {
      const r = await send(mcp.url, "POST", headers, initialize);
      expect(r.status).toBe(403);
      expect(JSON.parse(r.body).error.message).toMatch(/Host/);
    }
    const local = await send(mcp.url, "POST", { ...mcpHeaders, host: `localhost:${mcp.url.port}` }, initialize);
    expect(local.status).toBe(200);
  });

  it("takes a configured allow-list of origins and hosts", async () => {
    const listed = await startMcpMock({ port: 0, browser: { allowedOrigins: ["https://app.example.com"], allowedHosts: ["mcp.internal"] } });
    try {
      const ok = await send(listed.url, "POST", { ...mcpHeaders, origin: "https://app.example.com", host: "mcp.internal" }, initialize);
      expect(ok.status).toBe(200);
      expect((await send(listed.url, "POST", { ...mcpHeaders, origin: page, host: "mcp.internal" }, initialize)).status).toBe(200);
      expect((await send(listed.url, "POST", { ...mcpHeaders, origin: "https://other.example.com", host: "mcp.internal" }, initialize)).status).toBe(403);
      expect((await send(listed.url, "POST", { ...mcpHeaders, host: `127.0.0.1:${listed.url.port}` }, initialize)).status).toBe(403);
    } finally {
      await listed.stop();
    }
  });
});
