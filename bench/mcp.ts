// `npm run bench:mcp`: tools/call per second and p99 at concurrency 20 against the MCP gateway mock, beside a
// bare node:http JSON server (the baseline: what this machine does with no MCP layer at all) in the same run.
// The mock runs as users start it (`ideas-contract mock`, its own process), so the load generator does not
// compete with it for the event loop.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { measure, printTable, startCliMock } from "./lib.js";

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const headers = {
  authorization: "Bearer mcp_user",
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
};
const rpc = (method: string, params: unknown) => JSON.stringify({ jsonrpc: "2.0", id: 1, method, params });

const bare = http.createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, result: { content: [] } });
    res.writeHead(200, { "content-type": "application/json" }).end(body);
  });
});
await new Promise<void>((resolve) => bare.listen(0, "127.0.0.1", resolve));
const mock = await startCliMock("MCP gateway mock");
try {
  const list = await fetch(mock.url, { method: "POST", headers, body: rpc("tools/call", { name: "get_workspaces", arguments: {} }) });
  const workspaces = ((await list.json()) as { result: { structuredContent: { data: { workspaces: { id: string }[] } } } }).result
    .structuredContent.data.workspaces;
  const brands = await fetch(mock.url, { method: "POST", headers, body: rpc("tools/call", { name: "list_brands", arguments: { workspaceId: workspaces[0]!.id } }) });
  const brandId = ((await brands.json()) as { result: { structuredContent: { data: { brands: { id: string }[] } } } }).result
    .structuredContent.data.brands[0]!.id;

  const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}/`;
  const baseline = await measure("bare node:http JSON", { url: bareUrl, method: "POST", headers, body: rpc("ping", {}), duration: seconds });
  const rows = [
    baseline,
    await measure("mock tools/list", { url: mock.url.href, method: "POST", headers, body: rpc("tools/list", {}), duration: seconds }),
    await measure("mock tools/call get_profile", {
      url: mock.url.href,
      method: "POST",
      headers,
      body: rpc("tools/call", { name: "get_profile", arguments: { brandId } }),
      duration: seconds,
    }),
    await measure("mock tools/call (input refused)", {
      url: mock.url.href,
      method: "POST",
      headers,
      body: rpc("tools/call", { name: "get_profile", arguments: { brandId, nope: 1 } }),
      duration: seconds,
    }),
  ];
  console.log(`\n${seconds} s per scenario, 20 connections, 127.0.0.1; "× base" is req/s relative to the bare server.\n`);
  printTable(rows, baseline);
} finally {
  mock.stop();
  bare.close();
}
