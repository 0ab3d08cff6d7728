// Each request the proxy meets is recorded once, as what it was: requests pipelined behind an answer the upstream
// ends by closing its connection are forwarded (not recorded as the client's leaving), and a connection refused
// over the connection cap is one client fault however its client goes on.
import net from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { startProxy } from "../proxy/server.js";
import { rawExchange } from "./support/raw-exchange.js";

const stops: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const stop of stops.reverse()) await Promise.resolve(stop()).catch(() => {});
});

/** A raw upstream answering each request with `answer` (then closing when the answer says so). */
async function rawUpstream(answer: string, closeAfter: boolean): Promise<string> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => socket.destroy());
    let got = "";
    socket.on("data", (d: Buffer) => {
      got += d.toString("latin1");
      // One answer per whole head (the proxy sends GETs without bodies).
      for (let end = got.indexOf("\r\n\r\n"); end >= 0; end = got.indexOf("\r\n\r\n")) {
        got = got.slice(end + 4);
        if (closeAfter) return void socket.end(answer);
        socket.write(answer);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  stops.push(() => new Promise<void>((resolve) => (sockets.forEach((s) => s.destroy()), server.close(() => resolve()))));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

const get = (i: number, close = false) => `GET /v1/brands/brand_${i} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer t\r\n${close ? "Connection: close\r\n" : ""}\r\n`;
const statuses = (raw: string) => [...raw.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));

describe("requests pipelined behind an answer the upstream ends by closing", () => {
  it("are forwarded on a new upstream connection and recorded once each, on both paths", async () => {
    for (const [name, answer, closeAfter] of [
      ["a body until close", 'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n{"a":1}', true],
      ["Connection: close", 'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 7\r\nConnection: close\r\n\r\n{"a":1}', true],
    ] as const) {
      const base = await rawUpstream(answer, closeAfter);
      for (const fastPath of [true, false]) {
        const what = `${name}, fast path ${fastPath}`;
        const proxy = await startProxy({ restUpstream: base, fastPath });
        stops.push(() => proxy.stop());
        // The last asks to close: the client's connection ends after its answer (or sooner, when the proxy closes it).
        const raw = await rawExchange(Number(proxy.restUrl!.port), get(1) + get(2) + get(3, true));
        expect(statuses(raw), `${what}: ${raw}`).toEqual([200, 200, 200]);
        expect(raw, what).toContain('{"a":1}');
        await proxy.settled();
        const r = proxy.report();
        expect(r.exchanges.rest, what).toBe(3);
        expect(r.clientFaults.count + r.noAnswer.count, what).toBe(0);
      }
    }
  });
});

describe("a connection over the cap", () => {
  it("is one client fault, however its client ends it", async () => {
    const base = await rawUpstream('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}', false);
    for (const fastPath of [true, false])
      for (const bytes of ["GET /v1/brands/brand_1 HTTP/1.1\r\nHo", "\x00\x01 not HTTP\r\n\r\n", get(1), "CONNECT a.example:443 HTTP/1.1\r\nHost: a.example:443\r\n\r\n"]) {
        const what = `fast path ${fastPath}, ${JSON.stringify(bytes.slice(0, 12))}`;
        const proxy = await startProxy({ restUpstream: base, fastPath, maxConnections: 1 });
        stops.push(() => proxy.stop());
        const port = Number(proxy.restUrl!.port);
        // The one connection served, open while the next is refused.
        const served = net.connect(port, "127.0.0.1");
        await new Promise((resolve) => served.once("connect", resolve));
        const refused = await rawExchange(port, bytes, { leave: true });
        expect(statuses(refused), what).toEqual([503]);
        // A request on the served connection, answered after the proxy has read all the refused one sent.
        const answered = new Promise<string>((resolve) => {
          let got = "";
          served.on("data", (d: Buffer) => (got += d.toString("latin1")));
          served.on("close", () => resolve(got));
        });
        served.write(get(2, true));
        expect(statuses(await answered), what).toEqual([200]);
        await proxy.settled();
        const r = proxy.report();
        expect(r.clientFaults.byKind.map((k) => [k.kind, k.count]), what).toEqual([["too many connections", 1]]);
        expect(r.exchanges.rest, what).toBe(1);
      }
  });
});
