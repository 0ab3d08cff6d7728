// The posts domain's records and the caps of its stores (mock/capped-store.ts, one owner per brand): 1,000 posts,
// 200 batches, 500 render jobs and 5,000 pictures per brand. A forgotten id answers not_found like any unknown id.
import { randomUUID } from "node:crypto";

export const caps = { postsPerBrand: 1000, batchesPerBrand: 200, jobsPerBrand: 500, picturesPerBrand: 5000 } as const;
/**
 * The posts domain's stores measure each brand's records as JSON without a limit of their own (captions, briefs
 * and reasons can be long); the tenant's budget over all its brands bounds them (tenant-budget.ts).
 */
export const measuredOnly = { maxBytesPerOwner: Number.POSITIVE_INFINITY } as const;

export const newId = (): string => randomUUID();

/** A provider's id for one destination's booking or live post. */
export const newPlatformPostId = (): string => `pp_${randomUUID().replace(/-/g, "").slice(0, 16)}`;

// ---------------------------------------------------------------------------------------------------------------
// Records

export interface Picture {
  id: string;
  brandId: string;
  kind: "image" | "video";
  width: number;
  height: number;
  altText: string | null;
  slideText: string | null;
  slideTextSource: "layers" | "prompt" | null;
}

/** One slot of a post's media. Every destination shares the picture in each slot. */
export interface MediaSlot {
  /** The picture (or video cover) once it exists; null while it renders. */
  pictureId: string | null;
  /** While rendering: when it lands (epoch ms on the mock's clock). */
  landsAt: number | null;
  /** While rendering: the render fails instead of landing. */
  failsToRender: boolean;
  /** While rendering: the size it will have and what it shows. */
  pending: { aspect: [number, number]; altText: string | null; slideText: string | null } | null;
}

export interface RedditSettings {
  /** null when blank (pre-flight reddit_subreddit_required). */
  subreddit: string | null;
  flair: string | null;
}

export interface DestinationReasonRecord {
  code: string;
  message: string;
  retryable: boolean;
}

export type DestinationStatus = "draft" | "scheduled" | "publishing" | "published" | "failed" | "unscheduled" | "unpublished";

export interface DestinationState {
  platform: string;
  text: string;
  firstComment: string | null;
  title: string | null;
  reddit: RedditSettings | null;
  status: DestinationStatus;
  /** The provider's id while it holds the destination (booked, publishing or live). */
  platformPostId: string | null;
  /** Booked time (epoch ms on the mock's clock); kept after a withdrawal so the destination keeps its date. */
  bookedAt: number | null;
  publishedAt: number | null;
  /** When a pending publish goes live; null with status publishing = never (stuck at the provider). */
  finishAt: number | null;
  postUrl: string | null;
  error: DestinationReasonRecord | null;
  /** Provider attempts made (schedule or publish), for the refuse-once rule of transient refusals. */
  attempts: number;
  /** Some story frames went live in a failed publish (magic story-partial). */
  framesLive: boolean;
  /** The platformPostId of the last booking withdrawn, so a repeated unschedule_platform answers the same. */
  lastWithdrawnId: string | null;
}

export interface ApprovalRecord {
  decision: "approved" | "rejected";
  contentDigest: string;
  reason: string | null;
  decidedAt: number;
  decidedBy: string | null;
}

export interface Post {
  id: string;
  brandId: string;
  companyId: string;
  batchId: string | null;
  createdAt: number;
  updatedAt: number;
  /** For people (batch items); a REDDIT, PINTEREST or YOUTUBE destination publishes it as its title. */
  title: string;
  destinations: DestinationState[];
  media: MediaSlot[];
  /** Intended time (epoch ms on the mock's clock), recorded by create_posts / create_draft / update_post; books nothing. */
  intendedAt: number | null;
  approval: ApprovalRecord | null;
  /** The render job running on this post, if any. */
  runningJobId: string | null;
}

export type ItemOutcome = "created" | "failed" | "skipped";

export interface BatchSlotPlan {
  index: number;
  /** When the slot starts generating (epoch ms on the mock's clock). */
  startsAt: number;
  /** When the slot ends (created, failed or skipped). */
  endsAt: number;
  outcome: ItemOutcome;
  error: DestinationReasonRecord | null;
  /** Set once the post exists. */
  postId: string | null;
  /** Snapshot for a created slot whose post was later deleted or forgotten. */
  title: string | null;
  platforms: string[];
  preview: string | null;
}

export interface Batch {
  id: string;
  brandId: string;
  companyId: string;
  brandName: string;
  brief: string;
  count: number;
  includeImage: boolean;
  /** Library pictures every post gets. */
  mediaPictureIds: string[];
  destinations: string[];
  intendedAt: number | null;
  createdAt: number;
  startsAt: number;
  /** Render delay per slot after its post is created (epoch ms on the mock's clock). */
  pictureDelays: number[];
  slots: BatchSlotPlan[];
  /** Virtual ms of the last slot's end. */
  endsAt: number;
  warnings: string[];
  /** get_post_batch_status reads so far (a [stepwise] batch moves one phase per read). */
  reads?: number;
}

export interface Job {
  id: string;
  brandId: string;
  postId: string;
  imageIndex: number;
  createdAt: number;
  startsAt: number;
  endsAt: number;
  aspect: [number, number];
  prompt: string | null;
  saveToLibrary: boolean;
  /** The render code it ends with, or null for success. */
  failCode: string | null;
  /** Set when it ends. */
  done: boolean;
  imageUrl: string | null;
  mediaId: string | null;
}
