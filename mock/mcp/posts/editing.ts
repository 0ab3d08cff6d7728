// Making and editing single posts: create_draft, update_post, generate_caption, delete_post.
import type {
  CreateDraftInput,
  DeletePostOutput,
  DraftPost,
  GenerateCaptionInput,
  GenerateCaptionOutput,
  PostSummary,
  UpdatePostInput,
} from "../../../generated/mcp/types.js";
import { ToolError, type ToolContext } from "../context.js";
import { checkGenerationMagic, libraryPictures } from "./batches.js";
import { between, captionFromPrompt, destinationTitle, rewriteCaption, topicOf } from "./copy.js";
import { checkConnected, checkRedditOptions, checkStoriesHaveMedia, checkSupported, newPostDestinations, redditSettings } from "./destinations.js";
import { isStory, rules, rulesFor, targetAspect } from "./limits.js";
import { aspectMarker, stripMarkers } from "./magic.js";
import { createPost, landedSlot, newDestination, renderingSlot } from "./posts.js";
import { assertNotHeld, assertNotLive, destinationOf, isHeld, loadPost, parseTime, requireActive, touch, type PostsState } from "./state.js";
import type { DestinationState, MediaSlot, Post } from "./store.js";
import { charCount, digestOf, imagePending, postSummary } from "./views.js";

/**
 * caption_over_limit: the caption is longer than every affected destination allows (a destination with no limit
 * on record takes any length). Captions that fit some destinations are written; pre-flight reports the others.
 */
function checkCaptionFits(caption: string, platforms: readonly string[]): void {
  const limits = platforms.filter((p) => !isStory(p)).map((p) => ({ platform: p, limit: rulesFor(p)?.captionLimit ?? 0 }));
  const count = charCount(caption);
  if (limits.length === 0 || limits.some((l) => l.limit === 0 || count <= l.limit)) return;
  throw new ToolError("caption_over_limit", `The caption has ${count} characters, more than every destination allows; nothing was written.`, {
    overLimitPlatforms: limits.map((l) => l.platform),
    characterCount: count,
    characterLimit: Math.min(...limits.map((l) => l.limit)),
  });
}

/** A title for a post whose caption the caller wrote: its first line. */
function titleFromCaption(caption: string): string {
  const first = stripMarkers(caption).split("\n")[0]!.trim();
  return first || "Untitled post";
}

export function createDraft(state: PostsState, ctx: ToolContext, args: CreateDraftInput): DraftPost {
  const brand = ctx.profiles.brandFor(ctx.principal, args.brandId);
  requireActive(brand);
  const generates = args.prompt !== undefined || args.includeImage === true;
  if (generates) ctx.profiles.requireBuilt(brand);
  const requested = args.platforms ? [...new Set(args.platforms)] : undefined;
  if (requested) checkSupported(requested);
  checkConnected(brand, requested ?? []);
  const destinations = newPostDestinations(brand, requested);
  checkRedditOptions(destinations, args.reddit);
  if (args.reddit && !destinations.some((p) => rulesFor(p)?.reddit)) {
    throw new ToolError("bad_request", "reddit options are for a REDDIT destination, and the draft has none.", {
      invalidFields: ["reddit"],
      fieldErrors: [{ field: "reddit", message: "Add REDDIT to platforms or leave reddit out." }],
    });
  }
  if (requested) checkStoriesHaveMedia(requested, args.mediaIds?.length ?? 0);
  if (args.caption !== undefined) checkCaptionFits(args.caption, destinations);
  const pictureIds = libraryPictures(state, brand.id, args.mediaIds);
  const now = state.clock.now();
  if (args.prompt !== undefined) checkGenerationMagic(args.prompt, now);
  // Parsed before the allowance is spent, so an impossible time costs nothing.
  const intendedAt = args.scheduledAt === undefined ? null : parseTime(args.scheduledAt, "scheduledAt");
  if (generates) ctx.profiles.spendAi(brand, (args.prompt !== undefined ? 1 : 0) + (args.includeImage ? 1 : 0));

  const title = args.prompt !== undefined ? topicOf(args.prompt) : titleFromCaption(args.caption ?? "");
  const reddit = redditSettings(args.reddit);
  const media: MediaSlot[] = pictureIds.map(landedSlot);
  if (args.includeImage) {
    const aspect = aspectMarker(args.prompt) ?? targetAspect(destinations);
    media.push(renderingSlot(now + state.clock.work(between(30_000, 60_000, "draft-picture", title, now)), aspect, `A picture for: ${title}`, title));
  }
  const post = createPost(state, {
    brandId: brand.id,
    companyId: brand.companyId,
    batchId: null,
    createdAt: now,
    title,
    destinations: destinations.map((p) => {
      const text = isStory(p) ? "" : args.prompt !== undefined ? captionFromPrompt(p, args.prompt, brand.name) : (args.caption ?? "");
      return newDestination(p, text, destinationTitle(p, title), rulesFor(p)?.reddit ? reddit : null, isStory(p) ? null : (args.firstComment ?? null));
    }),
    media,
    intendedAt,
  });
  const pending = imagePending(post);
  return { ...postSummary(state, post), contentDigest: pending ? null : digestOf(state, post), approval: null, imagePending: pending };
}

