// The MCP gateway mock's profile-side stores are bounded like its posts (mock/mcp/profiles/store.ts,
// profileCaps): a partner keeps its newest clients, a brand its newest connect links. Driven through a real SDK
// client over HTTP; the forgotten ones answer like unknown ids.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClock } from "../mock/clock.js";
import type { ToolContext } from "../mock/mcp/context.js";
import { createGateway } from "../mock/mcp/gateway.js";
import { profileCaps } from "../mock/mcp/profiles/store.js";
import { tenantBytes } from "../mock/mcp/tenant-budget.js";
import { mcpTestTokens, principalOf } from "../mock/mcp/tokens.js";
import { startMcpMock, type McpMock } from "../mock/mcp/server.js";
import { connectMcp, type McpTestClient } from "./support/mcp-client.js";

let mock: McpMock;
let partner: McpTestClient;

beforeAll(async () => {
  mock = await startMcpMock({ port: 0 });
  partner = await connectMcp(mock.url, "mcp_partner");
});
afterAll(async () => {
  await partner?.close();
  await mock?.stop();
});

const client = (n: number) => partner.ok("create_profile", { websiteUrl: "https://www.harbourloaf.ie", name: `Bounded ${n}`, externalId: `bounded-${n}` });

describe("bounded profile stores", () => {
  it(`a partner keeps its newest ${profileCaps.clientsPerPartner} clients; an older one is forgotten whole`, async () => {
    const first = await client(0);
    for (let n = 1; n <= profileCaps.clientsPerPartner; n += 25)
      await Promise.all(Array.from({ length: Math.min(25, profileCaps.clientsPerPartner + 1 - n) }, (_, i) => client(n + i)));
    const newest = await partner.ok("get_profile", { brandId: (await client(profileCaps.clientsPerPartner)).brandId });
    expect(newest.brandName).toBe(`Bounded ${profileCaps.clientsPerPartner}`);
    // The first client is gone: its ids are unknown; its externalId still answers the first profile (seed: a
    // repeat never makes a second workspace).
    expect((await partner.fails("get_profile", { brandId: first.brandId })).code).toBe("not_found");
    expect((await partner.fails("list_brands", { workspaceId: first.companyId })).code).toBe("not_found");
    const again = await client(0);
    expect(again).toMatchObject({ created: false, brandId: first.brandId, companyId: first.companyId });
    const listed = await partner.ok("get_workspaces", { limit: 200 });
    expect(listed.totalCount).toBe(profileCaps.clientsPerPartner);
  });

  it(`a brand keeps its newest ${profileCaps.linksPerBrand} connect links`, async () => {
    const { brandId } = await client(5000);
    const links: string[] = [];
    for (let i = 0; i <= profileCaps.linksPerBrand; i++) links.push((await partner.ok("create_connect_link", { brandId })).url);
    expect((await fetch(links[0]!)).status).toBe(404);
    expect((await fetch(links.at(-1)!)).status).toBe(200);
  });
});

describe("the tenant's byte budget counts brand style lists", () => {
  it("palette colours and saved logos add to the tenant's bytes; another tenant's are its own", () => {
    const gateway = createGateway(createClock(), () => new URL("http://127.0.0.1:4012/"));
    const known = mcpTestTokens.find((t) => t.token === "mcp_user")!;
    const ctx: ToolContext = { principal: principalOf(known), clock: createClock(), origin: new URL("http://127.0.0.1:4012/"), profiles: gateway.profiles, posts: gateway.posts };
    const brandId = gateway.profiles.brandsOf(known.tenant)[0]!;
    const before = tenantBytes(gateway, known.tenant);
    const colours = Array.from({ length: 10 }, (_, i) => `#00000${i}`);
    gateway.handlers.update_brand_style!({ brandId, addColors: colours }, ctx);
    const afterColours = tenantBytes(gateway, known.tenant);
    expect(afterColours - before).toBeGreaterThanOrEqual(10 * "#000000".length);
    for (let i = 0; i < 5; i++) gateway.handlers.upload_brand_logo!({ brandId, sourceUrl: `https://www.example.com/logo-${i}.png` }, ctx);
    const afterLogos = tenantBytes(gateway, known.tenant);
    // Each saved logo's record (id, path, size, colour) is over 100 bytes of JSON.
    expect(afterLogos - afterColours).toBeGreaterThanOrEqual(5 * 100);
    const other = mcpTestTokens.find((t) => t.token === "mcp_other_user")!;
    expect(tenantBytes(gateway, other.tenant)).toBe(tenantBytes(createGateway(createClock(), () => new URL("http://127.0.0.1:4012/")), other.tenant));
  });
});
