// The approval gate: approve_post records the exact digest the reviewer saw; a digest the post no longer has is
// refused (post_content_changed) and records nothing; an approval goes stale when the content changes, and a
// rejection holds until a new approval — both refuse schedule_post and publish_post_now as a whole.
import type { Check } from "../../check.js";
import { expectError, expectOk } from "../../mcp/expect.js";
import { approveAsSeen, editCaption, goneOut, mcpCheck, show, unbook, viewPost } from "./common.js";

const group = "mcp-approval";

/** A caption edit that changes a post's digest (appends to its first caption). */
const edited = (view: any, tag: string): string => `${view.destinations?.find((d: any) => typeof d?.text === "string" && d.text !== "")?.text ?? view.postText ?? ""} ${tag}`.trim();

export const approvalChecks: Check[] = [
  mcpCheck({
    id: "mcp-approve-records-digest",
    description: "approve_post records the digest the reviewer saw; after an edit, approve_post and reject_post with the old digest answer post_content_changed and record nothing",
    rules: ["approve-records-digest", "approve-outdated-digest", "digest-follows-content"],
    group,
    async run(ctx, m) {
      const id = await m.jobs.claimPost(ctx, "the approval record check");
      const seen = await viewPost(ctx, m, id, "approve-records-digest");
      const a = expectOk(ctx, await m.session.call("approve_post", { id, contentDigest: seen.contentDigest }), "approve-records-digest");
      if (!a) return;
      ctx.expect(
        a.approval?.decision === "approved" && a.approval?.contentDigest === seen.contentDigest,
        "approve-records-digest",
        `approve_post with digest ${show(seen.contentDigest)} recorded ${show(a.approval)}`,
      );
      const read = await viewPost(ctx, m, id, "approve-records-digest");
      ctx.expect(
        read.approval?.decision === "approved" && read.approval?.contentDigest === seen.contentDigest && read.approval?.stale !== true,
        "approve-records-digest",
        `view_post after the approval shows approval ${show(read.approval)}`,
      );

      await editCaption(ctx, m, id, edited(seen, "(changed after approval)"), "approve-outdated-digest");
      const rule = "approve-outdated-digest";
      expectError(ctx, await m.session.call("approve_post", { id, contentDigest: seen.contentDigest }), { code: "post_content_changed", rule });
      expectError(ctx, await m.session.call("reject_post", { id, reason: "Conformance run: an outdated review.", contentDigest: seen.contentDigest }), { code: "post_content_changed", rule });
      const after = await viewPost(ctx, m, id, rule);
      ctx.expect(
        after.approval?.decision === "approved" && after.approval?.contentDigest === seen.contentDigest,
        rule,
        `refused decisions changed the record: approval is now ${show(after.approval)}, it was the approval of ${show(seen.contentDigest)}`,
      );
      ctx.expect(after.contentDigest !== seen.contentDigest, "digest-follows-content", `post ${id}: the caption changed and contentDigest stayed ${show(seen.contentDigest)}`);
    },
  }),
  mcpCheck({
    id: "mcp-approval-stale",
    description: "An approved post whose content then changes is refused by schedule_post and publish_post_now with approval_stale, and nothing goes out",
    rules: ["approval-stale"],
    group,
    async run(ctx, m) {
      const rule = "approval-stale";
      const id = await m.jobs.claimPost(ctx, "the stale approval check");
      const seen = await approveAsSeen(ctx, m, id, rule);
      await editCaption(ctx, m, id, edited(seen, "(edited after approval)"), rule);
      const view = await viewPost(ctx, m, id, rule);
      if (view.approval && "stale" in view.approval) ctx.expect(view.approval.stale === true, rule, `after an edit the approval reads ${show(view.approval)}, not stale`);
      expectError(ctx, await m.session.call("schedule_post", { id, scheduledAt: m.jobs.future(30) }), { code: "approval_stale", rule });
      expectError(ctx, await m.session.call("publish_post_now", { id }), { code: "approval_stale", rule });
      const out = await goneOut(m, id);
      ctx.expect(out.length === 0, rule, `post ${id} went out though its approval is stale: ${out.join(", ")}`);
      if (out.length) await unbook(ctx, m, id);
    },
  }),
  mcpCheck({
    id: "mcp-approval-rejected",
    description: "A rejected post is refused by schedule_post and publish_post_now with approval_rejected until a new approve_post clears it",
    rules: ["approval-rejected"],
    group,
    async run(ctx, m) {
      const rule = "approval-rejected";
      const id = await m.jobs.claimPost(ctx, "the rejection check");
      const seen = await viewPost(ctx, m, id, rule);
      const r = expectOk(ctx, await m.session.call("reject_post", { id, reason: "Conformance run: not this week.", contentDigest: seen.contentDigest }), rule);
      if (!r) return;
      ctx.expect(r.approval?.decision === "rejected" && r.approval?.contentDigest === seen.contentDigest, rule, `reject_post recorded ${show(r.approval)}`);
      expectError(ctx, await m.session.call("schedule_post", { id, scheduledAt: m.jobs.future(30) }), { code: "approval_rejected", rule });
      expectError(ctx, await m.session.call("publish_post_now", { id }), { code: "approval_rejected", rule });
      ctx.expect((await goneOut(m, id)).length === 0, rule, `post ${id} went out though it was rejected`);
      // A new approval clears the rejection: the same booking goes through.
      await approveAsSeen(ctx, m, id, rule);
      const booked = expectOk(ctx, await m.session.call("schedule_post", { id, scheduledAt: m.jobs.future(30) }), rule);
      if (booked) ctx.expect(Array.isArray(booked.scheduledDestinations) && booked.scheduledDestinations.length > 0, rule, `after a new approval schedule_post booked ${show(booked.scheduledDestinations)}`);
      await unbook(ctx, m, id);
    },
  }),
];
