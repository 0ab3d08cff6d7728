// How the proxy carries traffic: an event stream reaches the client event by event and byte for byte (and its
// `data:` messages are judged), HTTPS upstreams with --insecure or a CA file, an unreachable upstream answered in
// each protocol's error shape, a body longer than the judged copy forwarded whole, and Prism behind the proxy.
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startPrism } from "../mock/prism.js";
import { startRestMock } from "../mock/rest/server.js";
import { startProxy, type ExchangeEvent } from "../proxy/server.js";
import { track } from "./support/children.js";
import { hangGuardMs } from "./support/hang-guard.js";

const stops: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const stop of stops.reverse()) await stop();
});

async function listen(handler: http.RequestListener): Promise<URL> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  stops.push(() => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve()))));
  return new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
}

async function proxied(options: Parameters<typeof startProxy>[0]) {
  const events: ExchangeEvent[] = [];
  const waiting = new Set<() => void>();
  const proxy = await startProxy({ ...options, onExchange: (e) => (events.push(e), waiting.forEach((w) => w())) });
  stops.push(() => proxy.stop());
  /**
   * Resolves once `n` exchanges were judged (judging follows the answer's end, after the client has it). Waits as
   * long as it takes: a proxy that never judges fails by the test's timeout, not by a count of polls.
   */
  const judged = (n: number) =>
    new Promise<void>((resolve) => {
      const look = () => events.length >= n && (waiting.delete(look), resolve());
      waiting.add(look);
      look();
    });
  return { proxy, events, judged };
}

describe("event streams", () => {
  it("reach the client event by event, unchanged, and their messages are judged", async () => {
    // The upstream sends a progress event, then holds the stream open until the client has seen it through the
    // proxy: a proxy that buffered the stream would never let the client see it, and the test would hang.
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    const result = { content: [{ type: "text", text: '{"workspaces":[],"totalCount":0,"truncated":false,"needsUserChoice":false}' }], structuredContent: { data: { workspaces: [], totalCount: 0, truncated: false, needsUserChoice: true } } };
    const first = `event: message\ndata: ${JSON.stringify({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 1, progress: 1 } })}\n\n`;
    const second = `event: message\ndata: ${JSON.stringify({ jsonrpc: "2.0", id: 7, result })}\n\n`;
    const upstream = await listen(async (req, res) => {
      req.resume();
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      res.write(first);
      await released;
      res.end(second);
    });
    const { proxy, events, judged } = await proxied({ mcpUpstream: new URL("mcp", upstream).href });
    const res = await fetch(proxy.mcpUrl!, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: "Bearer sse-token-123" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "get_workspaces", arguments: {} } }),
    });
    expect(res.headers.get("content-type")).toBe("text/event-stream");
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    while (!text.includes("\n\n")) text += decoder.decode((await reader.read()).value, { stream: true });
    expect(text).toBe(first);
    release();
    for (let r = await reader.read(); !r.done; r = await reader.read()) text += decoder.decode(r.value, { stream: true });
    expect(text).toBe(first + second);
    await judged(1);
    const rules = events[0]!.violations.flatMap((v) => v.rules);
    // structuredContent says needsUserChoice true with no match (the text says false): the mirror is broken, and so is the flag.
    expect(rules).toContain("text-mirrors-data/get_workspaces");
    expect(rules).toContain("workspaces-limit-truncated");
    expect(events[0]!.line).not.toContain("sse-token-123");
  });
});

describe("HTTPS upstreams", () => {
  it("are refused when untrusted, and work with --insecure or with the certificate as CA", async () => {
    const rest = await startRestMock({ https: true, timeScale: 0.001 });
    stops.push(() => rest.stop());
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "proxy-ca-"));
    stops.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
    const ca = path.join(dir, "ca.pem");
    fs.writeFileSync(ca, rest.certificate!);
    const get = (base: URL) => fetch(new URL("v1/brands/brand_nothingHere", base), { headers: { authorization: "Bearer test_team_a" } });

    const strict = await proxied({ restUpstream: rest.url.href });
    const refused = await get(strict.proxy.restUrl!);
    expect(refused.status).toBe(502);
    expect((await refused.json()).error).toMatchObject({ type: "server_error", code: "upstream_unreachable", param: null });

    for (const tls of [{ insecure: true }, { caFile: ca }]) {
      const { proxy, events, judged } = await proxied({ restUpstream: rest.url.href, tls });
      const res = await get(proxy.restUrl!);
      expect(res.status).toBe(404);
      await judged(1);
      expect(events[0]!.violations).toEqual([]);
    }
  });
});

