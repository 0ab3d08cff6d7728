// The MCP suite (seed 001, the Partner Tool Gateway): its checks, catalogue, target section, reference, probe,
// needs, slots and the runner extension that gives each check an SDK session and the shared jobs.
import { mcpChecks } from "./checks/index.js";
import { startReference } from "../../core/embedded.js";
import { probeMcp } from "./probe.js";
import type { ConformanceSuite } from "../../core/suite.js";
import type { McpNeed } from "./needs.js";
import { mcpRegistered, mcpUnmetNeed, openMcp, type McpCheckContext } from "./extension.js";
import type { WalkOptions } from "../../core/walks/engine.js";
import { defaultMcpWalks } from "./walks/defaults.js";
import { mcpWalksCheck, mcpWalksId } from "./walks/check.js";
import { mcpReplayFormat, type McpStep } from "./walks/steps.js";
import { mcpRulesPath } from "./paths.js";
import { mcpSlots } from "./slots.js";
import { resolveMcpTarget, type McpOverrides, type McpRunTarget, type McpTargetFile } from "./target.js";

export const mcpSuite: ConformanceSuite<McpCheckContext, McpRunTarget, McpNeed, { mcp?: McpTargetFile }, "mcp"> = {
  id: "mcp",
  title: "Partner Tool Gateway (MCP)",
  rulesPath: mcpRulesPath,
  checks: mcpChecks,
  urls: (o, file) => ({ ...(typeof o.mcpUrl === "string" && o.mcpUrl ? { flag: o.mcpUrl } : {}), ...(file?.mcp?.url ? { file: file.mcp.url } : {}) }),
  resolveTarget: ({ file, overrides, env, embeddedUrl }) =>
    resolveMcpTarget({ ...(file?.mcp ? { file: file.mcp } : {}), overrides: overrides as McpOverrides, env, ...(embeddedUrl ? { embeddedUrl } : {}) }),
  startEmbedded: (options) => startReference("mcp", options),
  summary: (target) => ({ url: target.mcp.endpoint.href, profile: target.mcp.profile }),
  probe: probeMcp,
  unmetNeed: mcpUnmetNeed,
  slots: mcpSlots,
  walks: {
    checkId: mcpWalksId,
    defaults: defaultMcpWalks,
    replayFormat: mcpReplayFormat,
    // A replay's steps were read as this format's: conformance/replay.ts checks each against the MCP tools.
    check: (plan) => mcpRegistered(mcpWalksCheck(plan as WalkOptions<McpStep>)),
  },
  open: openMcp,
};
