// Pictures made on request: regenerate_post_image (a background render followed with get_generation_job),
// generate_image (answers at once) and upload_image (saves to the brand library without fetching anything).
import type {
  GenerateImageInput,
  GenerateImageOutput,
  GenerationJob,
  RegeneratePostImageInput,
  RegeneratePostImageOutput,
  UploadImageInput,
  UploadImageOutput,
} from "../../../generated/mcp/types.js";
import { catalogue } from "../../../generated/mcp/errors.js";
import { ToolError, type BrandRecord, type ToolContext } from "../context.js";
import { isPrivateHost } from "../../private-address.js";
import { checkGenerationMagic } from "./batches.js";
import { between } from "./copy.js";
import { targetAspect } from "./limits.js";
import * as magic from "./magic.js";
import { assertNotHeld, assertNotLive, iso, loadJob, loadPost, requireActive, touch, type PostsState } from "./state.js";
import { newId, type Job, type Post } from "./store.js";

const renderRetryable = new Map(catalogue.filter((e) => e.kind === "image_render").map((e) => [e.code, { retryable: e.retryable === true, meaning: e.meaning }]));

/** The slot a render may replace (or the next free one), after the refusals that protect it. */
function renderTarget(state: PostsState, post: Post, imageIndex: number): number {
  if (post.runningJobId) {
    const job = state.jobs.get(post.runningJobId);
    if (job && !job.done) {
      throw new ToolError("image_generation_in_progress", "A picture render is already running for this post; poll get_generation_job and do not start another.", { jobId: job.id });
    }
  }
  if (post.media.some((s) => s.landsAt !== null)) {
    // A batch picture still rendering has no job id.
    throw new ToolError("image_generation_in_progress", "The post's picture is still rendering; wait until imagePending is false.");
  }
  if (imageIndex > post.media.length) {
    throw new ToolError("bad_request", `imageIndex ${imageIndex} is past the post's pictures (it has ${post.media.length}).`, {
      invalidFields: ["imageIndex"],
      fieldErrors: [{ field: "imageIndex", message: `Use 0 to ${post.media.length}; ${post.media.length} adds a picture.` }],
    });
  }
  assertNotLive(post);
  assertNotHeld(post.destinations, "change the pictures of");
  return imageIndex;
}

function putPicture(post: Post, index: number, pictureId: string): void {
  const slot = { pictureId, landsAt: null, failsToRender: false, pending: null };
  if (index >= post.media.length) post.media.push(slot);
  else post.media[index] = slot;
}

// rule: regenerate-job image-in-progress new-picture-new-url template-rendering
export function regeneratePostImage(state: PostsState, ctx: ToolContext, args: RegeneratePostImageInput): RegeneratePostImageOutput {
  const { post, brand } = loadPost(state, ctx, args.postId);
  requireActive(brand);
  ctx.profiles.requireBuilt(brand);
  const imageIndex = renderTarget(state, post, args.imageIndex ?? 0);
  if (magic.templateRendering(args.prompt)) {
    throw new ToolError("template_rendering", "This workspace renders pictures from design templates: use generate_image, without saveToLibrary.");
  }
  const now = state.clock.now();
  checkGenerationMagic(args.prompt, now);
  ctx.profiles.spendAi(brand, 1);
  const startsAt = now + state.clock.work(2_000);
  const job: Job = {
    id: newId(),
    brandId: brand.id,
    postId: post.id,
    imageIndex,
    createdAt: now,
    startsAt,
    endsAt: magic.renderStuck(args.prompt) ? magic.never : startsAt + state.clock.work(between(20_000, 60_000, "render", post.id, now)),
    aspect: magic.aspectMarker(args.prompt) ?? targetAspect(post.destinations.map((d) => d.platform)),
    prompt: args.prompt ?? null,
    saveToLibrary: args.saveToLibrary ?? false,
    failCode: magic.renderFailure(args.prompt),
    done: false,
    imageUrl: null,
    mediaId: null,
  };
  state.jobs.set(job.id, brand.id, job);
  state.active.jobs.add(job.id);
  post.runningJobId = job.id;
  return { jobId: job.id, postId: post.id, status: "queued" };
}

/** Ends a job that is due; returns whether it is still running. */
export function refreshJob(state: PostsState, job: Job, now: number): boolean {
  if (job.done) return false;
  const post = state.posts.get(job.postId);
  if (job.endsAt === magic.never) {
    // rule: image-in-progress (a stuck render runs until its post is gone, then fails)
    if (post) return true;
    job.endsAt = now;
    job.failCode = "generation_failed";
  }
  if (job.endsAt > now) return true;
  job.done = true;
  if (post && post.runningJobId === job.id) post.runningJobId = null;
  if (job.failCode === null) {
    const slideText = job.prompt ? magic.stripMarkers(job.prompt) || null : (post?.title ?? null);
    const picture = state.images.create(job.brandId, job.aspect, { altText: slideText ? `A picture of: ${slideText}` : null, slideText, slideTextSource: slideText ? "prompt" : null });
    job.imageUrl = state.images.url(picture.id);
    if (job.saveToLibrary) job.mediaId = state.images.addToLibrary(job.brandId, picture.id);
    if (post) {
      putPicture(post, job.imageIndex, picture.id);
      post.updatedAt = Math.max(post.updatedAt, job.endsAt);
    }
  }
  return false;
}

