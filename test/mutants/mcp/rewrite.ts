// Rewriting the MCP mock's JSON-RPC traffic for mutants: the tools/call a request makes, a result's payload kept
// in step in structuredContent.data and content[0].text, rewrites of answers and of calls, and calls straight to
// the mock. Shared by every file of the MCP mutant catalogue.
import { randomUUID } from "node:crypto";
import { toolsManifest } from "../../../entry/tools.js";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import type { Answer, Exchange, Mutant, ProxyContext } from "../rest/proxy.js";
import type { ErrorDetail, ToolName, ToolOutputs } from "../../../generated/mcp/types.js";
import type { JsonObject } from "../../../lib/schema-walk.js";
import { at, isFields, type Fields } from "../../support/json.js";
import { isEnvelope } from "../../support/mcp-client.js";

export type { Fields };

export type Result = { content?: { type: string; text?: string }[]; structuredContent?: { data?: unknown }; isError?: boolean; [k: string]: unknown };
export interface Call {
  name: string;
  args: Fields;
}


/** The tools/call a request makes, if it is one. */
export function callOf(req: Exchange): Call | undefined {
  const b = req.body;
  if (!b || typeof b !== "object" || Array.isArray(b) || b.method !== "tools/call") return undefined;
  return { name: String(b.params?.name ?? ""), args: b.params?.arguments ?? {} };
}

/** A result with a new payload: structuredContent.data and content[0].text together. */
export const withData = (result: Result, data: unknown): Result => ({ ...result, structuredContent: { data }, content: [{ type: "text", text: JSON.stringify(data) }] });
/** The payload's fields, whichever tool answered (undefined when there is no object payload). */
export const dataOf = (result: Result): Fields | undefined => (isFields(result.structuredContent?.data) ? result.structuredContent.data : undefined);
/**
 * The payload of a success of `tool` (the caller has checked the call's name and isSuccess): the reference mock
 * answers its contract's output, and a mutant rewrites a copy of that.
 */
export const payloadOf = <N extends ToolName>(result: Result, tool: N): ToolOutputs[N] => asOutput(result.structuredContent?.data, tool);
/** A success payload read as `tool`'s output (the caller knows the tool answered it; see payloadOf). */
export const asOutput = <N extends ToolName>(data: unknown, _tool: N): ToolOutputs[N] => data as ToolOutputs[N];
export const errorOf = (result: Result): ErrorDetail | undefined => {
  const data = result.structuredContent?.data;
  return result.isError && isEnvelope(data) ? data.error : undefined;
};
export const isSuccess = (result: Result) => !result.isError && result.structuredContent?.data !== undefined;

/** Rewrites the CallToolResult of tools/call answers for which `when` holds. */
export function onResult(when: (call: Call, result: Result, req: Exchange) => boolean, rewrite: (result: Result, call: Call, req: Exchange) => Result): Mutant["response"] {
  return (req, res) => {
    const call = callOf(req);
    const result = res.body?.result as Result | undefined;
    if (!call || !result || !when(call, result, req)) return res;
    return { ...res, body: { ...res.body, result: rewrite(structuredClone(result), call, req) } };
  };
}

/** Rewrites a tools/call request's arguments (or its token) before it reaches the mock. */
export function onCall(rewrite: (call: Call, req: Exchange, ctx: ProxyContext) => Promise<Partial<Exchange> & { args?: Fields }> | (Partial<Exchange> & { args?: Fields })): Mutant["request"] {
  return async (req, ctx) => {
    const call = callOf(req);
    if (!call) return req;
    const { args, ...rest } = await rewrite(call, req, ctx);
    const body = args ? { ...req.body, params: { ...req.body.params, arguments: args } } : req.body;
    return { ...req, ...rest, body };
  };
}

/** A request whose `field` of `tool` is over `max` (characters or items) is cut to `max` before the mock sees it. */
export const cutTo = (tool: string, field: string, max: number): Mutant["request"] =>
  onCall((call) => {
    const value = call.args[field];
    return call.name === tool && (typeof value === "string" || Array.isArray(value)) && value.length > max ? { args: { ...call.args, [field]: value.slice(0, max) } } : {};
  });

