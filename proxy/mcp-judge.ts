// Judges one MCP exchange (a Streamable HTTP POST) against the gateway's contract: JSON-RPC framing (JSON or an
// event stream), tools/call arguments against the tool's input schema, the result with the conformance suite's
// own assertions (conformance/suites/mcp/expect.ts: structuredContent, the text mirror, the envelope, retryable per
// catalogue, structured fields, no "cancelled"), the output schema open to additions (open-schema.ts), tools/list
// against the contract (drift notes), the rules one answer shows, and the state rules (McpState).
import type { RuleId } from "../generated/rules.js";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { liveOutputError, type CallOutcome } from "../conformance/suites/mcp/client.js";
import { compileLive, contractTool, liveProblems } from "../conformance/suites/mcp/contract.js";
import { expectConventions, expectError, expectOk, isEnvelope } from "../conformance/suites/mcp/expect.js";
import { answeredObject, memberOf, type Answered } from "../conformance/core/answered.js";
import type { ToolName, ToolOutputs } from "../generated/mcp/types.js";
import { Findings } from "./findings.js";
import { headerOf as header } from "./headers.js";
import type { McpState } from "./mcp-state.js";
import { isResponse, requestMessages, responseMessages, type Message } from "./mcp-wire.js";
import { judgeOpen } from "./open-schema.js";
import { mcpRules as R } from "./rules.js";
import type { Exchange, Verdict } from "./types.js";

const show = (v: unknown) => {
  const s = JSON.stringify(v) ?? "undefined";
  return s.length > 200 ? `${s.slice(0, 200)}…` : s;
};
const settledStatuses = new Set<unknown>(["ready", "partial", "failed"]);
/** A tool's success payload, read as the output of whichever tool answered (known only at run time). */
type Payload = Answered<ToolOutputs[ToolName]>;

/** The tool as the caller sees it: the live one from tools/list when seen, else the contract's. */
function toolOf(state: McpState, name: string): { inputSchema?: object; outputSchema?: object; live: boolean } | undefined {
  const live = state.tools.get(name);
  const contract = contractTool.get(name);
  if (!live && !contract) return undefined;
  return {
    inputSchema: (live?.inputSchema ?? contract?.inputSchema) as object | undefined,
    outputSchema: (live?.outputSchema ?? contract?.outputSchema) as object | undefined,
    live: !!live,
  };
}

/** Arguments against the input schema, each problem with the rule it breaks. */
function argumentProblems(tool: string, schema: object, args: unknown): { rule: RuleId; text: string }[] {
  const v = compileLive(schema);
  if (v instanceof Error || v(args)) return [];
  const out: { rule: RuleId; text: string }[] = [];
  for (const e of v.errors ?? []) {
    if (["anyOf", "oneOf", "if"].includes(e.keyword)) continue;
    const rule =
      e.keyword === "additionalProperties"
        ? R.unknownArgument
        : tool === "delete_profile" && (e.instancePath === "/confirm" || (e.keyword === "required" && e.params.missingProperty === "confirm"))
          ? R.deleteConfirm
          : R.refusedFirst;
    const extra = e.keyword === "additionalProperties" ? ` (${e.params.additionalProperty})` : "";
    const text = `${e.instancePath || "(arguments)"} ${e.message ?? "is invalid"}${extra}`;
    if (!out.some((p) => p.text === text)) out.push({ rule, text });
  }
  return out.slice(0, 5);
}

/** Every string under a key ending in "At" that is a time with an offset other than Z (times-to-utc). */
function nonUtcTimes(v: unknown, at: (string | number)[] = [], depth = 0, out: string[] = []): string[] {
  if (depth > 12 || out.length >= 3 || !v || typeof v !== "object") return out;
  const list = Array.isArray(v);
  for (const k in v) {
    const x = (v as Record<string, unknown>)[k];
    // The path is kept as keys and spelled only for a time it names (every payload is walked, few break the rule).
    at.push(list ? Number(k) : k);
    if (typeof x === "string" && k.endsWith("At") && /^\d{4}-\d{2}-\d{2}T[\d:.]+([+-]\d{2}:?\d{2})$/.test(x) && !/[+-]00:?00$/.test(x))
      out.push(`${at.map((key) => (typeof key === "number" ? `[${key}]` : `.${key}`)).join("").slice(1)} ${x}`);
    else if (x && typeof x === "object") nonUtcTimes(x, at, depth + 1, out);
    at.pop();
  }
  return out;
}