describe("failures and limits", () => {
  it("answers an unreachable upstream in each protocol's error shape, without crashing", async () => {
    const gone = await listen((_req, res) => res.end());
    await stops.pop()!(); // close it: nothing listens on that port now
    const { proxy, events, judged } = await proxied({ restUpstream: gone.href, mcpUpstream: new URL("mcp", gone).href });
    const rest = await fetch(new URL("v1/brands/brand_x", proxy.restUrl!));
    expect(rest.status).toBe(502);
    expect((await rest.json()).error.type).toBe("server_error");
    const mcp = await fetch(proxy.mcpUrl!, { method: "POST", headers: { "content-type": "application/json" }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' });
    expect(mcp.status).toBe(502);
    expect(await mcp.json()).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32603 } });
    await judged(2);
    // A failed forward is a failure, never a pass.
    expect(events.every((e) => e.verdict.noAnswer?.includes("could not be reached") && e.line.includes("✗ no answer") && !e.line.includes("✓"))).toBe(true);
    expect(proxy.report().noAnswer.count).toBe(2);
  });

  it("sends a request again on a new connection when the upstream drops a kept-alive one before answering", async () => {
    // The upstream answers the first request of each connection and drops the connection on the second: what
    // a server closing an idle kept-alive connection as a request arrives looks like, made certain.
    const bodies: string[] = [];
    const upstream = await listen((req, res) => {
      const socket = req.socket as typeof req.socket & { served?: number };
      socket.served = (socket.served ?? 0) + 1;
      if (socket.served > 1) return void socket.destroy();
      let body = "";
      req.on("data", (c: Buffer) => (body += c));
      req.on("end", () => {
        bodies.push(body);
        res.writeHead(201, { "content-type": "application/json" }).end("{}");
      });
    });
    const { proxy } = await proxied({ restUpstream: upstream.href });
    for (const n of [1, 2]) {
      const res = await fetch(new URL("v1/brands", proxy.restUrl!), { method: "POST", headers: { "content-type": "application/json" }, body: `{"n":${n}}` });
      expect(res.status).toBe(201);
    }
    expect(bodies).toEqual(['{"n":1}', '{"n":2}']);
  });

  it("forwards a body longer than the judged copy whole, and says it was not judged", async () => {
    let received = 0;
    const upstream = await listen((req, res) => {
      req.on("data", (c: Buffer) => (received += c.length));
      req.on("end", () => res.writeHead(201, { "content-type": "application/json" }).end("{}"));
    });
    const { proxy, events, judged } = await proxied({ restUpstream: upstream.href, captureBytes: 1024 });
    const body = JSON.stringify({ name: "Harbour Loaf", description: "x".repeat(100_000) });
    const res = await fetch(new URL("v1/brands", proxy.restUrl!), { method: "POST", headers: { "content-type": "application/json", authorization: "Bearer t" }, body });
    expect(res.status).toBe(201);
    expect(received).toBe(Buffer.byteLength(body));
    await judged(1);
    expect(events[0]!.verdict.notes.join()).toContain("larger than the copy kept for judging");
  });
});

describe("Prism behind the proxy", () => {
  it("answers through the proxy as it answers directly, and each exchange is judged", async () => {
    const prism = await startPrism({ port: 0 });
    track(prism.process); // ended with the test process too (interrupted, killed), not only by afterAll
    stops.push(() => prism.stop());
    const { proxy, events, judged } = await proxied({ restUpstream: prism.url.href });
    const path = "v1/brands/brand_7Hq2LmX9c";
    const headers = { authorization: "Bearer prism-token" };
    const direct = await fetch(new URL(path, prism.url), { headers });
    const through = await fetch(new URL(path, proxy.restUrl!), { headers });
    expect(through.status).toBe(direct.status);
    expect(await through.text()).toBe(await direct.text());
    await judged(1);
    expect(events[0]!.verdict.label).toBe("GET /v1/brands/brand_7Hq2LmX9c");
    console.log(`Prism through the proxy: ${events[0]!.line}`);
  }, hangGuardMs);
});
