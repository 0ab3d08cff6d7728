// The walks a run makes by default; kept apart so the CLI's help can name them without loading the suite (and its
// optional peers).
/** What `npm run conformance` runs by default: a few short walks, about as long as the slowest scripted check. */
export const defaultWalks = { walks: 6, steps: 20 } as const;
/** The MCP walks' default: more of them, as each dwells on clients or on posts (half of them each). */
export const defaultMcpWalks = { walks: 8, steps: 20 } as const;
