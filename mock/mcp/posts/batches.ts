// create_posts and get_post_batch_status. A batch is planned in full when it is accepted (every slot's start, end
// and outcome, every picture's delay), and the clock plays the plan: queued for a few seconds, then the
// slots generate one after another (the whole copy takes 1 to 3 minutes × time scale), each post is created when its
// slot ends, and its picture lands 45 to 120 seconds × time scale later.
import type { BatchItem, CreatePostsInput, PostBatch, PostBatchStatus } from "../../../generated/mcp/types.js";
import { expectedRetryable, type ErrorCode } from "../../../generated/mcp/errors.js";
import { ToolError, type ToolContext } from "../context.js";
import { approvalView, destinationViews, digestOf, imagePending, landedMedia, mainCaption } from "./views.js";
import { between, captionFor, destinationTitle, planPost } from "./copy.js";
import { checkConnected, checkRedditOptions, checkStoriesHaveMedia, checkSupported, newPostDestinations } from "./destinations.js";
import { isStory, rulesFor, targetAspect } from "./limits.js";
import * as magic from "./magic.js";
import { createPost, landedSlot, newDestination, renderingSlot } from "./posts.js";
import { appOrigin, appUrl, iso, loadBatch, parseTime, requireActive, type PostsState } from "./state.js";
import { newId, type Batch, type BatchSlotPlan, type MediaSlot } from "./store.js";

const queuedFor = 3_000;

/** usage_limit_exceeded with the first day of next month (UTC) as resetDate. */
export function allowanceError(now: number): ToolError {
  const d = new Date(now);
  const reset = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1));
  return new ToolError("usage_limit_exceeded", "The workspace's AI allowance is used up until the reset date.", { resetDate: reset.toISOString() });
}

/** The generation refusals a magic marker asks for (allowance spent, generation failing). */
export function checkGenerationMagic(text: string | undefined, now: number): void {
  if (magic.allowanceExhausted(text)) throw allowanceError(now);
  if (magic.aiFails(text)) throw new ToolError("ai_generation_failed", "Generation failed; try again.");
}

/** Library pictures named by mediaIds, or bad_request naming the unknown ones. */
export function libraryPictures(state: PostsState, brandId: string, mediaIds: readonly string[] | undefined): string[] {
  if (!mediaIds) return [];
  const unknown: string[] = [];
  const ids = mediaIds.map((id, i) => {
    const picture = state.images.libraryPicture(brandId, id);
    if (!picture) unknown.push(`mediaIds.${i}`);
    return picture?.id ?? "";
  });
  if (unknown.length) {
    throw new ToolError("bad_request", "Some mediaIds name no picture in this brand's library.", {
      invalidFields: unknown,
      fieldErrors: unknown.map((field) => ({ field, message: "No picture with this id in the brand library (upload_image saves one)." })),
    });
  }
  return ids;
}

