// MCP mutants of pre-flight and publishing (issue 16, area B): each breaks one member of a rule family (never the
// first one the fixtures use) or one rule, and runs only the checks that should catch it.
import { createHash } from "node:crypto";
import type { BlockedDestination, PublishResult } from "../../../generated/mcp/types.js";
import type { McpMutant } from "./catalogue.js";
import { dataOf, errorOf, isSuccess, onCall, onResult, payloadOf, type Result, withData } from "./rewrite.js";

/** A failure's envelope with `error` changed. */
const withError = (r: Result, error: Record<string, unknown>) => withData(r, { ...dataOf(r), error });

/** schedule_preflight_failed answers whose blockedDestinations are rewritten entry by entry (null drops one). */
const onBlocked = (rewrite: (b: BlockedDestination) => unknown) =>
  onResult(
    (_c, r) => errorOf(r)?.code === "schedule_preflight_failed" && Array.isArray(errorOf(r)?.blockedDestinations),
    (r) => withError(r, { ...errorOf(r), blockedDestinations: errorOf(r)!.blockedDestinations!.map(rewrite).filter((b) => b !== null) }),
  );

/** publish_post_now results rewritten one by one. */
const onPublishResults = (rewrite: (p: PublishResult) => unknown) =>
  onResult(
    (c, r) => c.name === "publish_post_now" && isSuccess(r) && Array.isArray(payloadOf(r, "publish_post_now").publishResults),
    (r) => withData(r, { ...payloadOf(r, "publish_post_now"), publishResults: payloadOf(r, "publish_post_now").publishResults!.map(rewrite) }),
  );

/** An envelope error of `tool` (any tool when undefined) with code `code` answered with another code. */
const recode = (code: string, to: string, tool?: string) =>
  onResult(
    (c, r) => (tool === undefined || c.name === tool) && errorOf(r)?.code === code,
    (r) => withError(r, { ...errorOf(r), code: to }),
  );

/** Per post, the digest the digest-ignores-destinations mutant computed from its last view_post. */
const digestsSeen = new Map<string, string>();

