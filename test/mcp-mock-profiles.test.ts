// The profiles half of the stateful MCP gateway mock, driven through real SDK clients over HTTP: client
// creation and its build, website refusals, readiness, workspaces and brands, ending a client, branding and
// connecting accounts — plus the HTTP-level rules (401, 403 insufficient_scope) and partner-only visibility.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startMcpMock, type McpMock } from "../mock/mcp/server.js";
import { ToolError, type Principal } from "../mock/mcp/context.js";
import fs from "node:fs";
import { fixtureIds as F } from "../mock/mcp/profiles/fixtures.js";
import { magicInputs } from "../mock/mcp/profiles/magic.js";
import { connectMcp, type McpTestClient } from "./support/mcp-client.js";

const minutes = (n: number) => n * 60_000;
const days = (n: number) => n * 24 * 60 * 60_000;
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const unknownUuid = "00000000-0000-4000-8000-000000000000";

let mock: McpMock;
let partner: McpTestClient;
let alex: McpTestClient;
let blake: McpTestClient;
let readonly: McpTestClient;

beforeAll(async () => {
  mock = await startMcpMock({ port: 0, timeScale: 1 });
  [partner, alex, blake, readonly] = await Promise.all([
    connectMcp(mock.url, "mcp_partner"),
    connectMcp(mock.url, "mcp_user"),
    connectMcp(mock.url, "mcp_other_user"),
    connectMcp(mock.url, "mcp_readonly"),
  ]);
});
afterAll(async () => {
  await Promise.all([partner, alex, blake, readonly].map((c) => c?.close()));
  await mock?.stop();
});

let clientCounter = 0;
/** A new client of the partner; returns create_profile's answer. */
async function newClient(websiteUrl = "https://www.harbourbakery.co.uk", externalId = `client-${++clientCounter}`) {
  return partner.ok("create_profile", { websiteUrl, name: `Client ${externalId}`, externalId });
}

/** A new client whose build has finished ready. */
async function readyClient() {
  const created = await newClient();
  mock.clock.advance(minutes(31));
  return created as { brandId: string; companyId: string };
}

/** Opens a connect link the way a browser would, without following redirects. */
const visit = (url: string, account?: string) => fetch(account ? `${url}?account=${encodeURIComponent(account)}` : url, { redirect: "manual" });

function rpcCall(token: string | null, name: string, args: Record<string, unknown>) {
  return fetch(mock.url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } }),
  });
}

describe("HTTP-level rules", () => {
  it("refuses a missing, unknown or expired token with 401 and a WWW-Authenticate challenge, before any tool runs", async () => {
    for (const token of [null, "not-a-token", "mcp_expired"]) {
      const res = await rpcCall(token, "get_workspaces", {});
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toMatch(/^Bearer realm="mcp"/);
      if (token) expect(res.headers.get("www-authenticate")).toContain('error="invalid_token"');
      expect(JSON.stringify(await res.json())).not.toContain('"ok":false');
    }
  });

  it("refuses a write without mcp:write with 403 insufficient_scope, and lets reads through", async () => {
    const res = await rpcCall("mcp_readonly", "update_brand_style", { brandId: F.harbourBrand, addColors: ["#123456"] });
    expect(res.status).toBe(403);
    expect((await res.json()).error).toBe("insufficient_scope");
    expect(res.headers.get("www-authenticate")).toContain('error="insufficient_scope"');
    const profile = await readonly.ok("get_profile", { brandId: F.harbourBrand });
    expect(profile.brandName).toBe("Harbour Bakery");
  });

  it("answers partner_not_found on every call of a partner client with no partner configured", async () => {
    const unconfigured = await connectMcp(mock.url, "mcp_partner_unconfigured");
    try {
      expect(await unconfigured.fails("get_workspaces", {})).toMatchObject({ code: "partner_not_found", retryable: false });
      expect((await unconfigured.fails("create_profile", { websiteUrl: "example.com", name: "X", externalId: "x" })).code).toBe("partner_not_found");
      // Every tool, before its arguments are validated: missing, unknown and ill-typed ones alike.
      for (const { name } of (await unconfigured.client.listTools()).tools) {
        for (const args of [{}, { surprise: true }, { brandId: 42 }]) {
          expect((await unconfigured.fails(name, args)).code, `${name} ${JSON.stringify(args)}`).toBe("partner_not_found");
        }
      }
    } finally {
      await unconfigured.close();
    }
  });
});

describe("partner-only tools", () => {
  const partnerOnly = ["create_profile", "deactivate_profile", "delete_profile"];

  it("are listed for a partner token only", async () => {
    const mine = (await partner.client.listTools()).tools.map((t) => t.name);
    const users = (await alex.client.listTools()).tools.map((t) => t.name);
    for (const name of partnerOnly) {
      expect(mine).toContain(name);
      expect(users).not.toContain(name);
    }
    expect(users).toContain("get_profile");
  });

  it("fail as an unknown tool for a user token: isError with text, no envelope", async () => {
    for (const [name, args] of [
      ["create_profile", { websiteUrl: "example.com", name: "X", externalId: "x" }],
      ["delete_profile", { brandId: F.harbourBrand, confirm: true }],
    ] as const) {
      const { result } = await alex.call(name, args);
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toBeUndefined();
      expect((result.content[0] as { text: string }).text).toMatch(/not found/i);
    }
  });
});

