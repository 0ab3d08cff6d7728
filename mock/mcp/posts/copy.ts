// The mock's "language model": deterministic copy from a brief. Each post of a batch takes its own angle, each
// destination gets copy in its own style within its caption limit, and the same brief always reads the same way.
// Nothing here is random: every choice comes from a SHA-256 of its inputs. The wording (angles, openers) is data:
// copy.json, checked when this module loads.
import { createHash } from "node:crypto";
import { rules, rulesFor } from "./limits.js";
import { captionMarkers, stripMarkers } from "./magic.js";
import { dataFile } from "../../data-file.js";
import copyJson from "./copy.json" with { type: "json" };

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

/** copy.json, checked; throws naming the first problem. */
export function readCopy(data: unknown): { angles: readonly Angle[]; openers: readonly string[] } {
  const f = dataFile("mock/mcp/posts/copy.json");
  const root = f.object(data, "the file", ["angles", "openers"], ["angles", "openers"]);
  const angles = f.list(root.angles, "angles").map((v, i): Angle => {
    const where = `angles[${i}]`;
    const a = f.object(v, where, ["label", "hook", "body", "cta"], ["label", "hook", "body", "cta"]);
    return { label: f.text(a.label, `${where}.label`), hook: f.text(a.hook, `${where}.hook`), body: f.text(a.body, `${where}.body`), cta: f.text(a.cta, `${where}.cta`) };
  });
  // A batch has at most 20 posts: with 20 angles or more, none of its posts repeats one.
  if (angles.length < 20) f.fail("angles", `has ${angles.length}; a batch of 20 posts needs 20`);
  if (new Set(angles.map((a) => a.label)).size !== angles.length) f.fail("angles", "repeat a label");
  const openers = f.texts(root.openers, "openers", true);
  for (const [i, o] of openers.entries()) if (/\{(?!brand\})/.test(o)) f.fail(`openers[${i}]`, "has a placeholder other than {brand}");
  return { angles, openers };
}

const { angles, openers } = readCopy(copyJson);

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
  const opener = openers[hash32("rewrite", current, instructions ?? "", platform) % openers.length]!.replaceAll("{brand}", brandName);
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
