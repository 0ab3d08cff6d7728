// A real MCP SDK server over stateless Streamable HTTP on 127.0.0.1 that lists a given manifest and answers
// calls through a callback — enough to prove real SDK clients accept what the contract generates.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type CallToolResult,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";

export type Answer = (name: string, args: Record<string, unknown>) => CallToolResult;

export interface RunningServer {
  url: URL;
  close(): Promise<void>;
}

export async function serveManifest(tools: Tool[], answer: Answer): Promise<RunningServer> {
  const httpServer = http.createServer(async (req, res) => {
    // Stateless: a fresh Server and transport per request, as the gateway does.
    const server = new Server({ name: "manifest-test", version: "0.0.0" }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
    server.setRequestHandler(CallToolRequestSchema, async (request) =>
      answer(request.params.name, (request.params.arguments ?? {}) as Record<string, unknown>),
    );
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res);
  });
  await new Promise<void>((resolve) => httpServer.listen(0, "127.0.0.1", resolve));
  const { port } = httpServer.address() as AddressInfo;
  return {
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    close: () =>
      new Promise<void>((resolve, reject) => {
        httpServer.closeAllConnections();
        httpServer.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}

/** A result in the seed's convention: structuredContent {data} and the same payload as JSON text. */
export function resultOf(data: unknown, isError = false): CallToolResult {
  return {
    content: [{ type: "text", text: JSON.stringify(data) }],
    structuredContent: { data } as Record<string, unknown>,
    ...(isError ? { isError: true } : {}),
  };
}