/** Rules one success payload shows, by tool. */
function judgePayload(f: Findings, tool: string, args: Record<string, unknown>, data: unknown, where: string): void {
  const times = nonUtcTimes(data);
  const d = answeredObject<ToolOutputs[ToolName]>(data);
  f.check(times.length === 0, R.timesUtc, `${where}: times are answered in UTC (Z), got ${times.join(", ")}`);
  if (tool === "get_post_batch_status" && d && Array.isArray(d.items)) {
    f.check(d.settled === settledStatuses.has(d.status), R.batchStatus, `${where}: status ${show(d.status)} with settled ${show(d.settled)}; settled is true exactly for ready, partial and failed`);
    const items = d.items;
    const n = (...s: unknown[]) => items.filter((i) => s.includes(i?.status)).length;
    const counts = { createdCount: n("created"), failedCount: n("failed", "skipped"), pendingCount: n("pending", "generating") };
    const off = Object.entries(counts).filter(([k, v]) => memberOf(d, k) !== v);
    f.check(off.length === 0, R.batchCounts, `${where}: ${off.map(([k, v]) => `${k} ${memberOf(d, k)} but ${v} items`).join(", ")}`);
    f.check(d.items.length === d.requestedCount, R.batchCounts, `${where}: ${d.items.length} items for requestedCount ${d.requestedCount}`);
    d.items.forEach((i, k) => {
      if (i?.status === "created")
        f.check(typeof i.postId === "string" && Array.isArray(i.platforms) && i.platforms.length > 0, R.batchItems, `${where}: created item ${k} needs a postId and its destinations, got postId ${show(i.postId)}, platforms ${show(i.platforms)}`);
      if (i?.status === "failed" || i?.status === "skipped")
        f.check(i.postId === null && typeof i.error?.code === "string" && typeof i.error?.message === "string" && typeof i.error?.retryable === "boolean", R.batchItems, `${where}: ${i.status} item ${k} has no postId and an error with code, message and retryable, got ${show({ postId: i.postId, error: i.error })}`);
    });
    if (d.settled === true) {
      f.check(n("pending", "generating") === 0, R.settledCopy, `${where}: a settled batch still has items pending or generating`);
      // imagePending is optional: the count is held against the items only when each created one says (as the suite
      // does); an absent count reads as 0 (seed 001's polling advice).
      const created = d.items.filter((i) => i?.status === "created");
      const rendering = created.filter((i) => i?.imagePending === true).length;
      if (created.every((i) => typeof i?.imagePending === "boolean"))
        f.check((d.imagesPendingCount ?? 0) === rendering, R.settledCopy, `${where}: imagesPendingCount ${show(d.imagesPendingCount)}, but ${rendering} created items have imagePending`);
    }
  }
  if (tool === "list_brands" && Array.isArray(d?.brands))
    f.check(d.needsUserChoice === d.brands.length > 1, R.listBrands, `${where}: needsUserChoice ${show(d.needsUserChoice)} with ${d.brands.length} brands (true exactly when more than one)`);
  if (tool === "get_workspaces" && Array.isArray(d?.workspaces) && typeof d.totalCount === "number") {
    const limit = typeof args.limit === "number" ? args.limit : 50;
    const shown = d.workspaces.length;
    f.check(shown <= limit, R.workspaces, `${where}: ${shown} workspaces for limit ${limit}`);
    f.check(d.truncated === d.totalCount > shown, R.workspaces, `${where}: truncated ${show(d.truncated)} with totalCount ${d.totalCount} and ${shown} listed`);
    f.check(d.needsUserChoice === d.totalCount > 1, R.workspaces, `${where}: needsUserChoice ${show(d.needsUserChoice)} with totalCount ${d.totalCount}`);
  }
  const readiness = answeredObject<ToolOutputs["get_profile"]>(d)?.readiness;
  if (tool === "get_profile" && readiness && Array.isArray(readiness.blockers)) {
    const codes = readiness.blockers.map((b: unknown) => (typeof b === "string" ? b : memberOf(b, "code")));
    const blocksGenerate = codes.filter((c) => ["brand_inactive", "no_brand_profile", "profile_not_ready"].includes(c as string));
    const blocksPublish = codes.filter((c) => ["brand_inactive", "no_brand_profile"].includes(c as string));
    f.check(!(readiness.canGenerate === true && blocksGenerate.length), R.readiness, `${where}: canGenerate true despite ${blocksGenerate.join(", ")}`);
    f.check(!(readiness.canPublish === true && blocksPublish.length), R.readiness, `${where}: canPublish true despite ${blocksPublish.join(", ")}`);
  }
}

