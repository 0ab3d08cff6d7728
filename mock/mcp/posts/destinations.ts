// Which destinations a new post gets, and the refusals that come before anything is made: unsupported and
// unconnected destinations, REDDIT without options, stories-only without media.
import { ToolError, type BrandRecord } from "../context.js";
import { isStory, rulesFor, supportedDestinations } from "./limits.js";
import type { RedditSettings } from "./store.js";

/** The destinations the brand can publish to now; a story counts as connected when its base channel is. */
export function connectedSet(brand: BrandRecord): Set<string> {
  const connected = new Set(brand.connectedDestinations());
  for (const platform of supportedDestinations) {
    const r = rulesFor(platform)!;
    if (r.story && connected.has(r.channel.toUpperCase())) connected.add(platform);
  }
  return connected;
}

/** Refuses destinations the gateway does not publish to. */
export function checkSupported(platforms: readonly string[]): void {
  const unsupported = platforms.filter((p) => !rulesFor(p));
  if (unsupported.length) {
    throw new ToolError("platform_not_supported", `The gateway does not publish to ${unsupported.join(", ")}.`, {
      unsupportedPlatforms: [...new Set(unsupported)],
      supportedPlatforms: [...supportedDestinations],
    });
  }
}

/**
 * Refuses named destinations with no live connection. A brand with no connected channel at all gets provisional
 * destinations instead (create_posts answers connectionWarning); scheduling refuses them later.
 */
export function checkConnected(brand: BrandRecord, platforms: readonly string[]): { provisional: boolean } {
  const connected = connectedSet(brand);
  if (connected.size === 0) return { provisional: true };
  const unavailable = platforms.filter((p) => !connected.has(p));
  if (unavailable.length) {
    throw new ToolError("platform_not_connected", `No live connection for ${unavailable.join(", ")}; send the client a connect link.`, {
      unavailablePlatforms: [...new Set(unavailable)],
      connectedPlatforms: brand.connectedDestinations(),
    });
  }
  return { provisional: false };
}

/** The brand's default destination; when it has none, its first connected feed destination, else INSTAGRAM. */
export function defaultDestination(brand: BrandRecord): string {
  if (brand.defaultPlatform && rulesFor(brand.defaultPlatform)) return brand.defaultPlatform;
  return brand.connectedDestinations().find((p) => rulesFor(p) && !isStory(p)) ?? "INSTAGRAM";
}

/**
 * A new post's destinations: the brand's default plus the named ones; without names, the default plus every
 * connected feed destination (the brand's defaults).
 */
// rule: default-destination-kept
export function newPostDestinations(brand: BrandRecord, requested: readonly string[] | undefined): string[] {
  const first = defaultDestination(brand);
  const rest = requested ?? brand.connectedDestinations().filter((p) => rulesFor(p) && !isStory(p));
  return [...new Set([first, ...rest])];
}

/** REDDIT needs reddit options with a subreddit. */
// rule: reddit-options-required
export function checkRedditOptions(platforms: readonly string[], reddit: unknown): void {
  if (platforms.some((p) => rulesFor(p)?.reddit) && !reddit) {
    throw new ToolError("reddit_options_required", "REDDIT needs reddit: { subreddit } (and a flair when the subreddit demands one).");
  }
}

/** Every destination a story and no media: refused (a picture the tool would render does not count). */
// rule: stories-need-media
export function checkStoriesHaveMedia(platforms: readonly string[], mediaCount: number): void {
  if (platforms.length > 0 && platforms.every(isStory) && mediaCount === 0) {
    throw new ToolError("media_required", "Every destination is a story and no media was given; send mediaIds.");
  }
}

/** Stored form of reddit options: subreddit trimmed, a leading r/ dropped, blank → null. */
export function redditSettings(reddit: { subreddit: string; flair?: string } | undefined): RedditSettings | null {
  if (!reddit) return null;
  const subreddit = reddit.subreddit.trim().replace(/^\/?r\//i, "");
  const flair = reddit.flair?.trim() ?? "";
  return { subreddit: subreddit || null, flair: flair || null };
}
