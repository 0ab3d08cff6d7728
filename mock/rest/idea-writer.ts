// Writes the ideas of a batch: deterministic content from the brand as it was when the batch was asked for, the
// request and the server's seed. The rules it keeps (checked by the tests):
// - ideas come best first; a batch considers `count` ideas and omits the ones nothing backs (into `left_out`);
// - every source quotes the brand's own words exactly: a substring of its name, description or offerings, or of
//   the caller's `focus` for a `focus` source; at most four sources per idea; `focus`, when given, is cited;
// - no text of an idea contains a `rules.never` phrase (compared case-insensitively); quotes that would are not
//   used, and other text has the phrase taken out;
// - `why_now` is written for the requested day: a holiday of the brand's country within three weeks, else the
//   season (hemisphere-aware); ideas that are not about the moment say `Evergreen`;
// - only the requested formats; `outline.key_points` holds one to five points; `prompt` is in the brand's language.
import type { Archetype, Idea, IdeaFormat, Source } from "../../generated/rest/types.js";
import { longDay, seasonOf, upcomingHoliday } from "./calendar.js";
import { between, hash32 } from "./hash.js";
import { writePrompt, type TaskKey } from "./language.js";

export interface BrandSnapshot {
  name: string;
  website: string | null;
  description: string;
  offerings: string[];
  language: string;
  country: string | null;
  archetype: Archetype;
  rules: { always: string[]; never: string[] };
}

export interface IdeaRequest {
  count: number;
  /** Requested formats, deduplicated, in the order sent. */
  formats: IdeaFormat[];
  focus: string | null;
  /** YYYY-MM-DD */
  date: string;
}

export type WrittenIdea = Omit<Idea, "id" | "object" | "rank">;

export const allFormats: IdeaFormat[] = ["carousel", "image", "video", "text"];

interface Plan {
  task: TaskKey;
  /** What must back the idea: a sentence of the description or one of the offerings. */
  backing: "description" | "offering";
  timely: boolean;
}

/** The ideas a batch considers, best first; a batch of `count` considers the first `count`. */
const plans: Plan[] = [
  { task: "moment", backing: "description", timely: true },
  { task: "spotlight", backing: "offering", timely: false },
  { task: "story", backing: "description", timely: false },
  { task: "tips", backing: "offering", timely: false },
  { task: "seasonal", backing: "offering", timely: true },
  { task: "questions", backing: "offering", timely: false },
  { task: "behind", backing: "description", timely: false },
  { task: "checklist", backing: "offering", timely: false },
  { task: "myth", backing: "description", timely: false },
  { task: "gift", backing: "offering", timely: true },
];

// rule: archetype-sets-voice, idea-prompt-in-brand-voice
const voices: Record<Archetype, string> = {
  innocent: "simple, honest and hopeful",
  everyman: "down-to-earth",
  hero: "brave, determined",
  outlaw: "rule-breaking, outspoken",
  explorer: "curious, free",
  creator: "inventive, craft-proud",
  ruler: "confident, standard-setting",
  magician: "transforming, effortless",
  lover: "warm, close",
  caregiver: "kind, protective",
  jester: "playful, funny",
  sage: "wise, explaining",
};

const lower = (s: string) => (s.length > 1 && s[1] === s[1]!.toLowerCase() ? s.charAt(0).toLowerCase() + s.slice(1) : s);
const upper = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** Exact substrings of a text to quote: its sentences, each cut to at most 200 characters at a word end. */
export function quotableParts(text: string): string[] {
  const parts: string[] = [];
  const re = /[^.!?\n]+[.!?]*/g;
  for (const m of text.matchAll(re)) {
    let part = m[0].trim();
    if (part.length < 3) continue;
    if (part.length > 200) {
      const cut = part.slice(0, 200);
      const space = cut.lastIndexOf(" ");
      part = (space > 40 ? cut.slice(0, space) : cut).trim();
    }
    if (text.includes(part)) parts.push(part);
  }
  return parts;
}

// rule: brand-rules-followed
class NeverRules {
  readonly phrases: string[];
  constructor(never: string[]) {
    this.phrases = never
      .map((p) => p.trim().replace(/[.!]+$/, "").trim().toLowerCase())
      .filter((p) => p.length > 0);
  }
  breaks(text: string): boolean {
    const t = text.toLowerCase();
    return this.phrases.some((p) => t.includes(p));
  }
  /** The text with every never-phrase taken out. */
  scrub(text: string): string {
    let out = text;
    for (let round = 0; round < 20 && this.breaks(out); round++) {
      for (const p of this.phrases) {
        let i: number;
        while ((i = out.toLowerCase().indexOf(p)) !== -1) out = out.slice(0, i) + out.slice(i + p.length);
      }
    }
    return out.replace(/\s{2,}/g, " ").replace(/\s+([.,;:!?])/g, "$1").trim() || "…";
  }
}

interface Moment {
  whyNow: string;
  label: string;
  prompt: { holiday: string } | { season: "winter" | "spring" | "summer" | "autumn"; part: "early" | "mid" | "late" };
}

