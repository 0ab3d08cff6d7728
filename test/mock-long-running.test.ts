// A mock left running all day keeps behaving: both stateful mocks at time scale 0.001 serve twenty conformance
// runs of the checks that make the most state (brands, batches, MCP post batches), are driven an hour forward in
// between, and then still pass the whole conformance run.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runConformance, type RunResult } from "../conformance/index.js";
import { referenceTargetPath } from "../conformance/core/paths.js";
import { loadTargetFile } from "../conformance/target-file.js";
import { startMcpMock, type McpMock } from "../mock/mcp/server.js";
import { startRestMock, type RestMock } from "../mock/rest/server.js";
import { mcpNonPasses } from "./support/mutants.js";
import { hangGuardMs } from "./support/hang-guard.js";
import { drivenTime } from "./support/driven-time.js";

const timeScale = 0.001;
const minute = 60_000;
let rest: RestMock;
let mcp: McpMock;

// Both mocks read the runs' driven time (each run moves it on from where the last left it), so what a run sees of
// their background work follows from its steps, not from how fast a loaded host answers.
const { clock, mockClock } = drivenTime(timeScale);

beforeAll(async () => {
  rest = await startRestMock({ port: 0, clock: mockClock });
  mcp = await startMcpMock({ port: 0, clock: mockClock });
});
afterAll(async () => {
  await rest?.stop();
  await mcp?.stop();
});

const failures = (r: RunResult) =>
  r.checks.filter((c) => c.status === "fail").map((c) => `${c.id}: ${c.failures.map((f) => f.message).join(" | ")}`);

function run(only?: string[]): Promise<RunResult> {
  return runConformance({ restUrl: rest.url.href, mcpUrl: mcp.url.href, targetFile: loadTargetFile(referenceTargetPath, {}), timeScale, env: {}, clock, ...(only ? { only } : {}) });
}

describe("a long-running mock", () => {
  it("passes the full conformance run after an hour and twenty runs", async () => {
    const started = rest.clock.now();
    for (let i = 0; i < 20; i++) {
      const r = await run(["create-brand*", "batch-*", "mcp-create-posts-*", "mcp-batch-*"]);
      expect(failures(r), `run ${i + 1}`).toEqual([]);
      mockClock.advance(3 * minute); // both mocks' clock
    }
    expect(rest.clock.now() - started).toBeGreaterThanOrEqual(60 * minute);
    const full = await run();
    expect(failures(full)).toEqual([]);
    expect(full.exitCode).toBe(0);
    expect(mcpNonPasses(full)).toEqual([]);
  }, hangGuardMs);
});
