// The README's CI recipes, run as written in a fresh project whose node_modules holds this package (as an install
// would, by a link): `ideas-contract mock … -- npm run test:e2e` and `ideas-contract proxy … -- npm run test:e2e`,
// through `npx` (npm exec) and through the bin itself. Only the ports are changed, to free ones, so parallel test
// files cannot collide. Each run must exit with the tests' status (the proxy: 1 on a violation), write its
// reports, pass the servers' URLs in the environment, and leave no server behind — also when the process that
// started it (npx, which passes no SIGTERM on) is killed.
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRestMock, type RestMock } from "../mock/rest/server.js";
import { mutants as restMutants } from "./mutants/rest/catalogue.js";
import { startMutantProxy, type MutantProxy } from "./mutants/rest/proxy.js";
import { spawnTracked } from "./support/children.js";
import { hangGuardMs } from "./support/hang-guard.js";

const repoRoot = path.join(import.meta.dirname, "..");
const readme = fs.readFileSync(path.join(repoRoot, "README.md"), "utf8");

/** The sh block of a README section that wraps a command (` -- `). */
function recipe(heading: string): string {
  const at = readme.indexOf(`### ${heading}`);
  expect(at, heading).toBeGreaterThanOrEqual(0);
  const section = readme.slice(at, readme.indexOf("\n#", at + 4));
  const block = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!.trim()).find((b) => b.includes(" -- "));
  expect(block, `a recipe with -- in ${heading}`).toBeDefined();
  return block!;
}

/** What `npm run test:e2e` runs in the project: one request through each URL it was given, then the status asked. */
const e2e = `
import fs from "node:fs";
const rest = process.env.IDEAS_MOCK_REST_URL ?? process.env.IDEAS_PROXY_REST_URL;
const mcp = process.env.IDEAS_MOCK_MCP_URL ?? process.env.IDEAS_PROXY_MCP_URL;
const seen = { rest, mcp, prism: process.env.IDEAS_MOCK_PRISM_URL, pid: process.pid, wrapper: process.ppid, statuses: [] };
const headers = { authorization: "Bearer test_team_a", "content-type": "application/json" };
// A request the contract refuses (count above 10): a client violation for the proxy, a 400 from the mock.
seen.statuses.push((await fetch(rest + "/v1/ideas", { method: "POST", headers, body: JSON.stringify({ brand: "brand_x", count: 99 }) })).status);
if (mcp) {
  const init = { jsonrpc: "2.0", id: 1, method: "tools/list" };
  const mcpHeaders = { authorization: "Bearer mcp_user", "content-type": "application/json", accept: "application/json, text/event-stream" };
  seen.statuses.push((await fetch(mcp, { method: "POST", headers: mcpHeaders, body: JSON.stringify(init) })).status);
}
fs.writeFileSync("e2e-seen.json", JSON.stringify(seen));
if (process.env.E2E_HANG) {
  process.on("SIGTERM", () => { fs.writeFileSync("e2e-signal", "SIGTERM"); process.exit(7); });
  console.log("e2e waiting");
  setInterval(() => {}, 1 << 30);
} else process.exit(Number(process.env.E2E_EXIT ?? 0));
`;

let dir: string;
let upstream: RestMock;
/** The staging service: the reference behind a proxy that breaks one rule (400s name no field), so the run sees a violation of the service's. */
let staged: MutantProxy;
const leftovers: number[] = [];

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "cli-wrappers-"));
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "app", private: true, type: "module", scripts: { "test:e2e": "node e2e.mjs" } }));
  fs.writeFileSync(path.join(dir, "e2e.mjs"), e2e);
  fs.mkdirSync(path.join(dir, "node_modules", ".bin"), { recursive: true });
  fs.symlinkSync(repoRoot, path.join(dir, "node_modules", "ideas-contract"), "dir");
  fs.symlinkSync("../ideas-contract/bin/ideas-contract.js", path.join(dir, "node_modules", ".bin", "ideas-contract"));
  upstream = await startRestMock({ port: 0, timeScale: 0.001 });
  staged = await startMutantProxy(upstream.url, restMutants.find((m) => m.id === "param-missing-on-400")!);
});
afterAll(async () => {
  // Whatever a failed run left behind.
  for (const pid of leftovers) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      /* gone, as it should be */
    }
  }
  await staged?.stop();
  await upstream?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
    s.on("error", reject);
  });
}

/** Whether something listens on the port. */
function listening(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname);
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });
}

/** Whether the process runs: it exists and is not a zombie (ended, its exit not yet collected by whoever adopted it). */
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return !fs.existsSync("/proc/self"); // no /proc here: kill(0) is all there is
  }
};