// rule: why-now-for-date
function momentFor(brand: BrandSnapshot, date: string): Moment {
  const holiday = upcomingHoliday(brand.country, date);
  if (holiday) {
    const when =
      holiday.daysAway === 0
        ? `is today, ${longDay(date)}`
        : `is on ${longDay(holiday.date)}, ${holiday.daysAway} day${holiday.daysAway === 1 ? "" : "s"} after ${longDay(date)}`;
    return {
      whyNow: `${upper(holiday.name)} ${when}: people are planning for it now.`,
      label: holiday.name,
      prompt: { holiday: holiday.name },
    };
  }
  const { season, part } = seasonOf(brand.country, date);
  return {
    whyNow: `It is ${part} ${season} on ${longDay(date)}${brand.country ? ` in ${brand.country.toUpperCase()}` : ""}: ${
      { winter: "people stay in and look for comfort", spring: "people look for something fresh", summer: "people are out and about", autumn: "people settle back into routines" }[season]
    }.`,
    label: `${part} ${season}`,
    prompt: { season, part },
  };
}

interface Texts {
  title: string;
  hook: string;
  angle: string;
  point: string;
  cta: string;
  leftOut: string;
}

function textsFor(task: TaskKey, subject: string, isOffering: boolean, name: string, moment: Moment): Texts {
  const s = isOffering ? lower(subject) : subject;
  switch (task) {
    case "moment":
      return {
        title: `${upper(subject)} for ${moment.label}`,
        hook: `${upper(moment.label)} ${"holiday" in moment.prompt ? "is coming" : "is here"}, and ${name} is ready for it.`,
        angle: `Tie ${s} to ${moment.label} so the post feels timely, not like an advert.`,
        point: `Say what ${moment.label} means for customers of ${name}.`,
        cta: "Plan your visit before the rush.",
        leftOut: `${upper(moment.label)} at ${name}: nothing the brand says could back it.`,
      };
    case "spotlight":
      return {
        title: `Spotlight: ${subject}`,
        hook: `If you try one thing from ${name}, make it ${s}.`,
        angle: `Show ${s} up close and say plainly what makes it worth it.`,
        point: `Show ${s} from the customer's side.`,
        cta: `Ask us about ${s}.`,
        leftOut: `A spotlight on a signature product: nothing on the website names what ${name} sells.`,
      };
    case "story":
      return {
        title: `Why ${name} does it this way`,
        hook: `Here is the short story of ${name}.`,
        angle: "Tell what the business stands for, in its own words.",
        point: "Tell one concrete moment that shows what the business cares about.",
        cta: "Follow along for more from behind the counter.",
        leftOut: `The story of ${name}: nothing the brand says tells it.`,
      };
    case "tips":
      return {
        title: `Three tips for getting the most from ${s}`,
        hook: `Most people miss at least one of these about ${s}.`,
        angle: `Be useful first: practical advice about ${s} that earns trust.`,
        point: "Give three short, practical tips.",
        cta: "Save this post for later.",
        leftOut: `Tips on using a product: nothing on the website names a product of ${name} to give tips about.`,
      };
    case "seasonal":
      return {
        title: `${upper(subject)} for ${moment.label}`,
        hook: `${upper(moment.label)} calls for ${s}.`,
        angle: `Present ${s} as the natural choice for ${moment.label}.`,
        point: `Explain why ${s} fits ${moment.label}.`,
        cta: "Get yours while the moment lasts.",
        leftOut: `A seasonal offer for ${moment.label}: nothing on the website names an offer of ${name} for it.`,
      };
    case "questions":
      return {
        title: `What people ask about ${s}`,
        hook: `The question we hear most about ${s}, answered.`,
        angle: `Answer real questions about ${s} openly.`,
        point: "Answer the two most common questions.",
        cta: "Ask your question in the comments.",
        leftOut: `Questions customers ask: nothing on the website names an offering of ${name} they ask about.`,
      };
    case "behind":
      return {
        title: `Behind the scenes at ${name}`,
        hook: `This is what happens at ${name} before you arrive.`,
        angle: "Show the work nobody sees, honestly and without polish.",
        point: "Show one step of the work most customers never see.",
        cta: "Come and see it for yourself.",
        leftOut: `Behind the scenes at ${name}: nothing the brand says describes its work.`,
      };
    case "checklist":
      return {
        title: `Before you choose ${s}: a quick checklist`,
        hook: `Choosing ${s}? Check these first.`,
        angle: `Help people choose ${s} well, even if they choose elsewhere.`,
        point: "List what to check, one line each.",
        cta: "Send this to someone who is choosing.",
        leftOut: `A buying checklist: nothing on the website names what ${name} offers.`,
      };
    case "myth":
      return {
        title: `A common myth about ${name}'s work, put right`,
        hook: "You have probably heard this one. It is not quite true.",
        angle: "Correct a misunderstanding with what the business actually does.",
        point: "State the myth, then what is actually true.",
        cta: "Tell us which myth you believed.",
        leftOut: `A myth about ${name}'s work: nothing the brand says settles it.`,
      };
    case "gift":
      return {
        title: `${upper(subject)} as a gift for ${moment.label}`,
        hook: `Still looking for something for ${moment.label}? ${upper(s)}.`,
        angle: `Suggest ${s} as a thoughtful gift for ${moment.label}.`,
        point: `Say who ${s} makes a good gift for.`,
        cta: "Order a gift in time.",
        leftOut: `Gift ideas for ${moment.label}: nothing on the website names something ${name} offers as a gift.`,
      };
  }
}

