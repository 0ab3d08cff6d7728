// The MCP gateway mock: the real SDK Server over stateless Streamable HTTP at /mcp on 127.0.0.1. HTTP-level
// rules (401, 403 insufficient_scope, per-IP 429) run in plain node:http before the MCP layer, as the seed says.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type CallToolResult,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import manifestJson from "../../generated/mcp/tools.json" with { type: "json" };
import { inputValidators, outputValidators, type ValidateFunction } from "../../generated/mcp/validators.js";
import { createBrowserAccess, preflightRefusal, type BrowserAccessOptions } from "../browser-access.js";
import { createClock, type Clock } from "../clock.js";
import { createControl, serveControl, type Control } from "../control.js";
import { listen } from "../listen.js";
import { answerOnSocket, asteriskAnswer, asteriskRefusal, bodyCoding, codingRefusalHeaders, guardEdges, limitOptions, missingHost, parserRefusal, repeatsAuthorization, repeatsHost, shownPath, targetAuthority, type HttpLimits } from "../http-guards.js";
import { checkMessage } from "./jsonrpc.js";
import { acceptsGzip, createToolsListCache } from "./tools-list-cache.js";
import { sendResult, shortcutFor, transportAccepts } from "./sdk-shortcut.js";
import { answerBatch } from "./batch.js";
import { challenge, originOf, serveResourceMetadata } from "./resource-metadata.js";
import { logRequest, loggedPath, type LogSink, type RequestRecord } from "../request-log.js";
import { ToolError, type Principal, type ToolContext, type ToolHandler } from "./context.js";
import type { ErrorCode } from "../../generated/mcp/errors.js";
import { mcpTestTokens, principalOf, situationToken } from "./tokens.js";
import { createGateway, type Gateway } from "./gateway.js";
import { budgetRefusal } from "./tenant-budget.js";
import { printable } from "../../conformance/core/printable.js";

const contractMetaKey = "ideas-contract/contract";
type ManifestTool = Tool & { _meta: { [contractMetaKey]: { partnerOnly: boolean } } };
const manifest = (manifestJson as unknown as { tools: ManifestTool[] }).tools;
const toolsByName = new Map(manifest.map((t) => [t.name, t]));
// The SDK Server builds a fresh Ajv per instance unless given one (a third of each request's CPU when measured);
// the gateway validates with the generated validators, so one shared instance serves every request.
const sharedSchemaValidator = new AjvJsonSchemaValidator();
const inputs = inputValidators as Readonly<Record<string, ValidateFunction>>;
// What the mock answers is checked on the way out. In this repository against the documented shapes
// (generated/mcp/validators-strict.js: no field or value the contract does not list); that set stays out of the
// package to keep it small, so an installed mock checks against the output validators consumers import.
let outputs = outputValidators as Readonly<Record<string, ValidateFunction>>;
let strictLoaded: Promise<void> | undefined;
const loadStrictOutputs = () =>
  (strictLoaded ??= import("../../generated/mcp/validators-strict.js").then(
    (m) => void (outputs = m.strictOutputValidators as Readonly<Record<string, ValidateFunction>>),
    () => undefined, // not in the package: keep the open set
  ));

export interface McpMockOptions {
  port?: number;
  host?: string;
  timeScale?: number;
  clock?: Clock;
  /** Requests per IP per (real) minute before HTTP 429; the seed does not give the number. */
  ipRequestsPerMinute?: number;
  /** Largest request body accepted, in bytes. */
  maxBodyBytes?: number;
  /** Origins allowed CORS (others get 403) and Host names accepted; default loopback (browser-access.ts). */
  browser?: BrowserAccessOptions;
  /** Shared with other mocks so /__control/ acts on all of them; its clock wins over `clock` and `timeScale`. */
  control?: Control;
  /** Gets one line per request (none by default; the CLI prints them unless --quiet). */
  log?: LogSink;
  /** Time limits for slow connections (http-guards.ts). */
  limits?: HttpLimits;
}

export interface McpMock {
  /** The MCP endpoint, e.g. http://127.0.0.1:4012/mcp */
  url: URL;
  clock: Clock;
  /** Reset, advance, freeze: what /__control/ does, for code. */
  control: Control;
  /** This run's control token: send it as X-Control-Token to use /__control/ from anywhere (control-guard.ts). */
  controlToken: string;
  /** The current state (a reset replaces it). */
  readonly gateway: Gateway;
  stop(): Promise<void>;
}

