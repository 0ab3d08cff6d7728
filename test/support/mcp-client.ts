// A real SDK Client for tests: bearer token on the transport, 2020-12 output validation on, tools listed once
// so the client validates every structuredContent against the tool's outputSchema.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { createAjv } from "../../scripts/lib/ajv.js";
import type { ErrorDetail, ErrorEnvelope, ToolName, ToolOutputs } from "../../generated/mcp/types.js";
import { closeAfterAnswer } from "./fresh-connection.js";

export interface McpTestClient {
  client: Client;
  /** Calls a tool; returns the whole result and structuredContent.data. */
  // Arguments stay loose: tests send wrong ones on purpose.
  call(name: string, args?: Record<string, unknown>): Promise<{ result: CallToolResult; data: unknown }>;
  /** Calls a tool that must succeed and returns its payload. */
  ok<N extends ToolName>(name: N, args?: Record<string, unknown>): Promise<ToolOutputs[N]>;
  /** Calls a tool that may succeed or fail in the envelope: its payload or the envelope (anything else throws). */
  attempt<N extends ToolName>(name: N, args?: Record<string, unknown>): Promise<ToolOutputs[N] | ErrorEnvelope>;
  /** Calls a tool that must fail in the envelope and returns error (code, message, retryable, …). */
  fails(name: string, args?: Record<string, unknown>): Promise<ErrorDetail>;
  close(): Promise<void>;
}

export async function connectMcp(url: URL, token: string): Promise<McpTestClient> {
  const client = new Client(
    { name: "ideas-contract-tests", version: "0.0.0" },
    { jsonSchemaValidator: new AjvJsonSchemaValidator(createAjv() as never) },
  );
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${token}`, ...closeAfterAnswer } } }));
  await client.listTools();
  const call = async (name: string, args: Record<string, unknown> = {}) => {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    const data: unknown = result.structuredContent?.data;
    if (result.structuredContent) {
      // The seed's convention: the text content holds the same payload as JSON.
      const text = (result.content[0] as { text?: string } | undefined)?.text;
      if (JSON.stringify(JSON.parse(text ?? "null")) !== JSON.stringify(data)) throw new Error(`${name}: content[0].text differs from structuredContent.data`);
    }
    return { result, data };
  };
  return {
    client,
    call,
    async ok<N extends ToolName>(name: N, args?: Record<string, unknown>) {
      const { result, data } = await call(name, args);
      if (result.isError || data === undefined || isEnvelope(data)) throw new Error(`${name} failed: ${JSON.stringify(data ?? result.content)}`);
      // The client checked structuredContent against the tool's outputSchema (listed above): a success is the output.
      return data as ToolOutputs[N];
    },
    async attempt<N extends ToolName>(name: N, args?: Record<string, unknown>) {
      const { result, data } = await call(name, args);
      if (isEnvelope(data)) return data;
      if (result.isError || data === undefined) throw new Error(`${name} failed outside the envelope: ${JSON.stringify(result)}`);
      return data as ToolOutputs[N]; // checked against the tool's outputSchema, as in ok()
    },
    async fails(name, args) {
      const { result, data } = await call(name, args);
      if (!result.isError || !isEnvelope(data)) throw new Error(`${name} did not fail in the envelope: ${JSON.stringify(result)}`);
      return data.error;
    },
    close: () => client.close(),
  };
}

/** A failure in the contract's envelope ({ ok: false, error }). */
export const isEnvelope = (data: unknown): data is ErrorEnvelope =>
  typeof data === "object" && data !== null && (data as { ok?: unknown }).ok === false && typeof (data as { error?: unknown }).error === "object";

/** A brand id by workspace and brand slug, read through the tools (fixtures are the profiles domain's business). */
export async function brandIdBySlug(c: McpTestClient, workspaceSlug: string, brandSlug: string): Promise<string> {
  const ws = await c.ok("get_workspaces", {});
  const workspace = ws.workspaces.find((w) => w.slug === workspaceSlug);
  const list = await c.ok("list_brands", { workspaceId: workspace?.id });
  const brand = list.brands.find((b) => b.slug === brandSlug);
  if (!brand) throw new Error(`no brand ${workspaceSlug}/${brandSlug}`);
  return brand.id;
}

/**
 * Advances a virtual clock in poll-sized steps until the batch's copy is settled (and, unless `pictures` is false,
 * its pictures). Pictures land at least 45 s after their post, so 15 s steps still catch the last one pending.
 */
export async function settleBatch(c: McpTestClient, clock: { advance(ms: number): void }, batchId: string, pictures = true): Promise<ToolOutputs["get_post_batch_status"]> {
  for (let i = 0; i < 200; i++) {
    const status = await c.ok("get_post_batch_status", { batchId });
    if (status.settled && (!pictures || (status.imagesPendingCount ?? 0) === 0)) return status;
    clock.advance(15_000);
  }
  throw new Error("batch never settled");
}