/** Rules the answer shows against earlier answers; then remembers it. */
function judgeState(f: Findings, state: McpState, tool: string, args: Record<string, unknown>, d: Payload | undefined, envelopeCode: string | undefined, where: string): void {
  if (tool === "get_post_batch_status" && typeof d?.batchId === "string") {
    const prev = state.batches.get(d.batchId);
    if (prev?.settled && d.settled !== true) f.violate(R.batchSettles, `${where}: batch ${d.batchId} was settled (${prev.status}) and now reads ${show(d.status)}, settled ${show(d.settled)}`);
    if (prev && prev.requestedCount !== d.requestedCount) f.violate(R.batchCounts, `${where}: batch ${d.batchId} had requestedCount ${prev.requestedCount}, now ${show(d.requestedCount)}`);
    state.batches.set(d.batchId, { settled: prev?.settled === true || d.settled === true, status: String(d.status), requestedCount: d.requestedCount });
  }
  const brandId = typeof args.brandId === "string" ? args.brandId : undefined;
  if (tool === "delete_profile" && brandId) {
    if (state.deleted.get(brandId) && envelopeCode === "not_found") f.violate(R.deletedSticky, `${where}: brand ${brandId} was deleted and now answers not_found; it keeps answering deleted`);
    if (d?.status === "deleted") state.deleted.set(brandId, true);
  }
  if (tool === "deactivate_profile" && brandId && typeof d?.unscheduledPosts === "number") {
    const prev = state.deactivations.get(brandId);
    if (prev) {
      f.check(d.unscheduledPosts >= prev.unscheduledPosts, R.deactivation, `${where}: unscheduledPosts went down from ${prev.unscheduledPosts} to ${d.unscheduledPosts}`);
      f.check(!(prev.status === "deactivated" && d.status !== "deactivated"), R.deactivation, `${where}: a deactivated profile now reads ${show(d.status)}`);
    }
    state.deactivations.set(brandId, { status: String(d.status), unscheduledPosts: d.unscheduledPosts });
  }
  if (tool === "create_profile" && typeof args.externalId === "string" && typeof d?.brandId === "string") {
    const first = state.externalIds.get(args.externalId);
    if (first !== undefined) {
      f.check(d.created === false, R.profileIdempotent, `${where}: create_profile repeated with externalId ${show(args.externalId)} says created ${show(d.created)}; a repeat says false`);
      f.check(d.brandId === first, R.profileIdempotent, `${where}: the repeat answers brandId ${d.brandId}, the first call made ${first}`);
    } else state.externalIds.set(args.externalId, d.brandId);
  }
}

