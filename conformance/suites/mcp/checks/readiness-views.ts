// Each readiness blocker provoked on purpose, on clients of the run's own, and three views of it compared:
// get_profile's readiness, list_brands' publishReadiness, and what a generating or publishing tool does.
//   - a new client whose build failed (mcp.triggers.website_fails_build), with no account: profile_not_ready and
//     no_channel_connected;
//   - a new client with an account whose provider cannot be reached (mcp.triggers.connect_account_unreachable):
//     connection_check_failed, listed unknown;
// (brand_inactive and all_channels_disconnected, after deactivation, are mcp-deactivation-effects' to provoke.)
import type { RuleId } from "../../../../generated/rules.js";
import type { RunContext } from "../../../core/check.js";
import { describeCall, errorOf, okData } from "../expect.js";
import type { McpContext } from "../extension.js";
import { connectAccount, eraseClient, newClient, settledBuild, type Client } from "./clients.js";
import { show, type McpCheck } from "./common.js";
import { expectProfileConsistent, expectUnknownReadiness, profileConsistencyRules } from "./profiles.js";

const as = "partner" as const;
const consistent = (blocker: string): RuleId => `readiness-consistent/${blocker}`;

/** The client as get_profile and list_brands show it now. */
async function views(m: McpContext, c: Client): Promise<{ profile: any; item: any }> {
  const profile = okData(await m.session.call("get_profile", { brandId: c.brandId }, as));
  const item = (okData(await m.session.callRaw("list_brands", { workspaceId: c.companyId }, as))?.brands ?? []).find((b) => b?.id === c.brandId);
  return { profile, item };
}

/**
 * Judges one client: readiness consistent in itself, the blockers `want` present, the list item agreeing, and the
 * tools doing what readiness says (a refused generation while canGenerate is false, a refused booking while
 * canPublish is false). Returns the profile.
 */
async function judge(ctx: RunContext, m: McpContext, c: Client, want: string[], postId: string | undefined, where: string): Promise<any> {
  const { profile: p, item } = await views(m, c);
  if (!p || !item) return ctx.fail(want.map(consistent), `${where}: get_profile or list_brands did not show client ${c.brandId}: ${show({ p, item })}`);
  const blockers: unknown[] = p.readiness?.blockers ?? [];
  for (const b of want) ctx.expect(blockers.includes(b), consistent(b), `${where}: expected blocker ${b}, get_profile shows ${show(p.readiness)}`);
  expectProfileConsistent(ctx, p, `${where} get_profile ${c.brandId}`);
  const rules = want.map(consistent);
  // Two views: the list item says the same as the profile.
  ctx.expect(item.isActive === p.isActive, rules, `${where}: list_brands isActive ${show(item.isActive)}, get_profile ${show(p.isActive)}`);
  if (item.publishReadiness === "ready") ctx.expect(p.readiness?.canPublish === true, rules, `${where}: list_brands says ready, get_profile canPublish ${show(p.readiness?.canPublish)}`);
  if (p.readiness?.canPublish === false) ctx.expect(item.publishReadiness !== "ready", rules, `${where}: get_profile canPublish false, list_brands says ready`);
  // What the tools do: generating (a draft written by the gateway; refused, it spends nothing) and booking. Judged
  // only when readiness reads the same after the call (a build that ended meanwhile would say nothing).
  const tried = async (can: "canGenerate" | "canPublish", tool: string, args: Record<string, unknown>) => {
    const o = await m.session.callRaw(tool, args, as);
    const again = okData(await m.session.call("get_profile", { brandId: c.brandId }, as))?.readiness;
    if (again?.[can] !== false) return ctx.note(`${where}: ${can} changed to ${show(again?.[can])} around ${tool}; not judged`);
    ctx.expect(errorOf(o) !== undefined, rules, `${where}: ${can} false, yet ${describeCall(o)}`);
  };
  if (p.readiness?.canGenerate === false) await tried("canGenerate", "create_draft", { brandId: c.brandId, prompt: `Conformance run ${m.run.id}: a readiness probe.` });
  if (p.readiness?.canPublish === false && postId) await tried("canPublish", "schedule_post", { id: postId, scheduledAt: m.run.clock.future(30) });
  return p;
}

async function run(ctx: RunContext, m: McpContext): Promise<void> {
  const unreachable = m.slot("mcp.triggers.connect_account_unreachable", "optional");
  // A failed build stays failed (profile_not_ready) until create_profile is repeated: nothing races the build.
  const failing = m.slot("mcp.triggers.website_fails_build", "optional");
  const bare = await newClient(ctx, m, "readiness-bare", failing);
  const cut = unreachable ? await newClient(ctx, m, "readiness-unreachable", failing) : undefined;
  try {
    // A draft with the client's own caption is not generation: it is what a booking is tried with.
    const draftOf = async (c: Client) => {
      const d = okData(await m.session.call("create_draft", { brandId: c.brandId, caption: `Conformance run ${m.run.id}: readiness.` }, as));
      return (d?.id ?? d?.postId) as string | undefined;
    };
    const barePost = await draftOf(bare);
    if (failing) await settledBuild(ctx, m, bare.brandId);
    else ctx.note("profile_not_ready is not provoked: no website whose build fails (mcp.triggers.website_fails_build)");
    await judge(ctx, m, bare, failing ? ["profile_not_ready", "no_channel_connected"] : ["no_channel_connected"], barePost, "a new client with no account");
    if (cut) {
      await connectAccount(ctx, m, cut.brandId, unreachable);
      const { profile: p, item } = await views(m, cut);
      await judge(ctx, m, cut, ["connection_check_failed"], undefined, "a client whose provider cannot be reached");
      // rule: publish-readiness-values/unknown — the provider holds the answer, and the list says so.
      if (item && p) {
        ctx.expect(item.publishReadiness === "unknown", "publish-readiness-values/unknown", `a client whose connection check failed is listed ${show(item.publishReadiness)}`);
        expectUnknownReadiness(ctx, item, p);
      }
    } else ctx.note("connection_check_failed is not provoked: no account whose provider cannot be reached (mcp.triggers.connect_account_unreachable)");
  } finally {
    await eraseClient(ctx, m, bare.brandId);
    if (cut) await eraseClient(ctx, m, cut.brandId);
  }
}

export const readinessViewChecks: McpCheck[] = [
  {
    id: "mcp-readiness-views",
    description: "Each readiness blocker provoked on a client of the run: get_profile's readiness, list_brands' publishReadiness and what generating and booking tools do agree",
    rules: ["profile_not_ready", "no_channel_connected", "connection_check_failed"].map(consistent).concat("publish-readiness-values/unknown"),
    incidental: profileConsistencyRules,
    group: "mcp-profiles",
    needs: ["mcp:partner-token", "mcp:profile-all", "mcp:cost-builds"],
    // A bare client, and one with an unreachable account when the target gives such an account.
    spend: ({ triggers }) => ({ builds: triggers.connectAccountUnreachable ? 2 : 1 }),
    optionalSlots: {
      "mcp.triggers.website_fails_build": "profile_not_ready is provoked only where it is given",
      "mcp.triggers.connect_account_unreachable": "connection_check_failed is provoked only where it is given",
    },
    run: (ctx) => run(ctx, ctx.mcp),
  },
];
