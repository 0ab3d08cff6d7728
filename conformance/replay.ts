// A walk as a file (`--replay FILE`): the steps of one walk, as the report of a failing walk prints them, so a
// shrunk failure can be run again on its own (and against a fixed target, to see it pass). The format names the
// protocol: a REST walk replays in rest-walks, an MCP walk in mcp-walks.
import { describeMcpStep, mcpOps, mcpReplayFormat } from "./suites/mcp/walks/steps.js";
import { describeStep, restOps, restReplayFormat } from "./suites/rest/walks/steps.js";
export { replayText } from "./core/walks/replay-file.js";

export const replayFormats = { rest: restReplayFormat, mcp: mcpReplayFormat } as const;
export type ReplayFormat = (typeof replayFormats)[keyof typeof replayFormats];

/** A replay file, read: its format and steps (each checked against its protocol's steps). */
export interface WalkReplay {
  format: ReplayFormat;
  /** Where the walk came from (run seed and walk number), for people. */
  from?: string;
  steps: unknown[];
}

const protocols: Record<ReplayFormat, { ops: ReadonlySet<string>; describe: (s: any) => string }> = {
  [replayFormats.rest]: { ops: restOps, describe: describeStep },
  [replayFormats.mcp]: { ops: mcpOps, describe: describeMcpStep },
};

/** The walk of a replay file's text; throws a one-line error for anything else. */
export function parseReplay(text: string, where = "the replay file"): WalkReplay {
  let data: any;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new Error(`${where} is not JSON: ${(err as Error).message}`);
  }
  const protocol = protocols[data?.format as ReplayFormat];
  if (!protocol) throw new Error(`${where} is not a walk (format ${JSON.stringify(data?.format)}, expected ${Object.values(replayFormats).map((f) => `"${f}"`).join(" or ")})`);
  if (!Array.isArray(data.steps) || !data.steps.length) throw new Error(`${where} holds no steps`);
  for (const [i, s] of data.steps.entries()) {
    if (!s || typeof s !== "object" || !protocol.ops.has(s.op)) throw new Error(`${where}: step ${i + 1} is not a step of a walk (${JSON.stringify(s)?.slice(0, 80)})`);
    // Touch every field a step's description reads, so a malformed step fails here rather than mid-run.
    protocol.describe(s);
  }
  return { format: data.format, ...(typeof data.from === "string" ? { from: data.from } : {}), steps: data.steps };
}

