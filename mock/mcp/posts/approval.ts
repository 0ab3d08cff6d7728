// Approval of a post's exact content: approve_post records the digest the reviewer was shown, reject_post records
// a rejection with its reason, and the gate in front of scheduling and publishing reads the latest decision.
import type { ApprovePostOutput, RejectPostOutput } from "../../../generated/mcp/types.js";
import { ToolError, type BrandRecord, type ToolContext } from "../context.js";
import { designChanged } from "./magic.js";
import { isHeld, loadPost, type PostsState } from "./state.js";
import type { Post } from "./store.js";
import { approvalView, digestOf } from "./views.js";

function checkSeen(state: PostsState, post: Post, seen: string): string {
  const current = digestOf(state, post);
  if (seen !== current) {
    throw new ToolError("post_content_changed", "The post changed since the reviewer's read; read it again with view_post and have the reviewer decide on what it shows now.");
  }
  return current;
}

// rule: approve-records-digest approve-outdated-digest approval-fields approval-decision-values
export function approvePost(state: PostsState, ctx: ToolContext, args: { id: string; contentDigest: string }): ApprovePostOutput {
  const { post } = loadPost(state, ctx, args.id);
  const digest = checkSeen(state, post, args.contentDigest);
  post.approval = { decision: "approved", contentDigest: digest, reason: null, decidedAt: state.clock.now(), decidedBy: ctx.principal.tenant };
  state.posts.remeasure(post.id);
  return { id: post.id, approval: approvalView(state, post, digest)! };
}

// rule: approve-outdated-digest approval-decision-values reject-booked-locked
export function rejectPost(state: PostsState, ctx: ToolContext, args: { id: string; reason: string; contentDigest?: string }): RejectPostOutput {
  const { post } = loadPost(state, ctx, args.id);
  const digest = args.contentDigest === undefined ? digestOf(state, post) : checkSeen(state, post, args.contentDigest);
  const held = post.destinations.filter(isHeld);
  if (held.length) {
    // The seed: reject_post's lockedDestinations carry no platformPostId (read get_post_status for them).
    throw new ToolError("already_scheduled", "A provider holds this post booked; withdraw each held destination with unschedule_platform first.", {
      lockedDestinations: held.map((d) => ({ platform: d.platform })),
    });
  }
  post.approval = { decision: "rejected", contentDigest: digest, reason: args.reason.trim(), decidedAt: state.clock.now(), decidedBy: ctx.principal.tenant };
  state.posts.remeasure(post.id); // a reason has no seed limit

  return { id: post.id, approval: approvalView(state, post, digest)! };
}

/**
 * The gate before schedule_post, publish_post_now and each reschedule_posts entry: the latest decision a
 * rejection → approval_rejected; an approval of other content → approval_stale; nothing recorded in a workspace
 * that requires approval → approval_required; an approval whose design changed since ([design-changed]) →
 * design_changed_after_approval.
 */
// rule: approval-stale approval-rejected approval-required rejection-cleared-by-approval design-changed-after-approval
export function approvalGate(state: PostsState, post: Post, brand: BrandRecord): void {
  const a = post.approval;
  if (a?.decision === "rejected") {
    throw new ToolError("approval_rejected", `The latest decision is a rejection${a.reason ? ` ("${a.reason}")` : ""}; only a new approve_post clears it.`);
  }
  if (a?.decision === "approved" && a.contentDigest !== digestOf(state, post)) {
    throw new ToolError("approval_stale", "The content changed after it was approved; read it again, have it reviewed and approve it again.");
  }
  if (a?.decision === "approved" && post.destinations.some((d) => designChanged(d.text))) {
    throw new ToolError("design_changed_after_approval", "The post's design changed after it was approved; nothing was sent. Review the post again and approve it.");
  }
  if (!a && brand.requiresApproval) {
    throw new ToolError("approval_required", "This workspace requires an approval of the post's content before it is scheduled or published; none is recorded.");
  }
}
