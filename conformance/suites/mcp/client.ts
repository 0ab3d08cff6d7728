// The MCP side of a check: the real SDK client (Streamable HTTP, a bearer token per client, output validation on
// in the dialect each output schema names), one per token, made on first use and shared by the run's checks; every call's outcome kept whole
// so the checks can judge the result, the envelope and the text alike; and raw JSON-RPC requests for what happens
// before MCP (401, 403, statelessness).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { LATEST_PROTOCOL_VERSION, McpError, type CallToolResult, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { BudgetExceeded, TransportError, type Credential } from "../../core/http.js";
import type { ToolInputs, ToolName } from "../../../generated/mcp/types.js";
import type { McpRunTargetView } from "./target.js";
import { compileLive, contractTool, liveProblems, passThroughValidator } from "./contract.js";
import { openEnums } from "./fields.js";
import type { McpHttp, McpHttpResponse } from "./http.js";
import { mcpTokenEnv, type McpTokenKind } from "./target.js";

/** A call's outcome; `N` the tool when the call was typed by the contract (its arguments were the tool's input). */
export interface CallOutcome<N extends string = string> {
  tool: N;
  args: Record<string, unknown>;
  as: McpTokenKind;
  /** The result, when one came back and passed the SDK client's checks. */
  result?: CallToolResult;
  /** structuredContent.data of the result, untrusted (expectOk and okData hand it out typed by the contract). */
  data?: unknown;
  /** content[0].text of the result. */
  text?: string;
  /** Why no usable result came back. */
  error?: {
    /** output-schema: structuredContent broke the live output schema; no-structured-content: a tool with an output
     * schema answered success without it; rpc: a JSON-RPC error; http: a non-2xx answer. */
    kind: "output-schema" | "no-structured-content" | "rpc" | "http";
    message: string;
    code?: number;
  };
}

/** A short description of a call for failure messages. */
export function describeCall(o: CallOutcome): string {
  const args = JSON.stringify(o.args);
  const head = `${o.tool}(${args.length > 160 ? `${args.slice(0, 160)}…` : args})${o.as === "normal" ? "" : ` as ${o.as}`}`;
  if (o.error) return `${head} → ${o.error.kind} error: ${o.error.message.slice(0, 300)}`;
  const body = o.result?.structuredContent !== undefined ? JSON.stringify(o.result.structuredContent) : JSON.stringify(o.result?.content ?? null);
  return `${head} → ${o.result?.isError ? "isError " : ""}${body.slice(0, 400)}`;
}

/**
 * Whether a result's structuredContent breaks the output schema tools/list declares: the outcome's error, in the words
 * the suite and the proxy both report (the SDK client no longer judges it: its error would be the SDK's wording).
 */
export function liveOutputError(schema: unknown, structuredContent: unknown): CallOutcome["error"] {
  const problems = liveProblems(schema, structuredContent);
  return problems.length ? { kind: "output-schema", message: `structuredContent does not match the output schema tools/list declares: ${problems.join("; ")}`, code: -32602 } : undefined;
}

/** The tool with an output schema the client can judge by: its own, or (when that does not compile) the contract's, open. */
function judgeableOutput(tool: Tool): Tool {
  if (!tool.outputSchema || !(compileLive(tool.outputSchema) instanceof Error)) return tool;
  const contract = contractTool.get(tool.name)?.outputSchema;
  const { outputSchema: _broken, ...rest } = tool;
  return contract ? { ...rest, outputSchema: openEnums(contract) as Tool["outputSchema"] } : rest;
}

/** A tool's arguments (optional when its input requires nothing) and the token kind to call as. */
type InputOf<N extends ToolName> = {} extends ToolInputs[N] ? [args?: ToolInputs[N], as?: McpTokenKind] : [args: ToolInputs[N], as?: McpTokenKind];

export const streamableAccept = "application/json, text/event-stream";

interface Connection {
  client: Client;
  tools: Tool[];
}

/**
 * An SDK client connected with one token (initialize, then tools/list once, as a client of the protocol does), the
 * tools it lists cached for output validation. `onRequest` counts each of its HTTP requests.
 */
