// `ideas-contract/mock`: start and stop the mock servers from code.
//
//   const rest = await startRestMock({ port: 4010, timeScale: 0.01 }); // rest.url, rest.clock, await rest.stop()
//   // rest.controlToken: send as X-Control-Token to use /__control/ from another host or name (mock/control-guard.ts)
//   const mcp = await startMcpMock({ port: 4012 });                     // mcp.url → http://127.0.0.1:4012/mcp
//   const prism = await startPrism({ port: 4011 });                      // needs @stoplight/prism-cli
//
// The REST reference needs nothing beyond this package. The MCP gateway mock needs the optional peer
// @modelcontextprotocol/sdk and is loaded on the first `startMcpMock` call, so importing this module never
// requires it; Prism needs the optional peer @stoplight/prism-cli, found when `startPrism` runs.
import type { McpMock, McpMockOptions } from "../mock/mcp/server.js";

export { startRestMock, type RestMock, type RestMockOptions } from "../mock/rest/server.js";
export { startPrism, type PrismOptions, type PrismServer } from "../mock/prism.js";
export { restTestTokens, type RestTestToken } from "../mock/rest/tokens.js";
export { mcpTestTokens, type McpTestToken } from "../mock/mcp/tokens.js";
export { createClock, type Clock, type ClockOptions } from "../mock/clock.js";
export type { McpMock, McpMockOptions };

/** Starts the MCP gateway mock (Streamable HTTP at `/mcp`); loads it and the MCP SDK on first use. */
export async function startMcpMock(options: McpMockOptions = {}): Promise<McpMock> {
  const { startMcpMock: start } = await import("../mock/mcp/server.js");
  return start(options);
}
