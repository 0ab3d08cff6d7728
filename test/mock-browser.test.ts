// A real browser against both stateful mocks: headless Chromium (Debian's `chromium`, driven by puppeteer-core)
// opens a page served from another loopback origin; the page's own fetch calls drive a REST flow (create a brand,
// poll it, create a batch, poll it) and an MCP exchange (initialize, tools/list, tools/call). The same page from
// a foreign origin (evil.test, resolved to 127.0.0.1 by the browser) is blocked by both. `.ci/run` installs
// chromium; outside CI the test is skipped when it is missing.
import { existsSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import puppeteer, { type Browser } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMcpMock, type McpMock } from "../mock/mcp/server.js";
import { startRestMock, type RestMock } from "../mock/rest/server.js";
import { hangGuardMs } from "./support/hang-guard.js";

const chromium = "/usr/bin/chromium";
const available = existsSync(chromium);
if (!available && !process.env.CI) console.warn(`mock-browser.test.ts: ${chromium} is missing; skipped (apt-get install chromium)`);

/** The page: runs the flows with fetch and shows what it got as JSON in #out, then sets the title to "done". */
const pageHtml = `<!doctype html>
<html><head><meta charset="utf-8"><title>running</title></head><body><pre id="out"></pre><script>
const q = new URLSearchParams(location.search);
const rest = q.get("rest"), mcp = q.get("mcp");
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const out = { origin: location.origin };
async function restCall(method, path, body) {
  const headers = { authorization: "Bearer test_team_a" };
  if (body) headers["content-type"] = "application/json";
  const r = await fetch(rest + path.slice(1), { method, headers, body: body ? JSON.stringify(body) : undefined });
  return { status: r.status, body: await r.json() };
}
async function rpc(id, method, params) {
  const r = await fetch(mcp, {
    method: "POST",
    headers: { authorization: "Bearer mcp_user", "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18" },
    body: JSON.stringify({ jsonrpc: "2.0", id, method, params }),
  });
  return { status: r.status, body: await r.json() };
}
async function blocked(run) {
  try { await run(); return "reachable"; } catch (e) { return e instanceof TypeError ? "blocked" : String(e); }
}
async function flows() {
  const created = await restCall("POST", "/v1/brands", { website: "https://www.harbourloaf.ie" });
  out.brandCreated = created.status;
  let brand = created.body;
  while (brand.status === "reading") { await sleep(20); brand = (await restCall("GET", "/v1/brands/" + brand.id)).body; }
  out.brandStatus = brand.status;
  const asked = await restCall("POST", "/v1/ideas", { brand: brand.id, count: 3 });
  out.batchCreated = asked.status;
  let batch = asked.body;
  while (batch.status === "thinking") { await sleep(20); batch = (await restCall("GET", "/v1/ideas/" + batch.id)).body; }
  out.batchStatus = batch.status;
  out.ideas = batch.data.length;
  const init = await rpc(1, "initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "page", version: "1" } });
  out.mcpServer = init.body.result.serverInfo.name;
  const list = await rpc(2, "tools/list", {});
  out.tools = list.body.result.tools.map((t) => t.name);
  const call = await rpc(3, "tools/call", { name: "get_workspaces", arguments: {} });
  out.workspaces = call.body.result.structuredContent.data.workspaces.map((w) => w.slug);
}
(async () => {
  try {
    if (q.get("mode") === "foreign") {
      out.rest = await blocked(() => restCall("GET", "/v1/brands/brand_x"));
      out.mcp = await blocked(() => rpc(1, "tools/list", {}));
    } else await flows();
  } catch (e) { out.error = String(e && e.stack || e); }
  document.getElementById("out").textContent = JSON.stringify(out);
  document.title = "done";
})();
</script></body></html>`;

let rest: RestMock;
let mcp: McpMock;
let pages: http.Server;
let pagePort: number;
let browser: Browser;

/** Opens the page at `origin` and returns what it shows once done. */
async function show(origin: string, mode: string): Promise<any> {
  const tab = await browser.newPage();
  try {
    const url = new URL(`${origin}/?mode=${mode}`);
    url.searchParams.set("rest", rest.url.href);
    url.searchParams.set("mcp", mcp.url.href);
    await tab.goto(url.href, { timeout: 0 });
    // No time limit of its own: the test's is the hang guard (a page that never finishes fails by it).
    await tab.waitForFunction(() => document.title === "done", { timeout: 0 });
    return JSON.parse((await tab.$eval("#out", (el) => el.textContent)) ?? "null");
  } finally {
    await tab.close();
  }
}

describe.skipIf(!available && !process.env.CI)("a page on another origin, in headless Chromium", () => {
  beforeAll(async () => {
    rest = await startRestMock({ port: 0, timeScale: 0.001 });
    mcp = await startMcpMock({ port: 0, timeScale: 0.001 });
    pages = http.createServer((_req, res) => res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(pageHtml));
    await new Promise<void>((r) => pages.listen(0, "127.0.0.1", r));
    pagePort = (pages.address() as AddressInfo).port;
    browser = await puppeteer.launch({
      executablePath: chromium,
      headless: true, // puppeteer passes --headless=new
      // Puppeteer's own limits (30 s to start, 180 s per protocol call) off: the hook's timeout is the hang guard.
      timeout: 0,
      protocolTimeout: 0,
      args: ["--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--host-resolver-rules=MAP evil.test 127.0.0.1"],
    });
  }, hangGuardMs);
  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((r) => (pages ? pages.close(() => r()) : r()));
    await rest?.stop();
    await mcp?.stop();
  });

  it("drives a REST flow and an MCP tool call with fetch", async () => {
    const shown = await show(`http://localhost:${pagePort}`, "flows");
    expect(shown.error).toBeUndefined();
    expect(shown).toMatchObject({ brandCreated: 201, brandStatus: "ready", batchCreated: 202, batchStatus: "done", ideas: 3 });
    expect(shown.mcpServer).toBe("ideas-contract-gateway-mock");
    expect(shown.tools).toContain("get_workspaces");
    expect(shown.workspaces).toContain("harbour-bakery");
  }, hangGuardMs);

  it("is blocked by both mocks when it comes from a foreign origin", async () => {
    const shown = await show(`http://evil.test:${pagePort}`, "foreign");
    expect(shown).toMatchObject({ origin: `http://evil.test:${pagePort}`, rest: "blocked", mcp: "blocked" });
  }, hangGuardMs);
});
