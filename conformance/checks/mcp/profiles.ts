// Workspaces, brands and profiles: get_workspaces' limit, totalCount, truncated, needsUserChoice and query;
// list_brands; readiness and channel fields of get_profile.
import type { Check, CheckContext } from "../../check.js";
import { channelHealth } from "../../mcp/contract.js";
import { expectOk } from "../../mcp/expect.js";
import type { McpContext } from "../../mcp/extension.js";
import { mcpCheck, show } from "./common.js";

const group = "mcp-profiles";

async function workspaces(ctx: CheckContext, m: McpContext, args: Record<string, unknown>, rule: string): Promise<any> {
  const d = expectOk(ctx, await m.session.call("get_workspaces", args), rule);
  if (!d || !Array.isArray(d.workspaces)) return ctx.fail(rule, `get_workspaces ${JSON.stringify(args)} did not list workspaces: ${show(d)}`);
  return d;
}

function expectListShape(ctx: CheckContext, d: any, args: Record<string, unknown>, rule: string): void {
  const limit = typeof args.limit === "number" ? args.limit : 50;
  const n = d.workspaces.length;
  const where = `get_workspaces ${JSON.stringify(args)}`;
  ctx.expect(n <= limit, rule, `${where}: ${n} workspaces, more than the limit ${limit}`);
  ctx.expect(Number.isInteger(d.totalCount) && d.totalCount >= n, rule, `${where}: totalCount ${show(d.totalCount)} is below the ${n} listed`);
  ctx.expect(d.truncated === d.totalCount > n, rule, `${where}: truncated ${show(d.truncated)} with ${n} of ${show(d.totalCount)} listed`);
  ctx.expect(d.needsUserChoice === d.totalCount > 1, rule, `${where}: needsUserChoice ${show(d.needsUserChoice)} with ${show(d.totalCount)} matches`);
}

const generationBlockers = ["brand_inactive", "no_brand_profile", "profile_not_ready"];
const publishBlockers = ["brand_inactive", "no_brand_profile", "no_channel_connected", "all_channels_need_reauth", "all_channels_disconnected"];
const publishable = new Set(["connected", "expiring_soon"]);

/** Readiness and channel rules of one profile payload. */
export function expectProfileConsistent(ctx: CheckContext, p: any, where: string): void {
  const r = p?.readiness;
  if (!ctx.expect(!!r && typeof r.canGenerate === "boolean" && typeof r.canPublish === "boolean" && Array.isArray(r.blockers), "readiness-consistent", `${where}: readiness ${show(r)} lacks canGenerate, canPublish or blockers`))
    return;
  for (const b of r.blockers) ctx.expect(typeof b === "string" && /^[a-z0-9_]+$/.test(b), "readiness-consistent", `${where}: blocker ${show(b)} is not a code`);
  if (r.blockers.some((b: string) => generationBlockers.includes(b))) ctx.expect(r.canGenerate === false, "readiness-consistent", `${where}: canGenerate true with blockers ${show(r.blockers)}`);
  if (r.blockers.some((b: string) => publishBlockers.includes(b))) ctx.expect(r.canPublish === false, "readiness-consistent", `${where}: canPublish true with blockers ${show(r.blockers)}`);
  if (r.canPublish) {
    ctx.expect(p.isActive === true, "readiness-consistent", `${where}: canPublish true on an inactive profile`);
    ctx.expect((p.channels ?? []).some((c: any) => publishable.has(c?.health)), "readiness-consistent", `${where}: canPublish true without a publishable channel`);
  }
  const channels: any[] = Array.isArray(p.channels) ? p.channels : [];
  for (const c of channels) {
    const at = `${where} channel ${show(c?.platform)}`;
    ctx.expect(channelHealth.has(c?.health), "channel-fields", `${at}: health ${show(c?.health)} is not one of ${[...channelHealth].join(", ")}`);
    if (c?.health === "connected") ctx.expect(c.healthReason === null, "channel-fields", `${at}: connected with healthReason ${show(c.healthReason)}, expected null`);
  }
  const cannot = new Set(channels.filter((c) => c?.health === "needs_reauth" || c?.health === "disconnected").map((c) => c.platform));
  for (const g of p.generationPlatforms ?? [])
    ctx.expect(!cannot.has(g) || channels.some((c) => c.platform === g && publishable.has(c.health)), "channel-fields", `${where}: generationPlatforms holds ${show(g)}, whose channel cannot publish`);
}

