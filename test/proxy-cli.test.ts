// `ideas-contract proxy` as a user runs it: the real command in a child process in front of the reference mocks,
// clients through it, stopped with SIGTERM; it prints a line per exchange, writes the JSON and Markdown reports,
// never prints a token, and with --fail-on-violation exits 1 only for what the service did (a violation, no
// answer), never for what a client did.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMcpMock, type McpMock } from "../mock/mcp/server.js";
import { startRestMock, type RestMock } from "../mock/rest/server.js";
import { spawnTracked } from "./support/children.js";
import { hangGuardMs } from "./support/hang-guard.js";
import { connectMcp } from "./support/mcp-client.js";

const bin = path.join(import.meta.dirname, "..", "bin", "ideas-contract.js");
let rest: RestMock;
let mcp: McpMock;
let dir: string;

beforeAll(async () => {
  rest = await startRestMock({ timeScale: 0.001 });
  mcp = await startMcpMock({ timeScale: 0.001 });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "proxy-cli-"));
});
afterAll(async () => {
  await Promise.all([rest?.stop(), mcp?.stop()]);
  fs.rmSync(dir, { recursive: true, force: true });
});

/**
 * Starts the command (tracked: killed after the file, or when the test process ends, if a test left it running);
 * resolves with its URLs once it says where it listens. `printed(re)` resolves once its output matches `re`.
 */
function start(args: string[]) {
  const child = spawnTracked(process.execPath, [bin, "proxy", ...args], { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, NO_COLOR: "1" } });
  let out = "";
  let err = "";
  child.stderr!.on("data", (c) => (err += c));
  const printed = (re: RegExp) =>
    new Promise<void>((resolve) => {
      const look = () => re.test(out) && (child.stdout!.off("data", look), resolve());
      child.stdout!.on("data", look);
      look();
    });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const ready = new Promise<{ rest: URL; mcp: URL }>((resolve, reject) => {
    child.stdout!.on("data", (c) => {
      out += c;
      const r = /REST proxy\s+(\S+)/.exec(out)?.[1];
      const m = /MCP proxy\s+(\S+)/.exec(out)?.[1];
      if (r && m) resolve({ rest: new URL(r), mcp: new URL(m) });
    });
    void exited.then((code) => reject(new Error(`the proxy exited (${code}) before it listened: ${err}`)));
  });
  return { child, ready, exited, printed, output: () => out, errors: () => err };
}

describe("ideas-contract proxy", () => {
  it("forwards, prints a line per exchange, reports on SIGTERM, and a client's violation does not fail the run", async () => {
    const json = path.join(dir, "report.json");
    const md = path.join(dir, "report.md");
    const run = start(["--rest-upstream", rest.url.href, "--rest-port", "0", "--mcp-upstream", mcp.url.href, "--mcp-port", "0", "--report-json", json, "--report-md", md, "--fail-on-violation"]);
    const urls = await run.ready;
    const headers = { authorization: "Bearer test_team_a", "content-type": "application/json" };
    const created = await fetch(new URL("v1/brands", urls.rest), { method: "POST", headers, body: JSON.stringify({ website: "https://www.harbourloaf.ie" }) });
    expect(created.status).toBe(201);
    // A request the contract refuses: the client's violation.
    const refused = await fetch(new URL("v1/ideas", urls.rest), { method: "POST", headers, body: JSON.stringify({ brand: "brand_x", count: 99 }) });
    expect(refused.status).toBe(400);
    const client = await connectMcp(urls.mcp, "mcp_user");
    expect((await client.ok("get_workspaces", {})).workspaces.length).toBeGreaterThan(0);
    await client.close();
    // Each line is printed once its exchange is judged: wait for the last one before stopping.
    await run.printed(/tools\/call get_workspaces/);
    run.child.kill("SIGTERM");
    expect(await run.exited).toBe(0);

    const out = run.output();
    expect(out).toMatch(/#1 rest POST \/v1\/brands 201 \d+ ms ✓/);
    expect(out).toMatch(/rest POST \/v1\/ideas 400 \S+ \d+ ms ✗ \[limit-count\/max\] \(client\)/);
    expect(out).toMatch(/mcp  tools\/call get_workspaces 200 \d+ ms ✓/);
    expect(out).toMatch(/limit-count\/max\s+1/);
    const report = JSON.parse(fs.readFileSync(json, "utf8"));
    expect(report.violations).toBe(1);
    expect(report.byRule[0].rule).toBe("limit-count/max");
    expect(report.byRule[0].examples[0].exchange.requestHeaders.authorization).toBe("Bearer [redacted]");
    const markdown = fs.readFileSync(md, "utf8");
    expect(markdown).toContain("## limit-count");
    for (const text of [out, run.errors(), fs.readFileSync(json, "utf8"), markdown]) {
      expect(text).not.toContain("test_team_a");
      expect(text).not.toContain("mcp_user");
    }
  }, hangGuardMs);

  it("fails with --fail-on-violation when the service left a request unanswered; --ignore-client is still accepted", async () => {
    const gone = await startRestMock({ timeScale: 0.001 });
    await gone.stop(); // nothing listens on its port now: every forward fails
    const run = start(["--rest-upstream", gone.url.href, "--rest-port", "0", "--mcp-upstream", mcp.url.href, "--mcp-port", "0", "--fail-on-violation", "--ignore-client", "--no-live"]);
    const urls = await run.ready;
    const res = await fetch(new URL("v1/brands/brand_x", urls.rest), { headers: { authorization: "Bearer test_team_a" } });
    expect(res.status).toBe(502);
    expect((await res.json()).error.code).toBe("upstream_unreachable");
    await run.printed(/no answer/); // printed once judged, however long that takes on a busy host
    run.child.kill("SIGINT");
    expect(await run.exited).toBe(1);
    expect(run.output()).toMatch(/✗ no answer: the upstream/);
    expect(run.output()).toMatch(/1 without an answer/);
  }, hangGuardMs);

  it("a request the contract refuses is printed but does not fail the run", async () => {
    const run = start(["--rest-upstream", rest.url.href, "--rest-port", "0", "--mcp-upstream", mcp.url.href, "--mcp-port", "0", "--fail-on-violation", "--no-live"]);
    const urls = await run.ready;
    const refused = await fetch(new URL("v1/ideas", urls.rest), { method: "POST", headers: { authorization: "Bearer test_team_a", "content-type": "application/json" }, body: JSON.stringify({ brand: "brand_x", count: 99 }) });
    expect(refused.status).toBe(400);
    await run.printed(/limit-count/);
    run.child.kill("SIGINT");
    expect(await run.exited).toBe(0);
    expect(run.output()).toMatch(/1 violations \(0 by the service, 1 by the client\)/);
  }, hangGuardMs);

  it("refuses bad usage with exit 2", async () => {
    for (const args of [[], ["--rest-upstream", "ftp://example.com"], ["--rest-upstream", "http://127.0.0.1:1", "--rest-port", "x"], ["--bogus"]]) {
      const run = start(args);
      run.ready.catch(() => {});
      expect(await run.exited, args.join(" ")).toBe(2);
    }
  }, hangGuardMs);
});