describe("create_profile and the build", () => {
  it("answers building at once and is idempotent on externalId, whatever else is sent", async () => {
    const first = await partner.ok("create_profile", { websiteUrl: "harbourbakery.co.uk", name: "Harbour Bakery", externalId: "crm:8812" });
    expect(first).toMatchObject({ status: "building", created: true });
    expect(first.brandId).toMatch(uuidPattern);
    expect(first.companyId).toMatch(uuidPattern);
    const before = (await partner.ok("get_workspaces", {})).totalCount;
    const again = await partner.ok("create_profile", { websiteUrl: "https://other.example.org", name: "Another Name", externalId: "crm:8812", allowTeamPhotos: true });
    expect(again).toEqual({ brandId: first.brandId, companyId: first.companyId, status: "building", created: false });
    expect((await partner.ok("get_workspaces", {})).totalCount).toBe(before);
  });

  it("goes building → ready within 10 to 30 virtual minutes, with profile_not_ready until then", async () => {
    const { brandId } = await newClient("https://www.northsidephysio.com");
    mock.clock.advance(minutes(9));
    let profile = await partner.ok("get_profile", { brandId });
    expect(profile.onboarding).toEqual({ status: "building" });
    expect(profile.readiness).toEqual({ canGenerate: false, canPublish: false, blockers: ["profile_not_ready", "no_channel_connected"] });
    expect(() => mock.gateway.profiles.requireBuilt(mock.gateway.profiles.brandFor(principal("partner", "partner-acme"), brandId))).toThrow(/still being built/);
    mock.clock.advance(minutes(22));
    profile = await partner.ok("get_profile", { brandId });
    expect(profile.onboarding).toEqual({ status: "ready" });
    expect(profile.readiness).toEqual({ canGenerate: true, canPublish: false, blockers: ["no_channel_connected"] });
    expect(profile).toMatchObject({ isActive: true, defaultPlatform: null, generationPlatforms: [], channels: [] });
    const repeat = await partner.ok("create_profile", { websiteUrl: "https://www.northsidephysio.com", name: "X", externalId: `client-${clientCounter}` });
    expect(repeat).toMatchObject({ status: "ready", created: false });
  });

  /** Advances the clock a minute at a time until the build is no longer building; the minutes it took. */
  async function minutesUntilSettled(brandId: string): Promise<{ minutes: number; onboarding: unknown }> {
    for (let n = 1; n <= 31; n++) {
      mock.clock.advance(minutes(1));
      const { onboarding } = await partner.ok("get_profile", { brandId });
      if (onboarding!.status !== "building") return { minutes: n, onboarding };
    }
    throw new Error(`build of ${brandId} still building after 31 minutes`);
  }

  it.each([
    ["fail-unreachable.example.com", "website_unreachable", 0.1],
    ["www.fail-analysis.example.com", "analysis_failed", 0.3],
    ["fail-enrichment.example.com", "enrichment_failed", 0.6],
    ["fail-interrupted.example.com", "build_interrupted", 0.9],
  ])("%s: the build stops with %s at its step, and a repeat restarts it (created false) where it stopped until ready", async (host, code, share) => {
    const { brandId, companyId } = await newClient(`https://${host}`);
    const failed = await minutesUntilSettled(brandId);
    expect(failed.onboarding).toEqual({ status: "failed", error: code });
    // At its step, not at the end: at most that share of a 30-minute build (plus the minute's rounding).
    expect(failed.minutes).toBeLessThanOrEqual(Math.ceil(30 * share) + 1);
    const profile = await partner.ok("get_profile", { brandId });
    expect(profile.readiness.blockers).toContain("profile_not_ready");
    expect(profile.readiness.canGenerate).toBe(false);
    const restart = await partner.ok("create_profile", { websiteUrl: "https://fixed.example.com", name: "X", externalId: `client-${clientCounter}` });
    expect(restart).toEqual({ brandId, companyId, status: "building", created: false });
    const rest = await minutesUntilSettled(brandId);
    expect(rest.onboarding).toEqual({ status: "ready" });
    // Resumed, not started over: both attempts together take one build's 10–30 minutes.
    expect(failed.minutes + rest.minutes).toBeGreaterThanOrEqual(10);
    expect(failed.minutes + rest.minutes).toBeLessThanOrEqual(31);
  });

  it("answers failed with build_not_queued when the build cannot start; a repeat starts it", async () => {
    const created = await newClient("https://fail-queue.example.com");
    expect(created).toMatchObject({ status: "failed", error: "build_not_queued", created: true });
    expect((await partner.ok("get_profile", { brandId: created.brandId })).onboarding).toEqual({ status: "failed", error: "build_not_queued" });
    const repeat = await partner.ok("create_profile", { websiteUrl: "x.example", name: "X", externalId: `client-${clientCounter}` });
    expect(repeat).toMatchObject({ status: "building", created: false });
  });

  it("keeps failing a restarted build from a fail-always website", async () => {
    const { brandId } = await newClient("https://fail-always-fail-analysis.example.com");
    mock.clock.advance(minutes(31));
    await partner.ok("create_profile", { websiteUrl: "x.example", name: "X", externalId: `client-${clientCounter}` });
    mock.clock.advance(minutes(31));
    expect((await partner.ok("get_profile", { brandId })).onboarding).toEqual({ status: "failed", error: "analysis_failed" });
  });

  it.each([
    ["https://www.instagram.com/harbourbakery", "BLOCKED_DOMAIN"],
    ["facebook.com/harbourbakery", "BLOCKED_DOMAIN"],
    ["https://harbourbakery.invalid", "URL_NOT_REACHABLE"],
    ["http://localhost:3000", "URL_NOT_ALLOWED"],
    ["http://10.1.2.3", "URL_NOT_ALLOWED"],
    ["http://192.168.0.10/shop", "URL_NOT_ALLOWED"],
    ["http://127.0.0.1", "URL_NOT_ALLOWED"],
    ["https://free-malware-downloads.example.com", "URL_UNSAFE"],
    ["https://refused-unknown.example.com", undefined],
  ])("refuses %s with invalid_website_url (%s) and creates nothing", async (websiteUrl, refusal) => {
    const before = (await partner.ok("get_workspaces", {})).totalCount;
    const error = await partner.fails("create_profile", { websiteUrl, name: "Refused", externalId: `refused-${websiteUrl}` });
    expect(error).toMatchObject({ code: "invalid_website_url", retryable: false });
    expect(error.websiteRefusal).toBe(refusal);
    if (refusal === undefined) expect(error).not.toHaveProperty("websiteRefusal");
    expect((await partner.ok("get_workspaces", {})).totalCount).toBe(before);
    // Nothing was created, so the same externalId with a good website makes a new profile.
    const created = await partner.ok("create_profile", { websiteUrl: "https://good.example.com", name: "Good", externalId: `refused-${websiteUrl}` });
    expect(created.created).toBe(true);
  });

  it("refuses a website that is not a web address with bad_request naming websiteUrl", async () => {
    const error = await partner.fails("create_profile", { websiteUrl: "ftp://files.example.com", name: "X", externalId: "bad-url" });
    expect(error).toMatchObject({ code: "bad_request", invalidFields: ["websiteUrl"] });
  });
});

