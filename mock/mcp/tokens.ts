// Fixed test tokens of the MCP gateway mock. They are test credentials of a local mock, not secrets, but the
// mock still never logs them.
import type { Scope } from "./context.js";

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
}

const rw: Scope[] = ["mcp:read", "mcp:write"];

export const mcpTestTokens: McpTestToken[] = [
  { token: "mcp_partner", kind: "partner", tenant: "partner-acme", scopes: rw, partnerConfigured: true, expired: false, description: "partner backend: sees partner-only tools, runs its clients' workspaces" },
  { token: "mcp_user", kind: "user", tenant: "user-alex", scopes: rw, partnerConfigured: true, expired: false, description: "signed-in user with two workspaces" },
  { token: "mcp_readonly", kind: "user", tenant: "user-alex", scopes: ["mcp:read"], partnerConfigured: true, expired: false, description: "the same user with mcp:read only (writes get HTTP 403 insufficient_scope)" },
  { token: "mcp_other_user", kind: "user", tenant: "user-blake", scopes: rw, partnerConfigured: true, expired: false, description: "another tenant: cannot reach the others' workspaces" },
  { token: "mcp_partner_unconfigured", kind: "partner", tenant: "partner-none", scopes: rw, partnerConfigured: false, expired: false, description: "a partner client with no partner configured: every call fails with partner_not_found" },
  { token: "mcp_partner_downstream_fails", kind: "partner", tenant: "partner-acme", scopes: rw, partnerConfigured: true, downstreamAuthFails: true, expired: false, description: "the partner, but the gateway cannot get access for its client: every call fails with partner_downstream_auth_failed (retryable; the token stays good)" },
  { token: "mcp_expired", kind: "user", tenant: "user-alex", scopes: rw, partnerConfigured: true, expired: true, description: "expired: HTTP 401 with WWW-Authenticate" },
];
