// Rewriting the MCP mock's JSON-RPC traffic for mutants: the tools/call a request makes, a result's payload kept
// in step in structuredContent.data and content[0].text, rewrites of answers and of calls, and calls straight to
// the mock. Shared by every file of the MCP mutant catalogue.
import { randomUUID } from "node:crypto";
import manifest from "../../../generated/mcp/tools.json" with { type: "json" };
import type { Answer, Exchange, Mutant, ProxyContext } from "../rest/proxy.js";

export type Result = { content?: { type: string; text?: string }[]; structuredContent?: { data?: any }; isError?: boolean; [k: string]: unknown };
export interface Call {
  name: string;
  args: Record<string, any>;
}


/** The tools/call a request makes, if it is one. */
export function callOf(req: Exchange): Call | undefined {
  const b = req.body;
  if (!b || typeof b !== "object" || Array.isArray(b) || b.method !== "tools/call") return undefined;
  return { name: String(b.params?.name ?? ""), args: b.params?.arguments ?? {} };
}

/** A result with a new payload: structuredContent.data and content[0].text together. */
export const withData = (result: Result, data: unknown): Result => ({ ...result, structuredContent: { data }, content: [{ type: "text", text: JSON.stringify(data) }] });
export const dataOf = (result: Result): any => result.structuredContent?.data;
export const errorOf = (result: Result): any => (result.isError && dataOf(result)?.ok === false ? dataOf(result).error : undefined);
export const isSuccess = (result: Result) => !result.isError && dataOf(result) !== undefined;

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
export function onCall(rewrite: (call: Call, req: Exchange, ctx: ProxyContext) => Promise<Partial<Exchange> & { args?: Record<string, any> }> | (Partial<Exchange> & { args?: Record<string, any> })): Mutant["request"] {
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

/** A tools/call straight to the mock (for mutants that act before forwarding), as the caller's token. */
export async function upstreamCall(ctx: ProxyContext, req: Exchange, name: string, args: Record<string, unknown>): Promise<any> {
  const res: Answer = await ctx.upstream("POST", req.path, req.token, { jsonrpc: "2.0", id: `mutant-${randomUUID()}`, method: "tools/call", params: { name, arguments: args } }, {
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": req.headers["mcp-protocol-version"] ?? "2025-06-18",
  });
  return (res.body?.result as Result | undefined)?.structuredContent?.data;
}

/** tools/list with one tool's output (or every tool's, "*") declared only as an object (the seed: "a few tools declare only that"). */
export function onlyObjectOutput(res: Answer, tool: string): Answer {
  if (!Array.isArray(res.body?.result?.tools)) return res;
  const tools = res.body.result.tools.map((t: any) => (t.name === tool || tool === "*" ? { ...t, outputSchema: { type: "object" } } : t));
  return { ...res, body: { ...res.body, result: { ...res.body.result, tools } } };
}

/** `inner` behind a tools/list that declares `tool`'s output only as an object, so the SDK client lets a changed
 * payload through and only the contract's own schema can catch it. */
export function behindObjectOutput(tool: string, inner: NonNullable<Mutant["response"]>): NonNullable<Mutant["response"]> {
  return (req, res, ctx) => (req.body?.method === "tools/list" ? onlyObjectOutput(res, tool) : inner(req, res, ctx));
}

/** Rewrites `tool`'s successful payloads (a copy; text kept in step), behind an object-only output declaration. */
export function onPayload(tool: string, rewrite: (data: any, call: Call, result: Result) => any, when: (call: Call, req: Exchange) => boolean = () => true): NonNullable<Mutant["response"]> {
  return behindObjectOutput(tool, onResult((c, r, req) => c.name === tool && isSuccess(r) && when(c, req), (r, c) => withData(r, rewrite(structuredClone(dataOf(r)), c, r)))!);
}

/** Rewrites an error's fields when its code is `code`. */
export const onError = (code: string, rewrite: (e: any) => any) => onResult((_c, r) => errorOf(r)?.code === code, (r) => withData(r, { ...dataOf(r), error: rewrite({ ...errorOf(r) }) }));

/** tools/list shows `tool` (its contract definition) to every token, as if it were not partner-only. */
export const listedToEveryToken =
  (tool: string): NonNullable<Mutant["response"]> =>
  (req, res) => {
    if (req.body?.method !== "tools/list" || !Array.isArray(res.body?.result?.tools) || res.body.result.tools.some((t: any) => t.name === tool)) return res;
    const extra = (manifest as { tools: { name: string }[] }).tools.find((t) => t.name === tool)!;
    return { ...res, body: { ...res.body, result: { ...res.body.result, tools: [...res.body.result.tools, extra] } } };
  };
