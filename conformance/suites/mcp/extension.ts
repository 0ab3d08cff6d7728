// The MCP suite's session of a run (conformance/core/suite.ts): one polite HTTP client per run, what the run's checks
// share (conformance/suites/mcp/run.ts), a session per check on the run's SDK clients (one per token; the check's own
// requests counted for it), and why an MCP need is unmet.
import { extendContext, type Check, type RunContext } from "../../core/check.js";
import type { Spending } from "./cost.js";
import { callRules, judgeReply } from "./expect.js";
import type { McpNeed } from "./needs.js";
import type { SuiteEnv, SuiteSession } from "../../core/suite.js";
import { McpConnections, McpSession } from "./client.js";
import { McpHttp } from "./http.js";
import { endingAsDrift } from "./inferred-inputs.js";
import { McpRun } from "./run.js";
import { mcpTokenEnv, type McpRunTarget, type McpTarget } from "./target.js";

/**
 * A check of the MCP suite: a plain object, as a REST check is, whose `run(ctx)` gets the MCP context (`ctx.mcp`).
 * Its id starts with mcp-, its rules are of spec/rules/mcp.yaml; registered (`mcpRegistered`), it judges every
 * call it makes against the call rules in passing (incidental), and the session judges each reply as it comes back.
 */
export interface McpCheck extends Check<McpCheckContext, McpNeed>, Spending {
  /** The check judges every reply itself, in the step that made it (the walks): its session does not judge them again. */
  judgesOwnReplies?: true;
}

/**
 * An MCP check as the suite runs it: its id checked, and the call rules (which any call can break) added to its
 * incidental rules, before its own (e.g. a survey judging whatever the target's profiles show). Done once, where
 * the checks are listed (checks/index.ts), as the REST checks are registered (judgingReplies), and for the walks check
 * each run makes with its own options (conformance/index.ts).
 */
export function mcpRegistered(check: McpCheck): McpCheck {
  if (!check.id.startsWith("mcp-")) throw new Error(`MCP check ids start with mcp-: ${check.id}`);
  return { ...check, incidental: [...callRules.filter((r) => !check.rules.includes(r)), ...(check.incidental ?? [])] };
}

/** What an MCP check runs with: the runner's context and the MCP suite's part of it. */
export interface McpCheckContext extends RunContext {
  readonly mcp: McpContext;
}

/** What an MCP check gets besides the runner's context. */
export interface McpContext {
  /** This check's SDK clients (one per token kind) and raw requests. */
  session: McpSession;
  /** What the run's checks share: its letters, its clock, polling, the shared scenarios (made once). */
  run: McpRun;
  /**
   * The gateway as a check sees it: its endpoint, profile, tokens, pace and what the run may spend (mcp.cost: run
   * settings, not target-file slots), but not the target file's inputs and triggers, which a check reads only
   * through ctx.slot (so what it reads is what it declares, and --list shows).
   */
  target: McpTargetView;
  /**
   * The check's own ctx.slot, for the helpers and shared scenarios that take only this context: a value they read
   * is a read of the check's, so an undeclared one ends the check in error as the check's own would.
   */
  slot: RunContext["slot"];
}

export type McpTargetView = Omit<McpTarget, "inputs" | "triggers">;

const tokenNeeds: Partial<Record<McpNeed, keyof typeof mcpTokenEnv>> = {
  token: "normal",
  "mcp:partner-token": "partner",
};
const fileKey: Record<keyof typeof mcpTokenEnv, string> = {
  normal: "normal",
  readonly: "readonly",
  partner: "partner",
  otherTenant: "other_tenant",
  expired: "expired",
  partnerUnconfigured: "partner_unconfigured",
};

/** Why an MCP need is unmet by the target, or undefined when it is met (or is not an MCP need). */
export function mcpUnmetNeed(need: McpNeed, target: McpRunTarget): string | undefined {
  const mcp = target.mcp;
  const kind = tokenNeeds[need];
  if (kind) return mcp.tokens[kind] ? undefined : `no MCP ${kind} token (${mcpTokenEnv[kind]}, or mcp.tokens.${fileKey[kind]} in the target file)`;
  switch (need) {
    case "mcp:profile-all":
      return mcp.profile === "all" ? undefined : "exercises tools still in development (run with --mcp-profile all)";
    case "mcp:cost-renders":
      return mcp.cost.renders ? undefined : "spends picture renders of the tenant's AI allowance (set mcp.cost.renders: true in the target file to allow them)";
    case "mcp:cost-extra-batches":
      return mcp.cost.extraBatches ? undefined : "generates posts in batches of its own (set mcp.cost.extra_batches: true in the target file to allow them)";
    case "mcp:cost-builds":
      return mcp.cost.builds ? undefined : "starts profile builds (set mcp.cost.builds: true in the target file to allow them)";
    default:
      return undefined;
  }
}

/** The MCP suite's session of a run. */
export function openMcp(env: SuiteEnv<McpRunTarget>): SuiteSession<McpCheckContext, McpNeed> {
  const target = env.target;
  const http = new McpHttp(target, env.redactor, env.signal);
  // The SDK clients every check and the shared scenarios call with: one per token for the run (client.ts).
  const connections = new McpConnections(http, target.timing.requestTimeoutMs + 5_000);
  const run = new McpRun({ target, http, connections, redactor: env.redactor, signal: env.signal, onWaiting: env.onWaiting });
  return {
    context(check: McpCheck, base) {
      // A refusal of an argument of our design (not the seed's) ends the check as drift (inferred-inputs.ts).
      const session = endingAsDrift(new McpSession(http, target, {}, connections), (rules, message) => base.fail(rules, message));
      const mcp: McpContext = { session, run, target: target.mcp, slot: base.slot };
      const ctx = extendContext(base, { mcp });
      // Every reply the check's calls get is judged by the call rules as it comes back, whatever the check reads of it.
      if (!check.judgesOwnReplies) session.observe((o) => judgeReply(ctx, o));
      return { ctx, requests: () => session.requests, close: () => session.close() };
    },
    /** Every request of the run (checks and shared scenarios). */
    requests: () => http.requestCount,
    async close() {
      await run.close();
      await connections.close();
      http.close();
    },
  };
}
