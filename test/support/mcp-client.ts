// A real SDK Client for tests: bearer token on the transport, 2020-12 output validation on, tools listed once
// so the client validates every structuredContent against the tool's outputSchema.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { createAjv } from "../../scripts/lib/ajv.js";
import { closeAfterAnswer } from "./fresh-connection.js";

export interface McpTestClient {
  client: Client;
  /** Calls a tool; returns the whole result and structuredContent.data. */
  call(name: string, args?: Record<string, unknown>): Promise<{ result: CallToolResult; data: any }>;
  /** Calls a tool that must succeed and returns its payload. */
  ok(name: string, args?: Record<string, unknown>): Promise<any>;
  /** Calls a tool that must fail in the envelope and returns error (code, message, retryable, …). */
  fails(name: string, args?: Record<string, unknown>): Promise<any>;
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
    const data = (result.structuredContent as { data?: any } | undefined)?.data;
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
    async ok(name, args) {
      const { result, data } = await call(name, args);
      if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(data ?? result.content)}`);
      return data;
    },
    async fails(name, args) {
      const { result, data } = await call(name, args);
      if (!result.isError || !data || data.ok !== false) throw new Error(`${name} did not fail in the envelope: ${JSON.stringify(result)}`);
      return data.error;
    },
    close: () => client.close(),
  };
}

/** A brand id by workspace and brand slug, read through the tools (fixtures are the profiles domain's business). */
export async function brandIdBySlug(c: McpTestClient, workspaceSlug: string, brandSlug: string): Promise<string> {
  const ws = await c.ok("get_workspaces", {});
  const workspace = ws.workspaces.find((w: any) => w.slug === workspaceSlug);
  const list = await c.ok("list_brands", { workspaceId: workspace.id });
  return list.brands.find((b: any) => b.slug === brandSlug).id;
}
