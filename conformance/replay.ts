// A walk as a file (`--replay FILE`): the steps of one walk, as the report of a failing walk prints them, so a
// shrunk failure can be run again on its own (and against a fixed target, to see it pass). The format names the
// protocol: a REST walk replays in rest-walks, an MCP walk in mcp-walks.
import { isObject, memberOf } from "./core/answered.js";
import { describeMcpStep, mcpOps, mcpReplayFormat } from "./suites/mcp/walks/steps.js";
import { describeStep, restOps, restReplayFormat } from "./suites/rest/walks/steps.js";

export { replayText } from "./core/walks/replay-file.js";

export const replayFormats = { rest: restReplayFormat, mcp: mcpReplayFormat } as const;
export type ReplayFormat = (typeof replayFormats)[keyof typeof replayFormats];

const isFormat = (value: unknown): value is ReplayFormat => Object.values(replayFormats).some((f) => f === value);

/** A replay file, read: its format and steps (each checked against its protocol's steps). */
export interface WalkReplay {
  format: ReplayFormat;
  /** Where the walk came from (run seed and walk number), for people. */
  from?: string;
  steps: unknown[];
}

/** Each suite's steps: the operations a step may name, and how one reads (a method: it takes that suite's step). */
interface StepsOf {
  ops: ReadonlySet<string>;
  describe(step: unknown): string;
}

const protocols: Record<ReplayFormat, StepsOf> = {
  [replayFormats.rest]: { ops: restOps, describe: describeStep },
  [replayFormats.mcp]: { ops: mcpOps, describe: describeMcpStep },
};

/** The walk of a replay file's text; throws a one-line error for anything else. */
export function parseReplay(text: string, where = "the replay file"): WalkReplay {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new Error(`${where} is not JSON: ${(err as Error).message}`);
  }
  const format = memberOf(data, "format");
  const protocol = isFormat(format) ? protocols[format] : undefined;
  if (!isObject(data) || !isFormat(format) || !protocol) throw new Error(`${where} is not a walk (format ${JSON.stringify(format)}, expected ${Object.values(replayFormats).map((f) => `"${f}"`).join(" or ")})`);
  if (!Array.isArray(data.steps) || !data.steps.length) throw new Error(`${where} holds no steps`);
  for (const [i, s] of (data.steps as unknown[]).entries()) {
    const op = memberOf(s, "op");
    if (!isObject(s) || typeof op !== "string" || !protocol.ops.has(op)) throw new Error(`${where}: step ${i + 1} is not a step of a walk (${JSON.stringify(s)?.slice(0, 80)})`);
    // Touch every field a step's description reads, so a malformed step fails here rather than mid-run.
    protocol.describe(s);
  }
  return { format, ...(typeof data.from === "string" ? { from: data.from } : {}), steps: data.steps };
}

