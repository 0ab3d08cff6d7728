// What a user meets at the command line and in reports: negative and out-of-range numbers get the command's own
// message (never the argument parser's "ambiguous"), plurals agree with their number, and the JUnit root names
// every target that ran.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { main } from "../cli/main.js";
import { createClock } from "../mock/clock.js";
import { RateLimiter } from "../mock/rest/auth.js";
import { ApiError } from "../mock/rest/http.js";
import { junitReport } from "../conformance/report/junit.js";
import type { RunResult } from "../conformance/index.js";

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
    [["mock", "--no-prism", "--rest-port", "-1"], '--rest-port must be a port number from 0 to 65535 (0: any free port), got "-1"'],
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
  const result = (suites: ("rest" | "mcp")[], url: string, mcp?: string) =>
    ({
      target: { url, embedded: false, timeScale: 1, ...(mcp ? { mcp: { url: mcp, profile: "full" } } : {}) },
      suites,
      checks: [],
      durationMs: 0,
      redactor: { text: (s: string) => s },
    }) as unknown as RunResult;
  const root = (xml: string) => /<testsuites name="([^"]*)"/.exec(xml)![1];

  it("names both targets when both suites ran, else the one that did", () => {
    expect(root(junitReport(result(["rest", "mcp"], "http://127.0.0.1:1", "http://127.0.0.1:2/mcp")))).toBe(
      "ideas-contract conformance (REST http://127.0.0.1:1, MCP http://127.0.0.1:2/mcp)",
    );
    expect(root(junitReport(result(["rest"], "http://127.0.0.1:1")))).toBe("ideas-contract conformance (REST http://127.0.0.1:1)");
    expect(root(junitReport(result(["mcp"], "http://127.0.0.1:2/mcp", "http://127.0.0.1:2/mcp")))).toBe("ideas-contract conformance (MCP http://127.0.0.1:2/mcp)");
  });
});
