// The MCP suite's probe (../probe.ts): `initialize`, answered with JSON-RPC.
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import { quick, sendOnce, shown, TargetUnusable } from "../../core/probe.js";
import type { Redactor } from "../../core/redact.js";
import { streamableAccept } from "./client.js";
import { McpHttp } from "./http.js";
import { mcpTokenEnv, type McpRunTarget } from "./target.js";

/** The MCP target answers `initialize` with JSON-RPC, and takes the normal token. */
export async function probeMcp(target: McpRunTarget, redactor: Redactor, signal: AbortSignal): Promise<void> {
  const http = new McpHttp(quick(target), redactor, signal);
  const endpoint = target.mcp.endpoint;
  const token = target.mcp.tokens.normal;
  try {
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: "conformance-probe",
      method: "initialize",
      params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: "ideas-contract-conformance-probe", version: "1" } },
    });
    const res = await sendOnce("MCP", endpoint, () =>
      http.send({ method: "POST", headers: { accept: streamableAccept, "content-type": "application/json" }, body, ...(token ? { token: { bearer: token, env: mcpTokenEnv.normal } } : {}), retry429: false }),
    );
    if (res.status === 401 && token) throw new TargetUnusable(`the MCP target at ${endpoint.href} refused the normal token (${mcpTokenEnv.normal}): ${shown(res)}`);
    if (res.status === 401 || res.status === 429) return;
    const rpc = res.body;
    if (!rpc || typeof rpc !== "object" || rpc.jsonrpc !== "2.0" || !("result" in rpc || "error" in rpc))
      throw new TargetUnusable(`the MCP target at ${endpoint.href} does not answer like an MCP endpoint (no JSON-RPC answer to initialize): ${shown(res)}`);
  } finally {
    http.close();
  }
}