function principal(kind: "partner" | "user", tenant: string): Principal {
  return { token: "test", kind, tenant, scopes: new Set(["mcp:read", "mcp:write"]), partnerConfigured: true };
}

describe("get_profile: channels and readiness", () => {
  it("shows a ready brand with a connected and an expiring channel, no onboarding", async () => {
    const profile = await alex.ok("get_profile", { brandId: F.harbourBrand });
    expect(profile).toMatchObject({
      brandId: F.harbourBrand,
      companyId: F.harbourWorkspace,
      isActive: true,
      defaultPlatform: "INSTAGRAM",
      generationPlatforms: ["instagram", "facebook"],
      storyDestinations: ["instagram_stories", "facebook_stories"],
      readiness: { canGenerate: true, canPublish: true, blockers: [] },
    });
    expect(profile).not.toHaveProperty("onboarding");
    const [instagram, facebook] = profile.channels;
    expect(instagram).toMatchObject({ platform: "instagram", health: "connected", healthReason: null, tokenRefreshInDays: 41, scopes: null });
    expect(facebook).toMatchObject({ platform: "facebook", health: "expiring_soon", healthReason: "token_refresh_due", tokenRefreshInDays: 9, canPost: true });
    const withScopes = await alex.ok("get_profile", { brandId: F.harbourBrand, includeScopes: true });
    expect(withScopes.channels[1]?.scopes).toEqual(["pages_manage_posts", "pages_read_engagement"]);
  });

  it("reports no_channel_connected, all_channels_need_reauth and no_brand_profile", async () => {
    const physio = await alex.ok("get_profile", { brandId: F.northsidePhysio });
    expect(physio.readiness).toEqual({ canGenerate: true, canPublish: false, blockers: ["no_channel_connected"] });
    expect(physio.defaultPlatform).toBeNull();
    const fitness = await alex.ok("get_profile", { brandId: F.northsideFitness });
    expect(fitness.readiness).toEqual({ canGenerate: true, canPublish: false, blockers: ["all_channels_need_reauth"] });
    expect(fitness.generationPlatforms).toEqual([]);
    expect(fitness.channels.map((c: { health: string }) => c.health)).toEqual(["needs_reauth", "needs_reauth"]);
    const shop = await blake.ok("get_profile", { brandId: F.blakeShop });
    expect(shop.readiness).toEqual({ canGenerate: false, canPublish: false, blockers: ["no_brand_profile"] });
  });

  it("refuses an unknown id with not_found and another tenant's brand with forbidden", async () => {
    expect((await alex.fails("get_profile", { brandId: "brand_nope" })).code).toBe("not_found");
    expect((await alex.fails("get_profile", { brandId: F.blakeBrand })).code).toBe("forbidden");
    expect((await partner.fails("get_profile", { brandId: F.harbourBrand })).code).toBe("forbidden");
  });
});

