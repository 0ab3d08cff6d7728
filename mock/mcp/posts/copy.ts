// The mock's "language model": deterministic copy from a brief. Each post of a batch takes its own angle, each
// destination gets copy in its own style within its caption limit, and the same brief always reads the same way.
// Nothing here is random: every choice comes from a SHA-256 of its inputs.
import { createHash } from "node:crypto";
import { rules, rulesFor } from "./limits.js";
import { captionMarkers, stripMarkers } from "./magic.js";

export function hash32(...parts: unknown[]): number {
  return createHash("sha256").update(parts.map((p) => JSON.stringify(p) ?? "").join("\u0000")).digest().readUInt32BE(0);
}

export function between(min: number, max: number, ...parts: unknown[]): number {
  return min + (hash32(...parts) % (max - min + 1));
}

interface Angle {
  label: string;
  hook: string;
  body: string;
  cta: string;
}

/** Twenty angles, so a batch of up to 20 never repeats one. */
const angles: readonly Angle[] = [
  { label: "Behind the scenes", hook: "Ever wondered what happens before you see it?", body: "Here is how we get it ready, step by step.", cta: "Come and see for yourself." },
  { label: "Quick tip", hook: "One small tip that makes a big difference:", body: "It takes two minutes and you will notice it straight away.", cta: "Save this for later." },
  { label: "Customer question", hook: "A question we hear every week:", body: "Here is the honest answer, with no small print.", cta: "Ask us anything in the comments." },
  { label: "Announcement", hook: "Big news from us:", body: "We have been working on this for a while and it is finally here.", cta: "Tell a friend who would love it." },
  { label: "Our story", hook: "It started with a simple idea.", body: "This is the part of our story we rarely tell.", cta: "Thank you for being part of it." },
  { label: "Myth vs fact", hook: "Myth or fact?", body: "Most people get this one wrong, and that is fine: here is what is true.", cta: "Did you know? Let us know below." },
  { label: "By the numbers", hook: "A few numbers we are proud of:", body: "Every one of them is down to people like you.", cta: "Here is to the next milestone." },
  { label: "Checklist", hook: "Before you go, run through this list:", body: "Three things to check, and you are set.", cta: "Share it with someone who needs it." },
  { label: "Invitation", hook: "You are invited.", body: "Drop by, say hello and see what is new.", cta: "We would love to see you." },
  { label: "Seasonal", hook: "The season has changed and so have we.", body: "Here is what is new for the weeks ahead.", cta: "Make the most of it while it lasts." },
  { label: "Meet the team", hook: "Meet one of the people behind it all.", body: "They have a favourite part of the job, and it might surprise you.", cta: "Say hi next time you visit." },
  { label: "How it is made", hook: "From start to finish, here is how it is made.", body: "No shortcuts, just care at every step.", cta: "Ask us about any step." },
  { label: "Favourite pick", hook: "If you only try one thing, make it this.", body: "It is the one our regulars keep coming back for.", cta: "Tell us your favourite." },
  { label: "Before and after", hook: "Before and after:", body: "The difference is in the details.", cta: "Which do you prefer?" },
  { label: "Common mistake", hook: "The most common mistake we see:", body: "It is easy to fix once you know what to look for.", cta: "Tag someone who needs to hear this." },
  { label: "Thank you", hook: "A big thank you.", body: "None of this happens without our community.", cta: "We appreciate every one of you." },
  { label: "Did you know", hook: "Did you know?", body: "A little fact that makes everything make sense.", cta: "Pass it on." },
  { label: "Weekend plans", hook: "Weekend plans sorted.", body: "Here is how to make the most of it with us.", cta: "See you there." },
  { label: "Under the spotlight", hook: "In the spotlight this week:", body: "A closer look at something we think deserves attention.", cta: "Have a closer look." },
  { label: "Looking ahead", hook: "What is next?", body: "A glimpse of what we are planning, and why.", cta: "Stay tuned." },
];

/** The brief's subject for people: its first sentence without markers, at most 80 characters. */
export function topicOf(brief: string): string {
  const clean = stripMarkers(brief);
  const first = (clean.split(/(?<=[.!?])\s|\n/)[0] ?? clean).replace(/[.!?]+$/, "").trim() || "What we do";
  return shorten(first, 80);
}

