// MCP authorization discovery on the gateway mock (RFC 9728): the protected-resource metadata at both well-known
// paths, `resource_metadata` in every challenge, read by the SDK's own discovery functions; and the SDK's
// auth-aware client (an OAuth provider that holds the given token, or a static bearer header) connects and lists
// tools with that token and never starts an OAuth flow.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { discoverOAuthProtectedResourceMetadata, extractWWWAuthenticateParams, type OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMcpMock, type McpMock } from "../mock/mcp/server.js";

let mock: McpMock;
const lines: string[] = [];
beforeAll(async () => {
  mock = await startMcpMock({ port: 0, log: (l) => lines.push(l) });
});
afterAll(() => mock.stop());

const rpc = (token: string | null, body: unknown) =>
  fetch(mock.url, {
    method: "POST",
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify(body),
  });

describe("protected-resource metadata (RFC 9728)", () => {
  it("is served for the MCP endpoint and for the origin, each naming its own resource", async () => {
    const origin = mock.url.origin;
    for (const [path, resource] of [["/.well-known/oauth-protected-resource/mcp", `${origin}/mcp`], ["/.well-known/oauth-protected-resource", origin]] as const) {
      const res = await fetch(new URL(path, origin));
      expect(res.status, path).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^application\/json/);
      expect(await res.json()).toMatchObject({
        resource,
        authorization_servers: [expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/)],
        scopes_supported: ["mcp:read", "mcp:write"],
        bearer_methods_supported: ["header"],
      });
    }
    expect((await fetch(new URL("/.well-known/oauth-protected-resource/mcp", origin), { method: "POST" })).status).toBe(405);
  });

  it("is named by resource_metadata in the 401 (no token, a bad token) and 403 insufficient_scope challenges", async () => {
    const expected = `${mock.url.origin}/.well-known/oauth-protected-resource/mcp`;
    for (const token of [null, "mcp_expired", "nope"]) {
      const res = await rpc(token, { jsonrpc: "2.0", id: 1, method: "tools/list" });
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toMatch(/^Bearer realm="mcp"/);
      expect(extractWWWAuthenticateParams(res).resourceMetadataUrl?.href, String(token)).toBe(expected);
    }
    const write = await rpc("mcp_readonly", { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "create_posts", arguments: {} } });
    expect(write.status).toBe(403);
    const params = extractWWWAuthenticateParams(write);
    expect(params).toMatchObject({ error: "insufficient_scope", scope: "mcp:read mcp:write" });
    expect(params.resourceMetadataUrl?.href).toBe(expected);
  });

  it("is what the SDK's own discovery finds for the MCP URL", async () => {
    const metadata = await discoverOAuthProtectedResourceMetadata(mock.url);
    expect(metadata.resource).toBe(mock.url.href);
    expect(metadata.scopes_supported).toEqual(["mcp:read", "mcp:write"]);
  });
});

/** An OAuth provider that holds a token it was given; any OAuth step it is asked for is recorded as a detour. */
function givenToken(token: string, detours: string[]): OAuthClientProvider {
  return {
    redirectUrl: "http://127.0.0.1:1/callback",
    clientMetadata: { redirect_uris: ["http://127.0.0.1:1/callback"], client_name: "test" },
    clientInformation: () => undefined,
    tokens: () => ({ access_token: token, token_type: "Bearer" }),
    saveTokens: () => void detours.push("saveTokens"),
    redirectToAuthorization: (url) => void detours.push(`redirect ${url.href}`),
    saveCodeVerifier: () => void detours.push("saveCodeVerifier"),
    codeVerifier: () => {
      detours.push("codeVerifier");
      return "";
    },
  };
}

describe("the SDK's auth-aware client with the given token", () => {
  it.each([
    ["an OAuth provider holding the token", (t: string, d: string[]) => new StreamableHTTPClientTransport(mock.url, { authProvider: givenToken(t, d) })],
    ["a static bearer header", (t: string) => new StreamableHTTPClientTransport(mock.url, { requestInit: { headers: { authorization: `Bearer ${t}` } } })],
  ])("%s: connects and lists tools, with no OAuth detour", async (_label, transportFor) => {
    const detours: string[] = [];
    lines.length = 0;
    const client = new Client({ name: "auth-test", version: "1.0.0" });
    try {
      await client.connect(transportFor("mcp_user", detours));
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain("get_workspaces");
      const result = await client.callTool({ name: "get_workspaces", arguments: { limit: 1 } });
      expect(result.isError).toBeFalsy();
    } finally {
      await client.close();
    }
    expect(detours).toEqual([]);
    // Nothing but the MCP endpoint was asked: no metadata, authorization-server or registration lookups.
    expect(lines.length).toBeGreaterThan(0);
    for (const l of lines) expect(l).toMatch(/ mcp (initialize|notifications\/initialized|tools\/list|tools\/call get_workspaces|DELETE \/mcp|GET \/mcp) /);
  });
});
