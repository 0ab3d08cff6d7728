// Runs a walk-only mutant (test/mutants/rest/catalogue.ts walkOnlyMutants, test/mutants/mcp/walk-only.ts): a fresh
// reference behind a fresh instance of the mutant, the conformance run against it. The reference runs on the run's
// driven time (as the embedded run's does), so whether a walk, its shrunk sequence or its replay kills the mutant
// follows from the steps alone, not from how fast the host answered. Shared by test/walks-mutants.test.ts and the
// kill-rate measurement (bench/walk-mutants.ts).
import { runConformance, type ConformanceOptions, type RunResult } from "../../conformance/index.js";
import { referenceTargetPath } from "../../conformance/core/paths.js";
import { loadTargetFile } from "../../conformance/target-file.js";
import { startMcpMock } from "../../mock/mcp/server.js";
import { startRestMock } from "../../mock/rest/server.js";
import { throughProxy } from "../mutants/mcp/links.js";
import { mcpWalkOnlyMutants } from "../mutants/mcp/walk-only.js";
import { walkOnlyMutants } from "../mutants/rest/catalogue.js";
import { drivenTime } from "./driven-time.js";
import { startMutantProxy, type Mutant } from "../mutants/rest/proxy.js";

export const timeScale = 0.001;

export type Protocol = "rest" | "mcp";
export type WalkRunOptions = Pick<ConformanceOptions, "walks" | "walkReplay" | "only" | "walkSeed">;
export const mutantsOf = { rest: walkOnlyMutants, mcp: mcpWalkOnlyMutants };
export const walksCheck = { rest: "rest-walks", mcp: "mcp-walks" };

/** A run against a fresh reference behind a fresh instance of the mutant (each keeps what it saw of the run). */
export async function runAgainst(protocol: Protocol, id: string, extra: WalkRunOptions): Promise<RunResult> {
  const mutant = mutantsOf[protocol]().find((m) => m.id === id);
  if (!mutant) throw new Error(`no walk-only ${protocol} mutant ${id}`);
  return runMutant(protocol, mutant, extra);
}

/** A run against a fresh reference behind `mutant` (a fresh instance: test/cross-audit.test.ts uses it too). */
export async function runMutant(protocol: Protocol, mutant: Mutant, extra: WalkRunOptions): Promise<RunResult> {
  const { clock, mockClock } = drivenTime(timeScale);
  const reference = protocol === "rest" ? await startRestMock({ port: 0, clock: mockClock }) : await startMcpMock({ port: 0, clock: mockClock });
  const proxy = await startMutantProxy(reference.url, protocol === "rest" ? mutant : throughProxy(mutant, reference.url));
  try {
    const url = protocol === "rest" ? { restUrl: proxy.url.href } : { mcpUrl: new URL(reference.url.pathname, proxy.url).href };
    // A generous budget: shrinking replays walks, and the machine may be busy.
    return await runConformance({ ...url, targetFile: loadTargetFile(referenceTargetPath, {}), timeScale, env: {}, strict: true, budgetSeconds: 600, clock, ...extra });
  } finally {
    await proxy.stop();
    await reference.stop();
  }
}
