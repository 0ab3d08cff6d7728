// How a post reads from outside: its destinations exactly as they would publish, the post view, the approval
// object and the short summary the editing tools answer with.
import type { Approval, PostDestination, PostSummary, PostView } from "../../../generated/mcp/types.js";
import type { BrandRecord } from "../context.js";
import { contentDigest } from "./digest.js";
import { rulesFor } from "./limits.js";
import { appOrigin, appUrl, iso, type PostsState } from "./state.js";
import type { DestinationState, Picture, Post } from "./store.js";

/** Characters as platforms count them (code points, not UTF-16 units). */
export const charCount = (text: string): number => [...text].length;

/** The post's pictures and videos that exist now, in slot order (slots still rendering are left out). */
export function landedMedia(state: PostsState, post: Post): { images: Picture[]; videos: Picture[] } {
  const images: Picture[] = [];
  const videos: Picture[] = [];
  for (const slot of post.media) {
    const picture = slot.pictureId ? state.images.get(slot.pictureId) : undefined;
    if (!picture) continue;
    (picture.kind === "video" ? videos : images).push(picture);
  }
  return { images, videos };
}

export const imagePending = (post: Post): boolean => post.media.some((s) => s.landsAt !== null);

// rule: destination-fields destination-image-fields images-match-image-urls slide-text-source-null same-picture-per-slot
export function destinationView(state: PostsState, post: Post, d: DestinationState): PostDestination {
  const { images, videos } = landedMedia(state, post);
  const urls = images.map((p) => state.images.url(p.id));
  return {
    platform: d.platform,
    text: d.text,
    firstComment: d.firstComment,
    title: d.title,
    imageUrls: urls,
    images: images.map((p, i) => ({ url: urls[i]!, slideText: p.slideText, slideTextSource: p.slideTextSource, altText: p.altText })),
    thumbnailUrl: videos[0] ? state.images.url(videos[0].id) : null,
    characterCount: charCount(d.text),
    characterLimit: rulesFor(d.platform)?.captionLimit ?? 0,
    publishingOptions: d.reddit ? { subreddit: d.reddit.subreddit, flair: d.reddit.flair } : null,
  };
}

export function destinationViews(state: PostsState, post: Post): PostDestination[] {
  return post.destinations.map((d) => destinationView(state, post, d));
}

export function digestOf(state: PostsState, post: Post): string {
  return contentDigest(destinationViews(state, post));
}

/** The main caption: the first destination that has one (stories publish without). */
export function mainCaption(post: Post): string {
  return post.destinations.find((d) => d.text !== "")?.text ?? "";
}

export function approvalView(state: PostsState, post: Post, digest = digestOf(state, post)): Approval | null {
  const a = post.approval;
  if (!a) return null;
  return {
    decision: a.decision,
    contentDigest: a.contentDigest,
    reason: a.reason,
    decidedAt: iso(a.decidedAt),
    decidedBy: a.decidedBy,
    stale: a.contentDigest !== digest,
  };
}

// rule: post-view-fields view-post-fields
export function postView(state: PostsState, post: Post, brand: BrandRecord): PostView {
  const destinations = destinationViews(state, post);
  const digest = contentDigest(destinations);
  const imageUrls = landedMedia(state, post).images.map((p) => state.images.url(p.id));
  return {
    id: post.id,
    postId: post.id,
    authorName: brand.name,
    authorSubtitle: null,
    authorAvatarUrl: null,
    postText: mainCaption(post),
    imageUrl: imageUrls[0] ?? null,
    imageUrls,
    destinations,
    contentDigest: digest,
    approval: approvalView(state, post, digest),
    appOrigin: appOrigin(state),
    appUrl: appUrl(state, post.id),
  };
}

export function postSummary(state: PostsState, post: Post): PostSummary {
  return {
    postId: post.id,
    id: post.id,
    platforms: post.destinations.map((d) => d.platform),
    scheduledAt: post.intendedAt === null ? null : iso(post.intendedAt),
    appUrl: appUrl(state, post.id),
  };
}
