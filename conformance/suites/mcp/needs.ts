// What an MCP check may need from its target (extension.ts, mcpUnmetNeed, says why each is unmet).
export type McpNeed =
  /** A normal MCP token (every check that calls a tool). */
  | "token"
  /** An MCP token with mcp:read only. */
  | "mcp:readonly-token"
  /** An MCP partner token (sees the partner-only tools). */
  | "mcp:partner-token"
  /** An MCP token of another tenant. */
  | "mcp:other-tenant-token"
  /** An MCP token of a partner client with no partner configured. */
  | "mcp:partner-unconfigured-token"
  /** The tools in development are exercised too (--mcp-profile all). */
  | "mcp:profile-all"
  /** publish_post_now may really publish (mcp.inputs.allow_publishing). */
  | "mcp:publishing-allowed"
  /** A website whose build fails. */
  | "trigger:mcp-website-fails-build"
  /** Briefs that fail some slots of a batch, or all of them. */
  | "trigger:mcp-brief-partial"
  | "trigger:mcp-brief-fails"
  /** Captions the provider refuses, every time or once. */
  | "trigger:mcp-caption-refused"
  | "trigger:mcp-caption-refused-once"
  /** The target file lets the run spend picture renders on request, batches of a check's own, profile builds (mcp.cost). */
  | "mcp:cost-renders"
  | "mcp:cost-extra-batches"
  | "mcp:cost-builds";
