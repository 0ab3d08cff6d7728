// The batches several checks look at: made once per run and key, followed at the seed's pace (every 5 s for the
// first minute, then 15 s backing off to 30 s, giving up after about 15 minutes, all scaled) until the copy settled
// and the pictures landed, with one more look after. `claimPost` hands each created post of the main batch to one
// check alone, so the checks that change posts never meet.
import type { RuleId } from "../../../../generated/rules.js";
import type { CreatePostsInput, ToolOutputs } from "../../../../generated/mcp/types.js";
import type { RunContext } from "../../../core/check.js";
import type { Answered } from "../answers.js";
import { BudgetExceeded, sleep } from "../../../core/http.js";
import { describeCall, type CallOutcome, type McpSession } from "../client.js";
import { okData } from "../expect.js";
import type { McpContext } from "../extension.js";
import { sharedBatchRequests, type SharedBatch } from "../shared-batches.js";
import type { McpTiming } from "../target.js";
import { brandUnderTest } from "./brand-under-test.js";

export interface BatchTrack {
  key: string;
  request: CreatePostsInput;
  created?: CallOutcome<"create_posts">;
  batchId?: string;
  /** Every get_post_batch_status while following, in order. */
  polls: CallOutcome<"get_post_batch_status">[];
  /** Real ms from the create call to each poll. */
  pollTimes: number[];
  /** The last payload seen. */
  last?: BatchPayload;
  /** settled: copy settled (pictures may be pending); done: settled and no picture pending. */
  outcome: "done" | "settled" | "timeout" | "error";
  /** Index in polls of the first settled answer. */
  settledIndex?: number;
  /** Posts seen with their picture still rendering (before or after the batch settled), with their digest then. */
  picturesSeenRendering: Map<string, string | null>;
  /** The same posts' digest once every picture landed (view_post). */
  digestAfter: Map<string, string | null>;
  /** The same posts' pictures once every picture landed (view_post's imageUrls), for items that leave imagePending out. */
  picturesAfter: Map<string, number>;
  /** Posts a view showed with their picture, not looked at again (items that leave the optional imagePending out). */
  picturesSeen: Set<string>;
  /** One more look an interval after it was done. */
  again?: CallOutcome<"get_post_batch_status">;
  problem?: string;
  /**
   * The rule the target's answers broke when they cut the batch short (create_posts answering no batch, its status
   * refused while following it): checks that need the batch fail it rather than skip. A batch that is only slow
   * (past the give-up time) or a run out of budget leaves none: that says nothing of the target's rules.
   */
  rule?: RuleId;
}

/** A batch as create_posts or get_post_batch_status answered it. */
export type BatchPayload = Answered<ToolOutputs["create_posts"] | ToolOutputs["get_post_batch_status"]>;

/** A shared batch of the brand under test, created once per run and key and followed until its pictures landed. */
export function sharedBatch(m: McpContext, key: SharedBatch): Promise<BatchTrack> {
  return m.run.once(`batch:${key}`, async () => {
    const brand = await brandUnderTest(m);
    if (!brand.brandId) return emptyBatch(key, { brandId: "", brief: "", count: 0 }, `no brand to make posts for: ${brand.problem}`);
    // Only the trigger of the batch asked for is read (through the check's ctx.slot): the check that asks names it.
    const triggers = key === "partial" ? { briefPartial: m.slot("mcp.triggers.brief_partial", "optional") } : key === "fails" ? { briefFails: m.slot("mcp.triggers.brief_fails", "optional") } : {};
    return followNewBatch(m, key, sharedBatchRequests({ cost: m.target.cost, triggers }, brand.brandId)[key], m.run.session);
  });
}

/** Ends a check that needs a batch the track lacks: failed when the target's answers broke a rule, else skipped. */
export function batchMissing(ctx: RunContext, t: BatchTrack, why: string): never {
  if (t.rule) ctx.fail(t.rule, `${why}: ${t.problem ?? t.outcome}`);
  return ctx.skip(`${why}: ${t.problem ?? t.outcome}`);
}

const hasBatchId = (t: BatchTrack): t is BatchTrack & { batchId: string } => t.batchId !== undefined;