/** A tools/call straight to the mock (for mutants that act before forwarding), as the caller's token: its payload, or undefined when it failed. */
export async function upstreamCall<N extends ToolName>(ctx: ProxyContext, req: Exchange, name: N, args: Record<string, unknown>): Promise<ToolOutputs[N] | undefined> {
  const res: Answer = await ctx.upstream("POST", req.path, req.token, { jsonrpc: "2.0", id: `mutant-${randomUUID()}`, method: "tools/call", params: { name, arguments: args } }, {
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": req.headers["mcp-protocol-version"] ?? "2025-06-18",
  });
  const result = res.body?.result as Result | undefined;
  return result && isSuccess(result) ? payloadOf(result, name) : undefined;
}

/** A tool as tools/list lists it: MCP's Tool, its schemas as the JSON they are (mutants and variants rewrite them). */
export type ListedTool = Omit<Tool, "inputSchema" | "outputSchema"> & { inputSchema: JsonObject; outputSchema?: JsonObject };

/** The tools a tools/list result lists, if it is one. */
export function toolsIn(result: unknown): ListedTool[] | undefined {
  const tools = at(result, "tools");
  return Array.isArray(tools) ? tools : undefined;
}

/** The tools a tools/list answer lists, if it is one. */
export const toolsOf = (res: Answer): ListedTool[] | undefined => toolsIn(res.body?.result);

/** A tools/list answer listing `tools` instead. */
export const withTools = (res: Answer, tools: unknown[]): Answer => ({ ...res, body: { ...res.body, result: { ...res.body.result, tools } } });

/** tools/list with one tool's output (or every tool's, "*") declared only as an object (the seed: "a few tools declare only that"). */
export function onlyObjectOutput(res: Answer, tool: string): Answer {
  const tools = toolsOf(res);
  return tools ? withTools(res, tools.map((t) => (t.name === tool || tool === "*" ? { ...t, outputSchema: { type: "object" } } : t))) : res;
}

/** `inner` behind a tools/list that declares `tool`'s output only as an object, so the SDK client lets a changed
 * payload through and only the contract's own schema can catch it. */
export function behindObjectOutput(tool: string, inner: NonNullable<Mutant["response"]>): NonNullable<Mutant["response"]> {
  return (req, res, ctx) => (req.body?.method === "tools/list" ? onlyObjectOutput(res, tool) : inner(req, res, ctx));
}

/** Rewrites every successful payload of `tool` (a copy; text kept in step); every other answer passes unchanged. */
export const onTool = <N extends ToolName>(tool: N, rewrite: (data: ToolOutputs[N], call: Call, req: Exchange) => unknown): NonNullable<Mutant["response"]> =>
  onResult((c, r) => c.name === tool && isSuccess(r), (r, c, req) => withData(r, rewrite(structuredClone(payloadOf(r, tool)), c, req)))!;

/** Rewrites `tool`'s successful payloads for which `when` holds (a copy; text kept in step); tools/list untouched. */
export function onToolSuccess<N extends ToolName>(
  tool: N,
  when: (data: ToolOutputs[N], call: Call, req: Exchange) => boolean,
  rewrite: (data: ToolOutputs[N], call: Call, result: Result) => unknown,
): NonNullable<Mutant["response"]> {
  return onResult((c, r, req) => c.name === tool && isSuccess(r) && when(payloadOf(r, tool), c, req), (r, c) => withData(r, rewrite(structuredClone(payloadOf(r, tool)), c, r)))!;
}

/**
 * Rewrites `tool`'s successful payloads (a copy; text kept in step), behind an object-only output declaration. The
 * payload comes from the reference mock, so it is the contract's output; what the mutant makes of it need not be.
 */
export function onPayload<N extends ToolName>(tool: N, rewrite: (data: ToolOutputs[N], call: Call, result: Result) => unknown, when: (call: Call, req: Exchange) => boolean = () => true): NonNullable<Mutant["response"]> {
  return behindObjectOutput(tool, onToolSuccess(tool, (_d, c, req) => when(c, req), rewrite));
}

/** Rewrites an error's fields when its code is `code`. */
export const onError = (code: string, rewrite: (e: ErrorDetail) => unknown) =>
  onResult((_c, r) => errorOf(r)?.code === code, (r) => withData(r, { ...dataOf(r), error: rewrite({ ...errorOf(r)! }) }));

/** tools/list shows `tool` (its contract definition) to every token, as if it were not partner-only. */
export const listedToEveryToken =
  (tool: string): NonNullable<Mutant["response"]> =>
  (req, res) => {
    const tools = toolsOf(res);
    if (req.body?.method !== "tools/list" || !tools || tools.some((t) => t.name === tool)) return res;
    return withTools(res, [...tools, toolsManifest.tools.find((t) => t.name === tool)!]);
  };
