// Refusals of inputs the seed says are refused (an argument a tool does not take, a value past a documented limit,
// a brandId that is no UUID). Seed 001 fixes the form only for input-schema violations: refused before the tool
// runs, with no envelope (Conventions 2). So where the gateway's own advertised input schema refuses the input, that
// form is the seed's; where the live schema lets it through (the live list is right), a bad_request in the envelope
// refuses it too, and refusing it before the tool runs is our design (refused-before-tool-runs/<tool>, inferred).
import type { Judge } from "../../core/judge.js";
import type { CallOutcome } from "./client.js";
import { contractTool, liveProblems } from "./contract.js";
import { describeCall, errorOf, expectConventions, expectRefusedFirst, forTool } from "./expect.js";
import type { McpContext } from "./extension.js";
import { refusedFirst } from "./inferred-inputs.js";

export const refusedFirstRule = "refused-before-tool-runs";

/** Whether the live input schema of the call's tool refuses its arguments (the contract's schema when the live one is unusable). */
export async function liveSchemaRefuses(m: McpContext, o: CallOutcome): Promise<boolean> {
  const live = (await m.session.tools(o.as)).find((t) => t.name === o.tool);
  const contract = contractTool.get(o.tool)?.inputSchema;
  if (!live) return contract === undefined || liveProblems(contract, o.args).length > 0;
  return liveProblems(live.inputSchema, o.args, contract).length > 0;
}


/**
 * A call the seed says is refused: before the tool runs when the live input schema refuses it (Conventions 2),
 * otherwise before it runs or with bad_request in the envelope; the latter is drift on refused-before-tool-runs.
 * Returns whether the seed rule's case passed.
 */
export async function expectRefusal(ctx: Judge, m: McpContext, o: CallOutcome, rule: string | readonly string[]): Promise<boolean> {
  if (await liveSchemaRefuses(m, o)) {
    const ok = expectRefusedFirst(ctx, o, rule);
    ctx.expect(ok, forTool(refusedFirstRule, o.tool), `${describeCall(o)}: not refused before the tool ran`);
    return ok;
  }
  expectConventions(ctx, o);
  const inEnvelope = o.result?.isError === true && errorOf(o)?.code === "bad_request";
  const ok = ctx.expect(refusedFirst(o) || inEnvelope, rule, `${describeCall(o)}: expected a refusal (before the tool runs, or bad_request in the envelope)`);
  ctx.expect(!inEnvelope && ok, forTool(refusedFirstRule, o.tool), `${describeCall(o)}: refused with bad_request after the tool ran; the contract states this refusal in the input schema, so it comes before the tool runs`);
  return ok;
}