/** The main batch once its pictures landed; otherwise the check fails (the target's fault) or is skipped. */
export async function doneBatch(ctx: RunContext, m: McpContext): Promise<BatchTrack & { batchId: string }> {
  const t = await sharedBatch(m, "main");
  // A batch followed to done has its id.
  if (t.outcome !== "done" || !hasBatchId(t)) return batchMissing(ctx, t, "needs the main batch with its pictures landed");
  return t;
}

/** A created post of the main batch with its picture, for one check alone (each post is handed out once). */
export async function claimPost(ctx: RunContext, m: McpContext, purpose: string): Promise<string> {
  const t = await doneBatch(ctx, m);
  const claimed = m.run.once("claimed-posts", () => new Set<string>());
  const items = Array.isArray(t.last?.items) ? t.last.items : [];
  const free = items.find((i) => i?.status === "created" && typeof i.postId === "string" && i.hasMedia !== false && !claimed.has(i.postId));
  if (!free || typeof free.postId !== "string") {
    // The batch's own count says more posts were made than its items show: the target's answer is short, not the run.
    const shown = items.filter((i) => i?.status === "created" && typeof i.postId === "string").length;
    const said = t.last?.createdCount;
    if (typeof said === "number" && said > shown) ctx.fail("batch-counts-consistent/created", `no post of the main batch is left for ${purpose}: createdCount is ${said}, but only ${shown} items are created posts`);
    return ctx.skip(`no post of the main batch is left for ${purpose}`);
  }
  claimed.add(free.postId);
  return free.postId;
}

/** The seed's batch pace: the first interval for the first minute (target time), then backing off to the maximum. */
export function batchInterval(t: McpTiming, elapsedRealMs: number, pollsAfterFirstMinute: number): number {
  if (elapsedRealMs < 60_000 * t.timeScale) return t.batchPollFirstMs;
  return Math.min(t.batchPollMaxMs, t.batchPollMs + pollsAfterFirstMinute * 5_000 * t.timeScale);
}

/** Creates a batch and follows it: copy settled, pictures landed (digests read before and after), one more look. */
export async function followNewBatch(m: McpContext, key: string, request: CreatePostsInput, s: McpSession, waitingKey = `batch:${key}`, pictures = true): Promise<BatchTrack> {
  const run = m.run;
  const timing = m.target.timing;
  const track = emptyBatch(key, request);
  const onWaiting = (text: string | null) => run.waiting(waitingKey, text);
  try {
    track.created = await s.call("create_posts", request);
    const created = okData(track.created);
    const batchId = created?.batchId;
    if (!created || typeof batchId !== "string") {
      track.problem = `create_posts did not answer a batch: ${describeCall(track.created)}`;
      track.rule = "success-structured-data/create_posts";
      return track;
    }
    track.batchId = batchId;
    track.last = created;
    let afterFirstMinute = 0;
    const read = async () => {
      const o = await s.call("get_post_batch_status", { batchId });
      const d = okData(o);
      if (d) {
        track.last = d;
        run.clock.saw(d.updatedAt ?? d.createdAt);
        await notePicturesRendering(track, d, s);
      }
      return o;
    };
    const interval = (elapsed: number) => {
      const i = batchInterval(timing, elapsed, afterFirstMinute);
      if (elapsed >= 60_000 * timing.timeScale) afterFirstMinute++;
      return i;
    };
    const deadline = timing.batchGiveUpMs;
    const clock = s.target.clock;
    const started = clock.now();
    // Copy.
    const copy = await run.poll(`batch ${batchId} (${key}): waiting to settle`, read, (o) => !okData(o) || okData(o)?.settled === true, interval, deadline, onWaiting);
    track.polls.push(...copy.outcomes);
    track.pollTimes.push(...copy.times);
    const last = copy.outcomes.at(-1);
    if (last && !okData(last)) {
      track.problem = `get_post_batch_status failed while waiting: ${describeCall(last)}`;
      track.rule = "success-structured-data/get_post_batch_status";
      return track;
    }
    if (!copy.finished) {
      track.outcome = "timeout";
      track.problem = `batch ${batchId} had not settled after ${(copy.elapsedMs / 1000).toFixed(1)} s (${copy.outcomes.length} polls; give-up time ${(deadline / 1000).toFixed(1)} s)`;
      return track;
    }
    track.outcome = "settled";
    track.settledIndex = track.polls.length - 1;
    if (!pictures) return track;
    // Pictures.
    const landed = (o: CallOutcome<"get_post_batch_status">) => !okData(o) || (okData(o)?.imagesPendingCount ?? 0) === 0;
    if (!landed(last!)) {
      const rest = await run.poll(`batch ${batchId} (${key}): pictures rendering`, read, landed, interval, Math.max(0, deadline - (clock.now() - started)), onWaiting);
      track.polls.push(...rest.outcomes);
      track.pollTimes.push(...rest.times.map((t) => t + copy.elapsedMs));
      const end = rest.outcomes.at(-1);
      if (end && !okData(end)) {
        track.problem = `get_post_batch_status failed while pictures rendered: ${describeCall(end)}`;
        track.rule = "success-structured-data/get_post_batch_status";
        return track;
      }
      if (!rest.finished) {
        track.problem = `batch ${batchId}: pictures still rendering after the give-up time`;
        return track;
      }
    }
    track.outcome = "done";
    for (const id of track.picturesSeenRendering.keys()) {
      const view = okData(await s.call("view_post", { id }));
      track.digestAfter.set(id, view?.contentDigest ?? null);
      if (Array.isArray(view?.imageUrls)) track.picturesAfter.set(id, view.imageUrls.length);
    }
    onWaiting(`batch ${batchId} (${key}): one more look to see it stays`);
    await sleep(timing.batchPollMs, run.signal, clock);
    track.again = await s.call("get_post_batch_status", { batchId });
    return track;
  } catch (err) {
    // A run cut short by its budget says nothing of the target: the checks waiting on this end in error.
    if (err instanceof BudgetExceeded) throw err;
    track.outcome = "error";
    track.problem = run.redact((err as Error).message);
    return track;
  } finally {
    onWaiting(null);
  }
}