// rule: times-to-utc caption-over-limit remove-platforms
export function updatePost(state: PostsState, ctx: ToolContext, args: UpdatePostInput): PostSummary {
  const { post, brand } = loadPost(state, ctx, args.id);
  assertNotLive(post);
  const current = post.destinations.map((d) => d.platform);

  // Destinations taken off.
  const removing = (args.removePlatforms ?? []).map((p, i) => destinationOf(post, p, `removePlatforms.${i}`));
  assertNotHeld(removing, "remove");
  // Destinations added.
  const adding = (args.platforms ?? []).filter((p) => !current.includes(p));
  if (adding.length) {
    checkSupported(adding);
    checkConnected(brand, adding);
    checkRedditOptions(adding, args.reddit);
  }
  const after = [...current.filter((p) => !removing.some((d) => d.platform === p)), ...adding];
  if (after.length === 0) {
    throw new ToolError("bad_request", "A post keeps at least one destination.", {
      invalidFields: ["removePlatforms"],
      fieldErrors: [{ field: "removePlatforms", message: "This would remove every destination; delete the post with delete_post instead." }],
    });
  }
  const redditTarget = after.find((p) => rulesFor(p)?.reddit);
  if (args.reddit && !redditTarget) {
    throw new ToolError("bad_request", "reddit options are for a REDDIT destination, and the post has none.", {
      invalidFields: ["reddit"],
      fieldErrors: [{ field: "reddit", message: "Add REDDIT with platforms, or leave reddit out." }],
    });
  }
  // Copy edits: one destination, or every one that takes a caption.
  const copyEdit = args.caption !== undefined || args.firstComment !== undefined;
  let targets: string[] = [];
  if (copyEdit) {
    if (args.platform !== undefined) {
      if (!after.includes(args.platform)) destinationOf(post, args.platform, "platform");
      if (isStory(args.platform)) {
        throw new ToolError("bad_request", "Stories publish without a caption or first comment.", {
          invalidFields: ["platform"],
          fieldErrors: [{ field: "platform", message: `${args.platform} takes no caption.` }],
        });
      }
      targets = [args.platform];
    } else {
      targets = after.filter((p) => !isStory(p));
    }
    if (targets.length === 0) {
      throw new ToolError("bad_request", "Every destination of the post is a story, and stories publish without a caption or first comment.", {
        invalidFields: [args.caption !== undefined ? "caption" : "firstComment"],
      });
    }
    if (args.caption !== undefined) checkCaptionFits(args.caption, targets);
  } else if (args.platform !== undefined) {
    throw new ToolError("bad_request", "platform says which destination a caption or firstComment applies to; send one of them with it.", {
      invalidFields: ["platform"],
      fieldErrors: [{ field: "platform", message: "Only used together with caption or firstComment." }],
    });
  }
  const edited = post.destinations.filter((d) => targets.includes(d.platform) || (args.reddit && d.platform === redditTarget));
  assertNotHeld(edited, "change");
  // Parsed before any write, so an impossible time changes nothing.
  const intendedAt = args.scheduledAt === undefined ? undefined : parseTime(args.scheduledAt, "scheduledAt");

  // Everything checked: write.
  post.destinations = post.destinations.filter((d) => !removing.includes(d));
  const mainText = post.destinations.find((d) => d.text !== "")?.text ?? "";
  for (const p of adding) {
    post.destinations.push(newDestination(p, isStory(p) ? "" : fitCaption(mainText, p), destinationTitle(p, post.title)));
  }
  for (const d of post.destinations) {
    if (targets.includes(d.platform)) {
      if (args.caption !== undefined) d.text = args.caption;
      if (args.firstComment !== undefined) d.firstComment = args.firstComment;
    }
    if (rulesFor(d.platform)?.reddit && args.reddit) d.reddit = redditSettings(args.reddit);
  }
  if (intendedAt !== undefined) post.intendedAt = intendedAt;
  touch(state, post);
  return postSummary(state, post);
}

