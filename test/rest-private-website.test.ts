// The REST reference refuses a brand website on a private, loopback or link-local host exactly where the MCP mock
// refuses create_profile's websiteUrl (one judgement, mock/private-address.ts): each spelling a hostile client
// tried, on create and on update, and public neighbours accepted by both so a check that refuses all fails too.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMcpMock, type McpMock } from "../mock/mcp/server.js";
import { startRestMock, type RestMock } from "../mock/rest/server.js";
import { connectMcp, type McpTestClient } from "./support/mcp-client.js";
import { client, type Call } from "./support/rest-client.js";

/** The 13 spellings of a private host of the hostile run, and a few more. */
const privateWebsites = [
  "https://169.254.169.254/latest/meta-data",
  "https://0x7f000001",
  "https://[::ffff:127.0.0.1]",
  "https://2130706433",
  "https://0177.0.0.1",
  "https://127.1",
  "https://localhost",
  "https://LOCALHOST.",
  "https://[::1]",
  "https://10.0.0.5",
  "https://192.168.1.20",
  "https://172.16.0.1",
  "https://metadata.google.internal",
  "https://shop.localhost:8443",
  "https://[fe80::1]",
  "https://0.0.0.0",
  "https://[::ffff:a9fe:a9fe]",
];
const publicWebsites = ["https://www.harbourloaf.ie", "https://8.8.8.8", "https://172.32.0.1", "https://localhost.example.com"];

let rest: RestMock;
let mcp: McpMock;
let call: Call;
let partner: McpTestClient;
beforeAll(async () => {
  rest = await startRestMock({ port: 0 });
  mcp = await startMcpMock({ port: 0 });
  call = client(rest);
  partner = await connectMcp(mcp.url, "mcp_partner");
});
afterAll(async () => {
  await partner?.close();
  await rest?.stop();
  await mcp?.stop();
});

describe("private and loopback websites", () => {
  it.each(privateWebsites)("%s: refused by the REST reference (create and update) and by the MCP mock", async (website) => {
    const created = await call("POST", "/v1/brands", { body: { website } });
    expect(created.status).toBe(400);
    expect(created.body.error).toMatchObject({ type: "invalid_request", param: "website" });
    const brand = (await call("POST", "/v1/brands", { body: { website: "https://www.harbourloaf.ie" } })).body;
    const patched = await call("PATCH", `/v1/brands/${brand.id}`, { body: { website } });
    expect(patched.status).toBe(400);
    expect(patched.body.error).toMatchObject({ type: "invalid_request", param: "website" });
    expect((await call("GET", `/v1/brands/${brand.id}`)).body.website).toBe("https://www.harbourloaf.ie");
    const error = await partner.fails("create_profile", { websiteUrl: website, name: "Private", externalId: `private-${website}` });
    expect(error).toMatchObject({ code: "invalid_website_url", websiteRefusal: "URL_NOT_ALLOWED" });
  });

  it.each(publicWebsites)("%s: accepted by both", async (website) => {
    const created = await call("POST", "/v1/brands", { body: { website } });
    expect(created.status).toBe(201);
    expect(created.body.website).toBe(website);
    const made = await partner.ok("create_profile", { websiteUrl: website, name: "Public", externalId: `public-${website}` });
    expect(made.brandId).toEqual(expect.any(String));
  });
});
