// Protocol edges, the same from the mocks and through the proxy: an absolute-form request target (RFC 9112
// §3.2.2: a server MUST accept it), the asterisk form (`OPTIONS *`, §3.2.4), the proxy's cap on client
// connections (one too many is answered 503 in the protocol's shape, never dropped or crashed), and judging off
// the forwarding path (a full judge backlog leaves exchanges unjudged and says so, never ✓).
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMcpMock, type McpMock } from "../mock/mcp/server.js";
import { startRestMock, type RestMock } from "../mock/rest/server.js";
import { summaryLine } from "../proxy/output.js";
import { startProxy, type ExchangeEvent, type ProxyOptions, type RunningProxy } from "../proxy/server.js";
import { hangGuardMs } from "./support/hang-guard.js";

let rest: RestMock;
let mcp: McpMock;
let proxy: RunningProxy;
const events: ExchangeEvent[] = [];
let brandId: string;

beforeAll(async () => {
  rest = await startRestMock({ port: 0, seed: "proxy-edges" });
  mcp = await startMcpMock({ port: 0 });
  proxy = await startProxy({ restUpstream: rest.url.href, mcpUpstream: mcp.url.href, onExchange: (e) => events.push(e) });
  const created = await fetch(new URL("v1/brands", new URL(rest.url.origin)), {
    method: "POST",
    headers: { authorization: "Bearer test_team_a", "content-type": "application/json" },
    body: JSON.stringify({ website: "https://www.harbourloaf.ie" }),
  });
  brandId = ((await created.json()) as { id: string }).id;
}, hangGuardMs);
afterAll(async () => {
  await proxy?.stop();
  await rest?.stop();
  await mcp?.stop();
});

interface Raw {
  status: number;
  head: string;
  text: string;
}

/** One request on its own connection (Connection: close), read until the server closes it. */
function raw(port: string | number, request: string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), "127.0.0.1");
    let text = "";
    socket.setEncoding("latin1");
    socket.on("data", (d: string) => (text += d));
    socket.on("error", reject);
    socket.on("close", () => {
      const at = text.indexOf("\r\n\r\n");
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), head: text.slice(0, at), text: text.slice(at + 4) });
    });
    socket.write(request, "latin1");
  });
}

const header = (r: Raw, name: string) => new RegExp(`\\r\\n${name}: ([^\\r]*)`, "i").exec(r.head)?.[1];

describe("an absolute-form request target is served as its origin form", () => {
  it("REST: the mock and the proxy answer GET http://host/v1/brands/{id} as GET /v1/brands/{id}", async () => {
    const ask = (port: string, target: string) =>
      raw(port, `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer test_team_a\r\nConnection: close\r\n\r\n`);
    const origin = await ask(rest.url.port, `/v1/brands/${brandId}`);
    expect(origin.status).toBe(200);
    for (const port of [rest.url.port, proxy.restUrl!.port]) {
      const absolute = await ask(port, `http://127.0.0.1:${port}/v1/brands/${brandId}`);
      expect(absolute.status, absolute.text).toBe(200);
      expect(JSON.parse(absolute.text).id).toBe(brandId);
    }
    await proxy.settled();
    // Judged as the service routed it: by its path, no violation.
    const e = events.filter((x) => x.exchange.protocol === "rest").at(-1)!;
    expect(e.verdict.label).toBe(`GET /v1/brands/${brandId}`);
    expect(e.violations).toEqual([]);
    expect(e.line.endsWith("✓")).toBe(true);
  });

  it("MCP: the mock checks the target's authority, not Host, and serves /mcp by it", async () => {
    const port = mcp.url.port;
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" });
    const post = (target: string) =>
      raw(port, `POST ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer mcp_user\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`);
    const ok = await post(`http://127.0.0.1:${port}/mcp`);
    expect(ok.status, ok.text).toBe(200);
    expect(JSON.parse(ok.text)).toMatchObject({ jsonrpc: "2.0", id: 1, result: {} });
    // A foreign host in the target is refused even with a loopback Host (DNS-rebinding protection holds).
    const foreign = await post(`http://evil.example:${port}/mcp`);
    expect(foreign.status).toBe(403);
    expect(JSON.parse(foreign.text)).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32000 } });
  });
});

describe("the asterisk form", () => {
  const targets = () => [
    { name: "REST mock", port: rest.url.port, allow: "GET, POST, PATCH, DELETE, OPTIONS" },
    { name: "REST through the proxy", port: proxy.restUrl!.port, allow: "GET, POST, PATCH, DELETE, OPTIONS" },
    { name: "MCP mock", port: mcp.url.port, allow: "GET, POST, DELETE, OPTIONS" },
    { name: "MCP through the proxy", port: proxy.mcpUrl!.port, allow: "GET, POST, DELETE, OPTIONS" },
  ];

  it("OPTIONS * is answered 204 with the server's methods, by each mock and by the proxy in front of it", async () => {
    for (const t of targets()) {
      const r = await raw(t.port, `OPTIONS * HTTP/1.1\r\nHost: 127.0.0.1:${t.port}\r\nConnection: close\r\n\r\n`);
      expect([t.name, r.status, header(r, "allow")]).toEqual([t.name, 204, t.allow]);
    }
  });

  it("any other method with * is refused 400 with a body in the protocol's shape, by each", async () => {
    for (const t of targets()) {
      const r = await raw(t.port, `GET * HTTP/1.1\r\nHost: 127.0.0.1:${t.port}\r\nConnection: close\r\n\r\n`);
      expect([t.name, r.status]).toEqual([t.name, 400]);
      expect(JSON.stringify(JSON.parse(r.text)), t.name).toMatch(/only for OPTIONS/);
    }
  });
});

