// What each destination takes: caption and title limits, how many pictures, whether it needs media or video,
// and the Instagram feed aspect band. The seed gives 2,200 (INSTAGRAM), 63,206 (FACEBOOK), the 0.75–1.91 feed band,
// 9:16 for stories and 4:5 for feed; the other numbers are the platforms' published limits, rounded where they vary.

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

const rule = (r: Omit<DestinationRules, "story" | "aspectBand" | "reddit"> & Partial<DestinationRules>): DestinationRules => ({
  story: false,
  aspectBand: null,
  reddit: false,
  ...r,
});

export const destinationRules: readonly DestinationRules[] = [
  rule({ platform: "INSTAGRAM", channel: "instagram", captionLimit: 2200, titleLimit: null, imageLimit: 10, mediaRequired: true, video: "optional", aspectBand: [0.75, 1.91] }),
  rule({ platform: "INSTAGRAM_STORIES", channel: "instagram", captionLimit: 0, titleLimit: null, imageLimit: 1, mediaRequired: true, video: "optional", story: true }),
  rule({ platform: "FACEBOOK", channel: "facebook", captionLimit: 63206, titleLimit: null, imageLimit: 10, mediaRequired: false, video: "optional" }),
  rule({ platform: "FACEBOOK_STORIES", channel: "facebook", captionLimit: 0, titleLimit: null, imageLimit: 1, mediaRequired: true, video: "optional", story: true }),
  rule({ platform: "REDDIT", channel: "reddit", captionLimit: 40000, titleLimit: 300, imageLimit: 20, mediaRequired: false, video: "optional", reddit: true }),
  rule({ platform: "LINKEDIN", channel: "linkedin", captionLimit: 3000, titleLimit: null, imageLimit: 9, mediaRequired: false, video: "optional" }),
  rule({ platform: "X", channel: "x", captionLimit: 280, titleLimit: null, imageLimit: 4, mediaRequired: false, video: "optional" }),
  rule({ platform: "THREADS", channel: "threads", captionLimit: 500, titleLimit: null, imageLimit: 10, mediaRequired: false, video: "optional" }),
  rule({ platform: "PINTEREST", channel: "pinterest", captionLimit: 500, titleLimit: 100, imageLimit: 1, mediaRequired: true, video: "optional" }),
  rule({ platform: "TIKTOK", channel: "tiktok", captionLimit: 2200, titleLimit: null, imageLimit: 0, mediaRequired: true, video: "required" }),
  rule({ platform: "YOUTUBE", channel: "youtube", captionLimit: 5000, titleLimit: 100, imageLimit: 0, mediaRequired: true, video: "required" }),
  rule({ platform: "GOOGLE_BUSINESS", channel: "google_business", captionLimit: 1500, titleLimit: null, imageLimit: 1, mediaRequired: false, video: "none" }),
];

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
export const redditTitleLimit = 300;
