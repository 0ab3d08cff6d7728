// Making post records and moving them along the clock: pictures that land (or fail to render), pending
// publishes that go live, and bookings that publish at their time.
import { markerText } from "./provider.js";
import { stuckPublish } from "./magic.js";
import type { PostsState } from "./state.js";
import { newId, newPlatformPostId, type DestinationState, type MediaSlot, type Post, type RedditSettings } from "./store.js";

export function newDestination(platform: string, text: string, title: string | null, reddit: RedditSettings | null = null, firstComment: string | null = null): DestinationState {
  return {
    platform,
    text,
    firstComment,
    title,
    reddit,
    status: "draft",
    platformPostId: null,
    bookedAt: null,
    publishedAt: null,
    finishAt: null,
    postUrl: null,
    error: null,
    attempts: 0,
    framesLive: false,
    lastWithdrawnId: null,
  };
}

/** A slot holding an existing picture. */
export const landedSlot = (pictureId: string): MediaSlot => ({ pictureId, landsAt: null, failsToRender: false, pending: null });

/** A slot whose picture renders until `landsAt`. */
export function renderingSlot(landsAt: number, aspect: [number, number], altText: string | null, slideText: string | null, fails = false): MediaSlot {
  return { pictureId: null, landsAt, failsToRender: fails, pending: { aspect, altText, slideText } };
}

export interface NewPost {
  brandId: string;
  companyId: string;
  batchId: string | null;
  createdAt: number;
  title: string;
  destinations: DestinationState[];
  media: MediaSlot[];
  intendedAt: number | null;
}

export function createPost(state: PostsState, fields: NewPost): Post {
  const post: Post = { id: newId(), updatedAt: fields.createdAt, approval: null, runningJobId: null, ...fields };
  state.posts.set(post.id, post.brandId, post);
  if (hasTimedWork(post)) state.active.posts.add(post.id);
  return post;
}

export const publicPostUrl = (platform: string, platformPostId: string): string =>
  `https://social.example/${platform.toLowerCase()}/posts/${platformPostId}`;

export function goLive(d: DestinationState, at: number): void {
  d.status = "published";
  d.publishedAt = at;
  d.finishAt = null;
  d.platformPostId ??= newPlatformPostId();
  d.postUrl = publicPostUrl(d.platform, d.platformPostId);
  d.error = null;
}

function hasTimedWork(post: Post): boolean {
  return (
    post.media.some((s) => s.landsAt !== null) ||
    post.destinations.some((d) => d.status === "scheduled" || (d.status === "publishing" && d.finishAt !== null))
  );
}

/** Marks a post as having timed work ahead (a booking, a pending publish, a rendering picture). */
export function watch(state: PostsState, post: Post): void {
  if (hasTimedWork(post)) state.active.posts.add(post.id);
}

/** Applies everything due by `now`; returns whether timed work remains. */
export function refreshPost(state: PostsState, post: Post, now: number): boolean {
  for (let i = 0; i < post.media.length; i++) {
    const slot = post.media[i]!;
    if (slot.landsAt === null || slot.landsAt > now) continue;
    const at = slot.landsAt;
    if (slot.failsToRender || !slot.pending) {
      post.media.splice(i--, 1);
    } else {
      const picture = state.images.create(post.brandId, slot.pending.aspect, {
        altText: slot.pending.altText,
        slideText: slot.pending.slideText,
        slideTextSource: slot.pending.slideText === null ? null : "prompt",
      });
      post.media[i] = { pictureId: picture.id, landsAt: null, failsToRender: false, pending: null };
    }
    post.updatedAt = Math.max(post.updatedAt, at);
  }
  for (const d of post.destinations) {
    if (d.status === "publishing" && d.finishAt !== null && d.finishAt <= now) {
      goLive(d, d.finishAt);
    } else if (d.status === "scheduled" && d.bookedAt !== null && d.bookedAt <= now) {
      if (stuckPublish(markerText(post, d))) {
        d.status = "publishing";
        d.finishAt = null;
      } else {
        goLive(d, d.bookedAt);
      }
    }
  }
  return hasTimedWork(post);
}
