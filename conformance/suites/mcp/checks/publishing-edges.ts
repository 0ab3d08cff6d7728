// The edges of publishing, each on a draft built for it with one destination that needs no picture (FACEBOOK):
// a destination still finishing, one stuck at the provider, a story partly published, the publishing provider
// failing (publisher_error from every tool that contacts it), a failed destination that stays failed, every
// per-destination code with its retryable (publish results, get_post_status, schedule_failed), dry runs, a live
// post that cannot be edited and is taken down with unpublish_post, and a brand with no connected channel.
import type { RuleId } from "../../../../generated/rules.js";
import type { RuleRef } from "../../../core/judge.js";
import type { RunContext } from "../../../core/check.js";
import { destinationCodes, destinationRetryable } from "../contract.js";
import type { McpContext } from "../extension.js";
import { expectError, expectOk, okData } from "../expect.js";
import { approveAsSeen, goneOut, heldDestinations, pollCall, show, unbook, wellFormedError, type McpCheck } from "./common.js";
import { brandPublishingTo, brandWithoutChannels, caseCaption, draft, FEED, feedPost, libraryPicture } from "./drafts.js";

const group = "mcp-publishing-edges";
/** The checks that put a post live: their rules' slots provoke the situation, publishing for real makes it. */
const publishing = { "mcp.inputs.allow_publishing": "the post goes live (publish_post_now)" } as const;
/** publish_post_now of FEED only; its result for FEED (fails the check for `rule` when the call fails). */
async function publishFeed(ctx: RunContext, m: McpContext, id: string, rule: RuleRef): Promise<any> {
  const data = expectOk(ctx, await m.session.call("publish_post_now", { id, platforms: [FEED] }), rule);
  if (!data) return ctx.fail(rule, `publish_post_now of ${id} failed; cannot go on`);
  return (data.publishResults ?? []).find((r) => r?.platform === FEED);
}

/** get_post_status' record of one destination. */
async function statusOf(m: McpContext, id: string, platform = FEED): Promise<any> {
  return (okData(await m.session.call("get_post_status", { id }))?.platformResults ?? []).find((r) => r?.platform === platform);
}

const lastingCodes = [...destinationCodes].filter((c) => destinationRetryable(c) === false);
const transientCodes = [...destinationCodes].filter((c) => destinationRetryable(c) === true);