/** tools/list against the contract: schemas present, readOnlyHint as documented; drift as notes. */
function judgeToolsList(f: Findings, state: McpState, result: { tools?: unknown } | undefined, where: string): void {
  if (!Array.isArray(result?.tools)) return void f.violate(R.listSchemas, `${where}: the result has no tools array`);
  for (const t of result.tools as Tool[]) {
    if (!t || typeof t.name !== "string") {
      f.violate(R.listSchemas, `${where}: a tool without a name: ${show(t)}`);
      continue;
    }
    f.check(!!t.inputSchema && typeof t.inputSchema === "object" && !!t.outputSchema && typeof t.outputSchema === "object", R.listSchemas, `${where}: ${t.name} lacks an input or output schema`);
    const c = contractTool.get(t.name);
    if (!c) f.note(`drift: tools/list has ${JSON.stringify(t.name)}, which the contract does not list`);
    else if (c.annotations?.readOnlyHint !== undefined)
      f.check(t.annotations?.readOnlyHint === c.annotations.readOnlyHint, R.readOnlyHint, `${where}: ${t.name} has readOnlyHint ${show(t.annotations?.readOnlyHint)}, the contract says ${c.annotations.readOnlyHint}`);
    state.tools.set(t.name, t);
  }
  // Tools of the contract the list leaves out: drift, or only a profile or token that does not see them
  // (tools in development, partner-only tools); a note either way.
  const listed = new Set((result.tools as Tool[]).map((t) => t?.name));
  const missing = [...contractTool.keys()].filter((name) => !listed.has(name));
  if (missing.length) f.note(`drift: tools/list leaves out ${missing.length} tools of the contract (in development or partner-only for this token?): ${missing.join(", ")}`);
}

/** One tools/call: arguments, result conventions, envelope, output schema, payload and state rules. */
function judgeCall(f: Findings, state: McpState, call: Message, answer: Message, where: string): string {
  const name = String(call.params?.name ?? "");
  const args = (call.params?.arguments ?? {}) as Record<string, unknown>;
  const tool = toolOf(state, name);
  const result = answer.result as CallToolResult | undefined;
  const sc = result?.structuredContent as Record<string, unknown> | undefined;
  const data: unknown = sc && typeof sc === "object" && "data" in sc ? sc.data : undefined;
  const envelope = isEnvelope(data);
  const ran = !!result && (!result.isError || envelope);
  if (!tool) {
    // Seed 001 says only that it fails as an unknown tool; failing outside the envelope is our design.
    if (envelope) f.violate(R.unknownToolNoEnvelope, `${where}: ${name} is no tool of the contract or of tools/list, yet it answers an envelope; the contract fails an unknown tool outside it`);
    else f.note(`${JSON.stringify(name)} is not a tool of the contract: the caller got a refusal`); // quoted: as the REST judge's unknown paths
    return answer.error ? `rpc ${answer.error.code}` : "isError";
  }
  const problems = tool.inputSchema ? argumentProblems(name, tool.inputSchema, args) : [];
  if (problems.length) {
    const rules = [...new Set(problems.map((p) => p.rule))];
    const text = problems.map((p) => p.text).join("; ");
    if (ran) f.violate(rules, `${where}: the arguments break the input schema (${text}) and the tool ran; expected a refusal before it runs`);
    else f.violate(rules, `${name}: the client sent arguments the input schema refuses (${text})`, "client");
  }
  if (answer.error) return `rpc ${answer.error.code}`;
  if (!result || typeof result !== "object") {
    f.violate(R.structured, `${where}: the result is not a CallToolResult: ${show(result)}`);
    return "?";
  }
  const first = result.content?.[0] as { type?: string; text?: unknown } | undefined;
  // Off the schema tools/list declares, the result is judged as the suite's client sees it: an output-schema error.
  const wrong = tool.live && tool.outputSchema && sc !== undefined ? liveOutputError(tool.outputSchema, sc) : undefined;
  const o: CallOutcome = wrong
    ? { tool: name, args, as: "normal", error: wrong }
    : { tool: name, args, as: "normal", result, ...(data !== undefined ? { data } : {}), ...(first?.type === "text" && typeof first.text === "string" ? { text: first.text } : {}) };
  if (envelope) expectError(f, o, { rule: R.envelope });
  else if (result.isError) expectConventions(f, o);
  else expectOk(f, o, R.structured);

  if (sc !== undefined && tool.outputSchema) {
    const contract = contractTool.get(name)?.outputSchema;
    if (contract) {
      const { violations, additions } = judgeOpen(contract, sc);
      if (violations.length) f.violate(R.schema, `${where}: structuredContent breaks the contract's output schema, even open to additions: ${violations.join("; ")}`);
      if (additions.length) f.note(`${name}: fields or values the contract does not list (allowed): ${additions.join("; ")}`);
    }
  }
  const code = isEnvelope(data) ? String(data.error?.code) : undefined;
  const payload = answeredObject<ToolOutputs[ToolName]>(data);
  if (!result.isError && data !== undefined && !envelope) judgePayload(f, name, args, data, where);
  judgeState(f, state, name, args, envelope ? undefined : payload, code, where);
  return envelope ? `isError ${code}` : result.isError ? "isError" : "ok";
}

