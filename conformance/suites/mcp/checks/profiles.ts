// Workspaces, brands and profiles: get_workspaces' limit, totalCount, truncated, needsUserChoice and query;
// list_brands; readiness and channel fields of get_profile.
import type { RuleId } from "../../../../generated/rules.js";
import type { RuleRef } from "../../../core/judge.js";
import type { RunContext } from "../../../core/check.js";
import { channelHealth, readinessBlockers } from "../contract.js";
import { expectOk, okData } from "../expect.js";
import { expectRefusal, refusedFirstRule } from "../refusal.js";
import type { McpContext } from "../extension.js";
import { byId, show, type McpCheck } from "./common.js";
import type { AnsweredOutput } from "../answers.js";

/** get_workspaces' payload with its list there (the fields check judges the rest of the shape). */
type Listed = AnsweredOutput<"get_workspaces"> & { workspaces: NonNullable<AnsweredOutput<"get_workspaces">["workspaces"]> };

const group = "mcp-profiles";

async function workspaces(ctx: RunContext, m: McpContext, args: Record<string, unknown>, rule: RuleRef): Promise<Listed> {
  const d = expectOk(ctx, await m.session.call("get_workspaces", args), rule);
  if (!d || !Array.isArray(d.workspaces)) return ctx.fail(rule, `get_workspaces ${JSON.stringify(args)} did not list workspaces: ${show(d)}`);
  return d as Listed;
}

/** The list's counts against its length (rule workspaces-limit-truncated, one member per statement). */
function expectListShape(ctx: RunContext, d: Listed, args: Record<string, unknown>): void {
  const rule = (member: string): RuleId => `workspaces-limit-truncated/${member}`;
  const limit = typeof args.limit === "number" ? args.limit : 50;
  const n = d.workspaces.length;
  const where = `get_workspaces ${JSON.stringify(args)}`;
  ctx.expect(n <= limit, rule(typeof args.limit === "number" ? "at-most-limit" : "default-limit"), `${where}: ${n} workspaces, more than the limit ${limit}`);
  // A default of 50 cuts the list at 50, not before: fewer than 50 listed of more matches is another default.
  // Compared as answered: a totalCount that is no number compares as JavaScript compares it (and fails total-count).
  const total = d.totalCount as number;
  if (typeof args.limit !== "number" && Number.isInteger(total))
    ctx.expect(n >= Math.min(total, 50), rule("default-limit"), `${where}: ${n} of ${total} matches listed with no limit given; the default limit is 50`);
  ctx.expect(Number.isInteger(total) && total >= n, rule("total-count"), `${where}: totalCount ${show(total)} is below the ${n} listed`);
  ctx.expect(d.truncated === total > n, rule("truncated"), `${where}: truncated ${show(d.truncated)} with ${n} of ${show(total)} listed`);
  ctx.expect(d.needsUserChoice === total > 1, rule("needs-user-choice"), `${where}: needsUserChoice ${show(d.needsUserChoice)} with ${show(total)} matches`);
}

const generationBlockers = ["brand_inactive", "no_brand_profile", "profile_not_ready"];
// A build does not hold publishing up, and connection_check_failed leaves the state unknown: neither stops publishing.
const publishBlockers = ["brand_inactive", "no_brand_profile", "no_channel_connected", "all_channels_need_reauth", "all_channels_disconnected"];
const publishable = new Set<unknown>(["connected", "expiring_soon"]);
const blockerCodes = [...readinessBlockers];

/** The rules expectProfileConsistent judges: a check that calls it on a profile it meets names them incidental. */
export const profileConsistencyRules = ["readiness-blockers-are-codes", "blocker-code-form", "readiness-consistent", "can-publish-definition", "health-reason-null-when-connected", "expiring-soon-window", "channel-health-publishes"];

/**
 * A brand listed with publishReadiness unknown: the provider holds the answer, so there is an account to ask about
 * (an active profile with a channel), and where the profile's connection check failed the list says unknown too.
 */
