// The test clients never reuse a pooled connection (support/fresh-connection.ts): reuse races the server's idle
// timeout and turned into ECONNRESET on a loaded host. Counted on a plain server: one connection per request.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeAfterAnswer } from "./support/fresh-connection.js";
import { runCases } from "./support/fuzz.js";

let server: http.Server;
let origin: URL;
let connections = 0;
beforeAll(async () => {
  server = http.createServer((_req, res) => res.end("{}"));
  server.on("connection", () => connections++);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe("test clients open a fresh connection per request", () => {
  it("the fuzz runner (node:http)", async () => {
    const before = connections;
    const cases = Array.from({ length: 6 }, (_, i) => ({ kind: "plain", label: `case ${i}`, request: { method: "GET", path: `/${i}` } }));
    const outcomes = await runCases(origin, cases, () => undefined, { concurrency: 2 });
    expect(outcomes.map((o) => o.answer?.status)).toEqual(Array(6).fill(200));
    expect(connections - before).toBe(6);
  });

  it("fetch with the header the SDK and REST test clients send", async () => {
    const before = connections;
    for (let i = 0; i < 4; i++) expect(await (await fetch(origin, { headers: closeAfterAnswer })).text()).toBe("{}");
    expect(connections - before).toBe(4);
  });
});
