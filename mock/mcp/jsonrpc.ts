// JSON-RPC checks the SDK's transport gets wrong or leaves out, made before a message reaches it. The SDK answers
// -32700 Parse error for any valid JSON that is not one of its message shapes, and -32603 with a raw zod dump
// for a request whose params its schema refuses; JSON-RPC 2.0 reserves -32700 for invalid JSON, and says
// -32600 Invalid Request for a message that is not a Request object and -32602 Invalid params for params the
// method cannot take. So: a message that is not JSON-RPC 2.0 (an id that is neither a string nor an integer —
// MCP's RequestId —, a member JSON-RPC does not define) is -32600; a request whose params the SDK's own schema
// for the method refuses (initialize, ping, tools/list, tools/call), or whose `_meta` is not an object, is
// -32602 with a one-line message naming the param; a tools/list cursor the server never issued is -32602 (the
// gateway has one page, so it never issues one). Batches: refused as a whole when empty, or under protocol
// versions that removed batching (2025-06-18 on); otherwise each member is judged alone (batch.ts).
import { MAX_BATCH_SIZE } from "@modelcontextprotocol/sdk/server/requestBody.js";
import { CallToolRequestSchema, InitializeRequestSchema, JSONRPCMessageSchema, ListToolsRequestSchema, PingRequestSchema } from "@modelcontextprotocol/sdk/types.js";

export interface RpcError {
  jsonrpc: "2.0";
  id: string | number | null;
  error: { code: number; message: string };
}

export interface RpcRefusal {
  /** HTTP status: 400 when the message as a whole is refused, 200 for an error answer to a request. */
  status: number;
  body: RpcError;
}

/** The first protocol version without JSON-RPC batches. */
const batchesRemovedIn = "2025-06-18";
/** What a client that sends no MCP-Protocol-Version header speaks (the transport spec's default). */
const defaultVersion = "2025-03-26";

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
/** MCP's RequestId: a string or an integer (2.5 is not one; 9007199254740993 cannot be echoed exactly). */
export const validId = (id: unknown): id is string | number => typeof id === "string" || Number.isSafeInteger(id);
const refuse = (status: number, id: string | number | null, code: number, message: string): RpcRefusal => ({
  status,
  body: { jsonrpc: "2.0", id, error: { code, message } },
});

const requestMembers = new Set(["jsonrpc", "id", "method", "params"]);
const responseMembers = new Set(["jsonrpc", "id", "result", "error"]);

/** A JSON-RPC 2.0 request, notification or response, with only the members JSON-RPC defines. */
function wellFormed(m: unknown): m is Record<string, unknown> {
  if (!isObject(m) || m.jsonrpc !== "2.0") return false;
  if ("method" in m)
    return typeof m.method === "string" && (!("id" in m) || validId(m.id)) && (!("params" in m) || isObject(m.params) || Array.isArray(m.params)) && Object.keys(m).every((k) => requestMembers.has(k));
  if (!(validId(m.id) || m.id === null) || "result" in m === "error" in m) return false;
  return Object.keys(m).every((k) => responseMembers.has(k));
}

type Schema = { safeParse(v: unknown): { success: boolean; error?: { issues: readonly { path: readonly PropertyKey[]; code?: string; expected?: unknown }[] } } };
/** The SDK's request schemas of the methods this server answers: what passes them is what its handlers take. */
const requestSchemas: Record<string, Schema> = {
  initialize: InitializeRequestSchema,
  ping: PingRequestSchema,
  "tools/list": ListToolsRequestSchema,
  "tools/call": CallToolRequestSchema,
};

/** One short line about the first thing a schema refused, e.g. `params.protocolVersion must be a string`. */
function firstIssue(schema: Schema, message: unknown): string | null {
  const issue = schema.safeParse(message).error?.issues[0];
  if (!issue) return null;
  const where = issue.path.map(String).join(".") || "params";
  const expected = issue.code === "invalid_type" && typeof issue.expected === "string" ? ` must be ${/^[aeiou]/.test(issue.expected) ? "an" : "a"} ${issue.expected}` : " is invalid";
  return `${where}${expected}`.slice(0, 160);
}