describe("channel health on the virtual clock", () => {
  let aging: McpMock;
  let user: McpTestClient;
  beforeAll(async () => {
    aging = await startMcpMock({ port: 0, timeScale: 1 });
    user = await connectMcp(aging.url, "mcp_user");
  });
  afterAll(async () => {
    await user?.close();
    await aging?.stop();
  });

  it("counts tokenRefreshInDays down, turns connected into expiring_soon, and expiring_soon into needs_reauth", async () => {
    aging.clock.advance(days(2));
    let [instagram, facebook] = (await user.ok("get_profile", { brandId: F.harbourBrand })).channels;
    expect(facebook?.tokenRefreshInDays).toBe(7);
    expect(instagram?.tokenRefreshInDays).toBe(39);
    aging.clock.advance(days(8));
    const profile = await user.ok("get_profile", { brandId: F.harbourBrand });
    [instagram, facebook] = profile.channels;
    expect(facebook).toMatchObject({ health: "needs_reauth", healthReason: "token_expired_or_revoked", tokenRefreshInDays: null, canPost: false });
    expect(profile.generationPlatforms).toEqual(["instagram"]);
    expect(profile.storyDestinations).toEqual(["instagram_stories"]);
    aging.clock.advance(days(18));
    [instagram] = (await user.ok("get_profile", { brandId: F.harbourBrand })).channels;
    expect(instagram).toMatchObject({ health: "expiring_soon", tokenRefreshInDays: 13 });
    const record = aging.gateway.profiles.brandFor(principal("user", "user-alex"), F.harbourBrand);
    expect(record.connectedDestinations()).toEqual(["INSTAGRAM", "INSTAGRAM_STORIES"]);
    expect(record.healthOf("FACEBOOK_STORIES")).toBe("needs_reauth");
  });
});

describe("get_workspaces and list_brands", () => {
  it("lists a user's workspaces with query, limit, totalCount, truncated and needsUserChoice", async () => {
    const all = await alex.ok("get_workspaces", {});
    expect(all.workspaces.map((w: { id: string }) => w.id)).toEqual([F.harbourWorkspace, F.northsideWorkspace]);
    expect(all).toMatchObject({ totalCount: 2, truncated: false, needsUserChoice: true });
    expect(all.workspaces[1]).toMatchObject({ name: "Northside Studio", slug: "northside-studio", role: "ADMIN", numBrands: 3 });
    const byName = await alex.ok("get_workspaces", { query: "NORTH" });
    expect(byName).toMatchObject({ totalCount: 1, truncated: false, needsUserChoice: false });
    const bySlug = await alex.ok("get_workspaces", { query: "bakery" });
    expect(bySlug.workspaces.map((w: { slug: string }) => w.slug)).toEqual(["harbour-bakery"]);
    const limited = await alex.ok("get_workspaces", { limit: 1 });
    expect(limited).toMatchObject({ totalCount: 2, truncated: true, needsUserChoice: true });
    expect(limited.workspaces).toHaveLength(1);
    expect(await alex.ok("get_workspaces", { query: "nothing-matches" })).toEqual({ workspaces: [], totalCount: 0, truncated: false, needsUserChoice: false });
    expect((await blake.ok("get_workspaces", {})).workspaces.map((w: { id: string }) => w.id)).toEqual([F.blakeWorkspace]);
  });

  it("lists only the partner's own clients for a partner token", async () => {
    const { companyId } = await partner.ok("create_profile", { websiteUrl: "https://zebra-yoga.example.com", name: "Zebra Yoga Studio", externalId: "zebra-1" });
    await partner.ok("create_profile", { websiteUrl: "https://zebra-tiles.example.com", name: "Zebra Tiles", externalId: "zebra-2" });
    const all = await partner.ok("get_workspaces", {});
    const ids = all.workspaces.map((w: { id: string }) => w.id);
    expect(ids).toContain(companyId);
    expect(ids).not.toContain(F.harbourWorkspace);
    expect(all.totalCount).toBeGreaterThanOrEqual(2);
    const zebras = await partner.ok("get_workspaces", { query: "zebra", limit: 1 });
    expect(zebras).toMatchObject({ totalCount: 2, truncated: true, needsUserChoice: true });
    expect(zebras.workspaces[0]).toMatchObject({ id: companyId, name: "Zebra Yoga Studio", slug: "zebra-yoga-studio", numBrands: 1, membershipType: "PRO" });
    const brands = await partner.ok("list_brands", { workspaceId: companyId });
    expect(brands).toMatchObject({ workspaceId: companyId, workspaceName: "Zebra Yoga Studio", needsUserChoice: false });
    expect(brands.brands[0]).toMatchObject({ isActive: true, publishReadiness: "not_connected", logo: null });
  });

  it("lists a workspace's brands with publishReadiness and needsUserChoice", async () => {
    const northside = await alex.ok("list_brands", { workspaceId: F.northsideWorkspace });
    expect(northside.needsUserChoice).toBe(true);
    expect(northside.brands.map((b: { id: string; publishReadiness: string }) => [b.id, b.publishReadiness])).toEqual([
      [F.northsidePhysio, "not_connected"],
      [F.northsideFitness, "unknown"],
      [F.northsideMarket, "ready"],
    ]);
    const harbour = await alex.ok("list_brands", { workspaceId: F.harbourWorkspace });
    expect(harbour).toMatchObject({ workspaceName: "Harbour Bakery", needsUserChoice: false });
    expect(harbour.brands[0]).toMatchObject({ id: F.harbourBrand, slug: "harbour-bakery", isActive: true, publishReadiness: "ready", userRole: "ADMIN" });
    expect(harbour.brands[0]?.logo).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/brand-assets\//);
  });

  it("refuses a workspace that is not the caller's with forbidden", async () => {
    expect((await alex.fails("list_brands", { workspaceId: F.blakeWorkspace })).code).toBe("forbidden");
    expect((await partner.fails("list_brands", { workspaceId: F.harbourWorkspace })).code).toBe("forbidden");
    expect((await alex.fails("list_brands", { workspaceId: "ws_nope" })).code).toBe("not_found");
  });
});

