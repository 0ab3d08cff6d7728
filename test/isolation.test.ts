// Tenant isolation of both mocks, table-driven: for every resource kind, another tenant's token is refused as the
// contract and the mocks' READMEs say, in both directions, without leaking the owner's data in the answer and
// without changing anything the owner sees.
//
// REST: another team's brand (GET, PATCH), batch (GET), ideas on its brand, feedback on its idea, predictions on
// its brand → 403 permission_error naming the field.
// MCP: every tool taking a brandId, post id, batchId, jobId, workspaceId or platformPostId (reschedule_posts:
// moves[].postId) with the other tenant's id → the `forbidden` envelope (profiles/README.md: another tenant's brand
// or workspace is forbidden, and posts, batches and jobs are refused as their brand is); the other tenant's
// platformPostId or connectToken on one's own post or brand → not_found, its mediaIds → bad_request; the
// partner's tools on a user's brand → forbidden.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClock } from "../mock/clock.js";
import type { ToolOutputs } from "../generated/mcp/types.js";
import { startMcpMock, type McpMock } from "../mock/mcp/server.js";
import { startRestMock, type RestMock } from "../mock/rest/server.js";
import { connectMcp, settleBatch, type McpTestClient } from "./support/mcp-client.js";
import { baseArguments, isPartnerOnly, mcpTools, type McpFixtures } from "./support/fuzz-mcp.js";
import { batchTime, client, readTime, suiteStart, type Call } from "./support/rest-client.js";
import { hangGuardMs } from "./support/hang-guard.js";

// ---------------------------------------------------------------------------------------------------------------
// REST

type Team = "a" | "b";
interface RestOwned {
  token: string;
  brand: string;
  batch: string;
  idea: string;
  /** Words of the team's records that must never reach the other team. */
  secrets: string[];
}

let rest: RestMock;
let call: Call;
const teams = {} as Record<Team, RestOwned>;

interface RestRow {
  what: string;
  method: "GET" | "PATCH" | "POST";
  path: (o: RestOwned) => string;
  body?: (o: RestOwned) => unknown;
  param: string;
}
const restRows: RestRow[] = [
  { what: "brand GET", method: "GET", path: (o) => `/v1/brands/${o.brand}`, param: "brand_id" },
  { what: "brand PATCH", method: "PATCH", path: (o) => `/v1/brands/${o.brand}`, body: () => ({ name: "Taken over", rules: { never: ["Everything."] } }), param: "brand_id" },
  { what: "batch GET", method: "GET", path: (o) => `/v1/ideas/${o.batch}`, param: "batch_id" },
  { what: "ideas on its brand", method: "POST", path: () => "/v1/ideas", body: (o) => ({ brand: o.brand, count: 1 }), param: "brand" },
  { what: "feedback on its idea", method: "POST", path: () => "/v1/feedback", body: (o) => ({ idea: o.idea, outcome: "rejected", reason: "off_brand" }), param: "idea" },
  { what: "predictions on its brand", method: "POST", path: () => "/v1/predictions", body: (o) => ({ brand: o.brand, drafts: [{ text: "Fresh bread" }] }), param: "brand" },
];
const restTable = restRows.flatMap((row) => [
  { ...row, owner: "a" as Team, intruder: "b" as Team },
  { ...row, owner: "b" as Team, intruder: "a" as Team },
]);

