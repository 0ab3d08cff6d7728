// Refusals of arguments the seed does not define (marked inferred in spec/mcp/tools, or of a tool the seed only
// names). A gateway without such an argument differs from our design, not from the seed: a check whose call it
// refuses ends as drift on inferred-input-not-tightened (the MCP session wraps every call: extension.ts).
import type { RuleRef } from "../../core/judge.js";
import type { CallOutcome, McpSession } from "./client.js";
import { contractTool, liveProblems } from "./contract.js";
import { describeCall, errorOf, forTool, isEnvelope } from "./expect.js";

/** Refused before the tool ran: a JSON-RPC error, or isError with no envelope. */
export const refusedFirst = (o: CallOutcome) => o.error?.kind === "rpc" || (o.result?.isError === true && !isEnvelope(o.data));

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
export async function inferredInputRefused(session: McpSession, o: CallOutcome): Promise<string | undefined> {
  const inferred = inferredArguments(o.tool);
  if (!Object.keys(o.args).some((k) => inferred.has(k))) return undefined;
  const inEnvelope = o.result?.isError === true && errorOf(o)?.code === "bad_request";
  if (!inEnvelope && !refusedFirst(o)) return undefined;
  const live = (await session.tools(o.as)).find((t) => t.name === o.tool);
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

/**
 * Makes a check's session end the check as drift (through `fail`) on a call refused only for arguments of our design,
 * before a seed rule is judged on what could not be made. Wrapped at callRaw, which every call goes through, typed
 * or not; every session a check calls with needs it (its own, and one it makes for a token of the target file).
 */
export function endingAsDrift(session: McpSession, fail: (rules: RuleRef, message: string) => never): McpSession {
  const callRaw = session.callRaw.bind(session);
  session.callRaw = async <N extends string>(tool: N, args?: Record<string, unknown>, as?: Parameters<typeof callRaw>[2]) => {
    const o = await callRaw(tool, args, as);
    const why = await inferredInputRefused(session, o);
    if (why) fail(forTool(inferredInputRule, o.tool), why);
    return o;
  };
  return session;
}