async function connect(http: McpHttp, credential: Credential, as: McpTokenKind, timeout: number, onRequest: () => void): Promise<Connection> {
  const client = new Client({ name: "ideas-contract-conformance", version: "1.0.0" }, { jsonSchemaValidator: passThroughValidator });
  const transport = new StreamableHTTPClientTransport(http.endpoint, { fetch: http.fetchFor(credential, onRequest) });
  try {
    await client.connect(transport, { timeout });
  } catch (err) {
    throw rethrow(err, `connecting as ${as}`);
  }
  const tools: Tool[] = [];
  try {
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await client.listTools(cursor ? { cursor } : undefined, { timeout });
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor && ++pages < 50);
    // listTools caches only its own page's output validators: cache the whole list, each output schema that
    // is not valid JSON Schema (the schema rule's failure) replaced by the contract's, so results are judged.
    (client as unknown as { cacheToolMetadata(t: Tool[]): void }).cacheToolMetadata(tools.map(judgeableOutput));
  } catch (err) {
    throw rethrow(err, `tools/list as ${as}`);
  }
  return { client, tools };
}

/**
 * The SDK clients a run's sessions share, one per token (and variable): each token's initialize and tools/list
 * happen once per run instead of once per check (a tools/list is ~330 KB to read, redact and parse). No check judges
 * the SDK client's own session (the handshake and statelessness are judged with raw requests), and the list a
 * check reads is the one the target gave that token. A connection that failed is not kept: the next check that
 * needs it connects again. Its requests count for the run, not for the check that happened to ask first.
 */
export class McpConnections {
  readonly #open = new Map<string, Promise<Connection>>();
  #requests = 0;

  constructor(
    readonly http: McpHttp,
    readonly timeoutMs: number,
  ) {}

  /** Requests made to connect (initialize, tools/list). */
  get requests(): number {
    return this.#requests;
  }