const offline = { npm_config_offline: "true", npm_config_update_notifier: "false", npm_config_fund: "false", npm_config_audit: "false", NO_COLOR: "1" };

/** Runs `command` (sh) in the project; resolves once it ended and every process holding its output has too. */
function sh(command: string, env: Record<string, string> = {}) {
  // Its own process group, ended whole when the file ends (a failed run leaves no mock, proxy or npx behind).
  const child = spawnTracked("sh", ["-c", command], { cwd: dir, env: { ...process.env, ...offline, ...env }, stdio: ["ignore", "pipe", "pipe"], detached: true });
  let out = "";
  const ended = new Promise<{ code: number | null; out: string }>((resolve) => child.once("close", (code) => resolve({ code, out })));
  /** The command's own end, even if something it started still holds its output. */
  const exited = new Promise<{ code: number | null; out: string }>((resolve) => child.once("exit", (code) => resolve({ code, out })));
  /** Resolves once the output shows `text` (or the command ended without it). */
  const printed = (text: string) =>
    new Promise<void>((resolve) => {
      const look = () => out.includes(text) && resolve();
      child.stdout!.on("data", look);
      void ended.then(() => resolve());
    });
  child.stdout!.on("data", (c) => (out += c));
  child.stderr!.on("data", (c) => (out += c));
  return { ended, exited, pid: child.pid!, printed };
}

function seen(): { rest: string; mcp?: string; prism?: string; pid: number; wrapper: number; statuses: number[] } {
  const s = JSON.parse(fs.readFileSync(path.join(dir, "e2e-seen.json"), "utf8"));
  leftovers.push(s.pid, s.wrapper);
  return s;
}

async function expectNothingLeft(s: ReturnType<typeof seen>): Promise<void> {
  expect(await listening(s.rest), `a server still listens at ${s.rest}`).toBe(false);
  if (s.mcp) expect(await listening(s.mcp), `a server still listens at ${s.mcp}`).toBe(false);
  if (s.prism) expect(await listening(s.prism), `Prism still listens at ${s.prism}`).toBe(false);
  expect(alive(s.wrapper), "the ideas-contract process is still running").toBe(false);
  expect(alive(s.pid), "the wrapped command is still running").toBe(false);
}

const ways = [
  ["npx", (r: string) => r],
  ["the bin itself", (r: string) => r.replace(/^npx ideas-contract /m, "node_modules/.bin/ideas-contract ")],
] as const;

describe("ideas-contract mock -- COMMAND (the README's CI recipe)", () => {
  it.each(ways)("through %s: the mocks answer at the URLs given, the tests' status is the exit status, nothing is left", async (_how, as) => {
    for (const status of [0, 3]) {
      fs.rmSync(path.join(dir, "e2e-seen.json"), { force: true });
      const [rest, mcp] = [await freePort(), await freePort()];
      const command = as(recipe("Mocks in a front-end's dev setup and CI"))
        .replace("--rest-port 4010", `--rest-port ${rest}`)
        .replace("--mcp-port 4012", `--mcp-port ${mcp}`);
      const run = await sh(command, { E2E_EXIT: String(status) }).ended;
      expect(run.code, run.out).toBe(status);
      const s = seen();
      expect(s.rest).toBe(`http://127.0.0.1:${rest}`);
      expect(s.mcp).toBe(`http://127.0.0.1:${mcp}/mcp`);
      expect(s.statuses).toEqual([400, 200]);
      await expectNothingLeft(s);
    }
  }, hangGuardMs);

  it("with Prism: SIGTERM to the bin stops the tests, then the mocks and Prism (a process of its own)", async () => {
    for (const f of ["e2e-seen.json", "e2e-signal"]) fs.rmSync(path.join(dir, f), { force: true });
    const run = sh("exec node_modules/.bin/ideas-contract mock --rest-port 0 --mcp-port 0 --prism-port 0 --quiet -- npm run test:e2e", { E2E_HANG: "1" });
    await run.printed("e2e waiting");
    const s = seen();
    expect(s.prism, "IDEAS_MOCK_PRISM_URL").toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(await listening(s.prism!), "Prism listens while the tests run").toBe(true);
    process.kill(run.pid, "SIGTERM");
    // Its exit, not its output's close: a Prism left running would hold the output open.
    const ended = await run.exited;
    expect(fs.readFileSync(path.join(dir, "e2e-signal"), "utf8")).toBe("SIGTERM");
    // The tests (npm's child) end on their own signal handler, possibly just after npm and the bin did: waited for,
    // bounded only by the hang guard (the mocks and Prism, the bin's own, must be gone already).
    while (alive(s.pid)) await new Promise((r) => setTimeout(r, 50));
    await expectNothingLeft(s);
    expect(ended.code, ended.out).not.toBe(0);
  }, hangGuardMs);
});