/** An added destination starts from the post's main caption, cut to its limit. */
function fitCaption(text: string, platform: string): string {
  const limit = rules(platform).captionLimit;
  const chars = [...text];
  return limit > 0 && chars.length > limit ? `${chars.slice(0, limit - 1).join("")}…` : text;
}

// rule: generate-caption
export function generateCaption(state: PostsState, ctx: ToolContext, args: GenerateCaptionInput): GenerateCaptionOutput {
  const { post, brand } = loadPost(state, ctx, args.postId);
  requireActive(brand);
  ctx.profiles.requireBuilt(brand);
  assertNotLive(post);
  let targets: DestinationState[];
  if (args.platform !== undefined) {
    const d = destinationOf(post, args.platform, "platform");
    if (isStory(d.platform)) {
      throw new ToolError("bad_request", "Stories publish without a caption.", { invalidFields: ["platform"], fieldErrors: [{ field: "platform", message: `${d.platform} takes no caption.` }] });
    }
    targets = [d];
  } else {
    targets = post.destinations.filter((d) => !isStory(d.platform));
  }
  if (targets.length === 0) {
    throw new ToolError("bad_request", "The post has only story destinations, which publish without a caption.", { invalidFields: ["postId"] });
  }
  assertNotHeld(targets, "rewrite the caption of");
  checkGenerationMagic(args.instructions, state.clock.now());
  ctx.profiles.spendAi(brand, 1);
  for (const d of targets) d.text = rewriteCaption(d.platform, d.text, post.title, brand.name, args.instructions);
  touch(state, post);
  const caption = targets[0]!.text;
  return { postId: post.id, caption, platform: args.platform ?? null, characterCount: charCount(caption) };
}

// rule: delete-post
export function deletePost(state: PostsState, ctx: ToolContext, args: { id: string }): DeletePostOutput {
  const { post } = loadPost(state, ctx, args.id);
  assertNotLive(post);
  const held = post.destinations.filter(isHeld);
  if (held.length) {
    throw new ToolError("post_already_scheduled", "A provider holds this post booked; withdraw each held destination with unschedule_platform, then delete it.", {
      lockedDestinations: held.map((d) => ({ platform: d.platform, platformPostId: d.platformPostId! })),
    });
  }
  forgetPost(state, post);
  return { id: post.id, deleted: true };
}

/** Removes a post; its pictures stay reachable (the seed: old picture URLs are not guaranteed to stop working). */
export function forgetPost(state: PostsState, post: Post): void {
  state.posts.delete(post.id);
  state.active.posts.delete(post.id);
}

