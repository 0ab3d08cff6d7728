// Posts built for one case: a brand whose connected channels can show a problem (found through get_workspaces,
// list_brands and get_profile, once per run), drafts with exactly the content a case needs, and library pictures.
// A check that needs a destination no brand of the token publishes to is skipped with that reason.
import type { RuleId } from "../../../../generated/rules.js";
import type { RuleRef } from "../../../core/judge.js";
import type { RunContext } from "../../../core/check.js";
import type { McpContext } from "../extension.js";
import { expectOk, okData } from "../expect.js";
import type { McpTokenKind, McpTriggers } from "../target.js";
import { approveAsSeen, channelPosts, show } from "./common.js";
import { brandUnderTest, sortedIds } from "./brand-under-test.js";

interface Reachable {
  brandId: string;
  /** get_profile's readiness.canPublish. */
  canPublish: boolean;
  /** Lowercase channels that can post now. */
  channels: Set<string>;
}

/** Each active brand the token reaches (the main brand first), with its channels; read once per run. */
function brandsOf(m: McpContext): Promise<Reachable[]> {
  return m.run.once("reachable-brands", async () => {
    const s = m.run.session;
    const main = await brandUnderTest(m);
    const ids: string[] = main.brandId ? [main.brandId] : [];
    const ws = okData(await s.call("get_workspaces", {}));
    // In id order, not the target's (which the seed does not fix): the same brands are found whatever it lists first.
    for (const workspaceId of sortedIds(ws?.workspaces).slice(0, 10)) {
      const brands = okData(await s.call("list_brands", { workspaceId }))?.brands ?? [];
      const active = new Set(brands.filter((b) => b?.isActive === true).map((b) => b.id));
      for (const id of sortedIds(brands)) if (active.has(id) && !ids.includes(id)) ids.push(id);
    }
    const out: Reachable[] = [];
    for (const brandId of ids.slice(0, 20)) {
      const profile = okData(await s.call("get_profile", { brandId }));
      if (!profile) continue;
      const channels = new Set<string>((profile.channels ?? []).filter(channelPosts).map((c) => String(c.platform).toLowerCase()));
      out.push({ brandId, canPublish: profile.readiness?.canPublish === true, channels });
    }
    return out;
  });
}

/**
 * A brand that publishes to every one of `channels` (lowercase; the main brand first when it does); skips the
 * check when the token reaches none.
 */
export async function brandPublishingTo(ctx: RunContext, m: McpContext, channels: readonly string[]): Promise<string> {
  const found = (await brandsOf(m)).find((b) => b.canPublish && channels.every((c) => b.channels.has(c)));
  if (!found) ctx.skip(`needs a brand with ${channels.join(", ")} connected; no brand the token reaches has them`);
  return found.brandId;
}

/** A brand with no channel that can post; skips the check when the token reaches none. */
export async function brandWithoutChannels(ctx: RunContext, m: McpContext): Promise<string> {
  const found = (await brandsOf(m)).find((b) => b.channels.size === 0);
  if (!found) ctx.skip("needs a brand with no connected channel; every brand the token reaches has one");
  return found.brandId;
}

/** create_draft with `args` (as the `as` token); the new post's id (fails the check for `rule` when there is none). */
export async function draft(ctx: RunContext, m: McpContext, brandId: string, args: Record<string, unknown>, rule: RuleRef, as: McpTokenKind = "normal"): Promise<string> {
  const d = expectOk(ctx, await m.session.call("create_draft", { brandId, ...args }, as), rule);
  const id = d?.id ?? d?.postId;
  if (typeof id !== "string") return ctx.fail(rule, `create_draft ${show(args)} answered no post id: ${show(d)}`);
  return id;
}

/** A new picture in the brand library (generate_image with saveToLibrary); its mediaId. */
export async function libraryPicture(ctx: RunContext, m: McpContext, brandId: string, rule: RuleRef): Promise<string> {
  const g = expectOk(ctx, await m.session.call("generate_image", { brandId, prompt: `Conformance run ${m.run.id}: a loaf on a board.`, saveToLibrary: true }), rule);
  if (typeof g?.mediaId !== "string") return ctx.fail(rule, `generate_image with saveToLibrary answered no mediaId: ${show(g)}`);
  return g.mediaId;
}

/** A caption for a case: unique to the run, short enough for every destination. */
export const caseCaption = (m: McpContext, what: string) => `Conformance run ${m.run.id}: ${what}.`;

/** The destination the single-destination cases use: it needs no picture, so a caption alone publishes. */
export const FEED = "FACEBOOK";

/** A draft whose FEED caption carries `marker` (besides the brand's default destination), approved as it reads. */
export async function feedPost(ctx: RunContext, m: McpContext, marker: string, rule: RuleId): Promise<string> {
  const brandId = await brandPublishingTo(ctx, m, [FEED.toLowerCase()]);
  const id = await draft(ctx, m, brandId, { caption: `${caseCaption(m, "a post for one destination")} ${marker}`.trim(), platforms: [FEED] }, rule);
  await approveAsSeen(ctx, m, id, rule);
  return id;
}
