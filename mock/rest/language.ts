// The words the REST mock writes an idea's `prompt` in: one frame per language (data: prompt-frames.json, checked
// when this module loads), so the prompt is in the brand's language (only the brand's own words — name,
// offerings, quotes, rules — and holiday names are embedded as they are). Languages without a frame get the
// English frame with an explicit instruction to write in the brand's language code.
import type { Archetype, IdeaFormat } from "../../generated/rest/types.js";
import type { Season } from "./calendar.js";
import framesJson from "./prompt-frames.json" with { type: "json" };

export type TaskKey = "moment" | "spotlight" | "story" | "tips" | "seasonal" | "questions" | "behind" | "checklist" | "myth" | "gift";
type Part = "early" | "mid" | "late";

const formats: readonly IdeaFormat[] = ["image", "carousel", "video", "text"];
const archetypes: readonly Archetype[] = ["innocent", "everyman", "hero", "outlaw", "explorer", "creator", "ruler", "magician", "lover", "caregiver", "jester", "sage"];
const taskKeys: readonly TaskKey[] = ["moment", "spotlight", "story", "tips", "seasonal", "questions", "behind", "checklist", "myth", "gift"];
const parts: readonly Part[] = ["early", "mid", "late"];
const seasons: readonly Season[] = ["winter", "spring", "summer", "autumn"];

/** One language's sentences (prompt-frames.json); `{name}`-style placeholders are filled by `fill`. */
interface Frame {
  /** Opening sentence, with {format} and {name}. */
  write: string;
  formats: Record<IdeaFormat, string>;
  voice: Record<Archetype, string>;
  /** With {voice}. */
  tone: string;
  /** Each with {subject}. */
  tasks: Record<TaskKey, string>;
  /** With {when}: a holiday name or "<part> <season>". */
  moment: string;
  parts: Record<Part, string>;
  seasons: Record<Season, string>;
  /** With {words}: the brand's own words, each between quoteMarks, joined with ", ". */
  quote: string;
  quoteMarks: [string, string];
  /** With {rules}. */
  always: string;
  end: string;
}

/** What each template must contain, so a typo in the data fails at start rather than in a prompt. */
const placeholders = { write: ["format", "name"], tone: ["voice"], moment: ["when"], quote: ["words"], always: ["rules"] } as const;

const text = (v: unknown): v is string => typeof v === "string" && v.trim() !== "";

/** Throws naming the first problem of a frame read from the data file. */
function checkFrame(lang: string, f: Record<string, unknown>): Frame {
  const fail = (what: string) => {
    throw new Error(`prompt-frames.json: ${lang}.${what}`);
  };
  const table = (key: string, keys: readonly string[]) => {
    const t = f[key] as Record<string, unknown> | undefined;
    if (typeof t !== "object" || t === null) fail(`${key} is missing`);
    for (const k of keys) if (!text(t![k])) fail(`${key}.${k} is missing or blank`);
    for (const k of Object.keys(t!)) if (!keys.includes(k)) fail(`${key}.${k} is not a known key`);
  };
  for (const [key, names] of Object.entries(placeholders)) {
    if (!text(f[key])) fail(`${key} is missing or blank`);
    for (const name of names) if (!(f[key] as string).includes(`{${name}}`)) fail(`${key} lacks {${name}}`);
  }
  if (!text(f.end)) fail("end is missing or blank");
  table("formats", formats);
  table("voice", archetypes);
  table("tasks", taskKeys);
  for (const k of taskKeys) if (!(f.tasks as Record<string, string>)[k]!.includes("{subject}")) fail(`tasks.${k} lacks {subject}`);
  table("parts", parts);
  table("seasons", seasons);
  const marks = f.quoteMarks;
  if (!Array.isArray(marks) || marks.length !== 2 || !marks.every(text)) fail("quoteMarks must be [open, close]");
  return f as unknown as Frame;
}

/** The frames by language code, aliases included; throws naming the first problem. Run once when the module loads. */
export function readPromptFrames(data: { frames: Record<string, Record<string, unknown>>; aliases: Record<string, string> }): Record<string, Frame> {
  const out: Record<string, Frame> = {};
  for (const [lang, frame] of Object.entries(data.frames)) {
    out[lang] = checkFrame(lang, frame);
    // Aliases sit after the language they share a frame with (the order promptLanguages lists).
    for (const [alias, target] of Object.entries(data.aliases)) if (target === lang) out[alias] = out[lang];
  }
  for (const [alias, target] of Object.entries(data.aliases)) if (!out[target]) throw new Error(`prompt-frames.json: alias ${alias} names no frame (${target})`);
  if (!out.en) throw new Error("prompt-frames.json: the English frame (en) is missing; it is the fallback");
  return out;
}

const frames = readPromptFrames(framesJson as never);
const en = frames.en!;

/** The template with each {key} replaced in one pass (a brand's words that contain braces stay as written). */
const fill = (template: string, values: Record<string, string>) => template.replace(/\{(\w+)\}/g, (whole, key: string) => values[key] ?? whole);

/** Languages whose prompt is written entirely in that language. */
export const promptLanguages = Object.keys(frames);

export interface PromptParts {
  language: string;
  format: IdeaFormat;
  name: string;
  archetype: Archetype;
  task: TaskKey;
  subject: string;
  /** A holiday name, or a season to localize; null when the idea is evergreen. */
  moment: { holiday: string } | { season: Season; part: Part } | null;
  quotes: string[];
  always: string[];
}

export function writePrompt(p: PromptParts): string {
  const frame = frames[p.language];
  const f = frame ?? en;
  const [open, close] = f.quoteMarks;
  const when = p.moment === null ? null : "holiday" in p.moment ? p.moment.holiday : `${f.parts[p.moment.part]} ${f.seasons[p.moment.season]}`;
  const sentences = [
    fill(f.write, { format: f.formats[p.format], name: p.name }),
    ...(frame ? [] : [`Write it in the language with ISO 639-1 code "${p.language}", not in English.`]),
    fill(f.tasks[p.task], { subject: p.subject }),
    ...(when === null ? [] : [fill(f.moment, { when })]),
    ...(p.quotes.length ? [fill(f.quote, { words: p.quotes.map((w) => `${open}${w}${close}`).join(", ") })] : []),
    fill(f.tone, { voice: f.voice[p.archetype] }),
    ...(p.always.length ? [fill(f.always, { rules: p.always.join("; ") })] : []),
    f.end,
  ];
  return sentences.join(" ");
}