async function restSnapshot(): Promise<unknown> {
  const out: Record<string, unknown> = {};
  for (const [team, o] of Object.entries(teams)) {
    out[`${team} brand`] = (await call("GET", `/v1/brands/${o.brand}`, { token: o.token })).body;
    out[`${team} batch`] = (await call("GET", `/v1/ideas/${o.batch}`, { token: o.token })).body;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// MCP

type Tenant = "alex" | "blake";
interface McpOwned {
  token: string;
  client: McpTestClient;
  fixtures: McpFixtures;
  platformPostId: string;
  connectToken: string;
  secrets: string[];
}

let mcp: McpMock;
let partner: McpTestClient;
let partnerBrand: string;
const tenants = {} as Record<Tenant, McpOwned>;

const idKeys = ["brandId", "id", "postId", "batchId", "jobId", "workspaceId", "platformPostId", "moves"];
/** Every tool a user can call that names a resource by id. */
const idTools = mcpTools.filter((t) => !isPartnerOnly(t.name) && Object.keys(t.inputSchema.properties ?? {}).some((k) => idKeys.includes(k))).map((t) => t.name);

interface McpRow {
  label: string;
  tool: string;
  owner: Tenant;
  intruder: Tenant;
  /** Arguments from the owner's and the intruder's records. */
  args: (owner: McpOwned, intruder: McpOwned) => Record<string, unknown>;
  code: "forbidden" | "not_found" | "bad_request";
}
const directions: [Tenant, Tenant][] = [
  ["alex", "blake"],
  ["blake", "alex"],
];
const mcpTable: McpRow[] = directions.flatMap(([owner, intruder]) => [
  // Every id-taking tool, called with the owner's ids (all of them) by the intruder.
  ...idTools.map(
    (tool): McpRow => ({
      label: `${tool} with ${owner}'s ids`,
      tool,
      owner,
      intruder,
      code: "forbidden",
      args: (o) => {
        const args = { ...baseArguments(o.fixtures)[tool]! };
        if ("platformPostId" in args) args.platformPostId = o.platformPostId;
        return args;
      },
    }),
  ),
  { label: `generate_image with ${owner}'s postId`, tool: "generate_image", owner, intruder, code: "forbidden", args: (o) => ({ postId: o.fixtures.post, prompt: "A loaf" }) },
  {
    label: `unschedule_platform: own post, ${owner}'s platformPostId`,
    tool: "unschedule_platform",
    owner,
    intruder,
    code: "not_found",
    args: (o, i) => ({ id: i.fixtures.post, platform: "INSTAGRAM", platformPostId: o.platformPostId }),
  },
  { label: `get_connect_options: own brand, ${owner}'s connectToken`, tool: "get_connect_options", owner, intruder, code: "not_found", args: (o, i) => ({ brandId: i.fixtures.brand, connectToken: o.connectToken }) },
  {
    label: `complete_connect: own brand, ${owner}'s connectToken`,
    tool: "complete_connect",
    owner,
    intruder,
    code: "not_found",
    args: (o, i) => ({ brandId: i.fixtures.brand, connectToken: o.connectToken, optionId: "option-1" }),
  },
  {
    label: `create_draft: own brand, ${owner}'s mediaIds`,
    tool: "create_draft",
    owner,
    intruder,
    code: "bad_request",
    args: (o, i) => ({ brandId: i.fixtures.brand, caption: "Borrowed picture", mediaIds: [o.fixtures.media] }),
  },
  {
    label: `create_posts: own brand, ${owner}'s mediaIds`,
    tool: "create_posts",
    owner,
    intruder,
    code: "bad_request",
    args: (o, i) => ({ brandId: i.fixtures.brand, brief: "Borrowed picture", count: 1, mediaIds: [o.fixtures.media] }),
  },
]);

/** The partner's tools on a user's brand, and user tools on the partner's client. */
const partnerTable: { label: string; as: "partner" | Tenant; tool: string; args: () => Record<string, unknown> }[] = [
  ...(["alex", "blake"] as const).flatMap((t) => [
    { label: `partner: deactivate_profile on ${t}'s brand`, as: "partner" as const, tool: "deactivate_profile", args: () => ({ brandId: tenants[t].fixtures.brand }) },
    { label: `partner: delete_profile on ${t}'s brand`, as: "partner" as const, tool: "delete_profile", args: () => ({ brandId: tenants[t].fixtures.brand, confirm: true }) },
    { label: `partner: get_profile on ${t}'s brand`, as: "partner" as const, tool: "get_profile", args: () => ({ brandId: tenants[t].fixtures.brand }) },
    { label: `partner: list_brands of ${t}'s workspace`, as: "partner" as const, tool: "list_brands", args: () => ({ workspaceId: tenants[t].fixtures.workspace }) },
    { label: `partner: view_post on ${t}'s post`, as: "partner" as const, tool: "view_post", args: () => ({ id: tenants[t].fixtures.post }) },
    { label: `${t}: get_profile on the partner's client`, as: t, tool: "get_profile", args: () => ({ brandId: partnerBrand }) },
    { label: `${t}: create_connect_link on the partner's client`, as: t, tool: "create_connect_link", args: () => ({ brandId: partnerBrand }) },
  ]),
];

const settle = (c: McpTestClient, batchId: string, pictures = true) => settleBatch(c, mcp.clock, batchId, pictures);

async function setUpTenant(token: string, slug: string): Promise<McpOwned> {
  const c = await connectMcp(mcp.url, token);
  const ws = (await c.ok("get_workspaces", {})).workspaces.find((w) => w.slug === slug)!;
  const brands = await c.ok("list_brands", { workspaceId: ws.id });
  const brand = brands.brands[0]!;
  const brief = `Isolation fixtures of ${slug}`;
  const batch = (await c.ok("create_posts", { brandId: brand.id, brief, count: 1 })).batchId as string;
  const item = (await settle(c, batch)).items[0]!;
  const post = item.postId!;
  const job = (await c.ok("regenerate_post_image", { postId: post })).jobId as string;
  for (let i = 0; i < 40 && (await c.ok("get_generation_job", { jobId: job })).status !== "succeeded"; i++) mcp.clock.advance(30_000);
  const view = await c.ok("view_post", { id: post });
  const media = (await c.ok("upload_image", { brandId: brand.id, sourceUrl: `https://cdn.example.com/${slug}-4x5.jpg` })).mediaId as string;
  const scheduledAt = new Date(mcp.clock.now() + 3 * 86_400_000).toISOString();
  await c.ok("schedule_post", { id: post, scheduledAt });
  const status = await c.ok("get_post_status", { id: post });
  const platformPostId = status.platformResults.find((d) => d.platform === "INSTAGRAM")!.platformPostId!;
  const link = await c.ok("create_connect_link", { brandId: brand.id, platform: "facebook", returnUrl: "https://app.example.com/back" });
  const connectToken = new URL(link.url).pathname.split("/").pop()!;
  return {
    token,
    client: c,
    platformPostId,
    connectToken,
    secrets: [brand.name, ws.name, brief, item.title!, view.destinations[0]!.text.slice(0, 40)],
    fixtures: {
      workspace: ws.id,
      brand: brand.id,
      post,
      post2: post,
      digest: view.contentDigest!,
      batch,
      job,
      media,
      partnerBrand,
      otherWorkspace: ws.id,
      otherBrand: brand.id,
      otherPost: post,
      otherBatch: batch,
    },
  };
}

async function mcpSnapshot(): Promise<unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, t] of Object.entries(tenants)) {
    const f = t.fixtures;
    out[name] = {
      post: await t.client.ok("view_post", { id: f.post }),
      status: await t.client.ok("get_post_status", { id: f.post }),
      batch: await t.client.ok("get_post_batch_status", { batchId: f.batch }),
      job: await t.client.ok("get_generation_job", { jobId: f.job }),
      profile: await t.client.ok("get_profile", { brandId: f.brand }),
      style: await t.client.ok("get_brand_style", { brandId: f.brand }),
      brands: await t.client.ok("list_brands", { workspaceId: f.workspace }),
    };
  }
  out.partner = await partner.ok("get_profile", { brandId: partnerBrand });
  return out;
}

