// The MCP walks a run makes by default; kept apart so the CLI's help can name them without loading the suite (and
// its optional peers).
/** More walks than REST's, as each dwells on clients or on posts (half of them each). */
export const defaultMcpWalks = { walks: 8, steps: 20 } as const;
