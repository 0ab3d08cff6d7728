// Publishing: publish_post_now (one result per destination; a repeat retries only what failed), get_post_status
// and unpublish_post.
import type {
  PlatformResult,
  PostStatus,
  PublishPostNowInput,
  PublishPostNowOutput,
  PublishResult,
  UnpublishPostInput,
  UnpublishPostOutput,
  UnpublishResult,
} from "../../../generated/mcp/types.js";
import { ToolError, type ToolContext } from "../context.js";
import { approvalGate } from "./approval.js";
import { isStory } from "./limits.js";
import * as magic from "./magic.js";
import { blocked, preflight } from "./preflight.js";
import { goLive, watch } from "./posts.js";
import { attempt, checkPublisher, markerText, reason } from "./provider.js";
import { dryRunBlocked, requireSomeChannel } from "./scheduling.js";
import { iso, loadPost, requireActive, selectDestinations, type PostsState } from "./state.js";
import { newPlatformPostId, type DestinationState } from "./store.js";
import { approvalView, digestOf } from "./views.js";

/** A pending publish goes live this long after it is accepted ([slow]). */
const slowPublishMs = 120_000;

/** Destinations a publish attempts: named (or all), neither live, in flight, booked, nor with story frames live. */
const attemptable = (d: DestinationState): boolean =>
  (d.status === "draft" || d.status === "failed" || d.status === "unscheduled" || d.status === "unpublished") && !d.framesLive;

// rule: publish-results publish-reason-status publish-repeat-safe held-by-provider publish-failed-destination destination-code-retryable platforms-subset
export function publishPostNow(state: PostsState, ctx: ToolContext, args: PublishPostNowInput): PublishPostNowOutput {
  const { post, brand } = loadPost(state, ctx, args.id);
  requireActive(brand);
  approvalGate(state, post, brand);
  const selection = selectDestinations(post, args.platforms);
  requireSomeChannel(brand, selection);
  const toAttempt = selection.filter(attemptable);
  if (args.dryRun) return { id: post.id, dryRun: true, blocked: dryRunBlocked(state, brand, post, toAttempt) };
  const problems = preflight(state, post, toAttempt);
  if (problems.length) {
    throw new ToolError("schedule_preflight_failed", `Nothing was sent: ${problems.map((p) => p.message).join(" ")}`, { blockedDestinations: blocked(problems) });
  }
  checkPublisher(post);
  const now = state.clock.now();
  const results: PublishResult[] = post.destinations.map((d) => {
    const id = { platformPostId: d.platformPostId };
    const skipped = (code: string, message: string): PublishResult => ({ platform: d.platform, status: "skipped", reason: { code, message, retryable: false }, ...id });
    if (!selection.includes(d)) return skipped("not_requested", "Not named in platforms.");
    if (d.status === "published") return skipped("already_published", "Already live.");
    if (d.status === "scheduled") return skipped("held_by_provider", `Booked for ${iso(d.bookedAt!)}; withdraw it with unschedule_platform to publish now.`);
    if (d.status === "publishing") {
      if (d.finishAt === null) return skipped("stuck_at_provider", "The provider took this post and never reported a result; do not retry, contact support.");
      return { platform: d.platform, status: "pending", reason: { code: "publishing_in_progress", message: "Accepted; finishing in the background. Poll get_post_status.", retryable: false }, ...id };
    }
    if (d.framesLive) return skipped("story_partially_published", "Some story frames are live; a retry would duplicate them.");
    const refusal = attempt(brand, post, d);
    if (refusal) {
      d.status = "failed";
      d.error = refusal;
      return { platform: d.platform, status: "failed", reason: refusal, platformPostId: null };
    }
    const markers = markerText(post, d);
    if (isStory(d.platform) && magic.storyPartial(markers) && d.attempts === 1) {
      d.status = "failed";
      d.framesLive = true;
      d.error = reason("provider_timeout", "The provider did not answer in time while publishing the story; some frames may be live.");
      return { platform: d.platform, status: "failed", reason: d.error, platformPostId: null };
    }
    d.platformPostId = newPlatformPostId();
    d.error = null;
    if (magic.stuckPublish(markers) || magic.slowPublish(markers)) {
      d.status = "publishing";
      d.finishAt = magic.stuckPublish(markers) ? null : now + state.clock.work(slowPublishMs);
      return { platform: d.platform, status: "pending", reason: { code: "publishing_in_progress", message: "Accepted; finishing in the background. Poll get_post_status.", retryable: false }, platformPostId: d.platformPostId };
    }
    goLive(d, now);
    return { platform: d.platform, status: "published", reason: null, platformPostId: d.platformPostId };
  });
  post.updatedAt = now;
  watch(state, post);
  return { id: post.id, publishResults: results };
}

function platformResult(d: DestinationState): PlatformResult {
  return {
    platform: d.platform,
    status: d.status,
    platformPostId: d.platformPostId,
    scheduledAt: d.bookedAt === null ? null : iso(d.bookedAt),
    publishedAt: d.publishedAt === null ? null : iso(d.publishedAt),
    postUrl: d.postUrl,
    error: d.error,
  };
}

function overallStatus(destinations: readonly DestinationState[]): string {
  const has = (s: DestinationState["status"]) => destinations.some((d) => d.status === s);
  if (destinations.length && destinations.every((d) => d.status === "published")) return "published";
  if (has("published")) return "partially_published";
  if (has("publishing")) return "publishing";
  if (has("scheduled")) return "scheduled";
  if (has("failed")) return "failed";
  return "draft";
}

// rule: post-status-fields digest-agrees-across-views
export function postStatus(state: PostsState, ctx: ToolContext, args: { id: string }): PostStatus {
  const { post } = loadPost(state, ctx, args.id);
  const digest = digestOf(state, post);
  return {
    id: post.id,
    status: overallStatus(post.destinations),
    scheduledAt: post.intendedAt === null ? null : iso(post.intendedAt),
    platformResults: post.destinations.map(platformResult),
    contentDigest: digest,
    approval: approvalView(state, post, digest),
  };
}

export function unpublishPost(state: PostsState, ctx: ToolContext, args: UnpublishPostInput): UnpublishPostOutput {
  const { post } = loadPost(state, ctx, args.id);
  const selection = selectDestinations(post, args.platforms);
  checkPublisher(post);
  const results: UnpublishResult[] = selection.map((d) => {
    if (d.status !== "published") {
      return { platform: d.platform, status: "skipped", reason: { code: "not_published", message: `${d.platform} is not live (${d.status}).`, retryable: false } };
    }
    d.status = "unpublished";
    d.platformPostId = null;
    d.postUrl = null;
    d.publishedAt = null;
    return { platform: d.platform, status: "unpublished", reason: null };
  });
  post.updatedAt = state.clock.now();
  return { id: post.id, unpublishResults: results };
}
