// What a user meets at the command line and in reports: negative and out-of-range numbers get the command's own
// message (never the argument parser's "ambiguous"), options are read before any optional peer is needed,
// plurals agree with their number, and the JUnit root names every target that ran.
import { execFile } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { main } from "../cli/main.js";
import { startMcpMock } from "../mock/mcp/server.js";
import { createClock } from "../mock/clock.js";
import { RateLimiter } from "../mock/rest/auth.js";
import { ApiError } from "../mock/rest/http.js";
import { junitReport } from "../conformance/core/report/junit.js";
import type { RunResult } from "../conformance/index.js";
import { track } from "./support/children.js";
import { hangGuardMs } from "./support/hang-guard.js";

let output: string[];
beforeEach(() => {
  output = [];
  const keep = (...args: unknown[]) => void output.push(args.join(" "));
  vi.spyOn(console, "log").mockImplementation(keep);
  vi.spyOn(console, "error").mockImplementation(keep);
});
afterEach(() => vi.restoreAllMocks());

describe("numbers on the command line", () => {
  it.each([
    [["mock", "--no-prism", "--time-scale", "-1"], '--time-scale must be a positive number of real seconds per virtual second (such as 0.01 or 1), got "-1"'],
    [["mock", "--no-prism", "--time-scale", "-.5"], 'got "-.5"'],
    [["mock", "--no-prism", "--time-scale", "1e999"], 'got "1e999"'],
    [["mock", "--no-prism", "--rest-port", "-1"], '--rest-port must be a port number from 0 to 65535 (0 = any free port), got "-1"'],
    [["mock", "--no-prism", "--mcp-port", "70000"], 'got "70000"'],
    [["conformance", "--time-scale", "-1"], '--time-scale must be a positive number, got "-1"'],
    [["conformance", "--concurrency", "-4"], '--concurrency must be a positive whole number, got "-4"'],
  ])("%j is refused with exit 2 and the command's message", async (argv, message) => {
    expect(await main(argv)).toBe(2);
    const text = output.join("\n");
    expect(text).toContain(message);
    expect(text).not.toContain("ambiguous");
  });

  it("still refuses an option where a value belongs", async () => {
    expect(await main(["mock", "--time-scale", "--no-prism"])).toBe(2);
    expect(output.join("\n")).toContain("ambiguous");
  });
});

const bin = path.join(import.meta.dirname, "..", "bin", "ideas-contract.js");
const hidePeers = path.join(import.meta.dirname, "support", "hide-peers.mjs");
const allPeers = ["@modelcontextprotocol/sdk", "@stoplight/prism-cli", "yaml", "ajv", "ajv-formats"];

/** The command run as a user would, in a project where the optional peers `hidden` are not installed. */
function withoutPeers(hidden: string[], args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const env = { ...process.env, HIDE_PEERS: hidden.join(","), NO_COLOR: "1" };
    track(
      execFile(process.execPath, ["--import", hidePeers, bin, ...args], { env }, (err, stdout, stderr) =>
        resolve({ code: err ? ((err as { code?: number }).code ?? null) : 0, out: `${stdout}${stderr}` }),
      ),
    );
  });
}

describe("options before peers", () => {
  it("help and bad usage need no peer; a typo is named, with the option meant", async () => {
    for (const command of ["mock", "proxy", "conformance"]) {
      const help = await withoutPeers(allPeers, [command, "--help"]);
      expect(help.code, help.out).toBe(0);
      expect(help.out).toContain(`Usage: ideas-contract ${command}`);
      expect(help.out).not.toMatch(/optional peer|Cannot find/);
    }
    const typo = await withoutPeers(allPeers, ["mock", "--no-prsim"]);
    expect(typo.code).toBe(2);
    expect(typo.out).toMatch(/^unknown option --no-prsim \(did you mean --no-prism\?\)/);
    expect(typo.out).not.toMatch(/optional peer|prism-cli/);
    const far = await withoutPeers(allPeers, ["proxy", "--rest-upstream", "http://127.0.0.1:1", "--zzz"]);
    expect(far.code).toBe(2);
    expect(far.out).toMatch(/^unknown option --zzz\n/);
  }, hangGuardMs);

  it("names every missing peer a command needs in one install line", async () => {
    const conformance = await withoutPeers(allPeers, ["conformance", "--rest-url", "http://127.0.0.1:1"]);
    expect(conformance.code).toBe(1);
    expect(conformance.out).toContain("ideas-contract conformance needs @modelcontextprotocol/sdk, yaml, ajv and ajv-formats");
    expect(conformance.out).toMatch(/npm install --save-dev @modelcontextprotocol\/sdk@\S+ yaml@\S+ ajv@\S+ ajv-formats@\S+\n/);
    const proxy = await withoutPeers(["yaml", "ajv-formats"], ["proxy", "--rest-upstream", "http://127.0.0.1:1"]);
    expect(proxy.code).toBe(1);
    expect(proxy.out).toContain("ideas-contract proxy needs yaml and ajv-formats,");
    const mock = await withoutPeers(allPeers, ["mock"]);
    expect(mock.code).toBe(1);
    expect(mock.out).toContain("npm install --save-dev @modelcontextprotocol/sdk@1.32.2 @stoplight/prism-cli@5.14.2\nOr pass --no-prism");
  }, hangGuardMs);

  it("steering a running mock (--reset, --advance, --freeze) needs no peer", async () => {
    const mcp = await startMcpMock({ port: 0 });
    try {
      const port = mcp.url.port;
      const steered = await withoutPeers(allPeers, ["mock", "--reset", "--freeze", "--advance", "1h", "--mcp-port", port]);
      expect(steered.code, steered.out).toBe(0);
      expect(steered.out).toMatch(/reset: now .*\nfreeze: now .* \(frozen\)\nadvance: now/);
      expect((await withoutPeers(allPeers, ["mock", "--unfreeze", "--mcp-port", port])).code).toBe(0);
    } finally {
      await mcp.stop();
    }
  }, hangGuardMs);
});