function shorten(text: string, max: number): string {
  const chars = [...text];
  if (chars.length <= max) return text;
  const cut = chars.slice(0, max - 1).join("");
  const space = cut.lastIndexOf(" ");
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

export interface PostCopy {
  angle: Angle;
  title: string;
  topic: string;
}

/** The angle and title of post `index` of a batch. */
export function planPost(brief: string, index: number, longTitle: boolean): PostCopy {
  const angle = angles[(hash32("angle", brief) + index) % angles.length]!;
  const topic = topicOf(brief);
  let title = `${angle.label}: ${topic}`;
  if (longTitle) title = `${title} — ${"and everything else you wanted to know about it ".repeat(8)}`.trim();
  return { angle, title, topic };
}

function hashtags(brandName: string, topic: string): string {
  const words = topic.toLowerCase().match(/[a-z]{5,}/g) ?? [];
  const tags = [brandName.replace(/[^A-Za-z0-9]/g, ""), ...new Set(words)].filter(Boolean).slice(0, 3);
  return tags.map((t) => `#${t.toLowerCase()}`).join(" ");
}

/** A destination's caption for a post, within the destination's limit, with the brief's provider markers. */
export function captionFor(platform: string, copy: PostCopy, brandName: string, brief: string): string {
  const r = rulesFor(platform);
  if (r?.story) return "";
  const { angle, topic } = copy;
  let text: string;
  switch (platform) {
    case "INSTAGRAM":
      text = `${angle.hook} ${topic}. ${angle.body}\n\n${angle.cta}\n\n${hashtags(brandName, topic)}`;
      break;
    case "FACEBOOK":
      text = `${angle.hook} ${topic}. ${angle.body} ${angle.cta} — ${brandName}`;
      break;
    case "LINKEDIN":
      text = `${angle.label}: ${topic}. ${angle.body} At ${brandName} we think it matters, and we would like to hear how you see it.`;
      break;
    case "X":
    case "THREADS":
      text = `${angle.hook} ${topic}. ${angle.cta}`;
      break;
    case "REDDIT":
      text = `${topic}. ${angle.body} Happy to answer questions here — ${brandName}.`;
      break;
    default:
      text = `${angle.hook} ${topic}. ${angle.body} ${angle.cta}`;
  }
  return fitWithMarkers(text, captionMarkers(brief), r?.captionLimit ?? 0);
}

/** The text, shortened so that it and the markers fit the limit (0 = none). */
export function fitWithMarkers(text: string, markers: readonly string[], limit: number): string {
  const tail = markers.length ? ` ${markers.join(" ")}` : "";
  if (limit > 0) text = shorten(text, Math.max(1, limit - [...tail].length));
  return `${text}${tail}`;
}

/** A rewrite of a caption in the brand's voice (generate_caption). */
export function rewriteCaption(platform: string, current: string, title: string, brandName: string, instructions: string | undefined): string {
  const openers = ["Here is the thing:", "Good news:", "Quick one:", "From all of us at " + brandName + ":", "In short:"];
  const opener = openers[hash32("rewrite", current, instructions ?? "", platform) % openers.length]!;
  const topic = title.includes(": ") ? title.slice(title.indexOf(": ") + 2) : title;
  const guidance = instructions ? stripMarkers(instructions) : "";
  const asked = guidance ? ` (${shorten(guidance, 60)})` : "";
  const markers = [...current.matchAll(/\[(?:refuse:[a-z_]+|slow|stuck|story-partial|publisher-error)\]/gi)].map((m) => m[0]);
  const text = `${opener} ${shorten(topic, 120)}.${asked} ${brandName} would love to see you.`;
  return fitWithMarkers(text, markers, rules(platform).captionLimit);
}

/** A caption written from a create_draft prompt. */
export function captionFromPrompt(platform: string, prompt: string, brandName: string): string {
  const copy = planPost(prompt, 0, false);
  return captionFor(platform, copy, brandName, prompt);
}

/** The title a destination publishes: Reddit takes the post title as it is, others cut to their limit. */
export function destinationTitle(platform: string, postTitle: string): string | null {
  const r = rulesFor(platform);
  if (!r || r.titleLimit === null) return null;
  return r.reddit ? postTitle : shorten(postTitle, r.titleLimit);
}
