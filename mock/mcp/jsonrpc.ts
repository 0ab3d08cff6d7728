// JSON-RPC checks the SDK's transport gets wrong or leaves out, made before a message reaches it: a message
// that is JSON but not a JSON-RPC message is -32600 Invalid Request (the SDK says -32700 Parse error); a
// tools/call without a tool name or with non-object arguments is -32602 Invalid params (the SDK says -32603);
// a tools/list cursor the server never issued is -32602 (the gateway has one page, so it never issues one); and
// a batch is refused under protocol versions that removed batching (2025-06-18 on).

export interface RpcRefusal {
  /** HTTP status: 400 when the message as a whole is refused, 200 for an error answer to a request. */
  status: number;
  body: { jsonrpc: "2.0"; id: string | number | null; error: { code: number; message: string } };
}

/** The first protocol version without JSON-RPC batches. */
const batchesRemovedIn = "2025-06-18";
/** What a client that sends no MCP-Protocol-Version header speaks (the transport spec's default). */
const defaultVersion = "2025-03-26";

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const validId = (id: unknown): id is string | number => typeof id === "string" || (typeof id === "number" && Number.isFinite(id));
const refuse = (status: number, id: string | number | null, code: number, message: string): RpcRefusal => ({
  status,
  body: { jsonrpc: "2.0", id, error: { code, message } },
});

/** A JSON-RPC 2.0 request, notification or response; anything else is an invalid request. */
function wellFormed(m: unknown): boolean {
  if (!isObject(m) || m.jsonrpc !== "2.0") return false;
  if ("method" in m) return typeof m.method === "string" && (!("id" in m) || validId(m.id)) && (!("params" in m) || isObject(m.params) || Array.isArray(m.params));
  return validId(m.id) || m.id === null ? "result" in m !== "error" in m : false;
}

/** -32602 for a request whose params the method cannot take; null when they are fine. */
function paramsRefusal(m: Record<string, unknown>): RpcRefusal | null {
  if (!validId(m.id)) return null; // a notification gets no answer
  const params = m.params as Record<string, unknown> | undefined;
  if (m.method === "tools/call") {
    if (!isObject(params) || typeof params.name !== "string" || params.name === "")
      return refuse(200, m.id, -32602, "Invalid params: tools/call needs params.name, the tool's name.");
    if ("arguments" in params && params.arguments !== undefined && !isObject(params.arguments))
      return refuse(200, m.id, -32602, "Invalid params: tools/call arguments must be an object.");
  }
  if (m.method === "tools/list" && isObject(params) && params.cursor !== undefined)
    return refuse(200, m.id, -32602, "Invalid params: unknown cursor; this server answers tools/list in one page and issues no cursors.");
  return null;
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

/** Why this parsed body must not reach the SDK, or null when it may. */
export function checkMessage(message: unknown, protocolHeader: string | undefined): RpcRefusal | null {
  if (Array.isArray(message)) {
    // JSON-RPC 2.0: an empty batch is an invalid request (the SDK would answer 202 with nothing).
    if (message.length === 0) return refuse(400, null, -32600, "Invalid Request: an empty batch.");
    const version = versionOf(message, protocolHeader);
    if (version >= batchesRemovedIn) return refuse(400, null, -32600, `Invalid Request: protocol version ${version} has no JSON-RPC batches; send one message per request.`);
    if (!message.every(wellFormed)) return refuse(400, null, -32600, "Invalid Request: a batch member is not a JSON-RPC 2.0 message.");
    const refused = message.map((m) => ("method" in m ? paramsRefusal(m) : null)).find((r) => r !== null);
    return refused ? { ...refused, status: 400 } : null;
  }
  if (!wellFormed(message)) {
    const id = isObject(message) && validId(message.id) ? message.id : null;
    return refuse(400, id, -32600, "Invalid Request: not a JSON-RPC 2.0 message (jsonrpc \"2.0\", a method, an id that is a string or number).");
  }
  return "method" in (message as object) ? paramsRefusal(message as Record<string, unknown>) : null;
}