// rule: create-posts-queued create-posts-output-fields create-posts-repeat-new-batch create-posts-refusal-no-batch media-ids-with-include-image-refused include-image-default generation-in-background profile-not-ready-refusal connection-warning create-posts-allowance-refused create-posts-ai-failure
export function createPosts(state: PostsState, ctx: ToolContext, args: CreatePostsInput): PostBatch {
  const brand = ctx.profiles.brandFor(ctx.principal, args.brandId);
  requireActive(brand);
  ctx.profiles.requireBuilt(brand);
  const requested = args.platforms ? [...new Set(args.platforms)] : undefined;
  if (requested) {
    checkSupported(requested);
  }
  const { provisional } = checkConnected(brand, requested ?? []);
  if (requested) {
    checkRedditOptions(requested, undefined);
    checkStoriesHaveMedia(requested, args.mediaIds?.length ?? 0);
  }
  const mediaPictureIds = libraryPictures(state, brand.id, args.mediaIds);
  const now = state.clock.now();
  checkGenerationMagic(args.brief, now);
  // Parsed before the allowance is spent, so an impossible time costs nothing.
  const intendedAt = args.scheduledAt === undefined ? null : parseTime(args.scheduledAt, "scheduledAt");
  ctx.profiles.spendAi(brand, args.count);

  const destinations = newPostDestinations(brand, requested);
  const includeImage = args.includeImage ?? mediaPictureIds.length === 0;
  const id = newId();
  const startsAt = now + state.clock.work(queuedFor);
  const copyTime = state.clock.work(between(60_000, 180_000, "copy", args.brief, args.count));
  const perSlot = Math.floor(copyTime / args.count);
  const cutoff = magic.allowanceRunsOut(args.brief) ? Math.ceil(args.count / 2) : args.count;
  const itemFailures = magic.itemFailures(args.brief);
  const slots: BatchSlotPlan[] = [];
  for (let i = 0; i < args.count; i++) {
    const slotStart = startsAt + i * perSlot;
    let outcome: BatchSlotPlan["outcome"] = "created";
    let error: BatchSlotPlan["error"] = null;
    if (i >= cutoff) {
      outcome = "skipped";
      error = { code: "usage_limit_exceeded", message: "The AI allowance ran out before this slot; start a new batch for the missing posts once it refills.", retryable: false };
    } else if (i < itemFailures.length) {
      const code = itemFailures[i]! as ErrorCode;
      error = { code, message: `This slot failed with ${code}; start a new batch for the missing posts.`, retryable: expectedRetryable({ code }) ?? false };
      outcome = "failed";
    } else if (magic.batchFails(args.brief) || (magic.partialBatch(args.brief) && i % 2 === 1)) {
      outcome = "failed";
      error = { code: "ai_generation_failed", message: "Generation failed for this slot; start a new batch for the missing posts.", retryable: true };
    }
    // A skipped slot ends the moment the batch reaches it: it never generates.
    const endsAt = outcome === "skipped" ? startsAt + cutoff * perSlot : slotStart + perSlot;
    slots.push({ index: i, startsAt: outcome === "skipped" ? endsAt : slotStart, endsAt, outcome, error, postId: null, title: null, platforms: [], preview: null });
  }
  const warnings: string[] = [];
  const mediaNeeded = destinations.filter((p) => rulesFor(p)?.mediaRequired);
  if (!includeImage && mediaPictureIds.length === 0 && mediaNeeded.length) {
    warnings.push(`${mediaNeeded.join(", ")} cannot publish without a picture or video; add one before scheduling.`);
  }
  if (destinations.some(isStory) && destinations.some((p) => !isStory(p))) {
    warnings.push("Feed and story destinations share one picture: a 9:16 story picture fails the Instagram feed check at scheduling. Put feed and story content in separate batches, or remove the feed destination with update_post.");
  }
  if (provisional) warnings.push("No social account is connected: the destinations are provisional.");
  const batch: Batch = {
    id,
    brandId: brand.id,
    companyId: brand.companyId,
    brandName: brand.name,
    brief: args.brief,
    count: args.count,
    includeImage,
    mediaPictureIds,
    destinations,
    intendedAt,
    createdAt: now,
    startsAt,
    pictureDelays: slots.map((s) => state.clock.work(between(45_000, 120_000, "picture", args.brief, s.index))),
    slots,
    endsAt: Math.max(...slots.map((s) => s.endsAt)),
    warnings,
  };
  state.batches.set(id, brand.id, batch);
  state.active.batches.add(id);
  const out: PostBatch = {
    batchId: id,
    brandId: brand.id,
    companyId: brand.companyId,
    status: "queued",
    requestedCount: args.count,
    includeImage,
    items: slots.map((s) => ({ index: s.index, status: "pending" as const })),
  };
  if (provisional) {
    out.connectionWarning = "No social account is connected yet: the posts get provisional destinations and cannot be scheduled until one is connected.";
  }
  return out;
}

/** Creates the posts of every slot that has ended by `now`; returns whether the batch still has slots to play. */
// rule: batch-status-values batch-settles settled-copy-only batch-partial-or-failed pictures-land
export function refreshBatch(state: PostsState, batch: Batch, now: number): boolean {
  for (const slot of batch.slots) {
    if (slot.endsAt > now || slot.outcome !== "created" || slot.postId !== null) continue;
    const copy = planPost(batch.brief, slot.index, magic.longTitle(batch.brief));
    const aspect = targetAspect(batch.destinations);
    // Every post gets the same library pictures (the same URLs).
    const media: MediaSlot[] = batch.mediaPictureIds.map(landedSlot);
    if (batch.includeImage) {
      media.push(renderingSlot(magic.picturesHeld(batch.brief) ? magic.never : slot.endsAt + batch.pictureDelays[slot.index]!, aspect, `A picture for: ${copy.title}`, copy.title, magic.imagesFail(batch.brief)));
    }
    const post = createPost(state, {
      brandId: batch.brandId,
      companyId: batch.companyId,
      batchId: batch.id,
      createdAt: slot.endsAt,
      title: copy.title,
      destinations: batch.destinations.map((p) => newDestination(p, captionFor(p, copy, batch.brandName, batch.brief), destinationTitle(p, copy.title))),
      media,
      intendedAt: batch.intendedAt,
    });
    slot.postId = post.id;
    slot.title = post.title;
    slot.platforms = [...batch.destinations];
    slot.preview = preview(mainCaption(post));
  }
  return batch.endsAt > now;
}

function preview(text: string): string | null {
  if (!text) return null;
  const chars = [...text.replace(/\s+/g, " ")];
  return chars.length <= 100 ? chars.join("") : `${chars.slice(0, 99).join("")}…`;
}