describe("deactivate_profile", () => {
  it("schedules, then finishes a deactivation: posts withdrawn, every profile inactive, accounts disconnected, plan gone", async () => {
    const { brandId, companyId } = await readyClient();
    const link = await partner.ok("create_connect_link", { brandId });
    expect((await visit(link.url)).status).toBe(200);
    const withdraw = vi.spyOn(mock.gateway.posts, "withdrawScheduled").mockReturnValueOnce(3).mockReturnValue(1);
    try {
      expect(await partner.ok("deactivate_profile", { brandId })).toEqual({ companyId, status: "deactivation_scheduled", unscheduledPosts: 3 });
      expect(withdraw).toHaveBeenCalledWith(brandId);
      const profile = await partner.ok("get_profile", { brandId });
      expect(profile).toMatchObject({ isActive: false, generationPlatforms: [], readiness: { canGenerate: false, canPublish: false } });
      expect(profile.readiness.blockers).toEqual(["brand_inactive", "all_channels_disconnected"]);
      expect(profile.channels[0]).toMatchObject({ platform: "instagram", health: "disconnected", canPost: false });
      expect(mock.gateway.profiles.brandFor(principal("partner", "partner-acme"), brandId).isActive).toBe(false);
      const listed = (await partner.ok("get_workspaces", {})).workspaces.find((w: { id: string }) => w.id === companyId);
      expect(listed!.membershipType).toBeNull();
      expect((await partner.ok("list_brands", { workspaceId: companyId })).brands[0]).toMatchObject({ isActive: false, publishReadiness: "not_connected" });
      expect((await partner.ok("deactivate_profile", { brandId })).status).toBe("deactivation_scheduled");
      mock.clock.advance(minutes(6));
      expect(await partner.ok("deactivate_profile", { brandId })).toEqual({ companyId, status: "deactivated", unscheduledPosts: 4 });
      expect(await partner.ok("deactivate_profile", { brandId })).toEqual({ companyId, status: "deactivated", unscheduledPosts: 4 });
    } finally {
      withdraw.mockRestore();
    }
  });

  it("refuses a workspace that pays its own plan with external_billing_workspace and changes nothing", async () => {
    const { brandId } = await newClient("https://selfpay.example.com", "crm-external-billing-7");
    expect(await partner.fails("deactivate_profile", { brandId })).toMatchObject({ code: "external_billing_workspace", retryable: false });
    expect(await partner.fails("delete_profile", { brandId, confirm: true })).toMatchObject({ code: "external_billing_workspace" });
    expect((await partner.ok("get_profile", { brandId })).isActive).toBe(true);
  });

  it("refuses an unknown profile with not_found and someone else's with forbidden", async () => {
    expect((await partner.fails("deactivate_profile", { brandId: unknownUuid })).code).toBe("not_found");
    expect((await partner.fails("deactivate_profile", { brandId: F.harbourBrand })).code).toBe("forbidden");
    expect((await partner.fails("delete_profile", { brandId: F.harbourBrand, confirm: true })).code).toBe("forbidden");
  });
});

describe("delete_profile", () => {
  it("schedules, then finishes an erasure, and keeps answering deleted, never not_found", async () => {
    const { brandId, companyId } = await readyClient();
    const logo = await partner.ok("upload_brand_logo", { brandId, sourceUrl: "https://cdn.example.com/zebra/logo.png" });
    expect((await fetch(logo.logo.url)).status).toBe(200);
    const erase = vi.spyOn(mock.gateway.posts, "erase");
    try {
      expect(await partner.ok("delete_profile", { brandId, confirm: true })).toEqual({ companyId, deleted: true, status: "deletion_scheduled" });
      expect((await partner.fails("get_profile", { brandId })).code).toBe("not_found");
      expect((await partner.ok("get_workspaces", {})).workspaces.map((w: { id: string }) => w.id)).not.toContain(companyId);
      expect((await partner.ok("delete_profile", { brandId, confirm: true })).status).toBe("deletion_scheduled");
      expect(erase).not.toHaveBeenCalled();
      mock.clock.advance(minutes(6));
      expect(await partner.ok("delete_profile", { brandId, confirm: true })).toEqual({ companyId, deleted: true, status: "deleted" });
      expect(erase).toHaveBeenCalledWith(brandId);
      mock.clock.advance(days(3));
      expect(await partner.ok("delete_profile", { brandId, confirm: true })).toEqual({ companyId, deleted: true, status: "deleted" });
      expect((await partner.fails("deactivate_profile", { brandId })).code).toBe("not_found");
      expect((await fetch(logo.logo.url)).status).toBe(404);
      expect(() => mock.gateway.profiles.brandFor(principal("partner", "partner-acme"), brandId)).toThrow();
    } finally {
      erase.mockRestore();
    }
  });

  it("answers not_found for an id never seen", async () => {
    expect(await partner.fails("delete_profile", { brandId: unknownUuid, confirm: true })).toMatchObject({ code: "not_found", retryable: false });
  });

  it("never lets a repeated create_profile make a second workspace, while erasing or after", async () => {
    const externalId = `erased-${++clientCounter}`;
    const first = await newClient(undefined, externalId);
    mock.clock.advance(minutes(31));
    const count = async () => (await partner.ok("get_workspaces", { limit: 200 })).totalCount as number;
    await partner.ok("delete_profile", { brandId: first.brandId, confirm: true });
    const before = await count();
    const during = await newClient("https://www.elsewhere.example", externalId);
    expect(during).toMatchObject({ brandId: first.brandId, companyId: first.companyId, created: false, status: "ready" });
    mock.clock.advance(minutes(6));
    expect((await partner.ok("delete_profile", { brandId: first.brandId, confirm: true })).status).toBe("deleted");
    const after = await newClient(undefined, externalId);
    expect(after).toMatchObject({ brandId: first.brandId, companyId: first.companyId, created: false });
    expect(await count()).toBe(before);
    expect((await partner.fails("get_profile", { brandId: first.brandId })).code).toBe("not_found");
  });
});