export function expectUnknownReadiness(ctx: RunContext, item: AnsweredOutput<"list_brands">["brands"] extends (infer B)[] | null | undefined ? B : never, p: AnsweredOutput<"get_profile">): void {
  const rule = "publish-readiness-values/unknown";
  ctx.expect(p.isActive === true && Array.isArray(p.channels) && p.channels.length > 0, rule, `brand ${item.id} is unknown in list_brands; get_profile shows isActive ${show(p.isActive)} and channels ${show(p.channels)}`);
}

/** Readiness and channel rules of one profile payload. */
export function expectProfileConsistent(ctx: RunContext, p: AnsweredOutput<"get_profile"> | undefined, where: string): void {
  const r = p?.readiness;
  if (!r || typeof r.canGenerate !== "boolean" || typeof r.canPublish !== "boolean" || !Array.isArray(r.blockers)) return; // the fields check judges the shape
  // A code, not a sentence (the seed's words); the listed spelling, lowercase with underscores, is ours.
  for (const b of r.blockers) {
    const code = ctx.expect(typeof b === "string" && /^[^\s.]+$/u.test(b), "readiness-blockers-are-codes/blockers", `${where}: blocker ${show(b)} is not a code`);
    if (code) ctx.expect(/^[a-z0-9_]+$/.test(b), "blocker-code-form", `${where}: blocker ${show(b)} is not lowercase with underscores`);
  }
  for (const b of r.blockers as unknown[]) {
    if (typeof b !== "string" || !blockerCodes.includes(b)) continue; // an unknown blocker: the set is open
    // rule: readiness-consistent/<blocker>
    if (publishBlockers.includes(b)) ctx.expect(r.canPublish === false, `readiness-consistent/${b}`, `${where}: canPublish true with blocker ${b}`);
    if (generationBlockers.includes(b)) ctx.expect(r.canGenerate === false, `readiness-consistent/${b}`, `${where}: canGenerate true with blocker ${b}`);
    if (b === "connection_check_failed") {
      // State unknown: generating is decided by the other blockers alone.
      const blocked = r.blockers.some((x: unknown) => generationBlockers.includes(x as string));
      ctx.expect(r.canGenerate === !blocked, `readiness-consistent/${b}`, `${where}: canGenerate ${r.canGenerate} with blockers ${show(r.blockers)}`);
    }
  }
  if (r.canPublish) {
    ctx.expect(p.isActive === true, "can-publish-definition/active", `${where}: canPublish true on an inactive profile`);
    ctx.expect(!r.blockers.includes("no_brand_profile"), "can-publish-definition/has-brand-settings", `${where}: canPublish true without brand settings (no_brand_profile)`);
    ctx.expect((p.channels ?? []).some((c) => publishable.has(c?.health)), "can-publish-definition/publishable-channel", `${where}: canPublish true without a publishable channel`);
  }
  const channels = Array.isArray(p.channels) ? p.channels : [];
  const generation: unknown[] = Array.isArray(p.generationPlatforms) ? p.generationPlatforms : [];
  for (const c of channels) {
    const at = `${where} channel ${show(c?.platform)}`;
    if (c?.health === "connected") ctx.expect(c.healthReason === null, "health-reason-null-when-connected/connected", `${at}: connected with healthReason ${show(c.healthReason)}, expected null`);
    if (c?.health === "expiring_soon" && c.tokenRefreshInDays !== null && c.tokenRefreshInDays !== undefined)
      ctx.expect(typeof c.tokenRefreshInDays === "number" && c.tokenRefreshInDays <= 14, "expiring-soon-window/expiring_soon", `${at}: expiring_soon with tokenRefreshInDays ${show(c.tokenRefreshInDays)}`);
    if (!channelHealth.has(c?.health as string)) continue; // an unknown health: the set is open
    // rule: channel-health-publishes/<health>
    const listed = generation.includes(c.platform);
    ctx.expect(listed === publishable.has(c.health), `channel-health-publishes/${c.health}`, `${at}: health ${c.health}, and generationPlatforms ${listed ? "lists" : "leaves out"} it`);
  }
}

