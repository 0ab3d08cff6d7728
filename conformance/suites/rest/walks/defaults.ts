// The REST walks a run makes by default; kept apart so the CLI's help can name them without loading the suite.
/** What `npm run conformance` runs by default: a few short walks, about as long as the slowest scripted check. */
export const defaultWalks = { walks: 6, steps: 20 } as const;
