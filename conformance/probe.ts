// The probe before any check: one request per suite that says, in one line and within seconds, when a target
// cannot be used — nothing listens, something other than the API answers (an HTML page, another service), or the
// target refuses the token outright. Without it, every check would run and fail for the same reason, and a
// ledger of such failures says nothing about the contract.
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import { BudgetExceeded, Transport, TransportError, type ApiResponse } from "./http.js";
import { McpHttp } from "./mcp/http.js";
import { streamableAccept } from "./mcp/client.js";
import { mcpTokenEnv } from "./mcp/target.js";
import type { Redactor } from "./redact.js";
import type { McpRunTarget } from "./mcp/target.js";
import type { RunTarget } from "./run-target.js";
import type { Target } from "./target.js";

/** A target the run cannot use; the message is the one line the user sees. */
export class TargetUnusable extends Error {}

/** However patient the run, the probe answers within this. */
const probeTimeoutMs = 10_000;

const quick = <T extends RunTarget>(target: T): T => ({ ...target, timing: { ...target.timing, requestTimeoutMs: Math.min(target.timing.requestTimeoutMs, probeTimeoutMs) } });

/** Characters of the body the one line shows. */
const shownChars = 80;

/**
 * What came back, for the one line: status, Content-Type and the start of the body, each escaped as a JSON
 * string (what a target sent may hold quotes, control characters or terminal escapes).
 */
export function shown(res: Pick<ApiResponse, "status" | "contentType" | "text">): string {
  const start = res.text.replace(/\s+/g, " ").trim();
  const body = start ? `, body ${JSON.stringify(start.slice(0, shownChars))}${start.length > shownChars ? ` (first ${shownChars} characters)` : ""}` : ", empty body";
  return `${res.status}, Content-Type ${res.contentType === undefined ? "(none)" : JSON.stringify(res.contentType)}${body}`;
}

async function sendOnce(what: string, url: URL, send: () => Promise<ApiResponse>): Promise<ApiResponse> {
  try {
    return await send();
  } catch (err) {
    if (err instanceof TransportError || err instanceof BudgetExceeded) throw new TargetUnusable(`cannot reach the ${what} target at ${url.origin}: ${err.message}`);
    throw err;
  }
}

/** The REST target answers an unknown brand with a brand or the contract's error envelope, and takes the token. */
export async function probeRest(target: Target, redactor: Redactor, signal: AbortSignal): Promise<void> {
  const transport = new Transport(quick(target), redactor, signal);
  try {
    const path = "/v1/brands/brand_conformance_probe";
    const res = await sendOnce("REST", target.url, () => transport.send({ method: "GET", path, auth: target.tokens.team ? "team" : "none", retry429: false }));
    const where = `${target.url.origin} (GET ${path})`;
    if (res.body === undefined || typeof res.body !== "object" || res.body === null)
      throw new TargetUnusable(`the REST target at ${where} does not answer like the Ideas API: ${shown(res)}`);
    if (res.status === 401 && target.tokens.team)
      throw new TargetUnusable(`the REST target at ${target.url.origin} refused the team token (IDEAS_TOKEN): ${shown(res)}`);
    const looksRight = res.body.object === "brand" || (typeof res.body.error === "object" && res.body.error !== null && typeof res.body.error.type === "string");
    if (!looksRight && res.status !== 429)
      throw new TargetUnusable(`the REST target at ${where} does not answer like the Ideas API (neither a brand nor an error envelope): ${shown(res)}`);
  } finally {
    transport.close();
  }
}

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
