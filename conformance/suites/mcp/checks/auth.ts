// Authentication at the HTTP level (401 with a challenge, 403 insufficient_scope) and in the envelope
// (partner_not_found), with raw JSON-RPC requests for what happens before MCP.
import type { RuleId } from "../../../../generated/rules.js";
import { namesBearerChallenge } from "../../../core/challenge.js";
import { randomBytes } from "node:crypto";
import type { RunContext } from "../../../core/check.js";
import { toolsCall } from "../client.js";
import { contractTool, contractTools, expectedTools } from "../contract.js";
import type { Credential } from "../../../core/http.js";
import { expectError, expectOk } from "../expect.js";
import type { McpContext } from "../extension.js";
import type { McpHttpResponse } from "../http.js";
import { probeOf, show, viewPost, type McpCheck } from "./common.js";
import { claimPost } from "./batch-scenario.js";
import { brandIdOrSkip, brandUnderTest } from "./brand-under-test.js";

/** The contract tools the normal token sees that match `where` (partner-only ones never: no scope check reaches them). */
async function listed(m: McpContext, where: (readOnly: boolean) => boolean): Promise<string[]> {
  const live = new Set((await m.session.tools("normal")).map((t) => t.name));
  return contractTools.filter((t) => live.has(t.name) && !t.meta.partnerOnly && where(t.annotations?.readOnlyHint === true)).map((t) => t.name);
}

const group = "mcp-auth";

/** A 401 with a challenge and no envelope (`rule`); that the challenge names Bearer is bearer-challenge/<member>, inferred. */
function expect401(ctx: RunContext, res: McpHttpResponse, what: string, rule: RuleId, member: "missing" | "invalid" | "expired"): void {
  ctx.expect(res.status === 401, rule, `${what}: answered HTTP ${res.status}, expected 401: ${res.text.slice(0, 200)}`);
  const challenge = res.header("www-authenticate");
  ctx.expect(challenge !== undefined && challenge.trim() !== "", rule, `${what}: WWW-Authenticate is ${challenge === undefined ? "missing" : show(challenge)}, expected a challenge`);
  if (challenge?.trim()) ctx.expect(namesBearerChallenge(challenge), `bearer-challenge/${member}`, `${what}: WWW-Authenticate is ${show(challenge)}, which names no Bearer challenge`);
  ctx.expect(!/"ok"\s*:\s*false/.test(res.text), rule, `${what}: the 401 carries a tool envelope`);
}

interface AuthVariant {
  what: string;
  auth: Credential | { authorization: string } | undefined;
}

/**
 * Arguments for `tool` naming what exists where the normal token reaches it (the brand under test, its workspace),
 * ids nobody issued elsewhere: a refusal at HTTP level must hold against real resources, and a gateway that lets the
 * variant through touches nothing real when the tool changes data.
 */
async function realArgs(m: McpContext, tool: string): Promise<Record<string, unknown>> {
  const args = probeOf(m, tool);
  if (!m.target.tokens.normal || contractTool.get(tool)?.annotations?.readOnlyHint !== true) return args;
  const b = await brandUnderTest(m);
  if ("brandId" in args && b.brandId) args.brandId = b.brandId;
  if ("workspaceId" in args && b.companyId) args.workspaceId = b.companyId;
  return args;
}

/** Each variant sent to tools/list and to every tool of the contract (partner-only ones too: 401 comes before any tool). */
async function expect401Everywhere(ctx: RunContext, m: McpContext, variants: readonly AuthVariant[], rule: RuleId, member: "missing" | "invalid" | "expired"): Promise<void> {
  const tools = expectedTools(m.target.profile, true).map((t) => t.name);
  const calls = await Promise.all(tools.map(async (tool) => ({ tool, message: toolsCall(tool, await realArgs(m, tool)) })));
  const list = { tool: "tools/list", message: { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} } };
  await Promise.all(
    variants.flatMap((v) => [list, ...calls].map(async (c) => expect401(ctx, await m.session.raw(c.message, v.auth), `${c.tool} ${v.what}`, rule, member))),
  );
}

/** A tools/call of the brand's profile: any tool would do; 401 comes before tools. */
async function probeCall(m: McpContext): Promise<unknown> {
  const b = await brandUnderTest(m);
  return toolsCall("get_profile", { brandId: b.brandId ?? "conformance" });
}

