// The pre-flight check made before any platform is contacted: every problem of every destination, read from the
// post as it would publish (the pictures' real sizes come from their PNG headers).
import type { BlockedDestination } from "../../../generated/mcp/types.js";
import { redditTitleLimit, rulesFor } from "./limits.js";
import { subredditNeedsFlair, subredditNotFound } from "./magic.js";
import type { PostsState } from "./state.js";
import type { DestinationState, Post } from "./store.js";
import { charCount, landedMedia } from "./views.js";

export type Problem = BlockedDestination & { message: string };

// rule: preflight-codes preflight-counts blocked-destination-fields
export function preflight(state: PostsState, post: Post, destinations: readonly DestinationState[]): Problem[] {
  const { images, videos } = landedMedia(state, post);
  const hasMedia = images.length + videos.length > 0;
  const problems: Problem[] = [];
  for (const d of destinations) {
    const r = rulesFor(d.platform);
    if (!r) continue;
    const add = (code: string, message: string, extra: Partial<BlockedDestination> = {}) => problems.push({ platform: d.platform, code, message, ...extra });
    const count = charCount(d.text);
    if (!r.story && d.text.trim() === "" && !hasMedia) add("post_empty", `${d.platform} has neither a caption nor a picture.`);
    if (r.captionLimit > 0 && count > r.captionLimit) {
      add("caption_too_long", `${count} characters; ${d.platform} takes ${r.captionLimit}.`, { characterCount: count, characterLimit: r.captionLimit });
    }
    if (r.video === "required") {
      if (videos.length !== 1 || images.length > 0) add("video_required", `${d.platform} takes exactly one video and no pictures.`);
    } else {
      if (r.mediaRequired && !hasMedia) add("media_required", `${d.platform} needs a picture or a video.`);
      if (r.video === "none" && videos.length > 0) add("video_not_supported", `${d.platform} publishes no video.`);
      const mediaCount = r.story ? images.length + videos.length : images.length;
      if (mediaCount > r.imageLimit) {
        add("too_many_images", `${mediaCount} pictures; ${d.platform} takes ${r.imageLimit}.`, { imageCount: mediaCount, imageLimit: r.imageLimit });
      }
    }
    if (r.aspectBand) {
      const [min, max] = r.aspectBand;
      const outside = images.map((p) => state.images.aspectOf(p)).filter((a) => a < min - 1e-9 || a > max + 1e-9);
      if (outside.length) {
        add("image_aspect_invalid", `${outside.length} picture(s) outside the ${d.platform} feed band ${min} to ${max} (width ÷ height ${outside.map((a) => a.toFixed(2)).join(", ")}).`);
      }
    }
    if (r.reddit) {
      const subreddit = d.reddit?.subreddit ?? null;
      if (!subreddit) add("reddit_subreddit_required", "Choose a subreddit before booking Reddit.");
      else if (subredditNotFound(subreddit)) add("reddit_subreddit_not_found", `r/${subreddit} does not exist.`);
      else if (subredditNeedsFlair(subreddit) && !d.reddit?.flair) add("reddit_flair_required", `r/${subreddit} requires a flair.`);
      const titleLength = charCount(d.title ?? "");
      if (titleLength > redditTitleLimit) {
        add("reddit_title_too_long", `The title has ${titleLength} characters; Reddit takes ${redditTitleLimit}.`, { characterCount: titleLength, characterLimit: redditTitleLimit });
      }
    }
  }
  return problems;
}

/** The envelope form of problems (blockedDestinations carries no message). */
export const blocked = (problems: readonly Problem[]): BlockedDestination[] => problems.map(({ message: _message, ...b }) => b);