describe("the proxy's cap on client connections", () => {
  it("answers one connection too many 503 in the protocol's shape and goes on serving the others", async () => {
    const capped = await startProxy({ restUpstream: rest.url.href, maxConnections: 2 });
    const held: net.Socket[] = [];
    try {
      const port = Number(capped.restUrl!.port);
      // Two kept-alive connections, each proven served (an answer read), so both count against the cap.
      const serve = (socket: net.Socket) =>
        new Promise<string>((resolve, reject) => {
          let text = "";
          const onData = (d: Buffer) => {
            text += d.toString("latin1");
            const at = text.indexOf("\r\n\r\n");
            const length = Number(/\r\ncontent-length: (\d+)/i.exec(text)?.[1] ?? -1);
            if (at >= 0 && length >= 0 && text.length >= at + 4 + length) {
              socket.off("data", onData);
              resolve(text);
            }
          };
          socket.on("data", onData);
          socket.once("error", reject);
          socket.write(`GET /v1/brands/${brandId} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer test_team_a\r\n\r\n`);
        });
      for (let i = 0; i < 2; i++) {
        const s = net.connect(port, "127.0.0.1");
        held.push(s);
        expect(await serve(s)).toMatch(/^HTTP\/1\.1 200/);
      }
      const third = await raw(port, `GET /v1/brands/${brandId} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer test_team_a\r\nConnection: close\r\n\r\n`);
      expect(third.status).toBe(503);
      expect(JSON.parse(third.text).error).toMatchObject({ code: "too_many_connections", message: expect.stringContaining("more than 2 connections") });
      // The held connections are still served.
      expect(await serve(held[0]!)).toMatch(/^HTTP\/1\.1 200/);
      expect(capped.report().clientFaults.byKind.find((k) => k.kind === "too many connections")?.count).toBe(1);
    } finally {
      for (const s of held) s.destroy();
      await capped.stop();
    }
  });

  it("refuses a cap that is not a whole number ≥ 1", async () => {
    await expect(startProxy({ restUpstream: rest.url.href, maxConnections: 0 })).rejects.toThrow(/maxConnections/);
  });
});

describe("judging off the forwarding path", () => {
  const get = (p: RunningProxy) => fetch(new URL(`v1/brands/${brandId}`, p.restUrl), { headers: { authorization: "Bearer test_team_a" } });
  /** An invalid request (count above the seed's maximum): a client violation every judge must find. */
  const invalid = (p: RunningProxy) =>
    fetch(new URL("v1/ideas", p.restUrl), { method: "POST", headers: { authorization: "Bearer test_team_a", "content-type": "application/json" }, body: JSON.stringify({ brand: brandId, count: 11 }) });

  async function watched(options: Partial<ProxyOptions>) {
    const seen: ExchangeEvent[] = [];
    const p = await startProxy({ restUpstream: rest.url.href, ...options, onExchange: (e) => seen.push(e) });
    return { p, seen };
  }

  it("judges in a worker thread, with the same verdicts as in the proxy's own thread", async () => {
    const worker = await watched({ judgeWorker: true });
    const inline = await watched({});
    try {
      expect(worker.p.judgeMode()).toBe("worker");
      expect(inline.p.judgeMode()).toBe("inline");
      for (const w of [worker, inline]) {
        expect((await get(w.p)).status).toBe(200);
        expect((await invalid(w.p)).status).toBe(400);
        await w.p.settled();
      }
      const verdicts = (seen: ExchangeEvent[]) => seen.map((e) => ({ label: e.verdict.label, outcome: e.verdict.outcome, violations: e.violations.map((v) => [v.rules, v.side, v.reason]) }));
      expect(verdicts(worker.seen)).toHaveLength(2);
      expect(verdicts(worker.seen)[1]!.violations.length).toBeGreaterThan(0);
      expect(verdicts(worker.seen)).toEqual(verdicts(inline.seen));
    } finally {
      await worker.p.stop();
      await inline.p.stop();
    }
  });

  it("with the judge's backlog full, forwards every exchange and records it unjudged, never ✓", async () => {
    const full = await watched({ judgeBacklog: 0 });
    try {
      const direct = await (await fetch(new URL(`v1/brands/${brandId}`, new URL(rest.url.origin)), { headers: { authorization: "Bearer test_team_a" } })).text();
      const proxied = await get(full.p);
      expect(proxied.status).toBe(200);
      expect(await proxied.text()).toBe(direct);
      expect((await invalid(full.p)).status).toBe(400);
      await full.p.settled();
      expect(full.seen).toHaveLength(2);
      for (const e of full.seen) {
        expect(e.verdict.unjudged).toMatch(/^judge backlog full/);
        expect(e.line).toContain("unjudged: judge backlog full");
        expect(e.line.endsWith("✓")).toBe(false);
      }
      const report = full.p.report();
      expect(report.unjudged).toMatchObject({ count: 2, byKind: [{ kind: "judge backlog full", count: 2 }] });
      expect(summaryLine(report)).toContain("2 unjudged (judge backlog full ×2)");
    } finally {
      await full.p.stop();
    }
  });
});