export const preflightPublishingMutants: McpMutant[] = [
  {
    id: "mcp-preflight-aspect-unchecked",
    rule: "preflight-codes/image_aspect_invalid",
    description: "Pre-flight never reports a picture outside the Instagram feed band",
    response: onBlocked((b) => (b?.code === "image_aspect_invalid" ? null : b)),
    run: { only: ["mcp-preflight-image-aspect-invalid"] },
  },
  {
    id: "mcp-preflight-subreddit-not-found-as-required",
    rule: "preflight-codes/reddit_subreddit_not_found",
    description: "An unknown subreddit is reported as a missing one",
    response: onBlocked((b) => (b?.code === "reddit_subreddit_not_found" ? { ...b, code: "reddit_subreddit_required" } : b)),
    run: { only: ["mcp-preflight-reddit-subreddit-not-found"] },
  },
  {
    id: "mcp-preflight-video-not-supported-unchecked",
    rule: "preflight-codes/video_not_supported",
    description: "Pre-flight lets a video through to a destination that publishes none",
    response: onBlocked((b) => (b?.code === "video_not_supported" ? null : b)),
    run: { only: ["mcp-preflight-video-not-supported"] },
  },
  {
    id: "mcp-preflight-image-count-at-limit",
    rule: "preflight-counts/too_many_images",
    description: "too_many_images reports the destination's limit as the picture count",
    response: onBlocked((b) => (b?.code === "too_many_images" ? { ...b, imageCount: b.imageLimit } : b)),
    run: { only: ["mcp-preflight-too-many-images"] },
  },
  {
    id: "mcp-preflight-flair-unchecked",
    rule: "preflight-flair-required",
    description: "Pre-flight never asks for a flair",
    response: onBlocked((b) => (b?.code === "reddit_flair_required" ? null : b)),
    run: { only: ["mcp-preflight-flair-required"] },
  },
  {
    id: "mcp-slow-publish-reported-live",
    rule: "publish-in-progress",
    description: "A destination still finishing is reported published at once",
    response: onPublishResults((p) => (p?.reason?.code === "publishing_in_progress" ? { ...p, status: "published", reason: null } : p)),
    run: { only: ["mcp-publish-in-progress"] },
  },
  {
    id: "mcp-stuck-publish-still-pending",
    rule: "publish-stuck-at-provider",
    description: "A destination stuck at the provider keeps answering pending instead of skipped with stuck_at_provider",
    response: onPublishResults((p) =>
      p?.reason?.code === "stuck_at_provider" ? { ...p, status: "pending", reason: { code: "publishing_in_progress", message: "Still finishing.", retryable: false } } : p,
    ),
    run: { only: ["mcp-publish-stuck-at-provider"] },
  },
  {
    id: "mcp-story-partial-retried",
    rule: "publish-story-partial",
    description: "A partly published story is retried (failed again) instead of skipped with story_partially_published",
    response: onPublishResults((p) =>
      p?.reason?.code === "story_partially_published" ? { ...p, status: "failed", reason: { code: "provider_timeout", message: "Timed out.", retryable: true } } : p,
    ),
    run: { only: ["mcp-publish-story-partial"] },
  },
  {
    id: "mcp-publisher-error-unschedule-final",
    rule: "publisher-error/unschedule_platform",
    description: "unschedule_platform's publisher_error says retryable false",
    response: onResult(
      (c, r) => c.name === "unschedule_platform" && errorOf(r)?.code === "publisher_error",
      (r) => withError(r, { ...errorOf(r), retryable: false }),
    ),
    run: { only: ["mcp-publisher-error"] },
  },
  {
    id: "mcp-failed-destination-retried",
    rule: "failed-destination-stays-failed",
    description: "get_post_status reports a failed destination as being published again (the service retried on its own)",
    response: onResult(
      (c, r) => c.name === "get_post_status" && isSuccess(r),
      (r) => withData(r, { ...payloadOf(r, "get_post_status"), platformResults: payloadOf(r, "get_post_status").platformResults.map((p) => (p?.status === "failed" ? { ...p, status: "publishing", error: null } : p)) }),
    ),
    run: { only: ["mcp-failed-destination-stays-failed"] },
  },
  {
    id: "mcp-provider-unavailable-final",
    rule: "destination-code-retryable/provider_unavailable",
    description: "A destination failed with provider_unavailable is reported not retryable in publishResults",
    response: onPublishResults((p) => (p?.reason?.code === "provider_unavailable" ? { ...p, reason: { ...p.reason, retryable: false } } : p)),
    run: { only: ["mcp-destination-codes-retryable"] },
  },
  {
    id: "mcp-schedule-failed-rate-limited-final",
    rule: "schedule-failed-retryable/rate_limited",
    description: "schedule_failed whose destination was rate limited says retryable false",
    response: onResult(
      (_c, r) => errorOf(r)?.code === "schedule_failed" && (errorOf(r)?.refusedDestinations ?? []).some((d) => d?.code === "rate_limited"),
      (r) => withError(r, { ...errorOf(r), retryable: false }),
    ),
    run: { only: ["mcp-destination-codes-retryable"] },
  },
  {
    id: "mcp-dry-run-publishes",
    rule: "dry-run-blocked/publish_post_now",
    description: "publish_post_now ignores dryRun and publishes for real",
    request: onCall((call) => {
      if (call.name !== "publish_post_now" || call.args.dryRun !== true) return {};
      const { dryRun: _dryRun, ...args } = call.args;
      return { args };
    }),
    run: { only: ["mcp-dry-run-publish-post-now"] },
  },
  {
    id: "mcp-live-post-edit-bad-request",
    rule: "edit-published-refused",
    description: "Editing a live post is refused with bad_request instead of the live-post codes",
    response: recode("post_already_published", "bad_request", "update_post"),
    run: { only: ["mcp-published-post-edits"] },
  },
  {
    id: "mcp-design-change-as-stale",
    rule: "design-changed-after-approval",
    description: "A post whose design changed after approval is refused with approval_stale",
    response: recode("design_changed_after_approval", "approval_stale"),
    run: { only: ["mcp-design-changed-after-approval"] },
  },
  {
    id: "mcp-reschedule-rejected-entry-stale",
    rule: "approval-rejected/reschedule_posts",
    description: "reschedule_posts reports a rejected post's entry as approval_stale",
    response: onResult(
      (c, r) => c.name === "reschedule_posts" && isSuccess(r),
      (r) => withData(r, { ...payloadOf(r, "reschedule_posts"), moves: payloadOf(r, "reschedule_posts").moves.map((x) => (x?.error?.code === "approval_rejected" ? { ...x, error: { ...x.error, code: "approval_stale" } } : x)) }),
    ),
    run: { only: ["mcp-approval-rejected"] },
  },
  {
    id: "mcp-create-posts-stories-bad-request",
    rule: "create-posts-refusal-no-batch/media_required",
    description: "create_posts for stories without media is refused with bad_request",
    response: recode("media_required", "bad_request", "create_posts"),
    run: { only: ["mcp-create-posts-refusals"] },
  },
  {
    id: "mcp-create-posts-unavailable-unnamed",
    rule: "create-posts-not-connected",
    description: "create_posts' platform_not_connected leaves out unavailablePlatforms",
    response: onResult(
      (c, r) => c.name === "create_posts" && errorOf(r)?.code === "platform_not_connected",
      (r) => {
        const { unavailablePlatforms: _gone, ...error } = errorOf(r)!;
        return withError(r, error);
      },
    ),
    run: { only: ["mcp-create-posts-not-connected"] },
  },
  {
    id: "mcp-reddit-options-defaulted",
    rule: "reddit-options-required",
    description: "update_post adding REDDIT without options picks a subreddit instead of refusing",
    request: onCall((call) => (call.name === "update_post" && Array.isArray(call.args.platforms) && call.args.platforms.includes("REDDIT") && !call.args.reddit ? { args: { ...call.args, reddit: { subreddit: "all" } } } : {})),
    run: { only: ["mcp-reddit-options-required"] },
  },
  {
    id: "mcp-media-ids-first-picture-only",
    rule: "media-ids-same-pictures",
    description: "view_post shows only the first of a post's pictures",
    response: onResult(
      (c, r) => c.name === "view_post" && isSuccess(r) && (payloadOf(r, "view_post").imageUrls ?? []).length > 1,
      (r) => withData(r, { ...payloadOf(r, "view_post"), imageUrls: payloadOf(r, "view_post").imageUrls.slice(0, 1) }),
    ),
    run: { only: ["mcp-media-ids-batch"] },
  },
  {
    id: "mcp-scheduled-at-forgotten",
    rule: "scheduled-at-records-only",
    description: "Posts made with scheduledAt report no intended time",
    response: onResult((c, r) => c.name === "get_post_status" && isSuccess(r), (r) => withData(r, { ...payloadOf(r, "get_post_status"), scheduledAt: null })),
    run: { only: ["mcp-media-ids-batch"] },
  },
  {
    id: "mcp-digest-ignores-destinations",
    rule: "digest-follows-content/destinations",
    description: "contentDigest covers the captions and pictures but not which destinations a post has",
    response: onResult(
      (c, r) => ["view_post", "get_post_status"].includes(c.name) && isSuccess(r) && typeof dataOf(r)?.contentDigest === "string",
      (r, c) => {
        const d = dataOf(r)!;
        // The digest from view_post's destinations, their platform left out; get_post_status has no destinations, so it keeps the last one seen for the post.
        if (c.name === "view_post") {
          const v = payloadOf(r, "view_post");
          digestsSeen.set(v.id, createHash("sha256").update(JSON.stringify([...new Set((v.destinations ?? []).map((x) => x?.text))].sort().concat(v.imageUrls ?? []))).digest("hex"));
        }
        return withData(r, { ...d, contentDigest: digestsSeen.get(String(d.id)) ?? d.contentDigest });
      },
    ),
    run: { only: ["mcp-digest-follows-destinations"] },
  },
  {
    id: "mcp-no-channel-scheduled",
    rule: "schedule-needs-connection",
    description: "Scheduling a post of a brand with no connected channel is refused with bad_request",
    response: recode("platform_not_connected", "bad_request", "schedule_post"),
    run: { only: ["mcp-schedule-needs-connection"] },
  },
];
