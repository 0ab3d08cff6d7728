// What an MCP check may need from its target besides the target-file slots of its rules (slots.ts, which the runner
// checks); extension.ts, mcpUnmetNeed, says why each is unmet.
export type McpNeed =
  /** A normal MCP token (every check that calls a tool). */
  | "token"
  /** An MCP partner token (sees the partner-only tools), for a check whose rules do not name mcp.tokens.partner. */
  | "mcp:partner-token"
  /** The tools in development are exercised too (--mcp-profile all). */
  | "mcp:profile-all"
  /** The target file lets the run spend picture renders on request, batches of a check's own, profile builds (mcp.cost). */
  | "mcp:cost-renders"
  | "mcp:cost-extra-batches"
  | "mcp:cost-builds";
