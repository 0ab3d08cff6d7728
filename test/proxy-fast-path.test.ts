// The proxy's fast path (proxy/fast-path.ts, proxy/raw-http.ts): what it takes (whole, plain HTTP/1.1 requests)
// and what it leaves to node:http; answers framed every way HTTP/1.1 frames them (Content-Length, chunked, until
// close, after interim answers) reach the client as with node:http and are copied whole for the judge; a
// connection that turns out not to be plain is handed over mid-way and its requests still answered in order.
import http from "node:http";
import net from "node:net";
import { Worker } from "node:worker_threads";
import { afterAll, describe, expect, it } from "vitest";
import { upstreamIdleMs } from "../proxy/forward.js";
import { keepFor } from "../proxy/raw-pool.js";
import { answerHead, ChunkedReader, headersOf, plainRequest, type AnswerHead } from "../proxy/raw-http.js";
import { startProxy, type ExchangeEvent, type RunningProxy } from "../proxy/server.js";
import { rawExchange } from "./support/raw-exchange.js";

const stops: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const stop of stops.reverse()) await stop().catch(() => {});
});

const head = (s: string) => {
  const buf = Buffer.from(s, "latin1");
  return plainRequest(buf, buf.indexOf("\r\n\r\n") + 4);
};

describe("what the fast path takes", () => {
  it("takes a plain GET and a POST with one Content-Length, headers as node:http gives them", () => {
    expect(head("GET /v1/brands/b?x=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization:  Bearer t \r\nConnection: keep-alive\r\n\r\n")).toEqual({
      method: "GET",
      url: "/v1/brands/b?x=1",
      rawHeaders: ["Host", "127.0.0.1", "Authorization", "Bearer t", "Connection", "keep-alive"],
      headBytes: expect.any(Number),
      contentLength: 0,
    });
    expect(head("POST /mcp HTTP/1.1\r\nHost: h\r\nContent-Length: 12\r\n\r\n")?.contentLength).toBe(12);
  });

  it("leaves to node:http whatever is not plain", () => {
    const declined = [
      "GET /x HTTP/1.0\r\nHost: h\r\n\r\n",
      "HEAD /x HTTP/1.1\r\nHost: h\r\n\r\n",
      "get /x HTTP/1.1\r\nHost: h\r\n\r\n",
      "OPTIONS * HTTP/1.1\r\nHost: h\r\n\r\n",
      "GET http://h/x HTTP/1.1\r\nHost: h\r\n\r\n",
      "GET /x y HTTP/1.1\r\nHost: h\r\n\r\n",
      "POST /x HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n",
      "POST /x HTTP/1.1\r\nHost: h\r\nContent-Length: 1\r\nContent-Length: 1\r\n\r\n",
      "POST /x HTTP/1.1\r\nHost: h\r\nContent-Length: 1x\r\n\r\n",
      "POST /x HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 1\r\n\r\n",
      "GET /x HTTP/1.1\r\nHost: h\r\nUpgrade: websocket\r\n\r\n",
      "GET /x HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n",
      "GET /x HTTP/1.1\r\nHost: h\r\nConnection: keep-alive, x-secret\r\n\r\n",
      "GET /x HTTP/1.1\r\nHost: h\r\nProxy-Authorization: Basic eDp5\r\n\r\n",
      "GET /x HTTP/1.1\r\nHost: h\r\nX-A: 1\r\n folded\r\n\r\n",
      "GET /x HTTP/1.1\r\nHost: h\r\nBad Name: 1\r\n\r\n",
      "GET /x HTTP/1.1\r\nHost: h\r\nX-A: caf\xe9\r\n\r\n",
      "GET /x HTTP/1.1\r\nHost: h\r\nX-A: a\x00b\r\n\r\n",
      "GET /x HTTP/1.1\r\nHost: h\r\nNoColon\r\n\r\n",
      `GET /x HTTP/1.1\r\nHost: h\r\nX-A: ${"a".repeat(17_000)}\r\n\r\n`,
      "GET /x HTTP/1.1\r\nHost: h\r\n: no name\r\n\r\n",
      "GET /x HTTP/1.1\r\nHost: h\r\nX-A: a\nX-B: b\r\n\r\n",
      "GET /x HTTP/1.1\r\nHost: h\r\nX-A: a\rb\r\n\r\n",
      "GET /x HTTP/1.1\r\nHost: h\r\nX-A: a\x7fb\r\n\r\n",
      "GET /x HTTP/1.1\nHost: h\r\n\r\n",
      `GET /x HTTP/1.1\r\n${"X-A: 1\r\n".repeat(200)}\r\n`,
    ];
    for (const s of declined) expect(head(s), JSON.stringify(s.slice(0, 80))).toBeUndefined();
    // At most 200 lines, as node:http's parser: 199 headers are taken; a name ends at the first colon.
    expect(head(`GET /x HTTP/1.1\r\n${"X-A: 1\r\n".repeat(199)}\r\n`)?.rawHeaders).toHaveLength(398);
    expect(head("GET /x HTTP/1.1\r\nX-A:b:c\r\nX-B:\r\n\r\n")?.rawHeaders).toEqual(["X-A", "b:c", "X-B", ""]);
  });

  it("makes the header object node:http makes: first of a single-valued header, set-cookie listed, cookie joined by '; ', the rest by ', '", async () => {
    expect(headersOf(["Content-Type", "a", "content-type", "b", "Set-Cookie", "c=1", "set-cookie", "d=2", "X-A", "1", "x-a", "2", "Cookie", "e=1", "cookie", "f=2"])).toEqual({
      "content-type": "a",
      "set-cookie": ["c=1", "d=2"],
      "x-a": "1, 2",
      cookie: "e=1; f=2",
    });
    // Against node:http itself, on a head repeating every kind of header.
    const server = http.createServer((req, res) => res.end(JSON.stringify([req.headers, headersOf(req.rawHeaders)])));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    stops.push(() => new Promise((resolve) => server.close(() => resolve())));
    const repeated = ["Cookie", "Accept", "X-A", "Content-Type", "User-Agent", "Authorization", "Set-Cookie", "Referer", "Age"].flatMap((n) => [`${n}: ${n.length}a`, `${n.toLowerCase()}: ${n.length}b`]);
    const got = await rawExchange((server.address() as net.AddressInfo).port, `GET / HTTP/1.1\r\nHost: h\r\n${repeated.join("\r\n")}\r\nConnection: close\r\n\r\n`);
    const [byNode, ours] = JSON.parse(got.slice(got.indexOf("\r\n\r\n") + 4)) as unknown[];
    expect(ours).toEqual(byNode);
  });
});

