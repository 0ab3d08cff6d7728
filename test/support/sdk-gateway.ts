// A small gateway built the way most real ones are: the pinned MCP SDK's McpServer, tools registered with zod
// schemas (so tools/list advertises draft-07, as the SDK emits it), served statelessly over Streamable HTTP on
// 127.0.0.1 behind a bearer-token check. It exposes three read tools of the contract (get_workspaces, list_brands,
// get_profile) with correct behaviour in the contract's conventions: structuredContent { data }, the same payload as
// text, failures in the envelope with isError, and data consistent across the three.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import * as z from "zod";

export interface SdkGateway {
  url: URL;
  stop(): Promise<void>;
}

const workspace = { id: "c7d1a3f0-2b64-4e9a-8f15-6a0c9e4b7d22", name: "Harbour Bakery", slug: "harbour-bakery", logo: null, role: "OWNER", membershipType: "PRO", numBrands: 1 };
const brand = {
  id: "4f1c2b9e-5d0a-4c1e-9a55-3f7f0d6b2a11",
  name: "Harbour Bakery",
  slug: "harbour-bakery",
  logo: null,
  userRole: "ADMIN",
  isActive: true,
  publishReadiness: "ready",
};
const profile = {
  brandId: brand.id,
  brandName: brand.name,
  companyId: workspace.id,
  isActive: true,
  defaultPlatform: "INSTAGRAM",
  generationPlatforms: ["instagram"],
  storyDestinations: ["instagram_stories"],
  socialProvider: "social-hub",
  channels: [
    {
      platform: "instagram",
      displayName: "Harbour Bakery",
      username: "harbourbakery",
      profileUrl: "https://www.instagram.com/harbourbakery",
      health: "connected",
      healthReason: null,
      connectedAt: "2026-03-02T10:14:00Z",
      tokenRefreshInDays: 41,
      tokenExpiresAt: "2026-06-12T10:14:00Z",
      scopes: null,
      missingScopes: null,
      canPost: true,
      canFetchAnalytics: true,
    },
  ],
  readiness: { canGenerate: true, canPublish: true, blockers: [] as string[] },
};

// ---- Schemas, in zod as an SDK gateway writes them (open objects: new fields are allowed) ----------------------

const id = z.string().min(1);
const envelope = z.looseObject({
  ok: z.literal(false),
  error: z.looseObject({ code: z.string().min(1), message: z.string(), retryable: z.boolean() }),
});
const output = <T extends z.ZodType>(payload: T) => ({ data: z.union([payload, envelope]) });

const workspaceItem = z.looseObject({
  id,
  name: z.string(),
  slug: z.string(),
  logo: z.string().nullable(),
  role: z.string().nullable(),
  membershipType: z.string().nullable(),
  numBrands: z.number().int().min(0),
});
const brandItem = z.looseObject({ id, name: z.string(), slug: z.string(), logo: z.string().nullable(), userRole: z.string().nullable(), isActive: z.boolean(), publishReadiness: z.string() });
const channel = z.looseObject({ platform: z.string(), health: z.string(), canPost: z.boolean() });
const profileOutput = z.looseObject({
  brandId: id,
  brandName: z.string(),
  companyId: id,
  isActive: z.boolean(),
  defaultPlatform: z.string().nullable(),
  generationPlatforms: z.array(z.string()),
  socialProvider: z.string(),
  channels: z.array(channel),
  readiness: z.looseObject({ canGenerate: z.boolean(), canPublish: z.boolean(), blockers: z.array(z.string()) }),
});

// ---- Answers ---------------------------------------------------------------------------------------------------

const ok = (data: unknown): CallToolResult => ({ content: [{ type: "text", text: JSON.stringify(data) }], structuredContent: { data } as Record<string, unknown> });
const fail = (code: string, message: string): CallToolResult => {
  const data = { ok: false, error: { code, message, retryable: false } };
  return { isError: true, content: [{ type: "text", text: JSON.stringify(data) }], structuredContent: { data } };
};

