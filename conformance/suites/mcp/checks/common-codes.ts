// The common codes no caller can provoke (a lapsed plan, writes switched off, the service or the identity provider
// failing) and upstream_<status> for a refusal the gateway does not recognise, each through a token the target file
// names (mcp.triggers.common_errors, upstream_status): every call made with it answers that code.
import type { RuleId } from "../../../../generated/rules.js";
import { CheckFailed, CheckSkipped, type RunContext } from "../../../core/check.js";
import { McpSession, type CallOutcome } from "../client.js";
import { expectError, expectOk } from "../expect.js";
import { endingAsDrift } from "../inferred-inputs.js";
import type { McpContext } from "../extension.js";
import { commonErrorCodes, mcpTriggerTokenEnv, situationTokens, upstreamStatuses } from "../target.js";
import { unknownUuid, type McpCheck } from "./common.js";
import { BudgetExceeded } from "../../../core/http.js";

const group = "mcp-errors";

/** Calls made with a situation token through the SDK client (output validation on, like every other call). */
async function withToken(ctx: RunContext, m: McpContext, token: string, env: string, rule: RuleId, calls: (s: McpSession) => Promise<void>): Promise<void> {
  const s = endingAsDrift(new McpSession(m.session.http, { ...m.session.http.target, mcp: { ...m.session.http.target.mcp, tokens: { normal: token } } }, { normal: env }), (rules, message) => ctx.fail(rules, message));
  try {
    await calls(s);
  } catch (err) {
    if (err instanceof BudgetExceeded || err instanceof CheckFailed || err instanceof CheckSkipped) throw err;
    // The client could not even connect (initialize, tools/list) with the token: a situation of tools/call only.
    ctx.expect(false, rule, `with the ${rule} token: ${(err as Error).message}`);
  } finally {
    await s.close();
  }
}

/** A read any token may make, and a write whose ids name nothing (should it run, it changes nothing). */
const read = (s: McpSession): Promise<CallOutcome> => s.call("get_workspaces", {});
const write = (s: McpSession): Promise<CallOutcome> => s.call("delete_post", { id: unknownUuid() });

export const commonCodeChecks: McpCheck[] = [
  {
    id: "mcp-common-codes",
    description: "Each common code arrives in its documented situation (a token of the target file per code), with the catalogue's retryable; writes_disabled refuses writes only",
    rules: ["common-codes-meaning", ...commonErrorCodes.map((c): RuleId => `retryable-per-catalogue/${c}`)],
    group,
    async run(ctx) {
      const m = ctx.mcp;
      const tokens = situationTokens({ commonErrors: ctx.slot("mcp.triggers.common_errors") }).common;
      for (const [code, token] of tokens) {
        // rule: common-codes-meaning/<code>
        const rule: RuleId = `common-codes-meaning/${code}`;
        await withToken(ctx, m, token, mcpTriggerTokenEnv("common_errors", code), rule, async (s) => {
          if (code === "writes_disabled") {
            expectOk(ctx, await read(s), rule);
            expectError(ctx, await write(s), { code, rule });
          } else expectError(ctx, await read(s), { code, rule });
        });
      }
    },
  },
  {
    id: "mcp-upstream-status",
    description: "A refusal the gateway does not recognise arrives as upstream_<status>: 4xx not retryable, 429 and 5xx retryable",
    rules: ["upstream-status-retryable", "retryable-per-catalogue/upstream_429"],
    group,
    async run(ctx) {
      const m = ctx.mcp;
      const tokens = situationTokens({ upstreamStatus: ctx.slot("mcp.triggers.upstream_status") }).upstream;
      for (const [member, token] of tokens) {
        // rule: upstream-status-retryable/<member>
        const rule: RuleId = `upstream-status-retryable/${member}`;
        const status = upstreamStatuses[member as keyof typeof upstreamStatuses];
        await withToken(ctx, m, token, mcpTriggerTokenEnv("upstream_status", String(status)), rule, async (s) => {
          const e = expectError(ctx, await read(s), { code: `upstream_${status}`, rule });
          // The envelope's retryable was judged by the catalogue's upstream rule above; say it for this member too.
          if (e) ctx.expect(e.retryable === (status === 429 || status >= 500), rule, `upstream_${status} has retryable ${e.retryable}; 4xx is not retryable, 429 and 5xx are`);
        });
      }
    },
  },
];
