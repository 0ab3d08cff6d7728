// The id of the MCP stateful walks' check (conformance/suites/mcp/walks/check.ts), written here with the other MCP check
// ids so that an id seen in a report can be found with grep.
export const mcpWalksId = "mcp-walks";
