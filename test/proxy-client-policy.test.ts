// The proxy's two paths (the byte-level fast path and node:http's) treat a client connection alike: a client that
// closes its side right after a whole request has gone away (a client fault, never the service's), and an idle
// kept-alive connection is announced and kept for the same time (proxy/keep-alive.ts).
import http from "node:http";
import net from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { serveFast } from "../proxy/fast-path.js";
import { upstreamOf } from "../proxy/forward.js";
import { clientIdleCloseMs, keepAliveValue, keepClientsAlive } from "../proxy/keep-alive.js";
import { RawPool } from "../proxy/raw-pool.js";
import { startProxy } from "../proxy/server.js";
import { rawExchange } from "./support/raw-exchange.js";

const stops: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const stop of stops.reverse()) await Promise.resolve(stop()).catch(() => {});
});

/** An http server on a free port, stopped after the tests; resolves with its base URL. */
async function serve(handler: http.RequestListener, configure: (s: http.Server) => void = () => {}): Promise<string> {
  const server = http.createServer(handler);
  configure(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  stops.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/`;
}

describe("a client that leaves right after its request", () => {
  it("is the client's fault on both paths, never the service's", async () => {
    // The upstream never answers: only the proxy's taking the client's end as its leaving ends the exchange.
    const upstream = await serve((req) => req.resume());
    for (const fastPath of [true, false]) {
      const proxy = await startProxy({ restUpstream: upstream, fastPath });
      stops.push(() => proxy.stop());
      await rawExchange(Number(proxy.restUrl!.port), "GET /v1/brands/brand_x HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer t\r\n\r\n", { leave: true });
      await proxy.settled();
      const report = proxy.report();
      expect(report.exchanges.rest, `fast path ${fastPath}`).toBe(1);
      expect(report.clientFaults.byKind.map((k) => k.kind), `fast path ${fastPath}`).toEqual(["went away"]);
      expect(report.noAnswer.count + report.violations + report.unjudged.count, `fast path ${fastPath}`).toBe(0);
    }
  });
});

describe("one keep-alive policy for client connections", () => {
  it("announces the same Keep-Alive on both paths", async () => {
    const upstream = await serve((_req, res) => res.end("{}"));
    for (const fastPath of [true, false]) {
      const proxy = await startProxy({ restUpstream: upstream, fastPath });
      stops.push(() => proxy.stop());
      const agent = new http.Agent({ keepAlive: true });
      stops.push(() => agent.destroy());
      const headers = await new Promise<http.IncomingHttpHeaders>((resolve, reject) => {
        const req = http.get(new URL("v1/brands/brand_x", proxy.restUrl), { agent }, (res) => {
          res.resume();
          res.on("end", () => resolve(res.headers));
        });
        req.on("error", reject);
      });
      expect(headers["keep-alive"], `fast path ${fastPath}`).toBe(keepAliveValue);
      expect(headers.connection, `fast path ${fastPath}`).toBe("keep-alive");
    }
  });

  it("closes an idle connection after the time node:http's server closes it, on the fast path too", async () => {
    // node:http's own idle time after an answer, as the proxy configures its server.
    let nodeIdle = -1;
    const upstream = await serve(
      (req, res) => {
        res.on("close", () => (nodeIdle = req.socket.timeout ?? -1));
        res.end("{}");
      },
      keepClientsAlive,
    );
    const agent = new http.Agent({ keepAlive: true });
    stops.push(() => agent.destroy());
    await new Promise<void>((resolve, reject) => http.get(upstream, { agent }, (res) => res.resume().on("end", resolve)).on("error", reject));
    // res "close" comes in the tick after node:http set the idle time; the answer's end reached the client after.
    await new Promise((resolve) => setImmediate(resolve));
    expect(nodeIdle).toBe(clientIdleCloseMs);

    // The fast path's, on a connection it serves.
    const pool = new RawPool("127.0.0.1", Number(new URL(upstream).port));
    stops.push(() => pool.close());
    let fastSocket: net.Socket | undefined;
    const front = net.createServer((socket) => {
      fastSocket = socket;
      serveFast(socket, {
        upstream: upstreamOf(upstream, "the upstream", ""),
        pool,
        captureBytes: 1024,
        failureBody: (message) => ({ contentType: "text/plain", body: message }),
        accept: (req) => ({ target: req.url, done: () => {} }),
        handOver: (s) => s.destroy(),
        headersTimeoutMs: 10_000,
        timedOut: (s) => s.destroy(),
        leftUnread: () => {},
      });
    });
    await new Promise<void>((resolve) => front.listen(0, "127.0.0.1", resolve));
    stops.push(() => new Promise<void>((resolve) => (fastSocket?.destroy(), front.close(() => resolve()))));
    const port = (front.address() as net.AddressInfo).port;
    await new Promise<void>((resolve, reject) => http.get(`http://127.0.0.1:${port}/`, { agent }, (res) => res.resume().on("end", resolve)).on("error", reject));
    expect(fastSocket?.timeout).toBe(clientIdleCloseMs);
  });
});