// rule: generation-job-fields render-failure-codes
export function generationJob(state: PostsState, ctx: ToolContext, args: { jobId: string }): GenerationJob & { mediaId?: string | null } {
  const { job } = loadJob(state, ctx, args.jobId);
  const now = state.clock.now();
  const status = now < job.startsAt ? "queued" : now < job.endsAt ? "running" : job.failCode ? "failed" : "completed";
  const render = job.failCode ? renderRetryable.get(job.failCode) : undefined;
  return {
    jobId: job.id,
    status,
    postId: job.postId,
    imageUrl: status === "completed" ? job.imageUrl : null,
    error: status === "failed" ? { code: job.failCode!, message: render?.meaning ?? "The render failed.", retryable: render?.retryable ?? false } : null,
    createdAt: iso(job.createdAt),
    updatedAt: iso(now < job.startsAt ? job.createdAt : now < job.endsAt ? job.startsAt : job.endsAt),
    ...(status === "completed" && job.saveToLibrary ? { mediaId: job.mediaId } : {}),
  };
}

// rule: generate-image-on-post
export function generateImage(state: PostsState, ctx: ToolContext, args: GenerateImageInput): GenerateImageOutput {
  let brand: BrandRecord;
  let post: Post | undefined;
  if (args.postId !== undefined) ({ post, brand } = loadPost(state, ctx, args.postId));
  else brand = ctx.profiles.brandFor(ctx.principal, args.brandId!);
  requireActive(brand);
  ctx.profiles.requireBuilt(brand);
  const imageIndex = post ? renderTarget(state, post, args.imageIndex ?? 0) : null;
  if (args.saveToLibrary && magic.templateRendering(args.prompt)) {
    throw new ToolError("template_rendering", "This workspace renders pictures from design templates: do not pass saveToLibrary.");
  }
  const now = state.clock.now();
  checkGenerationMagic(args.prompt, now);
  if (magic.renderFailure(args.prompt)) throw new ToolError("ai_generation_failed", "The picture could not be generated; try again.");
  ctx.profiles.spendAi(brand, 1);
  const aspect = magic.aspectMarker(args.prompt) ?? (post ? targetAspect(post.destinations.map((d) => d.platform)) : ([4, 5] as [number, number]));
  const slideText = args.prompt ? magic.stripMarkers(args.prompt) || null : (post?.title ?? null);
  const picture = state.images.create(brand.id, aspect, { altText: slideText ? `A picture of: ${slideText}` : null, slideText, slideTextSource: slideText ? "prompt" : null });
  if (post && imageIndex !== null) {
    putPicture(post, imageIndex, picture.id);
    touch(state, post);
  }
  return {
    imageUrl: state.images.url(picture.id),
    mediaId: args.saveToLibrary ? state.images.addToLibrary(brand.id, picture.id) : null,
    postId: post?.id ?? null,
    imageIndex,
  };
}

// rule: upload-image-source
export function uploadImage(state: PostsState, ctx: ToolContext, args: UploadImageInput): UploadImageOutput {
  const brand = ctx.profiles.brandFor(ctx.principal, args.brandId);
  const own = state.images.fromUrl(args.sourceUrl);
  let pictureId: string;
  if (own !== "not_ours") {
    if (!own) {
      throw new ToolError("bad_request", "That picture address no longer resolves.", { invalidFields: ["sourceUrl"], fieldErrors: [{ field: "sourceUrl", message: "Not fetchable (404)." }] });
    }
    pictureId = state.images.copy(brand.id, own).id;
  } else {
    let url: URL;
    try {
      url = new URL(args.sourceUrl);
    } catch {
      throw new ToolError("bad_request", "sourceUrl is not an absolute address.", { invalidFields: ["sourceUrl"], fieldErrors: [{ field: "sourceUrl", message: "Send an https address." }] });
    }
    if (url.protocol !== "https:") throw new ToolError("source_not_https", "sourceUrl must use https; nothing was fetched.");
    if (isPrivateHost(url.hostname)) throw new ToolError("source_not_public", "sourceUrl points at a private or internal address.");
    const video = magic.isVideoUrl(url.pathname);
    const aspect = magic.aspectInUrl(url.pathname) ?? (video ? [9, 16] : [4, 5]);
    const picture = state.images.create(brand.id, aspect, {});
    if (video) picture.kind = "video";
    pictureId = picture.id;
  }
  return { imageUrl: state.images.url(pictureId), mediaId: state.images.addToLibrary(brand.id, pictureId) };
}
