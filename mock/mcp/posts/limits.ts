// What each destination takes: caption and title limits, how many pictures, whether it needs media or video,
// and the Instagram feed aspect band. The seed gives 2,200 (INSTAGRAM), 63,206 (FACEBOOK), the 0.75–1.91 feed band,
// 9:16 for stories and 4:5 for feed; the other numbers are the platforms' published limits, rounded where they vary.
// The table is data (limits.json), checked when this module loads.
import { dataFile } from "../../data-file.js";
import limitsJson from "./limits.json" with { type: "json" };

export interface DestinationRules {
  /** Uppercase destination as posts name it. */
  platform: string;
  /** Lowercase channel the destination publishes through (stories use the base channel). */
  channel: string;
  /** Caption limit in characters; 0 = no limit on record (stories publish without a caption). */
  captionLimit: number;
  /** Longest publishable title; null when the destination carries no title. */
  titleLimit: number | null;
  /** Most pictures one post may carry. */
  imageLimit: number;
  /** Needs a picture or a video. */
  mediaRequired: boolean;
  /** none = publishes no video; optional; required = exactly one video and no pictures. */
  video: "none" | "optional" | "required";
  /** A story destination: no caption, one picture or video, 9:16. */
  story: boolean;
  /** The aspect band (width / height) every picture must fall in, when the platform checks one. */
  aspectBand: [number, number] | null;
  /** Needs reddit options (subreddit, maybe flair). */
  reddit: boolean;
}

const videoKinds = ["none", "optional", "required"] as const satisfies readonly DestinationRules["video"][];

/** limits.json, checked; throws naming the first problem. */
export function readDestinationRules(data: unknown): readonly DestinationRules[] {
  const f = dataFile("mock/mcp/posts/limits.json");
  const keys = ["platform", "channel", "captionLimit", "titleLimit", "imageLimit", "mediaRequired", "video", "story", "aspectBand", "reddit"];
  const root = f.object(data, "the file", ["destinations"], ["destinations"]);
  const rows = f.list(root.destinations, "destinations", true).map((v, i): DestinationRules => {
    const where = `destinations[${i}]`;
    const r = f.object(v, where, keys, keys.slice(0, 7));
    const platform = f.text(r.platform, `${where}.platform`);
    if (!/^[A-Z][A-Z_]*$/.test(platform)) f.fail(`${where}.platform`, "must be uppercase (letters and _)");
    const channel = f.text(r.channel, `${where}.channel`);
    if (!/^[a-z][a-z_]*$/.test(channel)) f.fail(`${where}.channel`, "must be lowercase (letters and _)");
    let aspectBand: [number, number] | null = null;
    if (r.aspectBand !== undefined && r.aspectBand !== null) {
      const [low, high, ...rest] = f.list(r.aspectBand, `${where}.aspectBand`).map((n, j) => f.number(n, `${where}.aspectBand[${j}]`));
      if (low === undefined || high === undefined || rest.length || !(low > 0 && low < high)) f.fail(`${where}.aspectBand`, "must be [low, high] with 0 < low < high");
      aspectBand = [low!, high!];
    }
    const row: DestinationRules = {
      story: r.story === undefined ? false : f.boolean(r.story, `${where}.story`),
      aspectBand,
      reddit: r.reddit === undefined ? false : f.boolean(r.reddit, `${where}.reddit`),
      platform,
      channel,
      captionLimit: f.count(r.captionLimit, `${where}.captionLimit`),
      titleLimit: r.titleLimit === null ? null : f.count(r.titleLimit, `${where}.titleLimit`, 1),
      imageLimit: f.count(r.imageLimit, `${where}.imageLimit`),
      mediaRequired: f.boolean(r.mediaRequired, `${where}.mediaRequired`),
      video: f.oneOf(r.video, `${where}.video`, videoKinds),
    };
    // What the posts domain assumes of a story and of a video-only destination.
    if (row.story && (row.captionLimit !== 0 || row.imageLimit !== 1)) f.fail(where, "is a story: captionLimit must be 0 and imageLimit 1");
    if (row.video === "required" && row.imageLimit !== 0) f.fail(where, "requires a video: imageLimit must be 0");
    return row;
  });
  const seen = new Set<string>();
  for (const r of rows) {
    if (seen.has(r.platform)) f.fail("destinations", `repeat ${r.platform}`);
    seen.add(r.platform);
  }
  if (!rows.some((r) => r.reddit && r.titleLimit !== null)) f.fail("destinations", "lack a reddit destination with a titleLimit");
  return rows;
}

export const destinationRules: readonly DestinationRules[] = readDestinationRules(limitsJson);

const byPlatform = new Map(destinationRules.map((r) => [r.platform, r]));

/** Every destination the mock publishes to, in table order. */
export const supportedDestinations: readonly string[] = destinationRules.map((r) => r.platform);

export function rulesFor(platform: string): DestinationRules | undefined {
  return byPlatform.get(platform);
}

/** Rules of a destination known to be supported (callers check support first). */
export function rules(platform: string): DestinationRules {
  const r = byPlatform.get(platform);
  if (!r) throw new Error(`no rules for ${platform}`);
  return r;
}

export const isStory = (platform: string): boolean => rulesFor(platform)?.story ?? false;

/** Pictures target 9:16 when any destination is a story, 4:5 otherwise (the seed's story and feed targets). */
export function targetAspect(platforms: readonly string[]): [number, number] {
  return platforms.some(isStory) ? [9, 16] : [4, 5];
}

/** Reddit's title limit, the one the brief calls out. */
export const redditTitleLimit: number = destinationRules.find((r) => r.reddit)!.titleLimit!;