describe("reading an answer", () => {
  const answer = (s: string) => {
    const buf = Buffer.from(s, "latin1");
    return answerHead(buf, buf.indexOf("\r\n\r\n") + 4);
  };
  it("finds how each answer is framed, and refuses what node:http's client refuses", () => {
    expect(answer("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n")).toMatchObject({ status: 200, reason: "OK", framing: { kind: "length", length: 5 }, keepAlive: true });
    expect(answer("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")).toMatchObject({ framing: { kind: "chunked" } });
    expect(answer("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n")).toMatchObject({ framing: { kind: "close" }, keepAlive: false });
    expect(answer("HTTP/1.1 200 OK\r\n\r\n")).toMatchObject({ framing: { kind: "close" }, keepAlive: false });
    expect(answer("HTTP/1.1 204 No Content\r\nContent-Length: 5\r\n\r\n")).toMatchObject({ framing: { kind: "none" } });
    expect(answer("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 1\r\n\r\n")).toMatchObject({ keepAlive: false });
    expect(answer("HTTP/1.0 200 OK\r\nContent-Length: 1\r\n\r\n")).toMatchObject({ keepAlive: false });
    expect(answer("HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 1\r\n\r\n")).toMatchObject({ keepAlive: true });
    expect(answer("HTTP/1.1 200 OK\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n")).toBe("HPE_UNEXPECTED_CONTENT_LENGTH");
    expect(answer("HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n")).toBe("HPE_INVALID_CONTENT_LENGTH");
    expect(answer("HTTP/1.1 200 OK\r\nBad Name: 1\r\n\r\n")).toBe("HPE_INVALID_HEADER_TOKEN");
    expect(answer("HTTP/2 200\r\n\r\n")).toBe("HPE_INVALID_CONSTANT");
    // Values may carry obs-text; not control characters, a bare CR or LF, or a line without a name.
    expect(answer("HTTP/1.1 200 OK\r\nX-A: caf\xe9\r\nContent-Length: 0\r\n\r\n")).toMatchObject({ headers: { "x-a": "caf\xe9" } });
    for (const bad of ["X-A: a\x7fb", "X-A: a\nX-B: b", "X-A: a\rb", ": v"]) expect(answer(`HTTP/1.1 200 OK\r\n${bad}\r\n\r\n`), JSON.stringify(bad)).toBe("HPE_INVALID_HEADER_TOKEN");
    // An answer's lines are not counted: a long head is bounded by its bytes alone.
    expect(answer(`HTTP/1.1 200 OK\r\n${"X-A: 1\r\n".repeat(300)}Content-Length: 0\r\n\r\n`)).toMatchObject({ framing: { kind: "length", length: 0 } });
  });

  it("keeps an upstream connection idle as the node:http agent does: 1 s less than announced, 4 s at most, not at all when it closes", () => {
    const kept = (headers: string) => keepFor(answer(`HTTP/1.1 200 OK\r\nContent-Length: 0\r\n${headers}\r\n`) as AnswerHead);
    expect(kept("Keep-Alive: timeout=5\r\n")).toBe(4_000);
    expect(kept("Keep-Alive: timeout=3\r\n")).toBe(2_000);
    expect(kept("")).toBe(upstreamIdleMs);
    expect(kept("Keep-Alive: timeout=1\r\n")).toBeUndefined();
    expect(kept("Connection: close\r\n")).toBeUndefined();
  });

  it("reads a chunked body split anywhere, with extensions and trailers, and stops at its end", () => {
    const wire = Buffer.from("5;ext=1\r\nhello\r\n1\r\n \r\n5\r\nworld\r\n0\r\nX-Trailer: 1\r\n\r\nNEXT");
    for (let step = 1; step <= wire.length; step++) {
      const reader = new ChunkedReader();
      const data: Buffer[] = [];
      let used = 0;
      for (let at = 0; at < wire.length && !reader.done; at += step) {
        const r = reader.feed(wire.subarray(at, Math.min(wire.length, at + step)), (d) => data.push(Buffer.from(d)));
        expect(typeof r).toBe("number");
        used += r as number;
      }
      expect(Buffer.concat(data).toString(), `step ${step}`).toBe("hello world");
      expect(used, `step ${step}`).toBe(wire.length - 4);
    }
    expect(new ChunkedReader().feed(Buffer.from("zz\r\n"), () => {})).toBe("HPE_INVALID_CHUNK_SIZE");
    expect(new ChunkedReader().feed(Buffer.from("1\r\nab\r\n"), () => {})).toBe("HPE_STRICT");
  });
});