export const publishingEdgeChecks: McpCheck[] = [
  {
    id: "mcp-publish-in-progress",
    description: "A destination accepted but still finishing is reported pending with publishing_in_progress and goes live later",
    rules: ["publish-in-progress"],
    group,
    requiredSlots: publishing,
    async run(ctx) {
      const m = ctx.mcp;
      const rule = "publish-in-progress";
      const id = await feedPost(ctx, m, ctx.slot("mcp.triggers.caption_slow"), rule);
      const r = await publishFeed(ctx, m, id, rule);
      ctx.expect(r?.status === "pending" && r?.reason?.code === "publishing_in_progress", rule, `a slow ${FEED} answered ${show(r)}, expected pending with publishing_in_progress`);
      const t = m.target.timing;
      const live = await pollCall(ctx, m, `${FEED} of ${id} going live`, () => m.session.call("get_post_status", { id }), (o) => (okData(o)?.platformResults ?? []).some((x) => x?.platform === FEED && x.status === "published"), t.jobPollMs, t.jobDeadlineMs);
      ctx.expect(live.finished, rule, `${FEED} of ${id}, accepted as pending, was not live after ${(t.jobDeadlineMs / 1000).toFixed(1)} s: ${show(await statusOf(m, id))}`);
    },
  },
  {
    id: "mcp-publish-stuck-at-provider",
    description: "A destination the provider took and never reported is skipped with stuck_at_provider on a later call",
    rules: ["publish-stuck-at-provider"],
    group,
    requiredSlots: publishing,
    async run(ctx) {
      const m = ctx.mcp;
      const rule = "publish-stuck-at-provider";
      const id = await feedPost(ctx, m, ctx.slot("mcp.triggers.caption_stuck"), rule);
      const first = await publishFeed(ctx, m, id, rule);
      if (first?.status === "published") return ctx.skip(`${FEED} of ${id} went live at once; the provider did not hold it`);
      const again = await publishFeed(ctx, m, id, rule);
      ctx.expect(again?.status === "skipped" && again?.reason?.code === "stuck_at_provider", rule, `a repeat for a stuck ${FEED} answered ${show(again)}, expected skipped with stuck_at_provider`);
    },
  },
  {
    id: "mcp-publish-story-partial",
    description: "A story some of whose frames went live is skipped on repeat with story_partially_published",
    rules: ["publish-story-partial"],
    group,
    requiredSlots: publishing,
    async run(ctx) {
      const m = ctx.mcp;
      const rule = "publish-story-partial";
      const marker = ctx.slot("mcp.triggers.caption_story_partial");
      const brandId = await brandPublishingTo(ctx, m, ["instagram"]);
      const picture = await libraryPicture(ctx, m, brandId, rule);
      const id = await draft(ctx, m, brandId, { caption: `${caseCaption(m, "a story")} ${marker}`, mediaIds: [picture], platforms: ["INSTAGRAM_STORIES"] }, rule);
      await approveAsSeen(ctx, m, id, rule);
      const publish = async () => {
        const d = expectOk(ctx, await m.session.call("publish_post_now", { id, platforms: ["INSTAGRAM_STORIES"] }), rule);
        return (d?.publishResults ?? []).find((r) => r?.platform === "INSTAGRAM_STORIES");
      };
      const first = await publish();
      if (first?.status !== "failed") return ctx.skip(`the story of ${id} answered ${show(first)}: no frames went out partly`);
      const again = await publish();
      ctx.expect(again?.status === "skipped" && again?.reason?.code === "story_partially_published", rule, `a repeat for a partly published story answered ${show(again)}, expected skipped with story_partially_published`);
    },
  },
  {
    id: "mcp-publisher-error",
    description: "schedule_post, publish_post_now and unschedule_platform answer publisher_error (retryable) when the publishing provider fails, and change nothing",
    rules: ["publisher-error"],
    group,
    optionalSlots: { "mcp.inputs.allow_publishing": "publish_post_now is called too only where publishing is allowed (posts go live)" },
    async run(ctx) {
      const m = ctx.mcp;
      const marker = ctx.slot("mcp.triggers.caption_publisher_error");
      const rule = (tool: string): RuleId => `publisher-error/${tool}`;
      // schedule_post and publish_post_now of a post whose caption makes the provider fail.
      const id = await feedPost(ctx, m, marker, rule("schedule_post"));
      for (const [tool, args] of [
        ["schedule_post", { id, scheduledAt: m.run.clock.future(30), platforms: [FEED] }],
        ["publish_post_now", { id, platforms: [FEED] }],
      ] as const) {
        if (tool === "publish_post_now" && !m.slot("mcp.inputs.allow_publishing", "optional")) continue;
        const e = expectError(ctx, await m.session.callRaw(tool, args), { code: "publisher_error", rule: rule(tool) });
        if (e) ctx.expect(e.retryable === true, rule(tool), `publisher_error from ${tool} has retryable ${show(e.retryable)}`);
        const out = await goneOut(m, id);
        ctx.expect(out.length === 0, rule(tool), `${tool} answered publisher_error, yet ${out.join(", ")}`);
      }
      // unschedule_platform: a clean post is booked, then another of its destinations gets the marker.
      const clean = await feedPost(ctx, m, "", rule("unschedule_platform"));
      if (!expectOk(ctx, await m.session.call("schedule_post", { id: clean, scheduledAt: m.run.clock.future(31), platforms: [FEED] }), rule("unschedule_platform"))) return;
      const [held] = await heldDestinations(m, clean);
      if (!held) return ctx.fail(rule("unschedule_platform"), `schedule_post of ${clean} answered ok, yet get_post_status holds nothing`);
      const other = (okData(await m.session.call("view_post", { id: clean }))?.destinations ?? []).find((d) => d?.platform !== FEED && d?.text !== "");
      if (!other) {
        await unbook(ctx, m, clean);
        return ctx.skip(`post ${clean} has no second captioned destination to carry the marker while ${FEED} is booked`);
      }
      expectOk(ctx, await m.session.callRaw("update_post", { id: clean, caption: `${other.text} ${marker}`, platform: other.platform }), rule("unschedule_platform"));
      const e = expectError(ctx, await m.session.call("unschedule_platform", { id: clean, platform: held.platform, platformPostId: held.platformPostId }), { code: "publisher_error", rule: rule("unschedule_platform") });
      if (e) ctx.expect(e.retryable === true, rule("unschedule_platform"), `publisher_error from unschedule_platform has retryable ${show(e.retryable)}`);
      const still = await heldDestinations(m, clean);
      ctx.expect(still.some((h) => h.platform === held.platform && h.platformPostId === held.platformPostId), rule("unschedule_platform"), `unschedule_platform answered publisher_error, yet the booking changed: ${show(still)}`);
      // Cleanup: the marker off, the booking withdrawn.
      await m.session.callRaw("update_post", { id: clean, caption: other.text, platform: other.platform });
      await unbook(ctx, m, clean);
    },
  },
  {
    id: "mcp-failed-destination-stays-failed",
    description: "A destination the provider refused stays failed, with its error, while the caller does nothing",
    rules: ["failed-destination-stays-failed"],
    group,
    async run(ctx) {
      const m = ctx.mcp;
      const rule = "failed-destination-stays-failed";
      const id = await feedPost(ctx, m, ctx.slot("mcp.triggers.caption_refused"), rule);
      const r = await publishFeed(ctx, m, id, rule);
      if (!ctx.expect(r?.status === "failed", rule, `${FEED} with a refused caption answered ${show(r)}, expected failed`)) return;
      // Watched over several polls: no retry of the service's own may move it.
      const t = m.target.timing;
      const seen = await pollCall(ctx, m, `${FEED} of ${id} staying failed`, () => m.session.call("get_post_status", { id }), (o) => (okData(o)?.platformResults ?? []).some((x) => x?.platform === FEED && x.status !== "failed"), t.jobPollMs, t.jobPollMs * 4);
      const last = await statusOf(m, id);
      ctx.expect(!seen.finished && last?.status === "failed" && wellFormedError(last?.error), rule, `a failed ${FEED} did not stay failed with its error: ${show(last)}`);
    },
  },
  {
    id: "mcp-destination-codes-retryable",
    description: "A destination the provider refuses with each per-destination code is failed with the catalogue's retryable, in publishResults and get_post_status; a transient code answers schedule_failed retryable",
    rules: [...destinationCodes].map((c): RuleId => `destination-code-retryable/${c}`).concat(transientCodes.map((c): RuleId => `schedule-failed-retryable/${c}`)),
    group,
    requiredSlots: publishing,
    async run(ctx) {
      const m = ctx.mcp;
      const template = ctx.slot("mcp.triggers.caption_refused_code");
      const marker = (code: string) => template.replaceAll("{code}", code);
      // Publishing: each code on a fresh post, so a transient one meets its first attempt.
      for (const code of [...lastingCodes, ...transientCodes]) {
        const rule: RuleId = `destination-code-retryable/${code}`;
        const want = destinationRetryable(code);
        const id = await feedPost(ctx, m, marker(code), rule);
        const r = await publishFeed(ctx, m, id, rule);
        ctx.expect(r?.status === "failed" && r?.reason?.code === code && r.reason.retryable === want, rule, `${FEED} refused with ${code}: publishResults entry ${show(r)}, expected failed with ${code}, retryable ${want}`);
        const s = await statusOf(m, id);
        ctx.expect(s?.error?.code === code && s.error.retryable === want, rule, `get_post_status reports ${FEED} refused with ${code} as ${show(s)}, expected error ${code} with retryable ${want}`);
      }
      // Booking: a transient refusal makes schedule_failed retryable.
      for (const code of transientCodes) {
        const rule: RuleId = `schedule-failed-retryable/${code}`;
        const id = await feedPost(ctx, m, marker(code), rule);
        const e = expectError(ctx, await m.session.call("schedule_post", { id, scheduledAt: m.run.clock.future(35), platforms: [FEED] }), { code: "schedule_failed", rule });
        if (e) {
          ctx.expect((e.refusedDestinations ?? []).some((d) => d?.platform === FEED && d?.code === code), rule, `refusedDestinations ${show(e.refusedDestinations)} does not name ${FEED} with ${code}`);
          ctx.expect(e.retryable === true, rule, `a destination refused with ${code} made schedule_failed retryable ${show(e.retryable)}`);
        }
        await unbook(ctx, m, id);
      }
    },
  },
  ...(
    [
      ["mcp-dry-run-schedule-post", "schedule_post"],
      ["mcp-dry-run-publish-post-now", "publish_post_now"],
    ] as const
  ).map(([id, tool]) : McpCheck =>
    ({
      id,
      description: `${tool} with dryRun true lists each pre-flight problem in blocked[] (platform, code, message) and books or publishes nothing, a clean post included`,
      rules: [`dry-run-blocked/${tool}`],
      group,
      needs: ["mcp:profile-all"],
      async run(ctx) {
        const m = ctx.mcp;
        const rule: RuleId = `dry-run-blocked/${tool}`;
        const brandId = await brandPublishingTo(ctx, m, ["instagram", "facebook"]);
        const args = (id: string, platforms: string[]) => (tool === "schedule_post" ? { id, scheduledAt: m.run.clock.future(36), platforms, dryRun: true } : { id, platforms, dryRun: true });
        // An Instagram feed post without a picture: media_required in blocked[].
        const blockedId = await draft(ctx, m, brandId, { caption: caseCaption(m, "a dry run, blocked"), platforms: ["INSTAGRAM"] }, rule);
        await approveAsSeen(ctx, m, blockedId, rule);
        const d = expectOk(ctx, await m.session.callRaw(tool, args(blockedId, ["INSTAGRAM"])), rule);
        if (d) {
          const list = Array.isArray(d.blocked) ? d.blocked : [];
          ctx.expect(
            list.some((b) => b?.platform === "INSTAGRAM" && b?.code === "media_required" && typeof b?.message === "string"),
            rule,
            `a dry run of an Instagram post without a picture answered blocked ${show(d.blocked)}, expected INSTAGRAM media_required with a message`,
          );
        }
        // A clean post: nothing blocked, and still nothing goes out.
        const cleanId = await draft(ctx, m, brandId, { caption: caseCaption(m, "a dry run, clean"), platforms: [FEED] }, rule);
        await approveAsSeen(ctx, m, cleanId, rule);
        const c = expectOk(ctx, await m.session.callRaw(tool, args(cleanId, [FEED])), rule);
        if (c) ctx.expect(Array.isArray(c.blocked) && c.blocked.length === 0, rule, `a dry run of a post with no problem answered blocked ${show(c.blocked)}`);
        for (const id of [blockedId, cleanId]) {
          const out = await goneOut(m, id);
          ctx.expect(out.length === 0, rule, `${tool} with dryRun true changed post ${id}: ${out.join(", ")}`);
          if (out.length) await unbook(ctx, m, id);
        }
      },
    }),
  ),
  {
    id: "mcp-published-post-edits",
    description: "Editing a post with a live destination is refused with post_already_published or already_published naming it; unpublish_post takes it down with one result per destination",
    rules: ["edit-published-refused", "unpublish-post"],
    group,
    async run(ctx) {
      const m = ctx.mcp;
      const id = await feedPost(ctx, m, "", "edit-published-refused");
      const r = await publishFeed(ctx, m, id, "edit-published-refused");
      if (r?.status !== "published") return ctx.skip(`${FEED} of ${id} answered ${show(r)}, not live`);
      const e = expectError(ctx, await m.session.call("update_post", { id, caption: caseCaption(m, "edited after going live") }), { code: ["post_already_published", "already_published"], rule: "edit-published-refused" });
      if (e) ctx.expect(Array.isArray(e.publishedPlatforms) && e.publishedPlatforms.includes(FEED), "edit-published-refused", `publishedPlatforms ${show(e.publishedPlatforms)} does not name the live ${FEED}`);
      const u = expectOk(ctx, await m.session.call("unpublish_post", { id }), "unpublish-post");
      if (!u) return;
      const results = Array.isArray(u.unpublishResults) ? u.unpublishResults : [];
      const views = okData(await m.session.call("view_post", { id }))?.destinations ?? [];
      ctx.expect(results.length === views.length && views.every((d) => results.some((x) => x?.platform === d?.platform)), "unpublish-post", `unpublishResults ${show(results.map((x) => x?.platform))}, the post's destinations ${show(views.map((d) => d?.platform))}`);
      ctx.expect(results.find((x) => x?.platform === FEED)?.status === "unpublished", "unpublish-post", `the live ${FEED} answered ${show(results.find((x) => x?.platform === FEED))}`);
      const s = await statusOf(m, id);
      ctx.expect(s?.status !== "published", "unpublish-post", `after unpublish_post, get_post_status still reports ${FEED} ${show(s?.status)}`);
    },
  },
  {
    id: "mcp-schedule-needs-connection",
    description: "Scheduling or publishing a post of a brand with no connected channel is refused with platform_not_connected",
    rules: ["schedule-needs-connection"],
    group,
    optionalSlots: { "mcp.inputs.allow_publishing": "publish_post_now is called too only where publishing is allowed (posts go live)" },
    async run(ctx) {
      const m = ctx.mcp;
      const rule = "schedule-needs-connection";
      const brandId = await brandWithoutChannels(ctx, m);
      const id = await draft(ctx, m, brandId, { caption: caseCaption(m, "nowhere to go") }, rule);
      await approveAsSeen(ctx, m, id, rule);
      expectError(ctx, await m.session.call("schedule_post", { id, scheduledAt: m.run.clock.future(37) }), { code: "platform_not_connected", rule });
      if (m.slot("mcp.inputs.allow_publishing", "optional")) expectError(ctx, await m.session.call("publish_post_now", { id }), { code: "platform_not_connected", rule });
      ctx.expect((await goneOut(m, id)).length === 0, rule, `post ${id} of a brand with no connected channel went out`);
    },
  },
];
