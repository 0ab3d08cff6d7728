// Refusals of inputs the seed says are refused (an argument a tool does not take, a value past a documented limit,
// a brandId that is no UUID). Seed 001 fixes the form only for input-schema violations: refused before the tool
// runs, with no envelope (Conventions 2). So where the gateway's own advertised input schema refuses the input, that
// form is the seed's; where the live schema lets it through (the live list is right), a bad_request in the envelope
// refuses it too, and refusing it before the tool runs is our design (refused-before-tool-runs/<tool>, inferred).
import type { Judge } from "../judge.js";
import type { CallOutcome } from "./client.js";
import { contractTool, liveProblems } from "./contract.js";
import { describeCall, errorOf, expectConventions, expectRefusedFirst, forTool, isEnvelope } from "./expect.js";
import type { McpContext } from "./extension.js";

export const refusedFirstRule = "refused-before-tool-runs";

/** Whether the live input schema of the call's tool refuses its arguments (the contract's schema when the live one is unusable). */
export async function liveSchemaRefuses(m: McpContext, o: CallOutcome): Promise<boolean> {
  const live = (await m.session.tools(o.as)).find((t) => t.name === o.tool);
  const contract = contractTool.get(o.tool)?.inputSchema;
  if (!live) return contract === undefined || liveProblems(contract, o.args).length > 0;
  return liveProblems(live.inputSchema, o.args, contract).length > 0;
}

/** Refused before the tool ran: a JSON-RPC error, or isError with no envelope. */
const refusedFirst = (o: CallOutcome) => o.error?.kind === "rpc" || (o.result?.isError === true && !isEnvelope(o.data));

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

/** The inferred rule a refusal of a designed (inferred) argument falls under: the live tool tightened our design. */
export const inferredInputRule = "inferred-input-not-tightened";

/** The arguments of a tool the seed does not define: marked inferred in the contract, or all of a tool it only names. */
export function inferredArguments(tool: string): Set<string> {
  const t = contractTool.get(tool);
  const props: Record<string, { "x-contract-source"?: string }> = t?.inputSchema.properties ?? {};
  return new Set(Object.keys(props).filter((k) => t?.meta.source === "inferred" || props[k]?.["x-contract-source"] === "inferred"));
}

/** The argument a field of invalidFields names (`platforms[0]`, `reddit.subreddit`, `/mediaIds/0` → its argument). */
const argumentOf = (field: unknown) => String(field).replace(/^\//, "").split(/[.[/]/)[0]!;

/**
 * Why a call was refused only for arguments the seed does not define and the gateway does not take (its live input
 * schema does not list them), or undefined when it was not: an input the contract takes (so no check expects it
 * refused), refused in the envelope with bad_request (invalidFields, when given, naming only such arguments), or
 * before the tool ran by a live input schema that takes the call without them. A gateway without an argument of our
 * design differs from the design, not from the seed: such a refusal is drift on inferred-input-not-tightened, never
 * a failure of the seed rule the call was made for.
 */
export async function inferredInputRefused(m: McpContext, o: CallOutcome): Promise<string | undefined> {
  const inferred = inferredArguments(o.tool);
  if (!Object.keys(o.args).some((k) => inferred.has(k))) return undefined;
  const inEnvelope = o.result?.isError === true && errorOf(o)?.code === "bad_request";
  if (!inEnvelope && !refusedFirst(o)) return undefined;
  const live = (await m.session.tools(o.as)).find((t) => t.name === o.tool);
  const listed: Record<string, unknown> = live?.inputSchema.properties ?? {};
  const unlisted = Object.keys(o.args).filter((k) => inferred.has(k) && !(k in listed));
  if (!live || !unlisted.length) return undefined;
  if (liveProblems(contractTool.get(o.tool)!.inputSchema, o.args).length) return undefined;
  if (inEnvelope) {
    const named = errorOf(o)?.invalidFields;
    if (Array.isArray(named) && named.length && !named.every((f) => unlisted.includes(argumentOf(f)))) return undefined;
  } else {
    const without = Object.fromEntries(Object.entries(o.args).filter(([k]) => !unlisted.includes(k)));
    if (liveProblems(live.inputSchema, without).length) return undefined;
  }
  return `${describeCall(o)}: refused ${unlisted.join(", ")}, arguments of the contract's design that the seed does not define and the gateway's input schema does not list; what the check needed them for cannot be made against this gateway`;
}
