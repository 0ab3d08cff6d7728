// Authentication at the HTTP level (401 with a challenge, 403 insufficient_scope) and in the envelope
// (partner_not_found), with raw JSON-RPC requests for what happens before MCP.
import { randomBytes } from "node:crypto";
import type { Check, CheckContext } from "../../check.js";
import { toolsCall } from "../../mcp/client.js";
import { expectError, expectOk } from "../../mcp/expect.js";
import type { McpContext } from "../../mcp/extension.js";
import type { McpHttpResponse } from "../../mcp/http.js";
import { mcpCheck, show, viewPost } from "./common.js";

const group = "mcp-auth";

function expect401(ctx: CheckContext, res: McpHttpResponse, what: string): void {
  const rule = "unauthenticated-401";
  ctx.expect(res.status === 401, rule, `${what}: answered HTTP ${res.status}, expected 401: ${res.text.slice(0, 200)}`);
  const challenge = res.header("www-authenticate");
  ctx.expect(challenge !== undefined && /^\s*Bearer\b/i.test(challenge), rule, `${what}: WWW-Authenticate is ${challenge === undefined ? "missing" : show(challenge)}, expected a Bearer challenge`);
  ctx.expect(!/"ok"\s*:\s*false/.test(res.text), rule, `${what}: the 401 carries a tool envelope`);
}

/** A tools/call of the brand's profile: any tool would do; 401 comes before tools. */
async function probeCall(m: McpContext): Promise<unknown> {
  const b = await m.jobs.brand();
  return toolsCall("get_profile", { brandId: b.brandId ?? "conformance" });
}

export const authChecks: Check[] = [
  mcpCheck({
    id: "mcp-no-token-401",
    description: "A request without a token is refused with HTTP 401 and a Bearer challenge, no envelope",
    rules: ["unauthenticated-401"],
    group,
    tokenless: true,
    async run(ctx, m) {
      expect401(ctx, await m.session.raw(toolsCall("get_workspaces", {}), undefined), "tools/call without a token");
      expect401(ctx, await m.session.raw({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }, undefined), "tools/list without a token");
    },
  }),
  mcpCheck({
    id: "mcp-bad-token-401",
    description: "A request with an invalid (or expired) token is refused with HTTP 401 and a Bearer challenge",
    rules: ["unauthenticated-401"],
    group,
    tokenless: true,
    async run(ctx, m) {
      const invalid = `conformance-invalid-${randomBytes(12).toString("hex")}`;
      expect401(ctx, await m.session.raw(toolsCall("get_workspaces", {}), invalid), "tools/call with an invalid token");
      const expired = m.target.tokens.expired;
      if (expired) expect401(ctx, await m.session.raw(toolsCall("get_workspaces", {}), expired), "tools/call with an expired token");
      else ctx.note("no expired token given (MCP_EXPIRED_TOKEN): only an invalid one was tried");
    },
  }),
  mcpCheck({
    id: "mcp-read-scope-reads",
    description: "A token with mcp:read only lists tools and calls the tools that change nothing",
    rules: ["read-scope-suffices"],
    group,
    needs: ["mcp:readonly-token"],
    async run(ctx, m) {
      const tools = await m.session.tools("readonly");
      ctx.expect(tools.length > 0, "read-scope-suffices", "tools/list with a read-only token listed nothing");
      expectOk(ctx, await m.session.call("get_workspaces", {}, "readonly"), "read-scope-suffices");
      const brandId = await m.jobs.brandId(ctx);
      expectOk(ctx, await m.session.call("get_profile", { brandId }, "readonly"), "read-scope-suffices");
    },
  }),
  mcpCheck({
    id: "mcp-write-without-scope-403",
    description: "A write with a token lacking mcp:write is refused with HTTP 403 insufficient_scope, and the post is unchanged",
    rules: ["insufficient-scope-403"],
    group,
    needs: ["mcp:readonly-token"],
    async run(ctx, m) {
      const rule = "insufficient-scope-403";
      const id = await m.jobs.claimPost(ctx, "the write-scope check");
      const before = (await viewPost(ctx, m, id, rule)).contentDigest;
      const res = await m.session.raw(toolsCall("update_post", { id, caption: "Conformance run: written without mcp:write." }), m.session.token("readonly"));
      ctx.expect(res.status === 403, rule, `update_post with a read-only token answered HTTP ${res.status}, expected 403: ${res.text.slice(0, 200)}`);
      const said = `${res.header("www-authenticate") ?? ""} ${res.text}`;
      ctx.expect(/insufficient_scope/.test(said), rule, `the 403 does not say insufficient_scope (WWW-Authenticate ${show(res.header("www-authenticate"))}, body ${res.text.slice(0, 200)})`);
      const after = (await viewPost(ctx, m, id, rule)).contentDigest;
      ctx.expect(after === before, rule, `the refused write changed post ${id} (digest ${before} → ${after})`);
    },
  }),
  mcpCheck({
    id: "mcp-partner-not-found",
    description: "A token of a partner client with no configured partner gets partner_not_found on every call",
    rules: ["partner-not-found"],
    group,
    needs: ["mcp:partner-unconfigured-token"],
    async run(ctx, m) {
      expectError(ctx, await m.session.call("get_workspaces", {}, "partnerUnconfigured"), { code: "partner_not_found", rule: "partner-not-found" });
      const call = (await probeCall(m)) as { params: { arguments: Record<string, unknown> } };
      expectError(ctx, await m.session.call("get_profile", call.params.arguments, "partnerUnconfigured"), { code: "partner_not_found", rule: "partner-not-found" });
    },
  }),
];