describe("branding", () => {
  it("reads a brand's look and changes colours, roles and fonts (library and public families)", async () => {
    const style = await alex.ok("get_brand_style", { brandId: F.harbourBrand });
    expect(style).toMatchObject({ palette: ["#0B3D91", "#F2A900", "#FFFFFF", "#1B1B1B"], fonts: { heading: "Playfair Display", body: "Inter" } });
    expect(style.logos.filter((l: { isCurrent: boolean }) => l.isCurrent)).toHaveLength(1);
    const updated = await alex.ok("update_brand_style", {
      brandId: F.harbourBrand,
      addColors: ["#abcdef", "#0B3D91"],
      colorRoles: { accent: "#abcdef" },
      fonts: { heading: "harbour script", body: "roboto" },
    });
    expect(updated.palette).toEqual(["#0B3D91", "#F2A900", "#FFFFFF", "#1B1B1B", "#ABCDEF"]);
    expect(updated.colorRoles).toMatchObject({ primary: "#0B3D91", accent: "#ABCDEF" });
    expect(updated.fonts).toEqual({ heading: "Harbour Script", body: "Roboto" });
    expect(await alex.ok("get_brand_style", { brandId: F.harbourBrand })).toEqual(updated);
  });

  it("refuses an unknown font with font_not_found and changes no role", async () => {
    const before = await alex.ok("get_brand_style", { brandId: F.harbourBrand });
    const error = await alex.fails("update_brand_style", { brandId: F.harbourBrand, addColors: ["#010203"], fonts: { heading: "Lato", body: "Comic Papyrus" } });
    expect(error).toMatchObject({ code: "font_not_found", retryable: false, invalidFields: ["fonts.body"] });
    expect(await alex.ok("get_brand_style", { brandId: F.harbourBrand })).toEqual(before);
  });

  it("refuses roles and fonts on a brand without a design style, but adds palette colours", async () => {
    const style = await alex.ok("get_brand_style", { brandId: F.northsidePhysio });
    expect(style).toMatchObject({ colorRoles: null, fonts: null, logo: null, logos: [] });
    expect((await alex.fails("update_brand_style", { brandId: F.northsidePhysio, colorRoles: { primary: "#112233" } })).code).toBe("design_style_unavailable");
    expect((await alex.fails("update_brand_style", { brandId: F.northsidePhysio, fonts: { body: "Inter" }, addColors: ["#112233"] })).code).toBe("design_style_unavailable");
    expect((await alex.ok("update_brand_style", { brandId: F.northsidePhysio, addColors: ["#112233"] })).palette).toEqual(["#2E7D32", "#112233"]);
  });

  it("answers design_style_busy (retryable) for the busy colour and changes nothing", async () => {
    const before = await alex.ok("get_brand_style", { brandId: F.harbourBrand });
    expect(await alex.fails("update_brand_style", { brandId: F.harbourBrand, colorRoles: { primary: "#beebee" } })).toMatchObject({ code: "design_style_busy", retryable: true });
    expect(await alex.ok("get_brand_style", { brandId: F.harbourBrand })).toEqual(before);
  });

  it.each([
    ["http://cdn.example.com/logo.png", "source_not_https"],
    ["ftp://cdn.example.com/logo.png", "source_not_https"],
    ["https://localhost/logo.png", "source_not_public"],
    ["https://127.0.0.1:8080/logo.png", "source_not_public"],
    ["https://10.0.0.7/logo.png", "source_not_public"],
    ["https://192.168.1.20/logo.png", "source_not_public"],
    ["https://[::1]/logo.png", "source_not_public"],
    ["https://cdn.example.com/tiny-logo.png", "logo_unreadable"],
    ["https://cdn.example.com/broken.png", "logo_unreadable"],
    ["https://cdn.example.com/busy/logo.png", "design_style_busy"],
  ])("refuses logo %s with %s and saves nothing", async (sourceUrl, code) => {
    const before = await alex.ok("get_brand_style", { brandId: F.harbourBrand });
    const error = await alex.fails("upload_brand_logo", { brandId: F.harbourBrand, sourceUrl });
    expect(error.code).toBe(code);
    if (code === "logo_unreadable") expect(error.invalidFields).toEqual(["sourceUrl"]);
    expect(await alex.ok("get_brand_style", { brandId: F.harbourBrand })).toEqual(before);
  });

  it("saves a logo as the one in use by default, or only adds it with makeCurrent false; the logo address serves a PNG", async () => {
    const saved = await alex.ok("upload_brand_logo", { brandId: F.harbourBrand, sourceUrl: "https://www.harbourbakery.co.uk/images/logo.png" });
    expect(saved.logo).toMatchObject({ isCurrent: true });
    expect(saved.logo.width).toBeGreaterThanOrEqual(16);
    const extra = await alex.ok("upload_brand_logo", { brandId: F.harbourBrand, sourceUrl: "https://cdn.example.com/harbour/logo-mono.svg", makeCurrent: false });
    expect(extra.logo.isCurrent).toBe(false);
    const style = await alex.ok("get_brand_style", { brandId: F.harbourBrand });
    expect(style.logo).toBe(saved.logo.url);
    expect(style.logos.filter((l: { isCurrent: boolean }) => l.isCurrent).map((l: { id: string }) => l.id)).toEqual([saved.logo.id]);
    expect((await alex.ok("list_brands", { workspaceId: F.harbourWorkspace })).brands[0]?.logo).toBe(saved.logo.url);
    const png = await fetch(saved.logo.url);
    expect(png.headers.get("content-type")).toBe("image/png");
    const bytes = Buffer.from(await png.arrayBuffer());
    expect(bytes.subarray(1, 4).toString("ascii")).toBe("PNG");
    expect([bytes.readUInt32BE(16), bytes.readUInt32BE(20)]).toEqual([saved.logo.width, saved.logo.height]);
  });
});

