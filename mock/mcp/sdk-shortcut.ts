// Requests the SDK would answer with nothing but the method's handler: one JSON-RPC request (string or number id)
// for tools/list or tools/call, with Accept and Content-Type as the Streamable HTTP transport requires, a
// supported (or no) protocol version, and params the SDK's own request schema takes as they are. The gateway
// answers those itself from the same handlers: a fresh SDK Server, transport, web Request/Response and zod pass
// per request were two thirds of a tools/call's CPU when profiled. Everything else (initialize, ping,
// notifications, batches, a request the SDK would refuse) still goes to the SDK. test/mcp-mock-shortcut.test.ts
// compares both paths' answers.
import type http from "node:http";
import { SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js";

export type Shortcut =
  | { method: "tools/list"; id: string | number }
  | { method: "tools/call"; id: string | number; name: string; args: Record<string, unknown> };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Whether the SDK's transport would take the request as sent (Accept, Content-Type, a supported or no protocol
 * version); when not, the SDK refuses it with its own answer before reading the message.
 */
export function transportAccepts(req: http.IncomingMessage): boolean {
  const accept = req.headers.accept ?? "";
  if (!accept.includes("application/json") || !accept.includes("text/event-stream")) return false;
  if (!/^application\/json\s*(;|$)/i.test(req.headers["content-type"] ?? "")) return false;
  const version = req.headers["mcp-protocol-version"];
  return version === undefined || SUPPORTED_PROTOCOL_VERSIONS.includes(String(version));
}

/** What the request asks when the SDK would answer it exactly as the handler says; null when the SDK must. */
export function shortcutFor(req: http.IncomingMessage, message: unknown): Shortcut | null {
  if (!isObject(message) || message.jsonrpc !== "2.0") return null;
  const id = message.id;
  // The SDK's RequestId: a string or an integer (it refuses 2.5).
  if (!(typeof id === "string" || (typeof id === "number" && Number.isSafeInteger(id)))) return null;
  if (!transportAccepts(req)) return null;
  const params = message.params;
  if (message.method === "tools/list") {
    // A cursor (refused earlier) or _meta (a progress token) is the SDK's business.
    if (params !== undefined && (!isObject(params) || Object.keys(params).length > 0)) return null;
    return { method: "tools/list", id };
  }
  if (message.method === "tools/call") {
    // Only name and arguments: _meta (progress) and task (task-augmented calls) take the SDK's path.
    if (!isObject(params) || typeof params.name !== "string" || params.name === "") return null;
    if (Object.keys(params).some((k) => k !== "name" && k !== "arguments")) return null;
    const args = params.arguments ?? {};
    if (!isObject(args)) return null;
    return { method: "tools/call", id, name: params.name, args };
  }
  return null;
}

/** A JSON-RPC result as the SDK's transport sends it in JSON-response mode (same member order). */
export function sendResult(res: http.ServerResponse, id: string | number, result: unknown): void {
  const text = `{"result":${JSON.stringify(result)},"jsonrpc":"2.0","id":${JSON.stringify(id)}}`;
  res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}
