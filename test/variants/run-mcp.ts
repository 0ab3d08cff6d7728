// Runs the MCP suite against one allowed variant: the MCP mock behind the mutant proxy, rewritten as the variant says.
import { runConformance, type RunResult } from "../../conformance/index.js";
import { referenceTargetPath } from "../../conformance/core/paths.js";
import { loadTargetFile } from "../../conformance/target-file.js";
import { startMcpMock } from "../../mock/mcp/server.js";
import { throughProxy } from "../mutants/mcp/links.js";
import { drivenTime } from "../support/driven-time.js";
import { startMutantProxy, type Mutant } from "../mutants/rest/proxy.js";
import { mcpVariantTimeScale as timeScale, type McpVariant } from "./mcp.js";

/** The variant as the proxy's mutant: its own rewriting, the proxy's address moving, then its transport-level changes. */
function asMutant(v: McpVariant, upstream: URL): Mutant {
  const inner = throughProxy({ id: v.id, rule: "none", description: v.description, ...(v.request ? { request: v.request } : {}), ...(v.response ? { response: v.response } : {}) }, upstream);
  return {
    ...inner,
    ...(v.answer ? { answer: v.answer } : {}),
    async response(req, res, ctx) {
      const moved = await inner.response!(req, res, ctx);
      return v.final ? v.final(req, moved, ctx) : moved;
    },
  };
}

export async function runVariant(v: McpVariant, options: { strict?: boolean } = {}): Promise<RunResult> {
  const driven = drivenTime(timeScale);
  v.useTime?.(() => driven.mockClock.now());
  const gateway = await startMcpMock({ port: 0, clock: driven.mockClock });
  const proxy = await startMutantProxy(gateway.url, asMutant(v, gateway.url));
  try {
    const file = loadTargetFile(referenceTargetPath, {});
    return await runConformance({ mcpUrl: new URL(gateway.url.pathname, proxy.url).href, targetFile: file, timeScale, env: {}, budgetSeconds: 300, clock: driven.clock, ...(options.strict ? { strict: true } : {}) });
  } finally {
    await proxy.stop();
    await gateway.stop();
  }
}

