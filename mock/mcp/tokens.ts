// Fixed test tokens of the MCP gateway mock. They are test credentials of a local mock, not secrets, but the
// mock still never logs them.
import { catalogue } from "../../generated/mcp/errors.js";
import type { Principal, Scope } from "./context.js";

export interface McpTestToken {
  token: string;
  kind: "partner" | "user";
  tenant: string;
  scopes: Scope[];
  partnerConfigured: boolean;
  /** The gateway cannot get access for this partner client: every call fails with partner_downstream_auth_failed. */
  downstreamAuthFails?: boolean;
  expired: boolean;
  description: string;
  /** A code every tools/call answers after its arguments passed (writes only, for writes_disabled). */
  failsWith?: string;
}

const rw: Scope[] = ["mcp:read", "mcp:write"];

/** Who a known token acts as: what every tool handler is told about its caller. */
export function principalOf(known: McpTestToken): Principal {
  return {
    token: known.token,
    kind: known.kind,
    tenant: known.tenant,
    scopes: new Set(known.scopes),
    partnerConfigured: known.partnerConfigured,
    ...(known.failsWith ? { failsWith: known.failsWith } : {}),
    ...(known.downstreamAuthFails ? { downstreamAuthFails: true } : {}),
  };
}

export const mcpTestTokens: McpTestToken[] = [
  { token: "mcp_partner", kind: "partner", tenant: "partner-acme", scopes: rw, partnerConfigured: true, expired: false, description: "partner backend: sees partner-only tools, runs its clients' workspaces" },
  { token: "mcp_user", kind: "user", tenant: "user-alex", scopes: rw, partnerConfigured: true, expired: false, description: "signed-in user with two workspaces" },
  { token: "mcp_readonly", kind: "user", tenant: "user-alex", scopes: ["mcp:read"], partnerConfigured: true, expired: false, description: "the same user with mcp:read only (writes get HTTP 403 insufficient_scope)" },
  { token: "mcp_other_user", kind: "user", tenant: "user-blake", scopes: rw, partnerConfigured: true, expired: false, description: "another tenant: cannot reach the others' workspaces" },
  { token: "mcp_partner_unconfigured", kind: "partner", tenant: "partner-none", scopes: rw, partnerConfigured: false, expired: false, description: "a partner client with no partner configured: every call fails with partner_not_found" },
  { token: "mcp_partner_downstream_fails", kind: "partner", tenant: "partner-acme", scopes: rw, partnerConfigured: true, downstreamAuthFails: true, expired: false, description: "the partner, but the gateway cannot get access for its client: every call fails with partner_downstream_auth_failed (retryable; the token stays good)" },
  { token: "mcp_expired", kind: "user", tenant: "user-alex", scopes: rw, partnerConfigured: true, expired: true, description: "expired: HTTP 401 with WWW-Authenticate" },
];

/** Prefix of the situation tokens: `mcp_fails_<code>` is `mcp_user` in the situation that answers `<code>`. */
export const situationPrefix = "mcp_fails_";

/**
 * The codes a situation token may name: the common codes the catalogue gives to every tool that no caller can
 * provoke (a lapsed plan, writes switched off, the service or the identity provider failing), and
 * upstream_<status> for a 4xx or 5xx refusal the gateway does not recognise.
 */
const situationCodes = new Set(
  catalogue.filter((e) => e.kind === "envelope" && e.group === "common" && !["bad_request", "not_found", "forbidden"].includes(e.code) && !e.code.startsWith("partner_")).map((e) => e.code),
);

// rule: common-codes-meaning upstream-status-retryable
/** The test token for a situation token (`mcp_fails_internal_error`, `mcp_fails_upstream_409`), or undefined. */
export function situationToken(token: string): McpTestToken | undefined {
  if (!token.startsWith(situationPrefix)) return undefined;
  const code = token.slice(situationPrefix.length);
  const upstream = /^upstream_([45]\d\d)$/.exec(code);
  if (!situationCodes.has(code) && !upstream) return undefined;
  const user = mcpTestTokens.find((t) => t.token === "mcp_user")!;
  return { ...user, token, failsWith: code, description: `mcp_user, every call answering ${code}` };
}