/** The name of the tool a request calls, when it is one tools/call. */
function toolCalled(messages: Message[] | undefined): string | undefined {
  const m = messages?.length === 1 ? messages[0] : undefined;
  return m?.method === "tools/call" ? String(m.params?.name ?? "") : undefined;
}

export function judgeMcp(ex: Exchange, state: McpState): Verdict {
  const f = new Findings();
  const requests = ex.method === "POST" && !ex.requestTruncated ? requestMessages(ex.requestText) : undefined;
  const label =
    ex.method !== "POST" ? `${ex.method} ${ex.path.split("?")[0]}` : requests ? requests.map((m) => (m.method === "tools/call" ? `tools/call ${m.params?.name}` : String(m.method ?? "response"))).join(", ") : "POST (not JSON)";
  const verdict = (outcome: string): Verdict => ({ label, outcome, violations: f.violations, notes: f.notes });
  if (ex.failure) return (f.note(`no answer: ${ex.failure}`), verdict("—"));
  if (ex.status === 401) {
    const challenge = header(ex.responseHeaders, "www-authenticate") ?? "";
    f.check(challenge.trim() !== "", R.unauthenticated, `${label} → 401 without a WWW-Authenticate challenge`);
    if (challenge.trim()) f.check(/(^|,)\s*Bearer\b/i.test(challenge), R.bearerChallenge, `${label} → 401 whose WWW-Authenticate names no Bearer challenge`);
    return verdict("401");
  }
  if (ex.status === 403) {
    const tool = toolCalled(requests);
    const readOnly = tool !== undefined && contractTool.get(tool)?.annotations?.readOnlyHint === true;
    const challenge = header(ex.responseHeaders, "www-authenticate") ?? "";
    if (readOnly && /insufficient_scope/.test(challenge + ex.responseText)) f.violate(R.readScope, `${label} → 403 insufficient_scope for a tool that changes nothing; mcp:read suffices`);
    return verdict("403");
  }
  if (ex.method !== "POST" || !requests) {
    if (ex.method === "POST" && !ex.requestTruncated) f.violate(R.answered, `${label}: the request body is not JSON-RPC`, "client");
    if (ex.requestTruncated) f.note("the request body is larger than the copy kept for judging: not judged");
    return verdict(String(ex.status));
  }
  if (ex.responseTruncated) {
    f.note("the answer is larger than the copy kept for judging: not judged");
    return verdict(String(ex.status));
  }
  const calls = requests.filter((m) => !isResponse(m) && m.id !== undefined && m.id !== null);
  for (const m of requests)
    if (m.jsonrpc !== "2.0" || (typeof m.method !== "string" && !isResponse(m))) f.violate(R.answered, `${label}: not a JSON-RPC 2.0 message: ${show(m)}`, "client");
  if (ex.status === 429 || ex.status >= 500 || (ex.status >= 400 && calls.length === 0)) return verdict(String(ex.status));
  const refused = ex.status >= 400 ? transportFault(ex) : undefined;
  if (refused) return { ...verdict(String(ex.status)), clientFault: `${refused} (not judged)` };
  const { messages, problems } = responseMessages(ex.responseText, header(ex.responseHeaders, "content-type"));
  for (const p of problems) f.violate(R.answered, `${label} → ${ex.status}: ${p}`);
  const outcomes: string[] = [];
  const faults: string[] = [];
  for (const call of calls) {
    const where = `${call.method === "tools/call" ? `tools/call ${call.params?.name}` : call.method} → ${ex.status}`;
    const answer = messages.find((m) => isResponse(m) && m.id === call.id);
    if (!answer) {
      // An id JSON-RPC cannot carry exactly (1e309 is no number; 2.5 and 2^53 + 1 do not survive a round trip
      // through most servers) may come back as null: the client's doing, not a missing answer.
      const odd = oddId(call.id);
      if (odd) faults.push(`unrepresentable id: the request's id ${odd}; its answer cannot echo it (not judged)`);
      else f.violate(R.answered, `${where}: no JSON-RPC response with id ${show(call.id)} in the answer`);
      continue;
    }
    if (answer.jsonrpc !== "2.0") f.violate(R.answered, `${where}: the response is not JSON-RPC 2.0 (jsonrpc ${show(answer.jsonrpc)})`);
    if (call.method === "tools/call") outcomes.push(judgeCall(f, state, call, answer, where));
    else if (call.method === "tools/list" && answer.result) judgeToolsList(f, state, answer.result, where);
    else if (answer.error) outcomes.push(`rpc ${answer.error.code}`);
  }
  return { ...verdict([String(ex.status), ...outcomes.filter((o) => o !== "ok")].join(" ")), ...(faults.length ? { clientFault: faults.join("; ") } : {}) };
}

