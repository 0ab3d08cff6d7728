// A walk as a replay file's text (`--replay FILE`; conformance/replay.ts reads it back, by the format its suite names).
export const replayText = (format: string, steps: readonly unknown[], from: string): string => JSON.stringify({ format, from, steps: [...steps] });
