// One real third-party MCP client against the gateway mock: the MCP Inspector's CLI lists the tools and calls
// one with a bearer header, as a partner would from a terminal.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import path from "node:path";
import { binPath } from "../lib/run.js";
import { startMcpMock, type McpMock } from "../mock/mcp/server.js";
import { execFileTracked } from "./support/children.js";
import { hangGuardMs } from "./support/hang-guard.js";

const run = execFileTracked;
// The Inspector's own CLI package: the Inspector 2.x wants Node >= 22.19 (an engine warning on every npm ci here).
const inspector = binPath("@modelcontextprotocol/inspector-cli", "mcp-inspector-cli");
// inspector-cli 1.0.3 finds its own package.json by a path relative to the working directory (a bug of that
// release): run it from its build folder, where "../package.json" is its own.
const inspectorCwd = path.dirname(inspector);
let mock: McpMock;

beforeAll(async () => {
  mock = await startMcpMock({ port: 0 });
});
afterAll(() => mock.stop());

async function inspect(token: string | null, ...args: string[]) {
  const header = token ? ["--header", `Authorization: Bearer ${token}`] : [];
  try {
    const { stdout } = await run(process.execPath, [inspector, "--cli", mock.url.href, "--transport", "http", ...header, ...args], { cwd: inspectorCwd });
    return { code: 0, stdout };
  } catch (err) {
    const e = err as { code?: number; stdout?: string };
    return { code: e.code ?? -1, stdout: e.stdout ?? "" };
  }
}

describe("the MCP Inspector CLI", () => {
  it("lists every tool a signed-in user may see, and none of the partner-only ones", async () => {
    const { code, stdout } = await inspect("mcp_user", "--method", "tools/list");
    expect(code).toBe(0);
    const names = (JSON.parse(stdout) as { tools: { name: string }[] }).tools.map((t) => t.name);
    expect(names).toHaveLength(28);
    expect(names).not.toContain("create_profile");
    expect(names).toContain("create_posts");
  });

  it("calls a tool with the bearer header and gets the seed's result shape", async () => {
    const { code, stdout } = await inspect("mcp_user", "--method", "tools/call", "--tool-name", "get_workspaces", "--tool-arg", "limit=1");
    expect(code).toBe(0);
    const result = JSON.parse(stdout) as { structuredContent: { data: { workspaces: unknown[]; truncated: boolean } }; content: { text: string }[] };
    expect(result.structuredContent.data.workspaces).toHaveLength(1);
    expect(result.structuredContent.data.truncated).toBe(true);
    expect(JSON.parse(result.content[0]!.text)).toEqual(result.structuredContent.data);
  });

  it("fails without a token", async () => {
    const { code } = await inspect(null, "--method", "tools/list");
    expect(code).not.toBe(0);
  });
});