describe("connecting accounts", () => {
  it("mints a single-use link on the mock's origin; opening it connects the account and the channel appears", async () => {
    const { brandId } = await readyClient();
    const link = await partner.ok("create_connect_link", { brandId });
    expect(link.url).toMatch(new RegExp(`^${mock.url.origin}/connect/[A-Za-z0-9]+$`));
    expect(Date.parse(link.expiresAt ?? "") - mock.clock.now()).toBeGreaterThan(minutes(29));
    const res = await visit(link.url, "zebra.yoga");
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("connected");
    const profile = await partner.ok("get_profile", { brandId });
    expect(profile.channels).toHaveLength(1);
    expect(profile.channels[0]).toMatchObject({ platform: "instagram", username: "zebra.yoga", health: "connected", healthReason: null, tokenRefreshInDays: 60 });
    expect(profile).toMatchObject({ defaultPlatform: "INSTAGRAM", generationPlatforms: ["instagram"], readiness: { canGenerate: true, canPublish: true, blockers: [] } });
    expect((await visit(link.url)).status).toBe(410);
  });

  it("sends the browser back to returnUrl with status=connected, then link_expired on a second visit; never fetches it", async () => {
    const { brandId } = await readyClient();
    const returnUrl = "https://app.partner.example/clients/8812/connected?ref=abc";
    const link = await partner.ok("create_connect_link", { brandId, returnUrl });
    const res = await visit(link.url);
    expect(res.status).toBe(302);
    const back = new URL(res.headers.get("location")!);
    expect(`${back.origin}${back.pathname}`).toBe("https://app.partner.example/clients/8812/connected");
    expect(Object.fromEntries(back.searchParams)).toEqual({ ref: "abc", status: "connected" });
    const again = new URL((await visit(link.url)).headers.get("location")!);
    expect(Object.fromEntries(again.searchParams)).toEqual({ ref: "abc", status: "failed", error: "link_expired" });
  });

  it("expires links after 30 virtual minutes", async () => {
    const { brandId } = await readyClient();
    const plain = await partner.ok("create_connect_link", { brandId, platform: "tiktok" });
    const headless = await partner.ok("create_connect_link", { brandId, platform: "facebook", returnUrl: "https://app.partner.example/back" });
    mock.clock.advance(minutes(31));
    expect((await visit(plain.url)).status).toBe(410);
    const back = new URL((await visit(headless.url)).headers.get("location")!);
    expect(back.searchParams.get("error")).toBe("link_expired");
    const connectToken = headless.url.split("/").pop();
    expect((await partner.fails("get_connect_options", { brandId, connectToken })).code).toBe("connect_session_expired");
    expect((await partner.ok("get_profile", { brandId })).channels).toEqual([]);
  });

  it("runs a headless connect: needs_selection → get_connect_options → complete_connect", async () => {
    const { brandId } = await readyClient();
    const link = await partner.ok("create_connect_link", { brandId, platform: "facebook", returnUrl: "https://app.partner.example/back" });
    const connectToken = link.url.split("/").pop();
    expect((await partner.fails("get_connect_options", { brandId, connectToken })).code).toBe("bad_request");
    const back = new URL((await visit(link.url, "zebrayoga")).headers.get("location")!);
    expect(back.searchParams.get("status")).toBe("needs_selection");
    expect(back.searchParams.get("connectToken")).toBe(connectToken);
    const options = await partner.ok("get_connect_options", { brandId, connectToken });
    expect(options.platform).toBe("facebook");
    expect(options.options.map((o: { name: string; type: string }) => [o.name, o.type])).toEqual([["zebrayoga", "page"], ["zebrayoga Events", "page"]]);
    expect((await partner.fails("complete_connect", { brandId, connectToken, optionId: "999" })).invalidFields).toEqual(["optionId"]);
    const done = await partner.ok("complete_connect", { brandId, connectToken, optionId: options.options[1]!.id });
    expect(done).toMatchObject({ brandId, channel: { platform: "facebook", displayName: "zebrayoga Events", health: "connected" } });
    const profile = await partner.ok("get_profile", { brandId });
    expect(profile.generationPlatforms).toEqual(["facebook"]);
    expect(profile.storyDestinations).toEqual(["facebook_stories"]);
    expect((await partner.fails("complete_connect", { brandId, connectToken, optionId: options.options[0]!.id })).code).toBe("connect_session_expired");
  });

  it("expires an authorised headless session 15 virtual minutes after the client returned", async () => {
    const { brandId } = await readyClient();
    const link = await partner.ok("create_connect_link", { brandId, platform: "linkedin", returnUrl: "https://app.partner.example/back" });
    const connectToken = link.url.split("/").pop();
    await visit(link.url);
    expect((await partner.ok("get_connect_options", { brandId, connectToken })).options[0]?.type).toBe("organization");
    mock.clock.advance(minutes(16));
    expect(await partner.fails("complete_connect", { brandId, connectToken, optionId: "1" })).toMatchObject({ code: "connect_session_expired", retryable: false });
  });

  it("refuses get_connect_options and complete_connect without a headless link", async () => {
    const { brandId } = await readyClient();
    const link = await partner.ok("create_connect_link", { brandId, platform: "facebook" });
    const connectToken = link.url.split("/").pop();
    expect((await partner.fails("get_connect_options", { brandId, connectToken })).code).toBe("headless_connect_unavailable");
    expect((await partner.fails("complete_connect", { brandId, connectToken, optionId: "1" })).code).toBe("headless_connect_unavailable");
    expect((await partner.fails("get_connect_options", { brandId, connectToken: "nope" })).code).toBe("not_found");
  });

  it("reports a failed sign-in back to returnUrl with its code", async () => {
    const { brandId } = await readyClient();
    const link = await partner.ok("create_connect_link", { brandId, platform: "instagram", returnUrl: "https://app.partner.example/back" });
    const back = new URL((await visit(link.url, "denied")).headers.get("location")!);
    expect(Object.fromEntries(back.searchParams)).toEqual({ status: "failed", error: "oauth_denied" });
    expect((await partner.ok("get_profile", { brandId })).channels).toEqual([]);
  });

  it("refuses an unknown platform with platform_not_supported and a hosted-only one headless", async () => {
    const error = await alex.fails("create_connect_link", { brandId: F.harbourBrand, platform: "myspace" });
    expect(error).toMatchObject({ code: "platform_not_supported", retryable: false });
    expect(error.supportedChannels).toEqual(expect.arrayContaining(["instagram", "facebook", "linkedin"]));
    expect((await alex.fails("create_connect_link", { brandId: F.harbourBrand, platform: "threads", returnUrl: "https://app.example/back" })).code).toBe(
      "headless_connect_unavailable",
    );
    expect((await alex.ok("create_connect_link", { brandId: F.harbourBrand, platform: "threads" })).url).toContain("/connect/");
    expect((await blake.fails("create_connect_link", { brandId: F.harbourBrand })).code).toBe("forbidden");
  });
});

