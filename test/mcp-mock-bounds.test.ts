// The MCP gateway mock's profile-side stores are bounded like its posts (mock/mcp/profiles/store.ts,
// profileCaps): a partner keeps its newest clients, a brand its newest connect links. Driven through a real SDK
// client over HTTP; the forgotten ones answer like unknown ids.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { profileCaps } from "../mock/mcp/profiles/store.js";
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
  }, 60_000);

  it(`a brand keeps its newest ${profileCaps.linksPerBrand} connect links`, async () => {
    const { brandId } = await client(5000);
    const links: string[] = [];
    for (let i = 0; i <= profileCaps.linksPerBrand; i++) links.push((await partner.ok("create_connect_link", { brandId })).url);
    expect((await fetch(links[0]!)).status).toBe(404);
    expect((await fetch(links.at(-1)!)).status).toBe(200);
  });
});