function server(): McpServer {
  const mcp = new McpServer({ name: "sdk-built-gateway", version: "1.0.0" });
  mcp.registerTool(
    "get_workspaces",
    {
      description: "The workspaces (companies) the caller can reach.",
      inputSchema: z.strictObject({ query: z.string().min(1).max(200).optional(), limit: z.number().int().min(1).max(200).optional() }),
      outputSchema: output(z.looseObject({ workspaces: z.array(workspaceItem), totalCount: z.number().int().min(0), truncated: z.boolean(), needsUserChoice: z.boolean() })),
      annotations: { readOnlyHint: true },
    },
    async ({ query, limit }) => {
      const q = query?.toLowerCase();
      const matching = [workspace].filter((w) => !q || w.name.toLowerCase().includes(q) || w.slug.includes(q));
      const shown = matching.slice(0, limit ?? 50);
      return ok({ workspaces: shown, totalCount: matching.length, truncated: shown.length < matching.length, needsUserChoice: shown.length > 1 });
    },
  );
  mcp.registerTool(
    "list_brands",
    {
      description: "The brands (profiles) of a workspace the caller can reach.",
      inputSchema: z.strictObject({ workspaceId: id }),
      outputSchema: output(z.looseObject({ workspaceId: id, workspaceName: z.string(), brands: z.array(brandItem), needsUserChoice: z.boolean() })),
      annotations: { readOnlyHint: true },
    },
    async ({ workspaceId }) =>
      workspaceId === workspace.id
        ? ok({ workspaceId, workspaceName: workspace.name, brands: [brand], needsUserChoice: false })
        : fail("forbidden", "This workspace is not one you can reach."),
  );
  mcp.registerTool(
    "get_profile",
    {
      description: "One brand's profile: channels, readiness, defaults.",
      inputSchema: z.strictObject({ brandId: id, includeScopes: z.boolean().optional() }),
      outputSchema: output(profileOutput),
      annotations: { readOnlyHint: true },
    },
    async ({ brandId }) => (brandId === brand.id ? ok(profile) : fail("not_found", "No brand with this id is yours.")),
  );
  return mcp;
}

const readBody = (req: http.IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (c: string) => (body += c));
    req.on("end", () => resolve(body));
    req.on("error", reject);
  });

const refuse = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
};

/** Starts the gateway on 127.0.0.1 (ephemeral port); `tokens` are the bearer tokens it accepts. */
export async function startSdkGateway(tokens: readonly string[]): Promise<SdkGateway> {
  const httpServer = http.createServer(async (req, res) => {
    try {
      if (new URL(req.url ?? "/", "http://x").pathname !== "/mcp") return refuse(res, 404, { error: "not_found" });
      const auth = /^Bearer ([^\s]+)$/.exec(req.headers.authorization ?? "");
      if (!auth || !tokens.includes(auth[1]!))
        return refuse(res, 401, { error: "invalid_token" }, { "www-authenticate": `Bearer realm="mcp", error="invalid_token"` });
      if (req.method !== "POST") return refuse(res, 405, { jsonrpc: "2.0", id: null, error: { code: -32000, message: "Method not allowed." } }, { allow: "POST" });
      let message: unknown;
      try {
        message = JSON.parse(await readBody(req));
      } catch {
        return refuse(res, 400, { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } });
      }
      // Stateless, as the SDK's examples show: a fresh server and transport per request.
      const mcp = server();
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      res.on("close", () => {
        void transport.close();
        void mcp.close();
      });
      await mcp.connect(transport);
      await transport.handleRequest(req, res, message);
    } catch (err) {
      if (!res.headersSent) refuse(res, 500, { jsonrpc: "2.0", id: null, error: { code: -32603, message: "Internal error" } });
      else res.end();
    }
  });
  await new Promise<void>((resolve) => httpServer.listen(0, "127.0.0.1", resolve));
  const { port } = httpServer.address() as AddressInfo;
  return {
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    stop: () =>
      new Promise<void>((resolve, reject) => {
        httpServer.closeAllConnections();
        httpServer.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