// ---------------------------------------------------------------------------------------------------------------

beforeAll(async () => {
  rest = await startRestMock({ clock: createClock({ timeScale: 1, start: suiteStart }), seed: "isolation" });
  call = client(rest);
  const restTeam = async (token: string, website: string, focus: string): Promise<RestOwned> => {
    const brand = (await call("POST", "/v1/brands", { token, body: { website, description: `Secret plans of ${token}.` } })).body;
    rest.clock.advance(readTime);
    const batch = (await call("POST", "/v1/ideas", { token, body: { brand: brand.id, count: 2, focus } })).body;
    rest.clock.advance(batchTime);
    const done = (await call("GET", `/v1/ideas/${batch.id}`, { token })).body;
    const ready = (await call("GET", `/v1/brands/${brand.id}`, { token })).body;
    return { token, brand: brand.id, batch: batch.id, idea: done.data[0].id, secrets: [ready.name, website, `Secret plans of ${token}`, focus, done.data[0].title] };
  };
  teams.a = await restTeam("test_team_a", "https://www.bluefjord-bakery.no", "Winter rye loaves");
  teams.b = await restTeam("test_team_b", "https://www.maple-coffee.ca", "Pumpkin spice latte");

  mcp = await startMcpMock({ port: 0 });
  partner = await connectMcp(mcp.url, "mcp_partner");
  partnerBrand = (await partner.ok("create_profile", { websiteUrl: "https://www.isolation-client.com", name: "Isolation Client", externalId: "isolation-1" })).brandId;
  tenants.alex = await setUpTenant("mcp_user", "harbour-bakery");
  tenants.blake = await setUpTenant("mcp_other_user", "blake-ceramics");
}, hangGuardMs);
afterAll(async () => {
  await Promise.all([...Object.values(tenants).map((t) => t.client.close()), partner?.close()]);
  await Promise.all([rest?.stop(), mcp?.stop()]);
});

