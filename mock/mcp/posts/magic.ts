// The magic inputs of the gateway mock's posts half, like a payment sandbox's test cards: markers that steer the
// mock into states the real service reaches only by bad luck (spent allowance, failed renders, provider refusals).
// Exported as data so the README, the CLI and the tests share one table; the predicates below are the only place
// the posts domain reads them. Markers are case-insensitive and may sit anywhere in the text.
import { catalogue } from "../../../generated/mcp/errors.js";

export interface MagicInput {
  /** What to send. */
  input: string;
  /** Where to send it. */
  where: string;
  /** What happens. */
  effect: string;
}

export const postsMagicInputs: readonly MagicInput[] = [
  {
    input: "`[allowance-exhausted]`",
    where: "`brief` of `create_posts`; `prompt` of `create_draft`, `generate_image`, `regenerate_post_image`; `instructions` of `generate_caption`",
    effect: "refused with `usage_limit_exceeded` (with `resetDate`, the first day of next month); nothing is made",
  },
  {
    input: "`[ai-fails]`",
    where: "the same fields",
    effect: "refused with `ai_generation_failed` (retryable); nothing is made",
  },
  {
    input: "`[allowance-runs-out]`",
    where: "`brief` of `create_posts`",
    effect: "the first half of the slots (rounded up) are created, the rest end `skipped` with `usage_limit_exceeded`; the batch ends `partial`",
  },
  {
    input: "`[partial]`",
    where: "`brief` of `create_posts`",
    effect: "every odd-numbered slot (index 1, 3, …) ends `failed` with `ai_generation_failed`; the batch ends `partial` (a one-post batch ends `ready`)",
  },
  {
    input: "`[batch-fails]`",
    where: "`brief` of `create_posts`",
    effect: "every slot ends `failed`; the batch ends `failed` with an `error`",
  },
  {
    input: "`[images-fail]`",
    where: "`brief` of `create_posts`",
    effect: "the batch's pictures fail to render: the posts end with no picture (`hasMedia` false, `imagePending` false) and a warning",
  },
  {
    input: "`[long-title]`",
    where: "`brief` of `create_posts`",
    effect: "post titles run past 300 characters, so a `REDDIT` destination fails pre-flight with `reddit_title_too_long`",
  },
  {
    input: "`[render-fails:<code>]` (e.g. `[render-fails:content_rejected]`)",
    where: "`prompt` of `regenerate_post_image`",
    effect: "the job ends `failed` with that image render code (`content_rejected`, `quota_exhausted`, `provider_timeout`, `provider_unavailable`, `generation_failed`; others become `generation_failed`) and its catalogue `retryable`",
  },
  {
    input: "`[render-fails:<code>]`",
    where: "`prompt` of `generate_image`",
    effect: "refused with `ai_generation_failed` (generate_image answers at once, so there is no job to fail)",
  },
  {
    input: "`[templates]`",
    where: "`prompt` of `regenerate_post_image`, or of `generate_image` together with `saveToLibrary: true`",
    effect: "refused with `template_rendering` (the workspace renders from design templates)",
  },
  {
    input: "`[aspect:W:H]` (e.g. `[aspect:9:16]`)",
    where: "`prompt` of `regenerate_post_image`, `generate_image`, `create_draft`",
    effect: "the picture is rendered at that aspect ratio instead of the destination target (4:5 feed, 9:16 when the post has a story destination)",
  },
  {
    input: "`[refuse:<code>]` (e.g. `[refuse:content_rejected]`, `[refuse:rate_limited]`)",
    where: "a destination's caption (story destinations, which have none, read the post's main caption); markers in a `create_posts` brief are copied into every caption",
    effect:
      "the provider refuses that destination with the per-destination code: `schedule_post` answers `schedule_failed` (others still book), `publish_post_now` reports it `failed`. Retryable codes (`rate_limited`, `provider_timeout`, `provider_unavailable`) refuse only the first attempt, so a retry goes through; the others refuse every attempt until the caption changes. A code outside the catalogue passes through as given (not retryable)",
  },
  {
    input: "`[slow]`",
    where: "a destination's caption",
    effect: "`publish_post_now` reports it `pending` (`publishing_in_progress`); it goes live 2 minutes × time scale later",
  },
  {
    input: "`[stuck]`",
    where: "a destination's caption",
    effect: "`publish_post_now` reports it `pending` and it never finishes; later calls report it `skipped` with `stuck_at_provider`. A booking of it that reaches its time stays `publishing` for good",
  },
  {
    input: "`[story-partial]`",
    where: "the post's main caption (read by its story destinations)",
    effect: "the first publish of each story destination fails with `provider_timeout` after some frames went live; a repeat reports it `skipped` with `story_partially_published`",
  },
  {
    input: "`[publisher-error]`",
    where: "any caption of the post",
    effect: "`schedule_post`, `publish_post_now`, `unschedule_platform` and `unpublish_post` answer `publisher_error` (retryable) and change nothing",
  },
  {
    input: "`[design-changed]`",
    where: "any caption of the post",
    effect: "once the post is approved, its design counts as changed after the approval: `schedule_post`, `publish_post_now` and each `reschedule_posts` entry are refused with `design_changed_after_approval` and nothing is sent",
  },
  {
    input: "a subreddit containing `notfound`",
    where: "`reddit.subreddit` of `update_post` or `create_draft`",
    effect: "pre-flight `reddit_subreddit_not_found`",
  },
  {
    input: "a subreddit containing `flair`, sent without `flair`",
    where: "`reddit` of `update_post` or `create_draft`",
    effect: "pre-flight `reddit_flair_required`",
  },
  {
    input: "a blank subreddit (only spaces)",
    where: "`reddit.subreddit`",
    effect: "stored as no subreddit: pre-flight `reddit_subreddit_required`",
  },
  {
    input: "an `http://` address (other than the mock's own picture URLs)",
    where: "`sourceUrl` of `upload_image`",
    effect: "`source_not_https`; nothing is fetched (the mock never fetches anything)",
  },
  {
    input: "a `localhost`, `*.local`, `*.internal` or private-network address",
    where: "`sourceUrl` of `upload_image`",
    effect: "`source_not_public`",
  },
  {
    input: "`WxH` in the address (e.g. `https://cdn.example.com/shot-9x16.jpg`); `.mp4`, `.mov` or `.webm` at the end",
    where: "`sourceUrl` of `upload_image`",
    effect: "the saved picture has that aspect ratio (default 4:5; a video defaults to 9:16); a video address saves a video clip (its cover is served as the picture)",
  },
  {
    input: "one of the mock's own picture URLs (`<origin>/images/<id>.png`)",
    where: "`sourceUrl` of `upload_image`",
    effect: "saves a copy of that picture to the brand library; once the picture is erased, `bad_request`",
  },
];

