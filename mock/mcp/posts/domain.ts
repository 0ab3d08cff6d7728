// The posts & publishing half of the gateway mock: its tool handlers, the API the profiles domain calls when a
// client is deactivated or erased, and the picture URLs it serves. The gateway plays the clock forward (settle:
// batches create posts, pictures land, renders end, bookings go live) before every call and picture request.
import type { Clock } from "../../clock.js";
import type { Domain, PostsApi, ToolContext, ToolHandler } from "../context.js";
import { approvePost, rejectPost } from "./approval.js";
import { batchStatus, createPosts, refreshBatch } from "./batches.js";
import { createDraft, deletePost, generateCaption, updatePost } from "./editing.js";
import { generateImage, generationJob, refreshJob, regeneratePostImage, uploadImage } from "./jobs.js";
import { refreshPost } from "./posts.js";
import { postStatus, publishPostNow, unpublishPost } from "./publishing.js";
import { reschedulePosts, schedulePost, unschedulePlatform, withdrawScheduled } from "./scheduling.js";
import { createState, loadPost, type PostsState } from "./state.js";
import { postView } from "./views.js";
import * as magic from "./magic.js";
import type { ToolInputs, ToolName } from "../../../generated/mcp/types.js";

/** Plays the clock forward over every record with timed work ahead. */
export function tick(state: PostsState): void {
  const now = state.clock.now();
  for (const id of [...state.active.batches]) {
    const batch = state.batches.get(id);
    if (!batch || !refreshBatch(state, batch, now)) state.active.batches.delete(id);
  }
  for (const id of [...state.active.posts]) {
    const post = state.posts.get(id);
    if (!post || !refreshPost(state, post, now)) state.active.posts.delete(id);
  }
  for (const id of [...state.active.jobs]) {
    const job = state.jobs.get(id);
    if (!job || !refreshJob(state, job, now)) state.active.jobs.delete(id);
  }
}

/** Every instant still ahead at which timed work changes what a view shows (tests step a frozen clock over them). */
export function endInstants(state: PostsState): number[] {
  const out: number[] = [];
  for (const id of state.active.batches) {
    const batch = state.batches.get(id);
    if (!batch) continue;
    out.push(batch.startsAt);
    for (const slot of batch.slots) {
      out.push(slot.startsAt, slot.endsAt);
      // The picture of a post that is not created yet (refreshBatch gives it this landing time).
      if (slot.postId === null && slot.outcome === "created" && batch.includeImage && !magic.picturesHeld(batch.brief)) out.push(slot.endsAt + batch.pictureDelays[slot.index]!);
    }
  }
  for (const id of state.active.posts) {
    const post = state.posts.get(id);
    for (const m of post?.media ?? []) if (m.landsAt !== null) out.push(m.landsAt);
    for (const d of post?.destinations ?? []) out.push(...[d.status === "scheduled" ? d.bookedAt : d.finishAt].filter((t): t is number => t !== null));
  }
  for (const id of state.active.jobs) {
    const job = state.jobs.get(id);
    if (job) out.push(job.startsAt, job.endsAt);
  }
  return out.filter((t) => t !== magic.never && t > state.clock.now());
}

/** A tool's handler takes the tool's validated input (ToolInputs[N]); a wrong argument type is a compile error. */
type Handler<N extends ToolName> = (state: PostsState, ctx: ToolContext, args: ToolInputs[N]) => unknown;

const tools = {
  create_posts: createPosts,
  get_post_batch_status: batchStatus,
  view_post: (state, ctx, args: { id: string }) => {
    const { post, brand } = loadPost(state, ctx, args.id);
    return postView(state, post, brand);
  },
  update_post: updatePost,
  generate_caption: generateCaption,
  regenerate_post_image: regeneratePostImage,
  get_generation_job: generationJob,
  create_draft: createDraft,
  delete_post: deletePost,
  generate_image: generateImage,
  upload_image: uploadImage,
  approve_post: approvePost,
  reject_post: rejectPost,
  schedule_post: schedulePost,
  reschedule_posts: reschedulePosts,
  publish_post_now: publishPostNow,
  unschedule_platform: unschedulePlatform,
  get_post_status: postStatus,
  unpublish_post: unpublishPost,
} satisfies { [N in ToolName]?: Handler<N> };

/** The tools this domain answers (a name the contract does not have is a compile error above). */
export type PostsToolName = keyof typeof tools;

export function createPostsDomain(clock: Clock, origin: () => URL): Domain<PostsApi> & { state: PostsState } {
  const state = createState(clock, origin);
  const handlers: Record<string, ToolHandler> = {};
  // The server validated the arguments against the tool's inputSchema before calling: they are its ToolInputs.
  for (const [name, handler] of Object.entries(tools as Record<string, Handler<ToolName>>)) {
    handlers[name] = (args, ctx) => {
      const result = handler(state, ctx, args as ToolInputs[ToolName]);
      // A change can start timed work (a pending publish, a booking, a render); let it be watched at once.
      tick(state);
      return result;
    };
  }
  const api: PostsApi = {
    withdrawScheduled(brandId) {
      tick(state);
      return withdrawScheduled(state, brandId);
    },
    erase(brandId) {
      for (const post of state.posts.deleteOwner(brandId)) state.active.posts.delete(post.id);
      for (const batch of state.batches.deleteOwner(brandId)) state.active.batches.delete(batch.id);
      for (const job of state.jobs.deleteOwner(brandId)) state.active.jobs.delete(job.id);
      state.images.erase(brandId);
    },
    bytesOf: (brandId) => state.posts.bytesFor(brandId) + state.batches.bytesFor(brandId) + state.jobs.bytesFor(brandId),
  };
  return {
    api,
    handlers,
    state,
    settle: () => tick(state),
    endInstants: () => endInstants(state),
    serveHttp: (req, res, url) => state.images.serveHttp(req, res, url),
  };
}
