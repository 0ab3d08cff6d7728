// tools/list answered from bytes prepared once per audience (a partner sees three tools more), instead of a fresh
// SDK Server, a zod pass over a hundred kilobytes of schemas and a new JSON.stringify on every call. Only a
// request the SDK would answer the same way takes this path: one message, Accept and Content-Type as the
// transport requires, a supported protocol version; anything else goes to the SDK as before.
import type http from "node:http";
import { SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js";

export type Audience = "partner" | "other";

export interface ToolsListCache {
  /** The whole response body for this request, or null when the SDK must answer it. */
  answer(req: http.IncomingMessage, message: unknown, audience: Audience): string | null;
}

export function createToolsListCache(toolsFor: (audience: Audience) => readonly unknown[]): ToolsListCache {
  const prepared = new Map<Audience, { head: string; tail: string }>();
  for (const audience of ["partner", "other"] as const) {
    prepared.set(audience, { head: `{"result":{"tools":${JSON.stringify(toolsFor(audience))}},"jsonrpc":"2.0","id":`, tail: "}" });
  }
  return {
    answer(req, message, audience) {
      const m = message as { jsonrpc?: unknown; method?: unknown; id?: unknown; params?: unknown } | null;
      if (typeof m !== "object" || m === null || Array.isArray(m) || m.method !== "tools/list" || m.jsonrpc !== "2.0") return null;
      if (!(typeof m.id === "string" || (typeof m.id === "number" && Number.isFinite(m.id)))) return null;
      if (m.params !== undefined && (typeof m.params !== "object" || m.params === null || "cursor" in m.params)) return null;
      const accept = req.headers.accept ?? "";
      if (!accept.includes("application/json") || !accept.includes("text/event-stream")) return null;
      if (!/^application\/json\s*(;|$)/i.test(req.headers["content-type"] ?? "")) return null;
      const version = req.headers["mcp-protocol-version"];
      if (version !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(String(version))) return null;
      const p = prepared.get(audience)!;
      return p.head + JSON.stringify(m.id) + p.tail;
    },
  };
}