export const profileChecks: McpCheck[] = [
  {
    id: "mcp-workspaces-limit-truncated",
    description: "get_workspaces lists at most limit, with totalCount before the limit, truncated and needsUserChoice to match",
    rules: ["workspaces-limit-truncated", "limit-workspaces-limit", `${refusedFirstRule}/get_workspaces`],
    group,
    async run(ctx) {
      const m = ctx.mcp;
      const rule = "workspaces-limit-truncated/total-count";
      const all = await workspaces(ctx, m, {}, rule);
      expectListShape(ctx, all, {});
      const one = await workspaces(ctx, m, { limit: 1 }, "limit-workspaces-limit/min");
      expectListShape(ctx, one, { limit: 1 });
      ctx.expect(one.totalCount === all.totalCount, rule, `totalCount is ${show(one.totalCount)} with limit 1 and ${show(all.totalCount)} without`);
      if ((all.totalCount as number) > 1) ctx.expect(one.workspaces.length === 1 && one.truncated === true, "workspaces-limit-truncated/truncated", `limit 1 of ${all.totalCount}: ${one.workspaces.length} listed, truncated ${show(one.truncated)}`);
      const most = await workspaces(ctx, m, { limit: 200 }, "limit-workspaces-limit/max");
      expectListShape(ctx, most, { limit: 200 });
      // Each side of the limit, one beyond it: refused (before the tool runs where the schema states the limit).
      await expectRefusal(ctx, m, await m.session.call("get_workspaces", { limit: 0 }), "limit-workspaces-limit/min");
      await expectRefusal(ctx, m, await m.session.call("get_workspaces", { limit: 201 }), "limit-workspaces-limit/max");
    },
  },
  {
    id: "mcp-workspaces-query",
    description: "get_workspaces' query matches a workspace's name or slug whatever the case; a query matching nothing lists nothing",
    rules: ["workspaces-query", "limit-workspaces-query", `${refusedFirstRule}/get_workspaces`],
    group,
    async run(ctx) {
      const m = ctx.mcp;
      const all = await workspaces(ctx, m, {}, "workspaces-query/name");
      const first = byId(all.workspaces)[0];
      if (!first) return ctx.skip("the token reaches no workspace");
      for (const [member, q] of [
        ["name", String(first.name ?? "")],
        ["any-case", String(first.name ?? "").toUpperCase()],
        ["slug", String(first.slug ?? "")],
      ] as const) {
        if (!q || q.length > 200) continue;
        const d = await workspaces(ctx, m, { query: q }, `workspaces-query/${member}`);
        ctx.expect(d.workspaces.some((w) => w?.id === first.id), `workspaces-query/${member}`, `query ${show(q)} (the ${member}) does not list workspace ${first.id}`);
      }
      const none = await workspaces(ctx, m, { query: `conformance-nothing-${m.run.id}` }, "workspaces-query/no-match");
      ctx.expect(none.workspaces.length === 0 && none.totalCount === 0 && none.truncated === false && none.needsUserChoice === false, "workspaces-query/no-match", `a query matching nothing answered ${show(none)}`);
      // Each side of the query's length: 1 and 200 characters taken, 0 and 201 refused (before the tool runs where the schema states the limit).
      await workspaces(ctx, m, { query: "c" }, "limit-workspaces-query/min");
      await workspaces(ctx, m, { query: "c".repeat(200) }, "limit-workspaces-query/max");
      await expectRefusal(ctx, m, await m.session.call("get_workspaces", { query: "" }), "limit-workspaces-query/min");
      await expectRefusal(ctx, m, await m.session.call("get_workspaces", { query: "c".repeat(201) }), "limit-workspaces-query/max");
    },
  },
  {
    id: "mcp-list-brands",
    description: "list_brands answers the workspace and its brands, needsUserChoice true exactly when there is more than one",
    rules: ["list-brands", "brand-list-matches-profile"],
    // A survey of the target's brands: the readiness values it meets (mcp-readiness-views provokes each on purpose).
    incidental: ["publish-readiness-values"],
    group,
    async run(ctx) {
      const m = ctx.mcp;
      const all = await workspaces(ctx, m, {}, "list-brands/workspace-id");
      for (const w of byId(all.workspaces).slice(0, 3)) {
        const d = expectOk(ctx, await m.session.call("list_brands", { workspaceId: w.id as string }), "list-brands/workspace-id");
        if (!d) continue;
        ctx.expect(d.workspaceId === w.id, "list-brands/workspace-id", `list_brands ${w.id} answered workspaceId ${show(d.workspaceId)}`);
        if (!Array.isArray(d.brands)) continue; // the fields check judges the shape
        ctx.expect(d.needsUserChoice === d.brands.length > 1, "list-brands/needs-user-choice", `list_brands ${w.id}: needsUserChoice ${show(d.needsUserChoice)} with ${d.brands.length} brands`);
        // Two views of one brand: the list item and get_profile.
        for (const b of byId(d.brands).slice(0, 3)) {
          const p = okData(await m.session.callRaw("get_profile", { brandId: b?.id }));
          if (!p) continue;
          ctx.expect(p.brandName === b.name, "brand-list-matches-profile/name", `brand ${b.id}: list_brands names it ${show(b.name)}, get_profile ${show(p.brandName)}`);
          ctx.expect(p.isActive === b.isActive, "brand-list-matches-profile/is-active", `brand ${b.id}: list_brands isActive ${show(b.isActive)}, get_profile ${show(p.isActive)}`);
          ctx.expect(p.companyId === w.id, "brand-list-matches-profile/workspace", `brand ${b.id} listed in workspace ${w.id}; get_profile says companyId ${show(p.companyId)}`);
          const live = (p.channels ?? []).some((c) => publishable.has(c?.health));
          // rule: publish-readiness-values/<value> (unknown defers to get_profile: nothing to compare)
          if (b.publishReadiness === "ready") ctx.expect(live, "publish-readiness-values/ready", `brand ${b.id} is ready to publish in list_brands, with no live channel in get_profile`);
          if (b.publishReadiness === "not_connected") ctx.expect(!live, "publish-readiness-values/not_connected", `brand ${b.id} is not_connected in list_brands, with a live channel in get_profile`);
          if (b.publishReadiness === "unknown") expectUnknownReadiness(ctx, b, p);
        }
      }
    },
  },
  {
    id: "mcp-profile-readiness",
    description: "get_profile's readiness agrees with its blockers and channels; channel health and reasons are consistent",
    rules: ["readiness-blockers-are-codes", "blocker-code-form", "can-publish-definition", "health-reason-null-when-connected", "expiring-soon-window"],
    // A survey: it judges the blockers and healths the target's profiles happen to show (mcp-readiness-views
    // provokes each blocker on purpose), so a member it never meets is not a skipped case.
    incidental: ["readiness-consistent", "channel-health-publishes"],
    group,
    async run(ctx) {
      const m = ctx.mcp;
      let seen = 0;
      // The tenant under test, and another tenant's profiles where the target gives its token.
      for (const as of m.target.tokens.otherTenant ? (["normal", "otherTenant"] as const) : (["normal"] as const)) {
        const all = okData(await m.session.call("get_workspaces", {}, as));
        for (const w of byId(all?.workspaces).slice(0, 3)) {
          const list = expectOk(ctx, await m.session.callRaw("list_brands", { workspaceId: w.id }, as), "readiness-blockers-are-codes/blockers");
          for (const b of byId(list?.brands).slice(0, 3)) {
            const p = expectOk(ctx, await m.session.callRaw("get_profile", { brandId: b.id }, as), "readiness-blockers-are-codes/blockers");
            if (!p) continue;
            seen++;
            expectProfileConsistent(ctx, p, `get_profile ${b.id}`);
          }
        }
      }
      if (!seen) return ctx.skip("the token reaches no profile");
    },
  },
];
