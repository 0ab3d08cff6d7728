// The proxy's forwarding when the upstream's connection goes away under a request, made deterministic with raw
// upstream servers that break the connection on purpose: an idempotent request (or any request on a reused
// connection, which the upstream never took) is sent once more on a new connection, whether the break shows as a
// reset or a broken pipe; a request that cannot be sent again is answered in the protocol's error envelope and
// reported as a failure of the service, never ✓; and an idle upstream connection is let go before the upstream
// closes it (the keep-alive race).
import http from "node:http";
import net from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { mayResend, upstreamIdleMs, upstreamOf } from "../proxy/forward.js";
import { serviceFailures } from "../proxy/output.js";
import { startProxy, type ExchangeEvent, type ProxyOptions, type RunningProxy } from "../proxy/server.js";

const stops: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const stop of stops.reverse()) await stop().catch(() => {});
});

/**
 * A raw HTTP/1.1 upstream: `onRequest` gets each request's head (and the socket's request count) once the head
 * has arrived, and answers on the socket or breaks it. Bodies are read and dropped.
 */
async function rawUpstream(onRequest: (head: string, socket: net.Socket, nth: number, total: number) => void): Promise<{ url: string; connections: () => number }> {
  let total = 0;
  let connections = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => {});
    let pending = "";
    let nth = 0;
    let skip = 0;
    socket.on("data", (chunk: Buffer) => {
      pending += chunk.toString("latin1");
      for (;;) {
        if (skip) {
          const n = Math.min(skip, pending.length);
          skip -= n;
          pending = pending.slice(n);
          if (skip) return;
        }
        const end = pending.indexOf("\r\n\r\n");
        if (end < 0) return;
        const head = pending.slice(0, end);
        pending = pending.slice(end + 4);
        skip = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
        onRequest(head, socket, ++nth, ++total);
        if (socket.destroyed) return;
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  stops.push(
    () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/mcp`, connections: () => connections };
}

const answer = (socket: net.Socket, body: string, keepAlive = "timeout=5") =>
  socket.write(`HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nKeep-Alive: ${keepAlive}\r\n\r\n${body}`);

async function watched(options: ProxyOptions): Promise<{ proxy: RunningProxy; events: ExchangeEvent[]; judged(n: number): Promise<void> }> {
  const events: ExchangeEvent[] = [];
  const waiting: { n: number; resolve: () => void }[] = [];
  const proxy = await startProxy({
    ...options,
    onExchange: (e) => {
      events.push(e);
      for (const w of waiting.filter((x) => events.length >= x.n)) w.resolve();
    },
  });
  stops.push(() => proxy.stop());
  return { proxy, events, judged: (n) => (events.length >= n ? Promise.resolve() : new Promise((resolve) => waiting.push({ n, resolve }))) };
}

const client = new http.Agent({ keepAlive: false });
stops.push(async () => client.destroy());

function send(url: URL, method: string, headers: Record<string, string>, body?: string | Buffer): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers, agent: client }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}

const mcpHeaders = { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: "Bearer mcp_user" };
const rpc = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} });

describe("a connection that goes away under a request", () => {
  it("an idempotent request is sent again, whether the break is a reset or a broken pipe; a POST on a fresh connection is not, and fails in the protocol's envelope", async () => {
    // The first time each method comes, the upstream breaks the connection as soon as the head arrives, so the
    // proxy, still sending a large body, meets a broken pipe or a reset (which of the two is the kernel's choice).
    const seen = new Set<string>();
    const up = await rawUpstream((head, socket) => {
      const method = head.split(" ")[0]!;
      if (!seen.has(method)) return void (seen.add(method), socket.destroy());
      answer(socket, JSON.stringify({ ok: method }));
    });
    const w = await watched({ mcpUpstream: up.url });
    const big = Buffer.alloc(512 * 1024, "a");
    const put = await send(w.proxy.mcpUrl!, "PUT", { ...mcpHeaders, "content-length": String(big.length) }, big);
    expect(put.status, put.text).toBe(200);
    expect(JSON.parse(put.text)).toEqual({ ok: "PUT" });
    const get = await send(w.proxy.mcpUrl!, "GET", mcpHeaders);
    expect(get.status, get.text).toBe(200);
    // A POST (tools/call may change data) on a fresh connection: the upstream may have taken it, so it is not
    // sent twice: the client gets a JSON-RPC error, and the report a failure of the service.
    const post = await send(w.proxy.mcpUrl!, "POST", mcpHeaders, rpc);
    expect(post.status).toBe(502);
    expect(JSON.parse(post.text)).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32603, message: expect.stringMatching(/could not be reached/) } });
    await w.judged(3);
    const [p, g, f] = w.events;
    expect(p!.verdict.noAnswer, p!.line).toBeUndefined();
    expect(g!.verdict.noAnswer, g!.line).toBeUndefined();
    expect(f!.line).toMatch(/✗ no answer: the upstream .* could not be reached/);
    expect(f!.line).not.toContain("✓");
    const report = w.proxy.report();
    expect(report.noAnswer.count).toBe(1);
    expect(serviceFailures(report)).toBe(1);
  });

  it("any request on a reused connection the upstream closed is sent again on a new one (the upstream never took it)", async () => {
    // The upstream answers the first request of each connection and announces it will keep the connection,
    // then closes it as the next request arrives: the keep-alive race, made to happen every time.
    const up = await rawUpstream((_head, socket, nth) => {
      if (nth === 1) return void answer(socket, JSON.stringify({ nth }), "timeout=60");
      socket.destroy();
    });
    const w = await watched({ mcpUpstream: up.url });
    for (let i = 0; i < 3; i++) {
      const r = await send(w.proxy.mcpUrl!, "POST", mcpHeaders, rpc);
      expect(r.status, r.text).toBe(200);
    }
    await w.judged(3);
    expect(w.proxy.report().noAnswer.count).toBe(0);
    // The second request met the closed connection and was sent on a new one.
    expect(up.connections()).toBeGreaterThanOrEqual(3);
  });
});

describe("what may be sent again", () => {
  it("a reset, a broken pipe or an abort before any answer: idempotent methods always, others only on a reused connection", () => {
    // Which of the three a broken connection shows is the kernel's choice, so each is checked here directly.
    for (const code of ["ECONNRESET", "EPIPE", "ECONNABORTED"]) {
      for (const method of ["GET", "HEAD", "OPTIONS", "PUT", "DELETE"]) expect(mayResend(code, false, method), `${code} ${method}`).toBe(true);
      expect(mayResend(code, false, "POST"), `${code} POST`).toBe(false);
      expect(mayResend(code, false, "PATCH"), `${code} PATCH`).toBe(false);
      expect(mayResend(code, true, "POST"), `${code} POST on a reused connection`).toBe(true);
    }
    // Any other failure (refused, unreachable, a TLS error) is not a connection that went away under the request.
    for (const code of ["ECONNREFUSED", "ENOTFOUND", "ETIMEDOUT", undefined]) expect(mayResend(code, true, "GET"), String(code)).toBe(false);
  });
});

describe("the keep-alive race", () => {
  it("an idle upstream connection is let go before the upstream closes it: 1 s before the time it announces, and after 4 s when it announces none", async () => {
    for (const [announced, expected] of [
      ["timeout=5", 4_000],
      ["timeout=3", 2_000],
      [undefined, upstreamIdleMs],
    ] as const) {
      const up = await rawUpstream((_head, socket) =>
        socket.write(`HTTP/1.1 200 OK\r\nContent-Length: 2\r\n${announced ? `Keep-Alive: ${announced}\r\n` : ""}\r\n{}`),
      );
      const { agent } = upstreamOf(up.url, "the upstream", "");
      stops.push(async () => agent.destroy());
      const freed = new Promise<net.Socket>((resolve) => agent.once("free", (socket: net.Socket) => setImmediate(() => resolve(socket))));
      await new Promise<void>((resolve, reject) => http.get(up.url, { agent }, (res) => res.resume().on("end", resolve)).on("error", reject));
      const socket = await freed;
      expect(socket.timeout, String(announced)).toBe(expected);
      expect(upstreamIdleMs).toBeLessThan(5_000);
    }
  });
});