const has = (text: string | null | undefined, marker: string): boolean => (text ?? "").toLowerCase().includes(marker);

export const allowanceExhausted = (text?: string | null) => has(text, "[allowance-exhausted]");
export const aiFails = (text?: string | null) => has(text, "[ai-fails]");
export const allowanceRunsOut = (text?: string | null) => has(text, "[allowance-runs-out]");
export const partialBatch = (text?: string | null) => has(text, "[partial]");
export const batchFails = (text?: string | null) => has(text, "[batch-fails]");
export const imagesFail = (text?: string | null) => has(text, "[images-fail]");
export const longTitle = (text?: string | null) => has(text, "[long-title]");
export const templateRendering = (text?: string | null) => has(text, "[templates]");
export const slowPublish = (text?: string | null) => has(text, "[slow]");
export const stuckPublish = (text?: string | null) => has(text, "[stuck]");
export const storyPartial = (text?: string | null) => has(text, "[story-partial]");
export const publisherError = (text?: string | null) => has(text, "[publisher-error]");
export const designChanged = (text?: string | null) => has(text, "[design-changed]");

const renderCodes = new Set(catalogue.filter((e) => e.kind === "image_render").map((e) => e.code));

/** The image render code a prompt asks a job to fail with, or null. Unknown codes become generation_failed. */
export function renderFailure(text?: string | null): string | null {
  const m = /\[render-fails(?::([a-z_]+))?\]/i.exec(text ?? "");
  if (!m) return null;
  const code = (m[1] ?? "generation_failed").toLowerCase();
  return renderCodes.has(code) ? code : "generation_failed";
}

/** The aspect ratio a prompt asks for with [aspect:W:H], or null. */
export function aspectMarker(text?: string | null): [number, number] | null {
  const m = /\[aspect:(\d{1,3})[:x](\d{1,3})\]/i.exec(text ?? "");
  if (!m) return null;
  const w = Number(m[1]);
  const h = Number(m[2]);
  return w > 0 && h > 0 ? [w, h] : null;
}

/** The per-destination code a caption asks the provider to refuse with, or null. */
export function providerRefusal(text?: string | null): string | null {
  const m = /\[refuse:([a-z_]+)\]/i.exec(text ?? "");
  return m ? m[1]!.toLowerCase() : null;
}

/** Markers that travel from a create_posts brief into every generated caption. */
export function captionMarkers(brief: string): string[] {
  return [...brief.matchAll(/\[(?:refuse:[a-z_]+|slow|stuck|story-partial|publisher-error)\]/gi)].map((m) => m[0]);
}

/** Removes every [marker] from a text meant for people (titles, topics). */
export const stripMarkers = (text: string): string => text.replace(/\[[a-z-]+(?::[a-z0-9_:]+)?\]/gi, "").replace(/\s{2,}/g, " ").trim();

export const subredditNotFound = (subreddit: string) => subreddit.toLowerCase().includes("notfound");
export const subredditNeedsFlair = (subreddit: string) => subreddit.toLowerCase().includes("flair");

/** The aspect ratio named in an upload address (`WxH`), or null. */
export function aspectInUrl(url: string): [number, number] | null {
  const m = /(?:^|[^0-9])(\d{1,4})x(\d{1,4})(?:[^0-9]|$)/i.exec(url);
  if (!m) return null;
  const w = Number(m[1]);
  const h = Number(m[2]);
  return w > 0 && h > 0 ? [w, h] : null;
}

export const isVideoUrl = (url: string): boolean => /\.(mp4|mov|webm)(?:[?#].*)?$/i.test(url);
