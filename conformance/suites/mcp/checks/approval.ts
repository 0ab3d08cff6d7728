// The approval gate: approve_post records the exact digest the reviewer saw; a digest the post no longer has is
// refused (post_content_changed) and records nothing; an approval goes stale when the content changes, and a
// rejection holds until a new approval — both refuse schedule_post and publish_post_now as a whole.
import type { RuleId } from "../../../../generated/rules.js";
import type { AnsweredOutput } from "../answers.js";
import { expectError, expectOk } from "../expect.js";
import { expectContractFields } from "../fields.js";
import { approveAsSeen, editCaption, goneOut, show, unbook, viewPost, type McpCheck } from "./common.js";
import { claimPost } from "./batch-scenario.js";

const group = "mcp-approval";

/** A caption edit that changes a post's digest (appends to its first caption). */
const edited = (view: AnsweredOutput<"view_post">, tag: string): string => `${view.destinations?.find((d) => typeof d?.text === "string" && d.text !== "")?.text ?? view.postText ?? ""} ${tag}`.trim();

export const approvalChecks: McpCheck[] = [
  {
    id: "mcp-approve-records-digest",
    description: "approve_post records the digest the reviewer saw; after an edit, approve_post and reject_post with the old digest answer post_content_changed and record nothing",
    rules: ["approve-records-digest", "approve-outdated-digest", "approval-fields", "approval-decision-values/approved"],
    group,
    async run(ctx) {
      const m = ctx.mcp;
      const id = await claimPost(ctx, m, "the approval record check");
      const seen = await viewPost(ctx, m, id, "approve-records-digest/answer");
      const a = expectOk(ctx, await m.session.call("approve_post", { id, contentDigest: seen.contentDigest as string }), "approve-records-digest/answer");
      if (!a) return;
      expectContractFields(ctx, "approval-fields", "approve_post", "Approval", a.approval, `approve_post ${id} approval`);
      ctx.expect(a.approval?.decision === "approved", "approval-decision-values/approved", `approve_post recorded decision ${show(a.approval?.decision)}`);
      ctx.expect(a.approval?.contentDigest === seen.contentDigest, "approve-records-digest/answer", `approve_post with digest ${show(seen.contentDigest)} recorded ${show(a.approval)}`);
      const read = await viewPost(ctx, m, id, "approve-records-digest/read-back");
      ctx.expect(
        read.approval?.decision === "approved" && read.approval?.contentDigest === seen.contentDigest && read.approval?.stale !== true,
        "approve-records-digest/read-back",
        `view_post after the approval shows approval ${show(read.approval)}`,
      );

      // rule: approve-outdated-digest/approve_post, approve-outdated-digest/reject_post
      await editCaption(ctx, m, id, edited(seen, "(changed after approval)"), "approve-outdated-digest/approve_post");
      expectError(ctx, await m.session.call("approve_post", { id, contentDigest: seen.contentDigest as string }), { code: "post_content_changed", rule: "approve-outdated-digest/approve_post" });
      expectError(ctx, await m.session.call("reject_post", { id, reason: "Conformance run: an outdated review.", contentDigest: seen.contentDigest as string }), {
        code: "post_content_changed",
        rule: "approve-outdated-digest/reject_post",
      });
      const after = await viewPost(ctx, m, id, "approve-outdated-digest/approve_post");
      ctx.expect(
        after.approval?.decision === "approved" && after.approval?.contentDigest === seen.contentDigest,
        ["approve-outdated-digest/approve_post", "approve-outdated-digest/reject_post"],
        `refused decisions changed the record: approval is now ${show(after.approval)}, it was the approval of ${show(seen.contentDigest)}`,
      );
    },
  },
  {
    id: "mcp-approval-stale",
    description: "An approved post whose content then changes is refused by schedule_post and publish_post_now with approval_stale, and nothing goes out",
    rules: ["approval-stale/schedule_post", "approval-stale/publish_post_now"],
    group,
    async run(ctx) {
      const m = ctx.mcp;
      const both: RuleId[] = ["approval-stale/schedule_post", "approval-stale/publish_post_now"];
      const id = await claimPost(ctx, m, "the stale approval check");
      const seen = await approveAsSeen(ctx, m, id, both);
      await editCaption(ctx, m, id, edited(seen, "(edited after approval)"), both);
      const view = await viewPost(ctx, m, id, both);
      if (view.approval && "stale" in view.approval) ctx.expect(view.approval.stale === true, both, `after an edit the approval reads ${show(view.approval)}, not stale`);
      expectError(ctx, await m.session.call("schedule_post", { id, scheduledAt: m.run.clock.future(30) }), { code: "approval_stale", rule: "approval-stale/schedule_post" });
      expectError(ctx, await m.session.call("publish_post_now", { id }), { code: "approval_stale", rule: "approval-stale/publish_post_now" });
      const out = await goneOut(m, id);
      ctx.expect(out.length === 0, both, `post ${id} went out though its approval is stale: ${out.join(", ")}`);
      if (out.length) await unbook(ctx, m, id);
    },
  },
  {
    id: "mcp-approval-rejected",
    description: "A rejected post is refused by schedule_post, publish_post_now and its reschedule_posts entry with approval_rejected until a new approve_post clears it",
    rules: ["approval-rejected", "rejection-cleared-by-approval", "approval-decision-values/rejected"],
    group,
    async run(ctx) {
      const m = ctx.mcp;
      const both: RuleId[] = ["approval-rejected/schedule_post", "approval-rejected/publish_post_now", "approval-rejected/reschedule_posts"];
      const id = await claimPost(ctx, m, "the rejection check");
      const seen = await viewPost(ctx, m, id, both);
      const r = expectOk(ctx, await m.session.call("reject_post", { id, reason: "Conformance run: not this week.", contentDigest: seen.contentDigest as string }), both);
      if (!r) return;
      ctx.expect(r.approval?.decision === "rejected", "approval-decision-values/rejected", `reject_post recorded decision ${show(r.approval?.decision)}`);
      ctx.expect(r.approval?.contentDigest === seen.contentDigest, both, `reject_post recorded ${show(r.approval)}`);
      expectError(ctx, await m.session.call("schedule_post", { id, scheduledAt: m.run.clock.future(30) }), { code: "approval_rejected", rule: "approval-rejected/schedule_post" });
      expectError(ctx, await m.session.call("publish_post_now", { id }), { code: "approval_rejected", rule: "approval-rejected/publish_post_now" });
      const moved = expectOk(ctx, await m.session.call("reschedule_posts", { moves: [{ postId: id, scheduledAt: m.run.clock.future(31) }] }), "approval-rejected/reschedule_posts");
      if (moved) ctx.expect(moved.moves?.[0]?.ok === false && moved.moves[0].error?.code === "approval_rejected", "approval-rejected/reschedule_posts", `the reschedule_posts entry of a rejected post answered ${show(moved.moves?.[0])}`);
      ctx.expect((await goneOut(m, id)).length === 0, both, `post ${id} went out though it was rejected`);
      // A new approval clears the rejection: the same booking goes through.
      const rule = "rejection-cleared-by-approval";
      await approveAsSeen(ctx, m, id, rule);
      const booked = expectOk(ctx, await m.session.call("schedule_post", { id, scheduledAt: m.run.clock.future(30) }), rule);
      if (booked) ctx.expect(Array.isArray(booked.scheduledDestinations) && booked.scheduledDestinations.length > 0, rule, `after a new approval schedule_post booked ${show(booked.scheduledDestinations)}`);
      await unbook(ctx, m, id);
    },
  },
];
