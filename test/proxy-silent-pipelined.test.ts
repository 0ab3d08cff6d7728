// Two client behaviours the proxy's two paths (the byte-level fast path and node:http's) must treat as the
// services it fronts do: a connection that sends nothing (or half a head) is answered 408 in the protocol's error
// shape after the header timeout, as node:http and the mocks answer it (a short configured timeout, no clock read);
// and a client that pipelines requests and leaves gets every one of them recorded, forwarded or as its own fault.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { startMcpMock } from "../mock/mcp/server.js";
import { startRestMock } from "../mock/rest/server.js";
import type { ProxyReport } from "../proxy/recorder.js";
import { startProxy, type RunningProxy } from "../proxy/server.js";
import { rawExchange } from "./support/raw-exchange.js";

const stops: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const stop of stops.reverse()) await Promise.resolve(stop()).catch(() => {});
});

/** Status line and JSON body of a raw answer. */
function parsed(raw: string): { status: number; body: unknown } {
  const end = raw.indexOf("\r\n\r\n");
  return { status: Number(raw.slice(9, 12)), body: end < 0 || end + 4 === raw.length ? undefined : JSON.parse(raw.slice(end + 4)) };
}

/** What tells two error answers apart: REST's type and code, JSON-RPC's code (the proxy's message names the proxy). */
const shape = (body: unknown) => {
  const b = body as { error?: { type?: string; code?: unknown }; jsonrpc?: string };
  return { jsonrpc: b?.jsonrpc, type: b?.error?.type, code: b?.error?.code };
};

const limits = { headersTimeoutMs: 200, requestTimeoutMs: 200 };

describe("a connection that sends nothing in time", () => {
  it("is answered 408 in the protocol's shape on both paths, as the mocks answer it, and is the client's fault", async () => {
    const rest = await startRestMock({ limits });
    stops.push(() => rest.stop());
    const mcp = await startMcpMock({ limits });
    stops.push(() => mcp.stop());
    const restUpstream = rest.url.href.replace(/v1\/?$/, "");
    for (const fastPath of [true, false]) {
      const proxy = await startProxy({ restUpstream, mcpUpstream: mcp.url.href, fastPath, limits });
      stops.push(() => proxy.stop());
      for (const [name, mockPort, proxyPort] of [
        ["REST", Number(rest.url.port), Number(proxy.restUrl!.port)],
        ["MCP", Number(mcp.url.port), Number(proxy.mcpUrl!.port)],
      ] as const)
        for (const bytes of ["", "GET /v1/brands/brand_x HTTP/1.1\r\nHo"]) {
          const what = `${name}, fast path ${fastPath}, ${bytes ? "half a head" : "nothing"}`;
          const [direct, proxied] = await Promise.all([rawExchange(mockPort, bytes), rawExchange(proxyPort, bytes)]);
          const [d, p] = [parsed(direct), parsed(proxied)];
          expect(d.status, what).toBe(408);
          expect(p.status, `${what}: ${proxied}`).toBe(d.status);
          expect(shape(p.body), what).toEqual(shape(d.body));
          expect(proxied, what).toMatch(/\r\nConnection: close\r\n/);
        }
      const report = proxy.report();
      expect(report.clientFaults.byKind.map((k) => [k.kind, k.count]), `fast path ${fastPath}`).toEqual([["slow", 4]]);
      expect(report.violations + report.noAnswer.count, `fast path ${fastPath}`).toBe(0);
    }
  });
});

/** An upstream that answers every request at once (`answer`), or never. */
async function upstream(answer: boolean): Promise<string> {
  const server = http.createServer((req, res) => {
    req.resume();
    if (answer) res.writeHead(200, { "content-type": "application/json" }).end("{}");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  stops.push(() => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

/**
 * The proxy's report once it has recorded what the client's leaving left: `n` exchanges and `faults` client
 * faults, or whatever it has recorded by then. The proxy learns of the leaving from the close the client saw
 * (rawExchange resolves on it: the proxy ends or closes the connection as it takes the leaving in), so what it
 * records of it follows within a few turns of the event loop, however busy the machine; a proxy that never
 * records it is asserted on at once, with what it did record (no clock read, no waiting for a timeout).
 */
async function recorded(proxy: RunningProxy, n: number, faults: number): Promise<ProxyReport> {
  for (let turn = 0; turn < 100; turn++) {
    await proxy.settled();
    const r = proxy.report();
    if (r.exchanges.rest >= n && r.clientFaults.count >= faults) return r;
    await new Promise((resolve) => setImmediate(resolve));
  }
  return proxy.report();
}

const get = (i: number) => `GET /v1/brands/brand_${i} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer t\r\n\r\n`;

describe("a client that pipelines requests and leaves", () => {
  it("has each request forwarded and recorded, or recorded as its fault, on both paths: none vanishes", async () => {
    for (const answer of [false, true]) {
      const base = await upstream(answer);
      for (const fastPath of [true, false]) {
        const what = `upstream ${answer ? "answers" : "never answers"}, fast path ${fastPath}`;
        const proxy = await startProxy({ restUpstream: base, fastPath });
        stops.push(() => proxy.stop());
        await rawExchange(Number(proxy.restUrl!.port), get(1) + get(2) + get(3), { leave: true });
        // An upstream that never answers: all three are the client's leaving; one that answers: some may be answered first.
        const r = await recorded(proxy, 3, answer ? 0 : 3);
        expect(r.exchanges.rest, what).toBe(3);
        expect(r.noAnswer.count + r.unjudged.count + r.violations, what).toBe(0);
        if (!answer) expect(r.clientFaults.byKind.map((k) => [k.kind, k.count]), what).toEqual([["went away", 3]]);
        else expect(r.clientFaults.byKind.every((k) => k.kind === "went away"), what).toBe(true);
      }
    }
  });

  it("records what it sent after them that is no whole request as its fault too", async () => {
    const base = await upstream(false);
    for (const fastPath of [true, false]) {
      const proxy = await startProxy({ restUpstream: base, fastPath });
      stops.push(() => proxy.stop());
      await rawExchange(Number(proxy.restUrl!.port), `${get(1)}${get(2)}GET /v1/brands/brand_3 HTTP/1.1\r\nHost: 12`, { leave: true });
      const r = await recorded(proxy, 2, 3);
      expect(r.exchanges.rest, `fast path ${fastPath}`).toBe(2);
      expect(r.clientFaults.count, `fast path ${fastPath}`).toBe(3);
      expect(r.noAnswer.count + r.violations, `fast path ${fastPath}`).toBe(0);
    }
  });
});