describe(`REST: another team's resources answer 403 permission_error (${restTable.length} rows)`, () => {
  let before: unknown;
  beforeAll(async () => {
    before = await restSnapshot();
  });

  it.each(restTable)("$what: team $intruder on team $owner's", async ({ method, path, body, param, owner, intruder }) => {
    const o = teams[owner];
    const answer = await call(method, path(o), { token: teams[intruder].token, body: body?.(o) });
    expect(answer.status).toBe(403);
    expect(answer.body.error).toMatchObject({ type: "permission_error", param });
    const text = JSON.stringify(answer.body);
    for (const secret of o.secrets) expect(text, "the answer leaks the owner's data").not.toContain(secret);
  });

  it("changed nothing the owners see", async () => {
    expect(await restSnapshot()).toEqual(before);
  });
});

describe(`MCP: another tenant's ids are refused in the envelope (${mcpTable.length + partnerTable.length} rows)`, () => {
  let before: unknown;
  beforeAll(async () => {
    before = await mcpSnapshot();
  });

  it("covers every tool that takes an id", () => {
    expect(idTools.length).toBeGreaterThanOrEqual(25);
    for (const tool of idTools) expect(mcpTable.some((r) => r.tool === tool)).toBe(true);
  });

  it.each(mcpTable)("$label, as $intruder", async ({ tool, owner, intruder, args, code }) => {
    const o = tenants[owner];
    const { result, data } = await tenants[intruder].client.call(tool, args(o, tenants[intruder]));
    const text = JSON.stringify(result);
    for (const secret of o.secrets) expect(text, "the answer leaks the owner's data").not.toContain(secret);
    if (tool === "reschedule_posts") {
      // Per-entry results: the call answers, the move is refused.
      expect(result.isError).toBeFalsy();
      expect((data as ToolOutputs["reschedule_posts"]).moves[0]).toMatchObject({ ok: false, error: { code } });
      return;
    }
    expect(result.isError, text).toBe(true);
    expect(data).toMatchObject({ ok: false, error: { code } });
  });

  it.each(partnerTable)("$label", async ({ as, tool, args }) => {
    const c = as === "partner" ? partner : tenants[as].client;
    const { result, data } = await c.call(tool, args());
    expect(result.isError).toBe(true);
    expect(data).toMatchObject({ ok: false, error: { code: "forbidden" } });
    const text = JSON.stringify(result);
    for (const t of Object.values(tenants)) for (const secret of t.secrets) expect(text).not.toContain(secret);
  });

  it("partner-only tools are not even visible to a user", async () => {
    const { result } = await tenants.blake.client.call("delete_profile", { brandId: partnerBrand, confirm: true });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain("not found");
  });

  it("changed nothing the owners see", async () => {
    expect(await mcpSnapshot()).toEqual(before);
  });
});
