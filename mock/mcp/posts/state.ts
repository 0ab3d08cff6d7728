// The posts domain's state and the lookups every handler shares: a post, batch or job by id, then its brand
// through the profiles domain, so another tenant's record is refused exactly as its brand would be.
import type { Clock } from "../../clock.js";
import { ToolError, type BrandRecord, type ToolContext } from "../context.js";
import { ImageStore } from "./images.js";
import { CappedStore } from "../../capped-store.js";
import { caps, measuredOnly, type Batch, type DestinationState, type Job, type Post } from "./store.js";

export interface PostsState {
  clock: Clock;
  origin: () => URL;
  posts: CappedStore<Post>;
  batches: CappedStore<Batch>;
  jobs: CappedStore<Job>;
  images: ImageStore;
  /** Records with timed work still ahead of them (the tick visits only these). */
  active: { batches: Set<string>; posts: Set<string>; jobs: Set<string> };
}

export function createState(clock: Clock, origin: () => URL): PostsState {
  const active = { batches: new Set<string>(), posts: new Set<string>(), jobs: new Set<string>() };
  return {
    clock,
    origin,
    posts: new CappedStore<Post>(caps.postsPerBrand, (p) => active.posts.delete(p.id), measuredOnly),
    batches: new CappedStore<Batch>(caps.batchesPerBrand, (b) => active.batches.delete(b.id), measuredOnly),
    jobs: new CappedStore<Job>(caps.jobsPerBrand, (j) => active.jobs.delete(j.id), measuredOnly),
    images: new ImageStore(origin),
    active,
  };
}

// rule: cross-tenant-refused unknown-id-refused
export function loadPost(state: PostsState, ctx: ToolContext, id: string): { post: Post; brand: BrandRecord } {
  const post = state.posts.get(id);
  if (!post) throw new ToolError("not_found", `No post ${id} is visible to this token.`);
  return { post, brand: ctx.profiles.brandFor(ctx.principal, post.brandId, `Post ${id}`) };
}

export function loadBatch(state: PostsState, ctx: ToolContext, id: string): { batch: Batch; brand: BrandRecord } {
  const batch = state.batches.get(id);
  if (!batch) throw new ToolError("not_found", `No batch ${id} is visible to this token.`);
  return { batch, brand: ctx.profiles.brandFor(ctx.principal, batch.brandId, `Batch ${id}`) };
}

export function loadJob(state: PostsState, ctx: ToolContext, id: string): { job: Job; brand: BrandRecord } {
  const job = state.jobs.get(id);
  if (!job) throw new ToolError("not_found", `No render job ${id} is visible to this token.`);
  return { job, brand: ctx.profiles.brandFor(ctx.principal, job.brandId, `Render job ${id}`) };
}

/** Inactive profiles cannot generate or publish (after deactivate_profile the workspace has no plan either). */
export function requireActive(brand: BrandRecord): void {
  if (!brand.isActive) {
    throw new ToolError("subscription_required", `Profile ${brand.id} is inactive: it can no longer generate or publish.`);
  }
  // rule: readiness-consistent (no_brand_profile: nothing generates or publishes; the seed names no code)
  if (!brand.hasBrandProfile) {
    throw new ToolError("forbidden", `Profile ${brand.id} has no brand settings (blocker no_brand_profile): it cannot generate or publish until they exist.`);
  }
}

/** The destination of a post, or a bad_request naming the argument. */
export function destinationOf(post: Post, platform: string, field: string): DestinationState {
  const d = post.destinations.find((x) => x.platform === platform);
  if (!d) {
    throw new ToolError("bad_request", `The post has no ${platform} destination.`, {
      invalidFields: [field],
      fieldErrors: [{ field, message: `Not a destination of this post (it has ${post.destinations.map((x) => x.platform).join(", ")}).` }],
    });
  }
  return d;
}

/** The destinations a call is limited to (platforms), each checked to be on the post; all of them when omitted. */
export function selectDestinations(post: Post, platforms: readonly string[] | undefined, field = "platforms"): DestinationState[] {
  if (!platforms) return [...post.destinations];
  return platforms.map((p, i) => destinationOf(post, p, `${field}.${i}`));
}

export const isLive = (d: DestinationState): boolean => d.status === "published" || d.status === "publishing";
export const isHeld = (d: DestinationState): boolean => d.status === "scheduled";

/** A post that is partly or fully live cannot be edited. */
export function assertNotLive(post: Post): void {
  const live = post.destinations.filter(isLive).map((d) => d.platform);
  if (live.length) {
    throw new ToolError("post_already_published", `Part of the post is live (${live.join(", ")}); unpublish it with unpublish_post or make a new post.`, {
      publishedPlatforms: live,
    });
  }
}

/**
 * A destination the provider holds for a booked time cannot be changed or removed. platform_scheduled is in
 * development and the catalogue says it arrives today as upstream_409, so the mock answers upstream_409.
 */
export function assertNotHeld(destinations: readonly DestinationState[], doing: string): void {
  const held = destinations.filter(isHeld);
  if (held.length) {
    throw new ToolError(
      "upstream_409",
      `Cannot ${doing} ${held.map((d) => d.platform).join(", ")}: the provider holds it booked (platform_scheduled). Withdraw it with unschedule_platform first.`,
    );
  }
}

/** Marks a post changed in place: its time, and its size (the tenant's byte budget counts it). */
export function touch(state: PostsState, post: Post): void {
  post.updatedAt = state.clock.now();
  state.posts.remeasure(post.id);
}

export function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** Parses a contract Timestamp (Z or numeric offset) to epoch ms; the input schema has already checked the form. */
export function parseTime(value: string, field: string): number {
  // Date.parse does not accept "+0100" (no colon); normalise it first.
  const ms = Date.parse(value.replace(/([+-]\d{2})(\d{2})$/, "$1:$2"));
  if (Number.isNaN(ms)) {
    throw new ToolError("bad_request", `${field} is not a valid time.`, { invalidFields: [field], fieldErrors: [{ field, message: "Not a valid ISO 8601 time." }] });
  }
  return ms;
}

export function appOrigin(state: PostsState): string {
  return state.origin().origin;
}

export function appUrl(state: PostsState, postId: string): string {
  return `${appOrigin(state)}/app/posts/${postId}`;
}