function visualFor(format: IdeaFormat, subject: string): string {
  switch (format) {
    case "image":
      return `One well-lit photo of ${subject}, close up.`;
    case "carousel":
      return `Five slides: a cover, three slides with one point each, and a closing slide.`;
    case "video":
      return `A 20-second vertical video showing ${subject}.`;
    case "text":
      return "No picture: the words carry the post.";
  }
}

/** The ideas (best first) and what was left out, for a brand and a request. */
// rule: idea-fields-complete, idea-field-types, source-fields-complete, source-field-types, outline-fields-complete, idea-sources-limit, idea-source-quotes, idea-outline-key-points, focus-cited-as-source, focus-quote-exact, focus-not-cited-without-focus, batch-formats-respected, batch-shortfall-in-left-out
export function writeIdeas(brand: BrandSnapshot, request: IdeaRequest, seed: string): { ideas: WrittenIdea[]; leftOut: string[] } {
  const never = new NeverRules(brand.rules.never);
  const moment = momentFor(brand, request.date);
  const key = [seed, brand, request];
  const formats = request.formats.length ? request.formats : allFormats;
  const formatOffset = hash32(...key, "formats") % formats.length;

  const descriptionQuotes = [...quotableParts(brand.description), brand.name].filter((q) => q.trim() && !never.breaks(q));
  const offerings = brand.offerings.filter((o) => o.trim() && !never.breaks(o));
  const offeringOffset = offerings.length ? hash32(...key, "offerings") % offerings.length : 0;
  const focusQuote = request.focus ? (quotableParts(request.focus).find((q) => !never.breaks(q)) ?? null) : null;
  const always = brand.rules.always.map((r) => r.trim().replace(/[.!]+$/, "")).filter((r) => r && !never.breaks(r));

  const ideas: WrittenIdea[] = [];
  const leftOut: string[] = [];
  let offeringTurn = 0;
  let descriptionTurn = 0;
  plans.slice(0, request.count).forEach((plan, i) => {
    const usesOffering = plan.backing === "offering" || plan.task === "moment";
    const offering = usesOffering ? offerings[(offeringOffset + offeringTurn) % (offerings.length || 1)] : undefined;
    if (usesOffering) offeringTurn++;
    const described = descriptionQuotes.length ? descriptionQuotes[descriptionTurn++ % descriptionQuotes.length]! : undefined;
    const subject = offering ?? brand.name;
    const texts = textsFor(plan.task, subject, offering !== undefined, brand.name, moment);
    const s = offering !== undefined ? lower(subject) : subject;
    const backed = plan.backing === "offering" ? offering !== undefined : described !== undefined;
    if (!backed) {
// rule: idea-claims-backed
      leftOut.push(never.scrub(texts.leftOut));
      return;
    }
    const sources: Source[] = [];
    if (offering !== undefined) sources.push({ type: "product", title: never.scrub(offering), url: null, quote: offering });
    if (described !== undefined)
      sources.push({
        type: "website",
        title: never.scrub(brand.website ? `${brand.name} – website` : `${brand.name} – brand description`),
        url: brand.website && !never.breaks(brand.website) ? brand.website : null,
        quote: described,
      });
    if (request.focus !== null && focusQuote !== null) sources.push({ type: "focus", title: "Your focus", url: null, quote: focusQuote });
    const quotes = sources.map((s) => s.quote).filter((q): q is string => q !== null);

    const format = formats[(formatOffset + i) % formats.length]!;
    const points = [
      `Quote the brand: "${quotes[0]}"`,
      texts.point,
      ...(focusQuote ? [`Lean toward the focus: "${focusQuote}"`] : []),
      ...always.slice(0, 1).map((r) => `Always: ${r}`),
    ].slice(0, between(2, 5, ...key, i, "points"));
    const prompt = writePrompt({
      language: brand.language,
      format,
      name: brand.name,
      archetype: brand.archetype,
      task: plan.task,
      subject: offering ?? brand.name,
      moment: plan.timely ? moment.prompt : null,
      quotes,
      always,
    });
    ideas.push({
      title: never.scrub(texts.title),
      hook: never.scrub(texts.hook),
      angle: never.scrub(`${texts.angle} Voice: ${voices[brand.archetype]}.`),
      why_now: plan.timely ? never.scrub(moment.whyNow) : "Evergreen",
      format,
      sources: sources.slice(0, 4) as WrittenIdea["sources"],
      outline: {
        opening: never.scrub(`Open on ${s}: ${texts.hook}`),
        key_points: points.map((p) => never.scrub(p)) as WrittenIdea["outline"]["key_points"],
        call_to_action: never.scrub(texts.cta),
        visual: never.scrub(visualFor(format, s)),
      },
      prompt: never.scrub(prompt),
    });
  });
  return { ideas, leftOut };
}
