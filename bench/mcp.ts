// `npm run bench:mcp`: tools/call and tools/list per second and p99 at concurrency 20 against the MCP gateway
// mock, beside a bare node:http server (the baseline: what this machine does with no MCP layer at all) in the
// same run. The mock runs as users start it (`ideas-contract mock`, its own process), so the load generator does
// not compete with it for the event loop. tools/list answers are ~300 KB (~32 KB gzipped): they are measured
// with a client that does not decode bodies (measureRaw), against the bare server sending the same bytes.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { measure, measureRaw, printTable, startCliMock } from "./lib.js";

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const headers = {
  authorization: "Bearer mcp_user",
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
};
const gzipHeaders = { ...headers, "accept-encoding": "gzip, deflate" }; // what fetch-based clients (the SDK's, browsers) send
const rpc = (method: string, params: unknown) => JSON.stringify({ jsonrpc: "2.0", id: 1, method, params });

/** The bare server's answer: a small JSON-RPC result, or the bytes captured from the mock's tools/list. */
const bareAnswers = new Map<string, { body: Buffer; headers: Record<string, string> }>([
  ["/", { body: Buffer.from(JSON.stringify({ jsonrpc: "2.0", id: 1, result: { content: [] } })), headers: { "content-type": "application/json" } }],
]);
const bare = http.createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    const answer = bareAnswers.get(req.url ?? "/") ?? bareAnswers.get("/")!;
    res.writeHead(200, { ...answer.headers, "content-length": answer.body.length }).end(answer.body);
  });
});
await new Promise<void>((resolve) => bare.listen(0, "127.0.0.1", resolve));

/** The mock's tools/list answer as sent (not decompressed). */
function captureList(url: URL, requestHeaders: Record<string, string>): Promise<{ body: Buffer; headers: Record<string, string> }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: "POST", headers: requestHeaders }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () =>
        resolve({ body: Buffer.concat(chunks), headers: { "content-type": "application/json", ...(res.headers["content-encoding"] ? { "content-encoding": res.headers["content-encoding"] } : {}) } }),
      );
    });
    req.on("error", reject);
    req.end(rpc("tools/list", {}));
  });
}

const mock = await startCliMock("MCP gateway mock");
try {
  const list = await fetch(mock.url, { method: "POST", headers, body: rpc("tools/call", { name: "get_workspaces", arguments: {} }) });
  const workspaces = ((await list.json()) as { result: { structuredContent: { data: { workspaces: { id: string }[] } } } }).result
    .structuredContent.data.workspaces;
  const brands = await fetch(mock.url, { method: "POST", headers, body: rpc("tools/call", { name: "list_brands", arguments: { workspaceId: workspaces[0]!.id } }) });
  const brandId = ((await brands.json()) as { result: { structuredContent: { data: { brands: { id: string }[] } } } }).result
    .structuredContent.data.brands[0]!.id;
  const plainList = await captureList(mock.url, headers);
  const gzipList = await captureList(mock.url, gzipHeaders);
  bareAnswers.set("/list", plainList);
  bareAnswers.set("/list-gzip", gzipList);

  const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}/`;
  const load = { url: mock.url.href, method: "POST" as const, headers, duration: seconds };
  const baseline = await measure("bare node:http JSON", { url: bareUrl, method: "POST", headers, body: rpc("ping", {}), duration: seconds });
  const rows = [
    baseline,
    await measure("mock tools/call get_profile", { ...load, body: rpc("tools/call", { name: "get_profile", arguments: { brandId } }) }),
    await measure("mock tools/call (input refused)", { ...load, body: rpc("tools/call", { name: "get_profile", arguments: { brandId, nope: 1 } }) }),
    await measureRaw(`bare, list's ${Math.round(plainList.body.length / 1024)} KB (raw client)`, { url: `${bareUrl}list`, method: "POST", body: "{}", duration: seconds }),
    await measureRaw("mock tools/list (raw client)", { ...load, body: rpc("tools/list", {}) }),
    await measureRaw(`bare, list's ${Math.round(gzipList.body.length / 1024)} KB gzip (raw)`, { url: `${bareUrl}list-gzip`, method: "POST", body: "{}", duration: seconds }),
    await measureRaw("mock tools/list gzip (raw client)", { ...load, headers: gzipHeaders, body: rpc("tools/list", {}) }),
    await measure("mock tools/list gzip (autocannon)", { ...load, headers: gzipHeaders, body: rpc("tools/list", {}) }),
  ];
  console.log(`\n${seconds} s per scenario, 20 connections, 127.0.0.1; "× base" is req/s relative to the bare server's small answer.`);
  console.log(`tools/list is ${plainList.body.length} bytes, ${gzipList.body.length} gzipped (${gzipList.headers["content-encoding"] ?? "not compressed"}).\n`);
  printTable(rows, baseline);
} finally {
  mock.stop();
  bare.close();
}