/**
 * Records the posts of a batch answer whose picture still renders, with their digest then: the item's own
 * contentDigest (in development) from the same answer, or else view_post's, kept only while it still shows no
 * picture (one that landed between the two reads says nothing). imagePending is optional (seed 001): while the
 * batch counts pictures rendering, a created item without it is looked at with view_post until it shows its picture.
 */
async function notePicturesRendering(track: BatchTrack, batch: BatchPayload, s: McpSession): Promise<void> {
  const items = Array.isArray(batch.items) ? batch.items : [];
  const counted = (batch.imagesPendingCount ?? 0) > 0;
  for (const i of items) {
    if (typeof i?.postId !== "string" || track.picturesSeenRendering.has(i.postId) || track.picturesSeen.has(i.postId)) continue;
    const unsaid = i.status === "created" && i.imagePending === undefined && counted;
    if (i.imagePending !== true && !unsaid) continue;
    // Without imagePending, the item's own pictures (in development) say it in the same answer where it has them.
    const ownPictures = unsaid && Array.isArray(i.imageUrls) ? i.imageUrls.length : undefined;
    if (ownPictures !== undefined && ownPictures > 0) track.picturesSeen.add(i.postId);
    else if ("contentDigest" in i && (!unsaid || ownPictures === 0)) track.picturesSeenRendering.set(i.postId, i.contentDigest ?? null);
    else {
      const view = okData(await s.call("view_post", { id: i.postId }));
      if (!Array.isArray(view?.imageUrls)) continue;
      if (view.imageUrls.length === 0) track.picturesSeenRendering.set(i.postId, view.contentDigest ?? null);
      else if (unsaid) track.picturesSeen.add(i.postId);
    }
  }
}

function emptyBatch(key: string, request: CreatePostsInput, problem?: string): BatchTrack {
  return { key, request, polls: [], pollTimes: [], outcome: "error", picturesSeenRendering: new Map(), digestAfter: new Map(), picturesAfter: new Map(), picturesSeen: new Set(), ...(problem ? { problem } : {}) };
}

/** The address of a picture of the shared main batch (any post with one), or undefined. */
export async function batchPicture(m: McpContext): Promise<string | undefined> {
  const batch = await sharedBatch(m, "main");
  for (const item of Array.isArray(batch.last?.items) ? batch.last.items : []) {
    if (typeof item?.postId !== "string" || item.hasMedia === false) continue;
    const urls = okData(await m.session.call("view_post", { id: item.postId }))?.imageUrls;
    if (Array.isArray(urls) && typeof urls[0] === "string") return urls[0];
  }
  return undefined;
}