describe("help texts", () => {
  it("name files that exist where the command runs (the rule catalogues, the reference target file)", async () => {
    for (const command of ["conformance", "proxy"]) {
      output = [];
      expect(await main([command, "--help"])).toBe(0);
      const files = [...output.join("\n").matchAll(/([\w./-]+\.ya?ml)\b/g)].map((m) => m[1]!).filter((f) => f.includes("/"));
      expect(files.length, command).toBeGreaterThan(1);
      for (const f of files) expect(fs.existsSync(path.resolve(f)), `${command} --help names ${f}`).toBe(true);
    }
  });
});

describe("the probe's refusal", () => {
  it("shows what was answered, escaped, and how to run the checks anyway", async () => {
    // Something else on the port: a page with quotes and a terminal escape in it, a C1 control sequence introducer
    // and a bidirectional override (which JSON leaves as they are), and a line separator (white space, shown as one).
    const server = http.createServer((_req, res) => res.writeHead(503, { "content-type": "text/html" }).end('<h1 class="x">Down\u001b[31m\u009b2J\u202e\u2028 for maintenance</h1>'));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      expect(await main(["conformance", "--rest-url", url, "--no-live"])).toBe(2);
      const text = output.join("\n");
      expect(text).toContain('does not answer like the Ideas API: 503, Content-Type "text/html", body "<h1 class=\\"x\\">Down\\u001b[31m\\u009b2J\\u202e for maintenance</h1>"');
      expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/);
      expect(text).toContain("--skip-probe runs the checks anyway");
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  }, hangGuardMs);
});

describe("the REST reference's 429", () => {
  const refusal = (timeScale: number): ApiError => {
    const clock = createClock({ timeScale, start: 0, realNow: () => 0 });
    const limiter = new RateLimiter(clock, () => 1);
    limiter.hit("t");
    try {
      limiter.hit("t");
    } catch (err) {
      return err as ApiError;
    }
    throw new Error("the second request was not limited");
  };

  it("says 1 second, and 60 seconds", () => {
    expect(refusal(0.001).message).toBe("Too many requests; retry after 1 second.");
    expect(refusal(1).message).toBe("Too many requests; retry after 60 seconds.");
  });
});

describe("the JUnit report's root", () => {
  const result = (targets: [suite: "rest" | "mcp", url: string][]) =>
    ({
      target: { url: targets[0]![1], embedded: false, timeScale: 1 },
      suites: targets.map(([suite]) => suite),
      targets: targets.map(([suite, url]) => ({ suite, title: suite, rules: `spec/rules/${suite}.yaml`, url })),
      checks: [],
      durationMs: 0,
      redactor: { text: (s: string) => s },
    }) as unknown as RunResult;
  const root = (xml: string) => /<testsuites name="([^"]*)"/.exec(xml)![1];

  it("names both targets when both suites ran, else the one that did", () => {
    expect(root(junitReport(result([["rest", "http://127.0.0.1:1"], ["mcp", "http://127.0.0.1:2/mcp"]])))).toBe(
      "ideas-contract conformance (REST http://127.0.0.1:1, MCP http://127.0.0.1:2/mcp)",
    );
    expect(root(junitReport(result([["rest", "http://127.0.0.1:1"]])))).toBe("ideas-contract conformance (REST http://127.0.0.1:1)");
    expect(root(junitReport(result([["mcp", "http://127.0.0.1:2/mcp"]])))).toBe("ideas-contract conformance (MCP http://127.0.0.1:2/mcp)");
  });
});
