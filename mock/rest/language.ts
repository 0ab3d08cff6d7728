// The words the REST mock writes an idea's `prompt` in: one frame per language (data: prompt-frames.json, checked
// when this module loads), so the prompt is in the brand's language (only the brand's own words — name,
// offerings, quotes, rules — and holiday names are embedded as they are). Languages without a frame get the
// English frame with an explicit instruction to write in the brand's language code.
import type { Archetype, IdeaFormat } from "../../generated/rest/types.js";
import type { Season } from "./calendar.js";
import { dataFile, type DataFile } from "../data-file.js";
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

const frameKeys = ["write", "formats", "voice", "tone", "tasks", "moment", "parts", "seasons", "quote", "quoteMarks", "always", "end"] as const;

/** One language's frame read from the data file; throws naming the first problem. */
function readFrame(f: DataFile, lang: string, v: unknown): Frame {
  const frame = f.object(v, lang, frameKeys, frameKeys);
  const table = (key: string, keys: readonly string[]) => {
    const t = f.object(frame[key], `${lang}.${key}`, keys, keys);
    for (const k of keys) f.text(t[k], `${lang}.${key}.${k}`);
  };
  for (const [key, names] of Object.entries(placeholders)) {
    const template = f.text(frame[key], `${lang}.${key}`);
    for (const name of names) if (!template.includes(`{${name}}`)) f.fail(`${lang}.${key}`, `lacks {${name}}`);
  }
  f.text(frame.end, `${lang}.end`);
  table("formats", formats);
  table("voice", archetypes);
  table("tasks", taskKeys);
  for (const k of taskKeys) if (!(frame.tasks as Record<string, string>)[k]!.includes("{subject}")) f.fail(`${lang}.tasks.${k}`, "lacks {subject}");
  table("parts", parts);
  table("seasons", seasons);
  const marks = frame.quoteMarks;
  if (!Array.isArray(marks) || marks.length !== 2) f.fail(`${lang}.quoteMarks`, "must be [open, close]");
  f.texts(marks, `${lang}.quoteMarks`);
  return frame as unknown as Frame;
}

/** The frames by language code, aliases included; throws naming the first problem. Run once when the module loads. */
export function readPromptFrames(data: unknown): Record<string, Frame> {
  const f = dataFile("mock/rest/prompt-frames.json");
  const root = f.object(data, "the file", ["frames", "aliases"], ["frames", "aliases"]);
  const aliases = Object.entries(f.record(root.aliases, "aliases")).map(([alias, target]) => [alias, f.text(target, `aliases.${alias}`)] as const);
  const out: Record<string, Frame> = {};
  for (const [lang, frame] of Object.entries(f.record(root.frames, "frames"))) {
    out[lang] = readFrame(f, lang, frame);
    // Aliases sit after the language they share a frame with (the order promptLanguages lists).
    for (const [alias, target] of aliases) if (target === lang) out[alias] = out[lang];
  }
  for (const [alias, target] of aliases) if (!out[target]) f.fail(`aliases.${alias}`, `names no frame (${target})`);
  if (!out.en) f.fail("frames", "lack the English frame (en); it is the fallback");
  return out;
}

const frames = readPromptFrames(framesJson);
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
