// The MCP mock's triggers for the profile scenarios of the conformance suite (conformance/targets/reference.yaml):
// a build failing with any catalogue code, a build outlasting a run, an account whose provider cannot be reached,
// a partner client whose access the gateway cannot get, and a profile without brand settings refusing work.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { catalogue } from "../generated/mcp/errors.js";
import { startMcpMock, type McpMock } from "../mock/mcp/server.js";
import { fixtureIds as F } from "../mock/mcp/profiles/fixtures.js";
import { connectMcp, type McpTestClient } from "./support/mcp-client.js";

const minutes = (n: number) => n * 60_000;

let mock: McpMock;
let partner: McpTestClient;
let blake: McpTestClient;

beforeAll(async () => {
  mock = await startMcpMock({ port: 0, timeScale: 1 });
  partner = await connectMcp(mock.url, "mcp_partner");
  blake = await connectMcp(mock.url, "mcp_other_user");
});
afterAll(async () => {
  await Promise.all([partner, blake].map((c) => c?.close()));
  await mock?.stop();
});

let counter = 0;
const newClient = (websiteUrl: string) => partner.ok("create_profile", { websiteUrl, name: `Trigger client ${++counter}`, externalId: `trigger-${counter}` });
const onboarding = async (brandId: string) => (await partner.ok("get_profile", { brandId })).onboarding;

describe("profile triggers of the MCP mock", () => {
  it("fails the first build of a fail-code-<code> host with that code, every build failure code of the catalogue", async () => {
    const codes = catalogue.filter((e) => e.kind === "build_failure").map((e) => e.code);
    const made: (readonly [string, any])[] = [];
    // One call at a time, as the other mock tests do (five at once met ECONNRESET once under a full npm test).
    for (const code of codes) made.push([code, await newClient(`https://www.fail-code-${code}.example.com`)]);
    for (const [code, created] of made) expect(created.status, code).toBe(code === "build_not_queued" ? "failed" : "building");
    mock.clock.advance(minutes(31));
    for (const [code, created] of made) expect(await onboarding(created.brandId)).toEqual({ status: "failed", error: code });
  });

  it("keeps a build-slow host building for a million minutes", async () => {
    const { brandId } = await newClient("https://www.build-slow.example.com");
    mock.clock.advance(minutes(999_999));
    expect(await onboarding(brandId)).toEqual({ status: "building" });
    mock.clock.advance(minutes(2));
    expect(await onboarding(brandId)).toEqual({ status: "ready" });
  });

  it("connects ?account=unreachable with its provider unreachable: connection_check_failed, listed unknown, generating not held up", async () => {
    const { brandId, companyId } = await newClient("https://www.harbourbakery.co.uk");
    mock.clock.advance(minutes(31));
    const { url } = await partner.ok("create_connect_link", { brandId, platform: "facebook" });
    expect((await fetch(`${url}?account=unreachable`, { redirect: "manual" })).status).toBe(200);
    const p = await partner.ok("get_profile", { brandId });
    expect(p.readiness).toEqual({ canGenerate: true, canPublish: true, blockers: ["connection_check_failed"] });
    const list = await partner.ok("list_brands", { workspaceId: companyId });
    expect(list.brands[0]?.publishReadiness).toBe("unknown");
  });

  it("answers every call of mcp_partner_downstream_fails with partner_downstream_auth_failed, retryable, in the envelope", async () => {
    const res = await fetch(mock.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: "Bearer mcp_partner_downstream_fails" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "get_workspaces", arguments: {} } }),
    });
    expect(res.status).toBe(200);
    const { result } = await res.json();
    expect(result.isError).toBe(true);
    expect(result.structuredContent.data.error).toMatchObject({ code: "partner_downstream_auth_failed", retryable: true });
  });

  it("refuses generating and publishing for a profile without brand settings (no_brand_profile), as its readiness says", async () => {
    expect((await blake.ok("get_profile", { brandId: F.blakeShop })).readiness.canGenerate).toBe(false);
    expect((await blake.fails("create_draft", { brandId: F.blakeShop, caption: "Hello" })).code).toBe("forbidden");
    expect((await blake.fails("create_posts", { brandId: F.blakeShop, brief: "Spring glazes", count: 1 })).code).toBe("forbidden");
  });
});