export const profileChecks: Check[] = [
  mcpCheck({
    id: "mcp-workspaces-limit-truncated",
    description: "get_workspaces lists at most limit, with totalCount before the limit, truncated and needsUserChoice to match",
    rules: ["workspaces-limit-truncated"],
    group,
    async run(ctx, m) {
      const rule = "workspaces-limit-truncated";
      const all = await workspaces(ctx, m, {}, rule);
      expectListShape(ctx, all, {}, rule);
      const one = await workspaces(ctx, m, { limit: 1 }, rule);
      expectListShape(ctx, one, { limit: 1 }, rule);
      ctx.expect(one.totalCount === all.totalCount, rule, `totalCount is ${show(one.totalCount)} with limit 1 and ${show(all.totalCount)} without`);
      if (all.totalCount > 1) ctx.expect(one.workspaces.length === 1 && one.truncated === true, rule, `limit 1 of ${all.totalCount}: ${one.workspaces.length} listed, truncated ${show(one.truncated)}`);
      const most = await workspaces(ctx, m, { limit: 200 }, rule);
      expectListShape(ctx, most, { limit: 200 }, rule);
    },
  }),
  mcpCheck({
    id: "mcp-workspaces-query",
    description: "get_workspaces' query matches a workspace's name or slug whatever the case; a query matching nothing lists nothing",
    rules: ["workspaces-query", "workspaces-limit-truncated"],
    group,
    async run(ctx, m) {
      const rule = "workspaces-query";
      const all = await workspaces(ctx, m, {}, rule);
      const first = all.workspaces[0];
      if (!first) return ctx.skip("the token reaches no workspace");
      for (const [what, q] of [
        ["name in upper case", String(first.name ?? "").toUpperCase()],
        ["slug", String(first.slug ?? "")],
      ] as const) {
        if (!q || q.length > 200) continue;
        const d = await workspaces(ctx, m, { query: q }, rule);
        ctx.expect(d.workspaces.some((w: any) => w?.id === first.id), rule, `query ${show(q)} (the ${what}) does not list workspace ${first.id}`);
        expectListShape(ctx, d, { query: q }, "workspaces-limit-truncated");
      }
      const none = await workspaces(ctx, m, { query: `conformance-nothing-${m.jobs.run}` }, rule);
      ctx.expect(none.workspaces.length === 0 && none.totalCount === 0 && none.truncated === false && none.needsUserChoice === false, rule, `a query matching nothing answered ${show(none)}`);
    },
  }),
  mcpCheck({
    id: "mcp-list-brands",
    description: "list_brands answers the workspace and its brands, needsUserChoice true exactly when there is more than one",
    rules: ["list-brands"],
    group,
    async run(ctx, m) {
      const rule = "list-brands";
      const all = await workspaces(ctx, m, {}, rule);
      for (const w of all.workspaces.slice(0, 3)) {
        const d = expectOk(ctx, await m.session.call("list_brands", { workspaceId: w.id }), rule);
        if (!d) continue;
        ctx.expect(d.workspaceId === w.id, rule, `list_brands ${w.id} answered workspaceId ${show(d.workspaceId)}`);
        if (!ctx.expect(Array.isArray(d.brands), rule, `list_brands ${w.id} has no brands list`)) continue;
        ctx.expect(d.needsUserChoice === d.brands.length > 1, rule, `list_brands ${w.id}: needsUserChoice ${show(d.needsUserChoice)} with ${d.brands.length} brands`);
      }
    },
  }),
  mcpCheck({
    id: "mcp-profile-readiness",
    description: "get_profile's readiness agrees with its blockers and channels; channel health and reasons are consistent",
    rules: ["readiness-consistent", "channel-fields"],
    group,
    async run(ctx, m) {
      const all = await workspaces(ctx, m, {}, "readiness-consistent");
      let seen = 0;
      for (const w of all.workspaces.slice(0, 3)) {
        const list = expectOk(ctx, await m.session.call("list_brands", { workspaceId: w.id }), "readiness-consistent");
        for (const b of (list?.brands ?? []).slice(0, 3)) {
          const p = expectOk(ctx, await m.session.call("get_profile", { brandId: b.id }), "readiness-consistent");
          if (!p) continue;
          seen++;
          expectProfileConsistent(ctx, p, `get_profile ${b.id}`);
        }
      }
      if (!seen) return ctx.skip("the token reaches no profile");
    },
  }),
];