describe("ProfilesApi for the posts domain", () => {
  it("gives a live BrandRecord with destinations, health and the approval rule", async () => {
    const api = mock.gateway.profiles;
    const fitness = api.brandFor(principal("user", "user-alex"), F.northsideFitness);
    expect(fitness).toMatchObject({ id: F.northsideFitness, companyId: F.northsideWorkspace, isActive: true, buildStatus: null, defaultPlatform: "INSTAGRAM", requiresApproval: false });
    expect(fitness.connectedDestinations()).toEqual([]);
    expect(fitness.healthOf("INSTAGRAM")).toBe("needs_reauth");
    expect(fitness.healthOf("REDDIT")).toBeNull();
    expect(() => api.requireBuilt(fitness)).not.toThrow();
    const { brandId } = await newClient();
    expect(api.brandFor(principal("partner", "partner-acme"), brandId)).toMatchObject({ requiresApproval: true, buildStatus: "building" });
    expect(() => api.brandFor(principal("user", "user-alex"), "nope")).toThrow(expect.objectContaining({ code: "not_found" }));
    expect(() => api.brandFor(principal("user", "user-blake"), F.harbourBrand)).toThrow(expect.objectContaining({ code: "forbidden" }));
  });

  it("spends a per-workspace AI allowance and refuses with usage_limit_exceeded and resetDate", () => {
    const api = mock.gateway.profiles;
    const shop = api.brandFor(principal("user", "user-blake"), F.blakeShop);
    const brand = api.brandFor(principal("user", "user-blake"), F.blakeBrand);
    api.spendAi(brand, 2);
    api.spendAi(shop, 1);
    let error: ToolError | undefined;
    try {
      api.spendAi(brand, 1);
    } catch (e) {
      if (e instanceof ToolError) error = e;
    }
    expect(error).toMatchObject({ code: "usage_limit_exceeded", retryable: false });
    const now = new Date(mock.clock.now());
    expect(error?.extra.resetDate).toBe(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString());
    expect(() => api.spendAi(api.brandFor(principal("user", "user-alex"), F.harbourBrand), 20)).not.toThrow();
  });
});

describe("the profiles README", () => {
  it("shows every magic input of magic.ts", () => {
    const readme = fs.readFileSync(new URL("../mock/mcp/profiles/README.md", import.meta.url), "utf8");
    for (const m of magicInputs) expect(readme).toContain(`| \`${m.tool}\` | ${m.input} | ${m.match} | ${m.effect} |`);
  });
});
