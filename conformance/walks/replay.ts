// A walk as a file (`--replay FILE`): the steps of one walk, as the report of a failing walk prints them, so a
// shrunk failure can be run again on its own (and against a fixed target, to see it pass).
import { describeStep, type Step } from "./steps.js";

export const replayFormat = "ideas-contract/rest-walk@1";

export interface ReplayFile {
  format: typeof replayFormat;
  /** Where the walk came from (run seed and walk number), for people. */
  from?: string;
  steps: Step[];
}

const ops = new Set(["create-brand", "patch-brand", "get-brand", "create-batch", "get-batch", "feedback", "predict", "wait", "unknown-id", "other-team"]);

/** The steps of a replay file's text; throws a one-line error for anything else. */
export function parseReplay(text: string, where = "the replay file"): Step[] {
  let data: any;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new Error(`${where} is not JSON: ${(err as Error).message}`);
  }
  if (data?.format !== replayFormat) throw new Error(`${where} is not a walk (format ${JSON.stringify(data?.format)}, expected "${replayFormat}")`);
  if (!Array.isArray(data.steps) || !data.steps.length) throw new Error(`${where} holds no steps`);
  for (const [i, s] of data.steps.entries()) {
    if (!s || typeof s !== "object" || !ops.has(s.op)) throw new Error(`${where}: step ${i + 1} is not a step of a walk (${JSON.stringify(s)?.slice(0, 80)})`);
    // Touch every field a step's description reads, so a malformed step fails here rather than mid-run.
    describeStep(s as Step);
  }
  return data.steps as Step[];
}

export const replayText = (steps: readonly Step[], from: string): string => JSON.stringify({ format: replayFormat, from, steps: [...steps] } satisfies ReplayFile);