// rule: partner-only-hidden partner-only-listed contract-tools-listed
const visibleTo = (principal: Principal, tool: ManifestTool) => !tool._meta[contractMetaKey].partnerOnly || principal.kind === "partner";
const toolsList = createToolsListCache((audience) => manifest.filter((t) => audience === "partner" || !t._meta[contractMetaKey].partnerOnly));

/** A result in the seed's convention: structuredContent {data}, the same payload as JSON text. */
// rule: success-structured-data text-mirrors-data failure-envelope no-cancelled-for-partner
function result(data: unknown, isError = false): CallToolResult {
  return {
    content: [{ type: "text", text: JSON.stringify(data) }],
    structuredContent: { data } as Record<string, unknown>,
    ...(isError ? { isError: true } : {}),
  };
}

/** How the MCP SDK's own server refuses a call before any tool runs: text, no envelope. */
// rule: schema-violation-refused-first unknown-argument-refused unknown-tool-fails partner-only-call-unknown
function refusal(text: string): CallToolResult {
  return { content: [{ type: "text", text: `MCP error -32602: ${text}` }], isError: true };
}

function describeErrors(errors: { instancePath: string; message?: string }[] | null | undefined): string {
  return (errors ?? []).map((e) => `${e.instancePath || "(arguments)"} ${e.message ?? "is invalid"}`).join("; ");
}

const internalError = () =>
  result(new ToolError("internal_error", "The mock failed on its side; try once more.").envelope(), true);

/** One tools/call, after HTTP-level checks: visibility, input validation, the handler, output validation. */
// rule: result-matches-output-schema contract-output-shape inferred-output-shape partner-not-found uuid-brand-id uuid-brand-id-inferred time-without-zone-refused
export function callTool(gateway: Gateway, ctx: ToolContext, name: string, args: Record<string, unknown>): CallToolResult {
  const tool = toolsByName.get(name);
  if (!tool || !visibleTo(ctx.principal, tool)) return refusal(`Tool ${name} not found`);
  // rule: post-id-argument-names post-id-argument-inferred limit-create-profile-website-url limit-create-profile-name limit-create-profile-external-id limit-create-posts-count limit-create-posts-brief limit-create-posts-media-ids limit-reschedule-moves limit-edge-accepted delete-confirm-true
  // Seed: a client with no partner configured fails every call, so before its arguments are even looked at.
  if (!ctx.principal.partnerConfigured) {
    return result(new ToolError("partner_not_found", "No partner is configured for this token's client.").envelope(), true);
  }
  // rule: partner-downstream-auth-failed (the token itself is good: answered in the envelope, never with a 401)
  if (ctx.principal.downstreamAuthFails) {
    return result(new ToolError("partner_downstream_auth_failed", "The gateway could not get access for this partner client; keep the token and try again later.").envelope(), true);
  }
  const validateInput = inputs[name]!;
  if (!validateInput(args)) {
    return refusal(`Input validation error: Invalid arguments for tool ${name}: ${describeErrors(validateInput.errors)}`);
  }
  // A situation token (tokens.ts): the service behind the gateway fails every call (writes_disabled: every write).
  const fails = ctx.principal.failsWith;
  if (fails && (fails !== "writes_disabled" || tool.annotations?.readOnlyHint === false)) {
    return result(new ToolError(fails as ErrorCode, `The mock is in the situation that answers ${fails}.`).envelope(), true);
  }
  // The budget is measured on what has settled by the instant the handler then runs at.
  return gateway.atOneInstant(() => runTool(gateway, ctx, name, tool, args));
}

function runTool(gateway: Gateway, ctx: ToolContext, name: string, tool: Tool, args: Record<string, unknown>): CallToolResult {
  // A mock's own bound, not the contract's (tenant-budget.ts): a tenant whose stored posts fill its budget cannot add more.
  const overBudget = budgetRefusal(gateway, ctx.principal.tenant, tool);
  if (overBudget) return result(overBudget.envelope(), true);
  const handler: ToolHandler | undefined = gateway.handlers[name];
  let payload: unknown;
  try {
    if (!handler) throw new Error(`no handler for ${name}`);
    payload = handler(args, ctx);
  } catch (err) {
    if (err instanceof ToolError) return result(err.envelope(), true);
    console.error(`mcp mock: ${name} failed: ${printable((err as Error).message)}`);
    return internalError();
  }
  const validateOutput = outputs[name]!;
  if (!validateOutput(payload)) {
    // A mock bug: never send what the contract forbids; say so on stderr (no tokens there) and fail retryably.
    console.error(`mcp mock: ${name} produced an invalid payload: ${printable(describeErrors(validateOutput.errors))}`);
    return internalError();
  }
  return result(payload);
}