/**
 * Why a POST the service refused (4xx) is the client's doing: what Streamable HTTP requires of every POST that this
 * one lacked. The service then answers the HTTP error alone, or with a JSON-RPC error that has no id (the MCP
 * transport allows both), never the calls' answers.
 */
function transportFault(ex: Exchange): string | undefined {
  const accept = header(ex.requestHeaders, "accept") ?? "";
  if (!/application\/json/i.test(accept) || !/text\/event-stream/i.test(accept))
    return `not acceptable: the client's Accept (${show(accept)}) must list both application/json and text/event-stream`;
  const type = header(ex.requestHeaders, "content-type") ?? "";
  if (!/^application\/json\s*(;|$)/i.test(type)) return `not JSON: the client's Content-Type is ${show(type)}, not application/json`;
  // Servers answer 400 to a version they do not support (Streamable HTTP); which they support is theirs to say.
  const version = header(ex.requestHeaders, "mcp-protocol-version");
  if (ex.status === 400 && version !== undefined) return `protocol version: the service refused MCP-Protocol-Version ${show(version)}`;
  // A server ends a session by answering 404 to its id; the client starts a new one (Streamable HTTP).
  const session = header(ex.requestHeaders, "mcp-session-id");
  if (ex.status === 404 && session !== undefined) return `session: the service knows no session ${show(session)} (404: the client starts a new one)`;
  return undefined;
}

/** Why a JSON-RPC id cannot be echoed exactly, if it cannot (ids are strings or integers, JSON-RPC 2.0 §4). */
function oddId(id: unknown): string | undefined {
  if (typeof id !== "number") return undefined;
  if (!Number.isFinite(id)) return "is beyond any number (it parses as infinity)";
  if (!Number.isInteger(id)) return `${id} has a fractional part (JSON-RPC: ids SHOULD NOT)`;
  if (!Number.isSafeInteger(id)) return `${id} is beyond 2^53, where numbers lose digits`;
  return undefined;
}
