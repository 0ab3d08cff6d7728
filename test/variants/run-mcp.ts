// Runs the MCP suite against one allowed variant: the MCP mock behind the mutant proxy, rewritten as the variant says.
import { expect, it } from "vitest";
import { runConformance, type RunResult } from "../../conformance/index.js";
import { referenceTargetPath } from "../../conformance/core/paths.js";
import { loadTargetFile } from "../../conformance/target-file.js";
import { startMcpMock } from "../../mock/mcp/server.js";
import { throughProxy } from "../mutants/mcp/links.js";
import { drivenTime } from "../support/driven-time.js";
import { hangGuardMs } from "../support/hang-guard.js";
import { contractProxyBefore } from "../support/contract-proxy.js";
import { startMutantProxy, type Mutant } from "../mutants/rest/proxy.js";
import { mcpNonPasses } from "../support/mutants.js";
import { mcpVariants as listed, mcpVariantTimeScale as timeScale, type McpVariant } from "./mcp.js";
import { moreMcpVariants } from "./mcp-more.js";

/** The whole corpus: ./mcp.ts and the variants added beside it. */
export const mcpVariants: readonly McpVariant[] = [...listed, ...moreMcpVariants];

/**
 * One of the corpus's two halves (every other variant), one per test file: vitest runs files, not the cases of one
 * file, on its two workers, and the whole corpus in one file was the longest file of a run by far.
 */
export const mcpVariantsHalf = (half: 0 | 1) => mcpVariants.filter((_, i) => i % 2 === half);

/** Drift (failures of inferred rules only) is allowed; anything else that did not pass is a false failure. */
export const falseFailures = (result: RunResult) =>
  mcpNonPasses(result).filter((line) => !result.checks.some((c) => c.verdict === "drift" && line.startsWith(`${c.id}:`)));

/** The variant as the proxy's mutant: its own rewriting, the proxy's address moving, then its transport-level changes. */
function asMutant(v: McpVariant, upstream: URL, publicOrigin: () => string | undefined): Mutant {
  const inner = throughProxy({ id: v.id, rule: "none", description: v.description, ...(v.request ? { request: v.request } : {}), ...(v.response ? { response: v.response } : {}) }, upstream, publicOrigin);
  return {
    ...inner,
    ...(v.answer ? { answer: v.answer } : {}),
    async response(req, res, ctx) {
      const moved = await inner.response!(req, res, ctx);
      return v.final ? v.final(req, moved, ctx) : moved;
    },
  };
}

/** The suite's run against the variant, through our contract proxy: the result, and what the proxy blamed on it. */
export async function runVariant(v: McpVariant, options: { strict?: boolean } = {}): Promise<{ result: RunResult; blamed: string[] }> {
  const driven = drivenTime(timeScale);
  v.useTime?.(() => driven.mockClock.now());
  const gateway = await startMcpMock({ port: 0, clock: driven.mockClock });
  // The addresses the variant hands out name the outermost proxy, which the suite calls.
  let front: URL | undefined;
  const proxy = await startMutantProxy(gateway.url, asMutant(v, gateway.url, () => front?.origin));
  const contract = v.direct ? undefined : await contractProxyBefore("mcp", new URL(gateway.url.pathname, proxy.url).href);
  front = contract?.url;
  try {
    const file = loadTargetFile(referenceTargetPath, {});
    const mcpUrl = contract?.url.href ?? new URL(gateway.url.pathname, proxy.url).href;
    const result = await runConformance({ mcpUrl, targetFile: file, timeScale, env: {}, budgetSeconds: 300, clock: driven.clock, ...(options.strict ? { strict: true } : {}) });
    return { result, blamed: (await contract?.blamed()) ?? [] };
  } finally {
    await contract?.stop();
    await proxy.stop();
    await gateway.stop();
  }
}

/** A test per variant of one half: the suite passes it (drift aside), and the variant really changed something. */
export function eachVariantPasses(half: 0 | 1): void {
  // One at a time: each is a whole run on driven time, bound by CPU alone, so running several at once gains nothing on
  // two cores and multiplies each test's wall time (five at once met the hang guard on a loaded host).
  it.each(mcpVariantsHalf(half).map((v) => [v.id, v] as const))("passes %s", async (_id, variant) => {
    const { result, blamed } = await runVariant(variant);
    if (variant.changed) expect(variant.changed(), `${variant.id} changed nothing`).toBeGreaterThan(0);
    expect(falseFailures(result)).toEqual([]);
    expect(result.exitCode).toBe(0);
    // Nor does the contract proxy, on the same traffic, blame the service for what the seed allows.
    expect(blamed).toEqual([]);
    // A hang guard, not a speed limit: a whole run on two loaded cores (the rate-limited one waits for its limit).
  }, hangGuardMs);
}