describe("ideas-contract proxy -- COMMAND (the README's staging CI recipe)", () => {
  const command = async (as: (r: string) => string) => {
    const port = await freePort();
    return { port, text: as(recipe("The contract proxy in a service's staging CI")).replace("--rest-port 4020", `--rest-port ${port}`) };
  };
  const staging = () => ({ STAGING_URL: staged.url.href.replace(/\/$/, "") });

  it.each(ways)("through %s: exit 1 on the service's violation, the tests' own status otherwise; the client's is reported, never failing; the reports are written", async (_how, as) => {
    for (const [status, expected] of [
      [0, 1],
      [5, 5],
    ] as const) {
      for (const f of ["e2e-seen.json", "proxy-report.json", "proxy-report.md", "proxy-report.xml"]) fs.rmSync(path.join(dir, f), { force: true });
      const { port, text } = await command(as);
      const run = await sh(text, { ...staging(), E2E_EXIT: String(status) }).ended;
      expect(run.code, run.out).toBe(expected);
      const s = seen();
      expect(s.rest).toBe(`http://127.0.0.1:${port}`);
      expect(s.statuses).toEqual([400]);
      const report = JSON.parse(fs.readFileSync(path.join(dir, "proxy-report.json"), "utf8"));
      // The request the contract refuses is the client's (reported, skipped in JUnit); the 400 naming no field is the service's.
      expect(report.byRule.map((t: { rule: string }) => t.rule)).toContain("limit-count/max");
      expect(fs.readFileSync(path.join(dir, "proxy-report.md"), "utf8")).toContain("limit-count");
      const junit = fs.readFileSync(path.join(dir, "proxy-report.xml"), "utf8");
      expect(junit).toMatch(/<testcase classname="proxy.rules" name="limit-count\/max" [^>]*>\s*<skipped message="broken by the client/);
      expect(junit).toMatch(/<testcase classname="proxy.rules" name="(?!limit-count)[^"]+" [^>]*>\s*<failure message="1 violation/);
      expect(junit).not.toContain("test_team_a");
      await expectNothingLeft(s);
    }
  }, hangGuardMs);

  it.each(ways)("through %s: SIGTERM to the process started stops the tests, then the proxy, and writes the reports", async (_how, as) => {
    for (const f of ["e2e-seen.json", "e2e-signal", "proxy-report.json"]) fs.rmSync(path.join(dir, f), { force: true });
    const { text } = await command(as);
    // `exec`: the signal goes to npx (or the bin) itself, as a CI runner's cancel would send it, not to a shell.
    const run = sh(`exec ${text}`, { ...staging(), E2E_HANG: "1" });
    await run.printed("e2e waiting");
    const s = seen();
    process.kill(run.pid, "SIGTERM");
    const ended = await run.ended;
    expect(fs.readFileSync(path.join(dir, "e2e-signal"), "utf8")).toBe("SIGTERM");
    const report = JSON.parse(fs.readFileSync(path.join(dir, "proxy-report.json"), "utf8"));
    expect(report.violations).toBeGreaterThan(1);
    await expectNothingLeft(s);
    // Stopped, the run fails: with the status of `npm run` (which ends of the signal: 143), or npx's own.
    expect(ended.code, ended.out).not.toBe(0);
  }, hangGuardMs);
});

describe("--host", () => {
  it("makes the mocks and the proxy listen on another address", async () => {
    // 127.0.0.2 is a loopback address of its own on Linux: something listening on 127.0.0.1 only is not there.
    const bin = "node_modules/.bin/ideas-contract";
    fs.rmSync(path.join(dir, "e2e-seen.json"), { force: true });
    const mock = await sh(`${bin} mock --no-prism --quiet --host 127.0.0.2 --rest-port 0 --mcp-port 0 -- npm run test:e2e`).ended;
    expect(mock.code, mock.out).toBe(0);
    const m = seen();
    expect(new URL(m.rest).hostname).toBe("127.0.0.2");
    expect(new URL(m.mcp!).hostname).toBe("127.0.0.2");
    expect(m.statuses).toEqual([400, 200]);
    fs.rmSync(path.join(dir, "e2e-seen.json"), { force: true });
    const proxy = await sh(`${bin} proxy --host 127.0.0.2 --rest-upstream "$STAGING_URL" --rest-port 0 -- npm run test:e2e`, { STAGING_URL: upstream.url.href }).ended;
    expect(proxy.code, proxy.out).toBe(0);
    const p = seen();
    expect(new URL(p.rest).hostname).toBe("127.0.0.2");
    expect(p.statuses).toEqual([400]);
    await expectNothingLeft(m);
    await expectNothingLeft(p);
  }, hangGuardMs);
});