function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text), ...headers });
  res.end(text);
}

/**
 * The raw body, or "too_large" past `limit`. An oversized body is drained (up to 16 × limit) so the client reads
 * the 413 instead of a reset connection; beyond that the 413 is sent at once and the connection closed.
 */
function readBody(req: http.IncomingMessage, limit: number): Promise<Buffer | "too_large"> {
  return new Promise((resolve, reject) => {
    const maxDrain = 16 * limit;
    const declared = Number(req.headers["content-length"]);
    if (Number.isFinite(declared) && declared > maxDrain) {
      req.resume();
      return resolve("too_large");
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
      else if (size > maxDrain) {
        req.removeAllListeners("data");
        req.resume();
        resolve("too_large");
      }
    });
    req.on("end", () => resolve(size > limit ? "too_large" : Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

/** A header's single value (the first of repeated ones). */
const header = (req: http.IncomingMessage, name: string): string | undefined => {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
};

/** What a JSON-RPC message asks, for the log: `tools/call <tool>`, the method, or a batch's size. */
function describeMessage(message: unknown): string {
  if (Array.isArray(message)) return `batch of ${message.length}`;
  const m = message as { method?: unknown; params?: { name?: unknown } } | null;
  if (typeof m?.method !== "string") return "(not a request)";
  const tool = m.method === "tools/call" && typeof m.params?.name === "string" ? ` ${m.params.name.slice(0, 80)}` : "";
  return `${m.method.slice(0, 80)}${tool}`;
}

/** A tool result's outcome for the log: ok, the envelope's error code, or the SDK-style refusal. */
function outcomeOf(answer: CallToolResult): string {
  if (!answer.isError) return "ok";
  const code = (answer.structuredContent as { data?: { error?: { code?: unknown } } } | undefined)?.data?.error?.code;
  return typeof code === "string" ? code : "refused";
}

/** Does this JSON-RPC message (or batch) call a tool that changes data? */
/** Whether the message calls a tool that changes data and that the principal can see (a hidden one is unknown). */
function callsWriteTool(message: unknown, principal: Principal): boolean {
  const messages = Array.isArray(message) ? message : [message];
  return messages.some((m) => {
    if (!m || typeof m !== "object" || (m as { method?: unknown }).method !== "tools/call") return false;
    const name = (m as { params?: { name?: unknown } }).params?.name;
    const tool = typeof name === "string" ? toolsByName.get(name) : undefined;
    return tool !== undefined && visibleTo(principal, tool) && tool.annotations?.readOnlyHint === false;
  });
}

/** An SDK Server answering tools/list and tools/call for one request's caller. */
function sdkServer(gateway: Gateway, ctx: ToolContext, record: RequestRecord): Server {
  const mcp = new Server(
    { name: "ideas-contract-gateway-mock", version: "0.1.0" },
    { capabilities: { tools: {} }, jsonSchemaValidator: sharedSchemaValidator },
  );
  // rule: tools-list-schemas read-only-hint input-schema-not-tightened input-schema-keeps-limits output-schema-accepts-contract output-schema-allows-cancelled
  mcp.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: manifest.filter((t) => visibleTo(ctx.principal, t)) }));
  mcp.setRequestHandler(CallToolRequestSchema, async (request) => {
    const answer = callTool(gateway, ctx, request.params.name, (request.params.arguments ?? {}) as Record<string, unknown>);
    record.outcome = outcomeOf(answer);
    return answer;
  });
  return mcp;
}

export async function startMcpMock(options: McpMockOptions = {}): Promise<McpMock> {
  await loadStrictOutputs();
  const clock = options.control?.clock ?? options.clock ?? createClock({ timeScale: options.timeScale ?? 1 });
  const control = options.control ?? createControl(clock);
  const host = options.host ?? "127.0.0.1";
  const perMinute = options.ipRequestsPerMinute ?? 100_000;
  const maxBody = options.maxBodyBytes ?? 1024 * 1024;
  const tokens = new Map(mcpTestTokens.map((t) => [t.token, t]));
  const hits = new Map<string, { windowStart: number; count: number }>();
  let origin = new URL(`http://${host}/`);
  let gateway = createGateway(clock, () => origin);
  control.onReset(() => (gateway = createGateway(clock, () => origin)));
  const access = createBrowserAccess(options.browser, host);
  const httpError = (code: string, message: string) => ({ error: code, error_description: message });

  const server = http.createServer(limitOptions(options.limits), async (req, res) => {
    const record: RequestRecord = { what: `${req.method} ${loggedPath(req.url)}` };
    logRequest(options.log, "mcp", res, record);
    try {
      if (repeatsHost(req)) {
        req.resume();
        return sendJson(res, 400, { jsonrpc: "2.0", id: null, error: { code: -32600, message: "Invalid Request: send the Host header once; this request repeats it." } });
      }
      if (missingHost(req)) {
        req.resume();
        return sendJson(res, 400, { jsonrpc: "2.0", id: null, error: { code: -32600, message: "Invalid Request: send a Host header; HTTP/1.1 requires one." } });
      }
      // DNS-rebinding protection (MCP transport spec): a foreign Host or Origin is refused before anything else.
      // An absolute-form target names the host itself (RFC 9112 §3.2.2): that is the one checked.
      if (!access.hostAllowed(targetAuthority(req.url) ?? req.headers.host)) {
        req.resume();
        return sendJson(res, 403, { jsonrpc: "2.0", id: null, error: { code: -32000, message: "Forbidden: this Host is not allowed." } });
      }
      const verdict = access.check(req, res);
      if (verdict === "answered") return;
      if (verdict === "refused-preflight") {
        req.resume();
        return sendJson(res, 403, { jsonrpc: "2.0", id: null, error: { code: -32000, message: `Forbidden: ${preflightRefusal(req.headers.origin!)}` } });
      }
      if (verdict === "foreign-origin") {
        req.resume();
        return sendJson(res, 403, { jsonrpc: "2.0", id: null, error: { code: -32000, message: "Forbidden: this Origin is not allowed." } });
      }
      const asterisk = asteriskAnswer(req, res, "GET, POST, DELETE, OPTIONS");
      if (asterisk) return;
      if (asterisk === null) return sendJson(res, 400, { error: "invalid_request", error_description: asteriskRefusal });
      const url = new URL(req.url ?? "/", origin);
      // Edge rate limit per IP per minute, before anything else.
      const ip = req.socket.remoteAddress ?? "unknown";
      const now = Date.now();
      const hit = hits.get(ip);
      if (!hit || now - hit.windowStart >= 60_000) hits.set(ip, { windowStart: now, count: 1 });
      else if (++hit.count > perMinute) {
        const retryAfter = Math.max(1, Math.ceil((hit.windowStart + 60_000 - now) / 1000));
        return sendJson(res, 429, { error: "rate_limited", error_description: "Too many requests from this address in a minute." }, { "retry-after": String(retryAfter) });
      }
      if (serveControl(control, req, (s, b, h) => sendJson(res, s, b, h), httpError)) return;
      if (url.pathname !== "/mcp") {
        if (serveResourceMetadata(req, url, originOf(req, origin), (s, b, h) => sendJson(res, s, b, h))) return;
        if (gateway.serveHttp(req, res, url)) return;
        return sendJson(res, 404, { error: "not_found", error_description: `Nothing at ${shownPath(req.url)}; the MCP endpoint is /mcp.` });
      }
      if (repeatsAuthorization(req)) {
        req.resume();
        return sendJson(res, 400, { error: "invalid_request", error_description: "Send the Authorization header once; this request repeats it." });
      }
      const auth = req.headers.authorization ?? "";
      const match = /^Bearer (\S+)$/i.exec(auth);
      const known = match ? (tokens.get(match[1]!) ?? situationToken(match[1]!)) : undefined;
      if (!known || known.expired) {
        const said: Record<string, string> = match ? { error: "invalid_token", error_description: "The token is unknown or expired." } : {};
        // rule: unauthenticated-401 expired-token-401
        return sendJson(res, 401, { error: match ? "invalid_token" : "unauthorized", error_description: "A valid bearer token is required." }, { "www-authenticate": challenge(originOf(req, origin), said) });
      }
      if (req.method !== "POST") {
        return sendJson(res, 405, { jsonrpc: "2.0", id: null, error: { code: -32000, message: "Method not allowed: this stateless endpoint takes POST only." } }, { allow: "POST" });
      }
      if (bodyCoding(req)) {
        req.resume();
        return sendJson(res, 415, { jsonrpc: "2.0", id: null, error: { code: -32000, message: "Unsupported Media Type: send the body uncompressed; this server decodes no Content-Encoding." } }, codingRefusalHeaders);
      }
      const body = await readBody(req, maxBody);
      if (body === "too_large") {
        return sendJson(res, 413, { jsonrpc: "2.0", id: null, error: { code: -32600, message: `Request body over ${maxBody} bytes.` } }, { connection: "close" });
      }
      let message: unknown;
      try {
        // JSON is UTF-8: bytes that are not are a parse error, not silently replaced with U+FFFD.
        message = JSON.parse(new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(body));
      } catch {
        return sendJson(res, 400, { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error: the body is not JSON." } });
      }
      record.what = describeMessage(message);
      const refused = checkMessage(message, header(req, "mcp-protocol-version"));
      if (refused) {
        record.outcome = String(refused.body.error.code);
        return sendJson(res, refused.status, refused.body);
      }
      const principal = principalOf(known);
      // rule: partner-only-call-unknown (a hidden tool fails as unknown, not as a write the token may not make)
      if (callsWriteTool(message, principal) && !principal.scopes.has("mcp:write")) {
        // rule: insufficient-scope-403 read-scope-suffices
        return sendJson(res, 403, { error: "insufficient_scope", error_description: "This tool changes data and needs the mcp:write scope." }, {
          "www-authenticate": challenge(originOf(req, origin), { error: "insufficient_scope", scope: "mcp:read mcp:write" }),
        });
      }
      const ctx: ToolContext = { principal, clock, origin, profiles: gateway.profiles, posts: gateway.posts };
      const shortcut = shortcutFor(req, message);
      if (shortcut?.method === "tools/list") {
        const listed = toolsList.answer(principal.kind === "partner" ? "partner" : "other", shortcut.id, acceptsGzip(header(req, "accept-encoding")));
        res.writeHead(200, {
          "content-type": "application/json",
          "content-length": listed.length,
          vary: "accept-encoding",
          ...(listed.encoding ? { "content-encoding": listed.encoding } : {}),
        });
        res.cork();
        for (const chunk of listed.chunks) res.write(chunk);
        return void res.end();
      }
      if (shortcut?.method === "tools/call") {
        const answer = callTool(gateway, ctx, shortcut.name, shortcut.args);
        record.outcome = outcomeOf(answer);
        return sendResult(res, shortcut.id, answer);
      }
      // Stateless: a fresh SDK Server per request (initialize, ping, batches, what the SDK refuses).
      const mcp = sdkServer(gateway, ctx, record);
      if (Array.isArray(message) && transportAccepts(req)) {
        const answers = await answerBatch(mcp, message);
        if (answers.length === 0) return void res.writeHead(202).end();
        return sendJson(res, 200, answers);
      }
      // rule: stateless-requests
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      res.on("close", () => {
        void transport.close();
        void mcp.close();
      });
      await mcp.connect(transport);
      await transport.handleRequest(req, res, message);
    } catch (err) {
      console.error(`mcp mock: request failed: ${printable((err as Error).message)}`);
      if (!res.headersSent) sendJson(res, 500, { jsonrpc: "2.0", id: null, error: { code: -32603, message: "Internal error" } });
      else res.end();
    }
  });
  // What Node's parser refuses (control characters, conflicting lengths, oversized headers, a slow client's
  // timeout) still gets a JSON-RPC error body where the socket takes one.
  server.on("clientError", (err: NodeJS.ErrnoException, socket) => {
    const refusal = parserRefusal(err);
    answerOnSocket(socket, refusal, { jsonrpc: "2.0", id: null, error: { code: -32600, message: `Invalid Request: ${refusal.message}` } });
  });
  guardEdges(server, (r) => ({ jsonrpc: "2.0", id: null, error: { code: -32600, message: `Invalid Request: ${r.message}` } }));
  // An Expect other than 100-continue: Node would answer 417 with an empty body.
  server.on("checkExpectation", (req: http.IncomingMessage, res: http.ServerResponse) => {
    req.resume();
    sendJson(res, 417, { jsonrpc: "2.0", id: null, error: { code: -32600, message: "Invalid Request: the only Expect this server meets is 100-continue." } });
  });
  await listen(server, options.port ?? 0, host, "MCP gateway mock");
  const { port } = server.address() as AddressInfo;
  origin = new URL(`http://${host}:${port}/`);
  return {
    url: new URL("/mcp", origin),
    clock,
    control,
    controlToken: control.token,
    get gateway() {
      return gateway;
    },
    stop: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