export const authChecks: McpCheck[] = [
  {
    id: "mcp-no-token-401",
    description: "Every tool (and tools/list) refuses a request with no bearer token — no Authorization header, another scheme (Token, Basic) carrying a valid token, an empty Bearer — with HTTP 401 and a Bearer challenge, no envelope",
    rules: ["unauthenticated-401/missing", "bearer-challenge/missing"],
    group,
    tokenless: true,
    async run(ctx) {
      const m = ctx.mcp;
      const token = m.target.tokens.normal;
      const variants: AuthVariant[] = [
        { what: "without a token", auth: undefined },
        { what: "with an empty Bearer", auth: { authorization: "Bearer " } },
        // A valid token under a scheme that is not Bearer: no bearer token was sent.
        ...(token
          ? [
              { what: "with a valid token under another scheme (Token)", auth: { authorization: `Token ${token}` } },
              { what: "with a valid token under the Basic scheme", auth: { authorization: `Basic ${token}` } },
            ]
          : []),
      ];
      await expect401Everywhere(ctx, m, variants, "unauthenticated-401/missing", "missing");
    },
  },
  {
    id: "mcp-bad-token-401",
    description: "Every tool (and tools/list) refuses an invalid bearer token — one nobody issued, a valid one with no space after Bearer — with HTTP 401 and a Bearer challenge",
    rules: ["unauthenticated-401/invalid", "bearer-challenge/invalid"],
    group,
    tokenless: true,
    async run(ctx) {
      const m = ctx.mcp;
      const token = m.target.tokens.normal;
      const variants: AuthVariant[] = [
        { what: "with a token nobody issued", auth: { bearer: `conformance-invalid-${randomBytes(12).toString("hex")}` } },
        // RFC 6750: "Bearer" 1*SP token. Glued to the scheme, the header is malformed, whatever the token.
        ...(token ? [{ what: "with a malformed header (no space after Bearer)", auth: { authorization: `Bearer${token}` } }] : []),
      ];
      await expect401Everywhere(ctx, m, variants, "unauthenticated-401/invalid", "invalid");
    },
  },
  {
    id: "mcp-expired-token-401",
    description: "Every tool (and tools/list) refuses an expired token with HTTP 401 and a Bearer challenge",
    rules: ["expired-token-401", "bearer-challenge/expired"],
    group,
    tokenless: true,
    async run(ctx) {
      const m = ctx.mcp;
      await expect401Everywhere(ctx, m, [{ what: "with an expired token", auth: m.session.credential("expired") }], "expired-token-401", "expired");
    },
  },
  {
    id: "mcp-read-scope-reads",
    description: "A token with mcp:read only lists tools and reaches every tool that changes nothing",
    rules: ["read-scope-suffices"],
    group,
    async run(ctx) {
      const m = ctx.mcp;
      const tools = await m.session.tools("readonly");
      ctx.expect(tools.length > 0, "read-scope-suffices", "tools/list with a read-only token listed nothing");
      const token = m.session.credential("readonly");
      for (const tool of await listed(m, (readOnly) => readOnly)) {
        // rule: read-scope-suffices/<tool>. Reached = a tool result (success or the tool's own refusal), not HTTP 403.
        const res = await m.session.raw(toolsCall(tool, probeOf(m, tool)), token);
        ctx.expect(res.status === 200 && !!res.body?.result, `read-scope-suffices/${tool}`, `${tool} with a read-only token answered HTTP ${res.status}: ${res.text.slice(0, 200)}`);
      }
      const brandId = await brandIdOrSkip(ctx, m);
      expectOk(ctx, await m.session.call("get_profile", { brandId }, "readonly"), "read-scope-suffices/get_profile");
    },
  },
  {
    id: "mcp-write-without-scope-403",
    description: "Every write with a token lacking mcp:write is refused with HTTP 403 insufficient_scope, and a real post is unchanged",
    rules: ["insufficient-scope-403"],
    group,
    async run(ctx) {
      const m = ctx.mcp;
      const token = m.session.credential("readonly");
      const expect403 = (res: McpHttpResponse, tool: string) => {
        const rule: RuleId = `insufficient-scope-403/${tool}`;
        ctx.expect(res.status === 403, rule, `${tool} with a read-only token answered HTTP ${res.status}, expected 403: ${res.text.slice(0, 200)}`);
        const said = `${res.header("www-authenticate") ?? ""} ${res.text}`;
        ctx.expect(/insufficient_scope/.test(said), rule, `${tool}: the 403 does not say insufficient_scope (WWW-Authenticate ${show(res.header("www-authenticate"))}, body ${res.text.slice(0, 200)})`);
      };
      for (const tool of await listed(m, (readOnly) => !readOnly)) expect403(await m.session.raw(toolsCall(tool, probeOf(m, tool)), token), tool);
      const rule = "insufficient-scope-403/update_post";
      const id = await claimPost(ctx, m, "the write-scope check");
      const before = (await viewPost(ctx, m, id, rule)).contentDigest;
      expect403(await m.session.raw(toolsCall("update_post", { id, caption: "Conformance run: written without mcp:write." }), token), "update_post");
      const after = (await viewPost(ctx, m, id, rule)).contentDigest;
      ctx.expect(after === before, rule, `the refused write changed post ${id} (digest ${before} → ${after})`);
    },
  },
  {
    id: "mcp-partner-not-found",
    description: "A token of a partner client with no configured partner gets partner_not_found on every call",
    rules: ["partner-not-found"],
    group,
    async run(ctx) {
      const m = ctx.mcp;
      const live = new Set((await m.session.tools("normal")).map((t) => t.name));
      for (const t of contractTools.filter((t) => !t.meta.partnerOnly && live.has(t.name)))
        expectError(ctx, await m.session.callRaw(t.name, probeOf(m, t.name), "partnerUnconfigured"), { code: "partner_not_found", rule: `partner-not-found/${t.name}` });
      const call = (await probeCall(m)) as { params: { arguments: Record<string, unknown> } };
      expectError(ctx, await m.session.callRaw("get_profile", call.params.arguments, "partnerUnconfigured"), { code: "partner_not_found", rule: "partner-not-found/get_profile" });
    },
  },
];