  get(credential: Credential, as: McpTokenKind): Promise<Connection> {
    const key = `${credential.env ?? ""}\u0000${credential.bearer}`;
    let c = this.#open.get(key);
    if (!c) {
      c = connect(this.http, credential, as, this.timeoutMs, () => this.#requests++);
      this.#open.set(key, c);
      c.catch(() => {
        if (this.#open.get(key) === c) this.#open.delete(key);
      });
    }
    return c;
  }

  async close(): Promise<void> {
    const all = [...this.#open.values()];
    this.#open.clear();
    await Promise.all(all.map(async (c) => (await c.catch(() => undefined))?.client.close().catch(() => {})));
  }
}

export class McpSession {
  readonly #connections = new Map<McpTokenKind, Promise<Connection>>();
  #requests = 0;
  #observer: ((o: CallOutcome) => void) | undefined;

  /**
   * `env`: the variable of a kind's token when it is not the usual one (mcpTokenEnv), for a session made with
   * another token in that role (a trigger token of the target file). `shared`: the run's SDK clients, used instead
   * of clients of this session's own (its calls then count one request each for it).
   */
  constructor(
    readonly http: McpHttp,
    readonly target: McpRunTargetView,
    readonly env: Partial<Record<McpTokenKind, string>> = {},
    readonly shared?: McpConnections,
  ) {}

  get requests(): number {
    return this.#requests;
  }

  /** The token of a kind; throws when the target has none (checks declare their needs, so this is a suite bug). */
  token(as: McpTokenKind): string {
    const t = this.target.mcp.tokens[as];
    if (!t) throw new TransportError(`no MCP ${as} token is configured`);
    return t;
  }

  /** The token of a kind with the variable a user keeps it in, for reproductions. */
  credential(as: McpTokenKind): Credential {
    return { bearer: this.token(as), env: this.env[as] ?? mcpTokenEnv[as] };
  }

  get #timeout(): number {
    return this.target.timing.requestTimeoutMs + 5_000;
  }

  /** The SDK client for a token kind, connected, with the tools it lists cached for output validation. */
  connection(as: McpTokenKind = "normal"): Promise<Connection> {
    if (this.shared) return this.shared.get(this.credential(as), as);
    let c = this.#connections.get(as);
    if (!c) {
      c = connect(this.http, this.credential(as), as, this.#timeout, () => this.#requests++);
      this.#connections.set(as, c);
    }
    return c;
  }

  /** tools/list as a token kind. */
  async tools(as: McpTokenKind = "normal"): Promise<Tool[]> {
    return (await this.connection(as)).tools;
  }

  /** Hands every outcome of this session's calls to `observer` as it comes back (a check's judge of every reply). */
  observe(observer: (o: CallOutcome) => void): void {
    this.#observer = observer;
  }

  /** Calls a tool with arguments of its contract input; whatever comes back is kept in the outcome (transport failures throw). */
  call<N extends ToolName>(tool: N, ...[args, as]: InputOf<N>): Promise<CallOutcome<N>> {
    return this.callRaw(tool, args as Record<string, unknown> | undefined, as);
  }

  /**
   * Calls a tool with any arguments (inputs the contract refuses, tools it lacks): the SDK client; whatever comes
   * back is kept in the outcome (transport failures throw).
   */
  async callRaw<N extends string>(tool: N, args: Record<string, unknown> = {}, as: McpTokenKind = "normal"): Promise<CallOutcome<N>> {
    const { client, tools } = await this.connection(as);
    // On a shared client the fetch counts for the run: the call is this session's one request.
    if (this.shared) this.#requests++;
    let out: CallOutcome<N> = { tool, args, as };
    try {
      const result = (await client.callTool({ name: tool, arguments: args }, undefined, { timeout: this.#timeout })) as CallToolResult;
      const live = tools.find((t) => t.name === tool);
      const schema = live ? judgeableOutput(live).outputSchema : undefined;
      const wrong = schema && result.structuredContent !== undefined ? liveOutputError(schema, result.structuredContent) : undefined;
      if (wrong) {
        // As the SDK client would: a result off its declared schema is no result for the caller.
        out = { tool, args, as, error: wrong };
        this.#observer?.(out);
        return out;
      }
      out.result = result;
      const sc = result.structuredContent as Record<string, unknown> | undefined;
      if (sc && typeof sc === "object" && "data" in sc) out.data = sc.data;
      const first = result.content?.[0] as { type?: string; text?: unknown } | undefined;
      if (first?.type === "text" && typeof first.text === "string") out.text = first.text;
    } catch (err) {
      if (err instanceof BudgetExceeded || err instanceof TransportError) throw err;
      if (err instanceof McpError) {
        const kind = /does not match the tool's output schema|Failed to validate structured content/.test(err.message)
          ? "output-schema"
          : /did not return structured content/.test(err.message)
            ? "no-structured-content"
            : "rpc";
        out.error = { kind, message: err.message, code: err.code };
      } else if (err instanceof StreamableHTTPError) {
        out.error = { kind: "http", message: sdkMessage(err), ...(err.code !== undefined ? { code: err.code } : {}) };
      } else {
        const cause = (err as { cause?: unknown })?.cause;
        if (cause instanceof BudgetExceeded || cause instanceof TransportError) throw cause;
        out.error = { kind: "rpc", message: (err as Error)?.message ?? String(err) };
      }
    }
    this.#observer?.(out);
    return out;
  }

  /** A raw JSON-RPC POST to the endpoint with the Streamable HTTP headers, with this token (or none). */
  raw(message: unknown, token: Credential | { authorization: string } | undefined, options: { retry429?: boolean } = {}): Promise<McpHttpResponse> {
    this.#requests++;
    return this.http.send({
      method: "POST",
      headers: { accept: streamableAccept, "content-type": "application/json", "mcp-protocol-version": LATEST_PROTOCOL_VERSION },
      body: JSON.stringify(message),
      ...(token !== undefined ? { token } : {}),
      ...(options.retry429 === false ? { retry429: false } : {}),
    });
  }

  /** Opens a link the gateway handed out, as the client's browser would (see McpHttp.open). */
  open(link: URL): Promise<McpHttpResponse | undefined> {
    this.#requests++;
    return this.http.open(link);
  }

  async close(): Promise<void> {
    const all = [...this.#connections.values()];
    this.#connections.clear();
    await Promise.all(all.map(async (c) => (await c.catch(() => undefined))?.client.close().catch(() => {})));
  }
}

/** A tools/call JSON-RPC request. */
export const toolsCall = (name: string, args: Record<string, unknown>, id: number | string = 1) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } });

/** An SDK error's message, with the HTTP status when the SDK's own message leaves it out. */
function sdkMessage(err: unknown): string {
  const message = (err as Error)?.message ?? String(err);
  return err instanceof StreamableHTTPError && err.code !== undefined && !message.includes(String(err.code)) ? `HTTP ${err.code}: ${message}` : message;
}

function rethrow(err: unknown, what: string): Error {
  if (err instanceof BudgetExceeded || err instanceof TransportError) return err;
  const cause = (err as { cause?: unknown })?.cause;
  if (cause instanceof BudgetExceeded || cause instanceof TransportError) return cause;
  return new TransportError(`${what}: ${sdkMessage(err)}`);
}