// rule: batch-items batch-items-failed batch-item-fields item-error-retryable batch-item-matches-post
function itemOf(state: PostsState, batch: Batch, slot: BatchSlotPlan, now: number): BatchItem {
  const status: BatchItem["status"] = slot.endsAt <= now ? slot.outcome : slot.startsAt <= now ? "generating" : "pending";
  if (status !== "created") {
    return { index: slot.index, status, postId: null, title: null, platforms: [], error: status === "failed" || status === "skipped" ? slot.error : null, destinations: [], imageUrls: [], contentDigest: null, approval: null };
  }
  const post = slot.postId ? state.posts.get(slot.postId) : undefined;
  if (!post) {
    // Deleted since (or forgotten by the store's cap): the slot keeps what it knew.
    return { index: slot.index, status, postId: slot.postId, title: slot.title, platforms: slot.platforms, preview: slot.preview, hasMedia: false, imagePending: false, error: null, destinations: [], imageUrls: [], contentDigest: null, approval: null };
  }
  const { images, videos } = landedMedia(state, post);
  const pending = imagePending(post);
  const hasMedia = images.length + videos.length > 0;
  const item: BatchItem = {
    index: slot.index,
    status,
    postId: post.id,
    title: post.title,
    platforms: post.destinations.map((d) => d.platform),
    preview: preview(mainCaption(post)),
    hasMedia,
    imagePending: pending,
    error: null,
    appUrl: appUrl(state, post.id),
    destinations: destinationViews(state, post),
    imageUrls: images.map((p) => state.images.url(p.id)),
    contentDigest: digestOf(state, post),
    approval: approvalView(state, post),
  };
  if (!hasMedia && !pending) {
    const needs = post.destinations.filter((d) => rulesFor(d.platform)?.mediaRequired).map((d) => d.platform);
    if (needs.length) item.mediaRequiredFor = needs;
  }
  return item;
}

// rule: batch-output-fields batch-counts-consistent create-posts-matches-status
export function batchStatus(state: PostsState, ctx: ToolContext, args: { batchId: string }): PostBatchStatus {
  const { batch } = loadBatch(state, ctx, args.batchId);
  const now = stepNow(batch, state.clock.now());
  // The posts of slots that ended by this very `now` (the gateway settled at this instant already; kept so the
  // view itself never depends on that): an item never reads "created" before its post exists.
  refreshBatch(state, batch, now);
  const items = batch.slots.map((s) => itemOf(state, batch, s, now));
  const count = (...statuses: BatchItem["status"][]) => items.filter((i) => statuses.includes(i.status)).length;
  const created = count("created");
  const failed = count("failed", "skipped");
  let status: PostBatchStatus["status"];
  if (now < batch.startsAt) status = "queued";
  else if (now < batch.endsAt) status = "generating";
  else status = created === batch.count ? "ready" : created === 0 ? "failed" : "partial";
  const settled = status === "ready" || status === "partial" || status === "failed";
  const events = [batch.createdAt, ...batch.slots.flatMap((s) => [s.startsAt, s.endsAt])].filter((t) => t <= now);
  for (const slot of batch.slots) {
    const post = slot.postId ? state.posts.get(slot.postId) : undefined;
    if (post) events.push(Math.min(post.updatedAt, now));
  }
  // Held pictures: this settled read showed them rendering; they land by the next one.
  if (settled && magic.picturesHeld(batch.brief)) releaseHeldPictures(state, batch, now);
  const warnings = [...batch.warnings];
  if (magic.imagesFail(batch.brief) && settled && items.every((i) => !i.imagePending)) {
    warnings.push("Pictures could not be rendered for these posts; add them with generate_image or upload_image.");
  }
  return {
    batchId: batch.id,
    brandId: batch.brandId,
    companyId: batch.companyId,
    status,
    settled,
    requestedCount: batch.count,
    createdCount: created,
    failedCount: failed,
    pendingCount: count("pending", "generating"),
    imagesPendingCount: items.filter((i) => i.status === "created" && i.imagePending === true).length,
    ...(warnings.length ? { warnings } : {}),
    // rule: batch-failed-says-why
    error: status === "failed" ? "Every post of the batch failed to generate; start a new batch." : null,
    items,
    createdAt: iso(batch.createdAt),
    updatedAt: iso(Math.max(...events)),
    appOrigin: appOrigin(state),
  };
}

// rule: pictures-land
function releaseHeldPictures(state: PostsState, batch: Batch, now: number): void {
  for (const slot of batch.slots) {
    const post = slot.postId ? state.posts.get(slot.postId) : undefined;
    for (const m of post?.media ?? []) if (m.landsAt === magic.never) m.landsAt = now;
  }
}

/** The time a read shows: a stepwise batch shows queued on its first read and generating on its second. */
// rule: batch-status-values
function stepNow(batch: Batch, now: number): number {
  if (!magic.stepwise(batch.brief)) return now;
  const read = (batch.reads = (batch.reads ?? 0) + 1);
  if (read === 1) return Math.min(now, (batch.createdAt + batch.startsAt) / 2);
  // Ahead of the clock only up to the first slot's start, when no slot has ended yet.
  if (read === 2) return Math.min(Math.max(now, batch.startsAt), (batch.startsAt + batch.endsAt) / 2);
  return now;
}