/** A raw upstream answering by path, framed as the path says. */
async function framingUpstream(): Promise<string> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => {});
    let pending = "";
    socket.on("data", (chunk: Buffer) => {
      pending += chunk.toString("latin1");
      for (let end; (end = pending.indexOf("\r\n\r\n")) >= 0; ) {
        const path = pending.slice(0, end).split(" ")[1]!;
        const length = Number(/\r\ncontent-length: *(\d+)/i.exec(pending.slice(0, end))?.[1] ?? 0);
        pending = pending.slice(end + 4 + length);
        const body = JSON.stringify({ path });
        if (path.startsWith("/len")) socket.write(`HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-Path: ${path}\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
        else if (path === "/chunked") {
          socket.write(`HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n3\r\n${body.slice(0, 3)}\r\n`);
          setTimeout(() => socket.write(`${(body.length - 3).toString(16)}\r\n${body.slice(3)}\r\n0\r\nX-Done: 1\r\n\r\n`), 20);
        } else if (path === "/early") socket.write(`HTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
        else if (path === "/close") socket.end(`HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n${body}`);
        else socket.write(`HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n`);
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
  return `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/`;
}

async function proxyTo(upstream: string, fastPath: boolean): Promise<{ proxy: RunningProxy; events: ExchangeEvent[] }> {
  const events: ExchangeEvent[] = [];
  const proxy = await startProxy({ restUpstream: upstream, fastPath, onExchange: (e) => events.push(e) });
  stops.push(() => proxy.stop());
  return { proxy, events };
}

function get(url: URL, agent: http.Agent): Promise<{ status: number; text: string; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { agent, headers: { authorization: "Bearer t" } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString(), headers: res.headers }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

describe("answers through the fast path", () => {
  it("reach the client as through node:http, whatever their framing, and are copied whole for the judge", async () => {
    const upstream = await framingUpstream();
    for (const fastPath of [true, false]) {
      const { proxy, events } = await proxyTo(upstream, fastPath);
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      stops.push(async () => agent.destroy());
      for (const path of ["/len", "/chunked", "/early", "/len", "/close", "/len"]) {
        const r = await get(new URL(path, proxy.restUrl), agent);
        expect(r.status, `${path} (fast path ${fastPath})`).toBe(200);
        expect(JSON.parse(r.text), `${path} (fast path ${fastPath})`).toEqual({ path });
        expect(r.headers["transfer-encoding"] === "chunked" || r.headers["content-length"] !== undefined || r.headers.connection === "close").toBe(true);
      }
      await proxy.settled();
      expect(events.map((e) => JSON.parse(e.exchange.responseText).path)).toEqual(["/len", "/chunked", "/early", "/len", "/close", "/len"]);
      expect(events.every((e) => e.exchange.status === 200 && !e.verdict.noAnswer)).toBe(true);
    }
  });

  it("hands a connection to node:http at its first request that is not plain, and answers every request in order", async () => {
    const upstream = await framingUpstream();
    const { proxy, events } = await proxyTo(upstream, true);
    const port = Number(proxy.restUrl!.port);
    // Plain, then not plain (a header value in latin1: node:http's), then plain again on the same connection, pipelined.
    const got = await rawExchange(
      port,
      "GET /len HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" +
        "POST /len-node HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Note: caf\xe9\r\nContent-Length: 2\r\n\r\n{}" +
        "GET /early HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
    );
    const bodies = [...got.matchAll(/\{"path":"([^"]+)"\}/g)].map((m) => m[1]);
    expect(bodies).toEqual(["/len", "/len-node", "/early"]);
    // A foreign Host on a fast connection: refused by node:http's path, with a body.
    const foreign = await rawExchange(port, "GET /len HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nGET /len HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n");
    expect(foreign).toMatch(/^HTTP\/1\.1 200 OK[\s\S]*HTTP\/1\.1 403 Forbidden[\s\S]*host_not_allowed/);
    await proxy.settled();
    expect(events.length).toBe(5);
  });

  it("reads a head again unless it is byte for byte the last one: one byte changes what is read, sent and judged", async () => {
    const upstream = await framingUpstream();
    const { proxy, events } = await proxyTo(upstream, true);
    const request = (path: string, trace: string) => `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Trace: ${trace}\r\n\r\n`;
    // Heads of one length throughout, differing in the path or a header by one byte; the answers' heads likewise.
    // Then heads over 4 KiB, which are read afresh every time (not kept).
    const long = "a".repeat(5000);
    const sent: [string, string][] = [["/len1", "t1"], ["/len1", "t1"], ["/len2", "t1"], ["/len2", "t2"], ["/len1", "t2"], ["/len1", `${long}1`], ["/len1", `${long}2`], ["/len1", `${long}2`]];
    const got = await rawExchange(Number(proxy.restUrl!.port), sent.map(([path, trace]) => request(path, trace)).join("") + "GET /len3 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    const paths = [...sent.map(([path]) => path), "/len3"];
    expect([...got.matchAll(/X-Path: (\S+)/g)].map((m) => m[1])).toEqual(paths);
    expect([...got.matchAll(/\{"path":"([^"]+)"\}/g)].map((m) => m[1])).toEqual(paths);
    await proxy.settled();
    expect(events.map((e) => [e.exchange.path, e.exchange.requestHeaders["x-trace"], e.exchange.responseHeaders["x-path"], JSON.parse(e.exchange.responseText).path])).toEqual(
      [...sent, ["/len3", undefined]].map(([path, trace]) => [path, trace, path, path]),
    );
  });

  it("hands the judge worker hidden headers only: no credential crosses to it, and a new token each time is one header object", async () => {
    const upstream = await framingUpstream();
    const sent: string[] = [];
    // What the proxy posts to its judge worker, seen on the way (and posted as it was); put back after this test.
    const post = Worker.prototype.postMessage;
    Worker.prototype.postMessage = function (this: Worker, message: unknown, transfer?: readonly Transferable[]) {
      if (message && typeof (message as { jobs?: unknown }).jobs === "string") sent.push((message as { jobs: string }).jobs);
      return post.call(this, message, transfer as never);
    };
    try {
      for (const fastPath of [true, false]) {
        sent.length = 0;
        const events: ExchangeEvent[] = [];
        const proxy = await startProxy({ restUpstream: upstream, fastPath, judgeWorker: true, onExchange: (e) => events.push(e) });
        stops.push(() => proxy.stop());
        const requests = Array.from({ length: 20 }, (_, i) => `GET /len HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer tok_${i}_crossing\r\nX-Api-Key: key_${i}_crossing\r\nCookie: session=cookie_${i}_crossing\r\n\r\n`);
        await rawExchange(Number(proxy.restUrl!.port), requests.join("") + "GET /len HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
        await proxy.settled();
        expect(events.filter((e) => !e.verdict.unjudged && !e.verdict.noAnswer && !e.verdict.clientFault)).toHaveLength(21);
        const text = sent.join("\n");
        expect(text, `fast path ${fastPath}`).toContain("Bearer [redacted]");
        expect(text, `fast path ${fastPath}`).not.toMatch(/crossing/);
        // Each batch names each distinct header object once: the 20 requests hid alike.
        for (const batch of sent) expect((JSON.parse(batch) as { headers: unknown[] }).headers.filter((h) => JSON.stringify(h).includes("Bearer [redacted]")).length).toBeLessThanOrEqual(1);
      }
    } finally {
      Worker.prototype.postMessage = post;
    }
  });

  it("an upstream that breaks the framing is a failure, never ✓", async () => {
    const server = net.createServer((socket) => {
      socket.on("error", () => {});
      socket.once("data", () => socket.end("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    stops.push(() => new Promise((resolve) => server.close(() => resolve())));
    const { proxy, events } = await proxyTo(`http://127.0.0.1:${(server.address() as net.AddressInfo).port}/`, true);
    const got = await rawExchange(Number(proxy.restUrl!.port), "GET /x HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    expect(got).toMatch(/^HTTP\/1\.1 200 OK/);
    await proxy.settled();
    expect(events[0]!.verdict.noAnswer).toMatch(/broke off/);
    // A verdict no judge made is frozen too, as every verdict handed out is.
    expect(Object.isFrozen(events[0]!.verdict) && Object.isFrozen(events[0]!.verdict.violations)).toBe(true);
    expect(events[0]!.line).not.toContain("✓");
  });
});