/** -32602 for a request (or notification) whose params the method cannot take; null when they are fine. */
function paramsRefusal(m: Record<string, unknown>): RpcRefusal | null {
  // A notification gets no answer; over HTTP its refusal is a 400 with an id-less error (transport spec).
  const [status, id] = validId(m.id) ? [200, m.id] : [400, null];
  const params = m.params;
  if (Array.isArray(params)) return refuse(status, id, -32602, "Invalid params: MCP params are an object, not an array.");
  if (isObject(params) && "_meta" in params && !isObject(params._meta)) return refuse(status, id, -32602, "Invalid params: params._meta must be an object.");
  if (m.method === "tools/call") {
    if (!isObject(params) || typeof params.name !== "string" || params.name === "")
      return refuse(status, id, -32602, "Invalid params: tools/call needs params.name, the tool's name.");
    if ("arguments" in params && params.arguments !== undefined && !isObject(params.arguments))
      return refuse(status, id, -32602, "Invalid params: tools/call arguments must be an object.");
  }
  if (m.method === "tools/list" && isObject(params) && params.cursor !== undefined)
    return refuse(status, id, -32602, "Invalid params: unknown cursor; this server answers tools/list in one page and issues no cursors.");
  const schema = Object.hasOwn(requestSchemas, m.method as string) ? requestSchemas[m.method as string] : undefined;
  const issue = schema ? firstIssue(schema, m) : null;
  return issue ? refuse(status, id, -32602, `Invalid params: ${issue}.`) : null;
}

/** Why this one message (alone or as a batch member) must not reach the SDK, or null when it may. */
export function memberRefusal(message: unknown): RpcRefusal | null {
  const id = isObject(message) && validId(message.id) ? message.id : null;
  const invalid = () => refuse(400, id, -32600, "Invalid Request: not a JSON-RPC 2.0 message (jsonrpc \"2.0\", a method, an id that is a string or an integer, nothing else).");
  if (!wellFormed(message)) return invalid();
  const refused = "method" in message ? paramsRefusal(message) : null;
  // Whatever else the SDK's message schema refuses (a response whose error or result is not an object) would be
  // its -32700: still an invalid request.
  return refused ?? (JSONRPCMessageSchema.safeParse(message).success ? null : invalid());
}

/** The protocol version a message is spoken in: the header, or the version an initialize in it asks for. */
function versionOf(messages: readonly unknown[], header: string | undefined): string {
  if (header) return header;
  for (const m of messages) {
    const asked = isObject(m) && m.method === "initialize" && isObject(m.params) ? m.params.protocolVersion : undefined;
    if (typeof asked === "string") return asked;
  }
  return defaultVersion;
}

/** Why this parsed body must not be answered member by member (or reach the SDK), or null when it may. */
export function checkMessage(message: unknown, protocolHeader: string | undefined): RpcRefusal | null {
  if (Array.isArray(message)) {
    // JSON-RPC 2.0: an empty batch is an invalid request, answered with one error object.
    if (message.length === 0) return refuse(400, null, -32600, "Invalid Request: an empty batch.");
    const version = versionOf(message, protocolHeader);
    if (version >= batchesRemovedIn) return refuse(400, null, -32600, `Invalid Request: protocol version ${version.slice(0, 40)} has no JSON-RPC batches; send one message per request.`);
    // The SDK transport's own bound, kept now that batches are answered here.
    if (message.length > MAX_BATCH_SIZE) return refuse(400, null, -32600, `Invalid Request: a batch holds at most ${MAX_BATCH_SIZE} messages.`);
    return null;
  }
  return memberRefusal(message);
}
