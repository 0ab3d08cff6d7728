// The steps of a REST walk and the plan of one walk: a pure function of (run seed, walk number, length), so
// the same seed gives the same walk (test/walks.test.ts shows it) and a printed seed reproduces a run. Steps
// name brands and batches by labels (b1, x1) that the walk gives them when it creates them, not by ids, so a
// walk can be replayed against fresh resources and any part of it cut out while shrinking (a step whose brand
// or batch was cut is left out when replayed). Websites are named by their slot in the target file.
import { openapi } from "../contract.js";
import { focused, focusOf, pickFresh, type Focus } from "../../../core/walks/focus.js";
import { prng, type Prng } from "../../../core/walks/prng.js";

/** The format a replay file of this suite's walks names (conformance/replay.ts). */
export const restReplayFormat = "ideas-contract/rest-walk@1";

/** A website from the target file's inputs (`website`, `other_website`): both readable by the target. */
export type WebsiteSlot = "website" | "other_website";

export interface BrandFields {
  name?: string;
  description?: string;
  language?: string;
  country?: string;
  archetype?: string;
  rules?: { always?: string[]; never?: string[] };
}

export type Step =
  | { op: "create-brand"; brand: string; website?: WebsiteSlot; body: BrandFields }
  | { op: "patch-brand"; brand: string; website?: WebsiteSlot; body: BrandFields }
  | { op: "get-brand"; brand: string }
  | { op: "create-batch"; batch: string; brand: string; body: { count?: number; formats?: string[] } }
  | { op: "get-batch"; batch: string }
  | { op: "feedback"; batch: string; idea: number; body: { outcome: string; reason?: string; comment?: string } }
  | { op: "predict"; brand: string; drafts: { id?: string; text: string }[] }
  /** Polls every brand that is reading and every batch that is thinking, at the seed's pace, until they settle; then reads every brand and batch once more. */
  | { op: "wait" }
  /** A deliberate wrong call: an id of the kind that names nothing. */
  | { op: "unknown-id"; kind: "brand" | "batch" | "idea" }
  /** A deliberate wrong call: another team's token on this team's brand or batch (skipped without that token). */
  | { op: "other-team"; call: "get-brand" | "patch-brand" | "get-batch"; brand?: string; batch?: string; body?: BrandFields };

export type Op = Step["op"];

/** Every op of a REST walk (replay files are checked against it). */
export const restOps: ReadonlySet<string> = new Set<Op>(["create-brand", "patch-brand", "get-brand", "create-batch", "get-batch", "feedback", "predict", "wait", "unknown-id", "other-team"]);

const enumOf = (schema: string): string[] => [...((openapi.components.schemas[schema]?.enum as string[] | undefined) ?? [])];
const archetypes = enumOf("Archetype");
const outcomes = enumOf("FeedbackOutcome");
const reasons = enumOf("RejectionReason");
const formats = enumOf("IdeaFormat");

const names = ["Harbour Loaf", "Fjord Coffee", "Birch & Bloom", "Tidewater Books", "Northside Physio"];
const descriptions = [
  "A bakery that bakes sourdough bread and cinnamon buns every morning.",
  "A cafe that roasts its own coffee and serves breakfast all day.",
  "A florist that arranges seasonal bouquets for weddings and birthdays.",
  "A bookshop with a reading corner and author evenings every month.",
];
const languages = ["en", "de", "nb", "fr", "es"];
const countries = ["IE", "AT", "NO", "FR", "US"];
const alwaysPool = ["Mention the neighbourhood.", "Name the season.", "Invite people to visit.", "Thank regular customers.", "Keep it under three sentences."];
const neverPool = ["Use emojis.", "Talk about prices or discounts.", "Mention competitors.", "Use slang.", "Promise delivery times."];
const draftTexts = ["Fresh bread, baked this morning.", "Our winter opening hours start on Monday.", "Three things to know before you order a cake.", "Meet the people behind the counter."];

/**
 * What a REST walk may dwell on (focus.ts); `newWebsite`: how often its PATCHes send a new website; `fromName`: the
 * weight of a brand made from a name and a description (against 4 from a website, 3 from both).
 */
export interface RestFocus extends Focus<Op> {
  newWebsite?: number;
  fromName?: number;
}

/** The REST walks' families, in the order the walks of a run take them (walk 1 the first, …). */
export const restFamilies: readonly RestFocus[] = [
  // PATCHes piled on a brand, its lists replaced and read back, another team's refused PATCH read back:
  // brand-patch-partial, brand-patch-lists-replaced, brand-supplied-values-kept, team-isolation-403.
  { name: "brand edits", weights: { "patch-brand": 1.5, "get-brand": 1.3, "other-team": 1.5, "create-batch": 0.5, feedback: 0.5, predict: 0.5 } },
  // Ideas for ready brands, their batches followed to the end, feedback and rankings, the brand read after:
  // ideas-accepted-202, batch-*, feedback-*, predictions-*, brand-terminal-stays.
  {
    name: "ideas",
    weights: { "create-batch": 1.3, "get-batch": 1.5, feedback: 3, predict: 1.3, wait: 2, "create-brand": 0.5, "get-brand": 0.7, "patch-brand": 0.5 },
    after: { "create-brand": { wait: 2 }, "create-batch": { "get-brand": 4, wait: 2 }, feedback: { "get-batch": 1.5, "get-brand": 1.5 } },
  },
  // Brands followed to ready, changed (a new website among the changes) and read: brand-terminal-stays, brand-reading-to-ready;
  // as often from a name and a description as from a website (brand-create-website-or-name-description).
  { name: "ready brands", weights: { wait: 2, "get-brand": 1.5, "patch-brand": 1.2 }, newWebsite: 0.3, fromName: 7 },
  // Wrong calls, and calls on a brand still reading: unknown-id-404, team-isolation-403, *-brand-not-ready-409.
  {
    name: "wrong calls",
    weights: { "unknown-id": 14, "other-team": 5, predict: 1.5, "patch-brand": 0.3, "get-brand": 0.6 },
    after: { "create-brand": { predict: 4, "create-batch": 4 } },
  },
];

/** The focus of walk `walk`. */
export const restFocusOf = (walk: number): RestFocus => focusOf(restFamilies, walk)!;

interface PlanBrand {
  label: string;
  website?: WebsiteSlot;
  /** A wait came after its creation (or its last new website): the plan expects it ready. */
  settled: boolean;
}
interface PlanBatch {
  label: string;
  settled: boolean;
}

/** Rules lists: on a create, maybe empty; in a PATCH, never empty, so that what a list replaces can be seen to go. */
function rules(r: Prng, min: number): BrandFields["rules"] {
  const lists = r.pick([["always"], ["never"], ["always", "never"]] as const);
  const out: NonNullable<BrandFields["rules"]> = {};
  for (const list of lists) out[list] = r.some(list === "always" ? alwaysPool : neverPool, min, 3);
  return out;
}

/** Values for a brand's fields, at most those named. */
function fields(r: Prng, which: readonly (keyof BrandFields)[], minList = 0): BrandFields {
  const out: BrandFields = {};
  for (const f of which) {
    if (f === "name") out.name = r.pick(names);
    if (f === "description") out.description = r.pick(descriptions);
    if (f === "language") out.language = r.pick(languages);
    if (f === "country") out.country = r.pick(countries);
    if (f === "archetype") out.archetype = r.pick(archetypes);
    if (f === "rules") out.rules = rules(r, minList);
  }
  return out;
}

const otherSlot = (s: WebsiteSlot | undefined): WebsiteSlot => (s === "website" ? "other_website" : "website");

/**
 * The steps of walk `walk` of a run with seed `seed`, at most `length` of them. The weights favour what shows
 * effects across views: changes and reads of the same brand, batches of ready brands, waits when work is pending;
 * the walk's focus (restFamilies) weights them toward its family of scenarios.
 */
export function planWalk(seed: string, walk: number, length: number): Step[] {
  const r = prng(`${seed}:${walk}`);
  const focus = restFocusOf(walk);
  const drawn = { outcomes: new Set<string>(), reasons: new Set<string>(), unknown: new Set<"brand" | "batch" | "idea">(), otherTeam: new Set<"get-brand" | "patch-brand" | "get-batch">() };
  const brands: PlanBrand[] = [];
  const batches: PlanBatch[] = [];
  const steps: Step[] = [];
  const pending = () => brands.some((b) => !b.settled) || batches.some((b) => !b.settled);
  // Most steps stay with the brand the walk last touched, so that effects pile up where they can be seen.
  let touched: PlanBrand | undefined;
  const pickBrand = (among: readonly PlanBrand[] = brands) => {
    const b = touched && among.includes(touched) && r.chance(0.8) ? touched : r.pick(among);
    return (touched = b);
  };
  for (let i = 0; i < length; i++) {
    const settled = brands.filter((b) => b.settled);
    const weights = [
      ["create-brand", brands.length === 0 ? 1000 : brands.length < 3 ? 0.8 : 0],
      ["patch-brand", brands.length ? 4 : 0],
      ["get-brand", brands.length ? 2.5 : 0],
      ["wait", pending() ? 3 : 0.2],
      ["create-batch", settled.length ? 2.5 : brands.length ? 0.6 : 0],
      ["get-batch", batches.length ? 2 : 0],
      ["feedback", batches.some((b) => b.settled) ? 1.2 : 0],
      ["predict", brands.length ? 0.7 : 0],
      ["unknown-id", 0.4],
      ["other-team", brands.length ? 0.5 : 0],
    ] as const;
    const op = r.weighted<Op>(focused(weights, focus, steps.at(-1)?.op))!;
    switch (op) {
      case "create-brand": {
        const from = r.weighted<"website" | "name" | "both">([["website", 4], ["name", focus.fromName ?? 2.5], ["both", 3]])!;
        const extra = (["language", "country", "archetype", "rules", "rules"] as const).filter(() => r.chance(0.45));
        const body = fields(r, [...(from === "website" ? [] : (["name", "description"] as const)), ...new Set(extra)]);
        const brand: PlanBrand = { label: `b${brands.length + 1}`, settled: false, ...(from === "name" ? {} : { website: r.pick(["website", "other_website"] as const) }) };
        brands.push(brand);
        touched = brand;
        steps.push({ op, brand: brand.label, ...(brand.website ? { website: brand.website } : {}), body });
        break;
      }
      case "patch-brand": {
        const brand = pickBrand();
        const which = r.some(["name", "description", "language", "country", "archetype", "rules", "rules", "rules", "rules"] as const, 1, 2);
        const body = fields(r, [...new Set(which)], 1);
        let website: WebsiteSlot | undefined;
        if (r.chance(focus.newWebsite ?? 0.12)) {
          website = otherSlot(brand.website);
          brand.website = website;
          brand.settled = false;
        }
        steps.push({ op, brand: brand.label, ...(website ? { website } : {}), body });
        break;
      }
      case "get-brand":
        steps.push({ op, brand: pickBrand().label });
        break;
      case "wait":
        for (const b of [...brands, ...batches]) b.settled = true;
        steps.push({ op });
        break;
      case "create-batch": {
        // Mostly a brand the plan expects ready; sometimes one that is likely still reading (a 409 to judge).
        const brand = settled.length && r.chance(0.85) ? pickBrand(settled) : pickBrand();
        const batch = { label: `x${batches.length + 1}`, settled: false };
        batches.push(batch);
        const body: { count?: number; formats?: string[] } = {};
        if (r.chance(0.6)) body.count = 1 + r.int(4);
        if (r.chance(0.4)) body.formats = r.some(formats, 1, 2);
        steps.push({ op, batch: batch.label, brand: brand.label, body });
        break;
      }
      case "get-batch":
        steps.push({ op, batch: r.pick(batches).label });
        break;
      case "feedback": {
        const batch = r.pick(batches.filter((b) => b.settled));
        const outcome = pickFresh(r, outcomes, drawn.outcomes);
        const body: { outcome: string; reason?: string; comment?: string } = { outcome };
        if (outcome === "rejected" && r.chance(0.7)) body.reason = pickFresh(r, reasons, drawn.reasons);
        if (r.chance(0.5)) body.comment = `Walk feedback: ${outcome}.`;
        steps.push({ op, batch: batch.label, idea: r.int(3), body });
        break;
      }
      case "predict": {
        const drafts = r.some(draftTexts, 1, 3).map((text, i) => (r.chance(0.5) ? { id: `d${i + 1}`, text } : { text }));
        steps.push({ op, brand: pickBrand().label, drafts });
        break;
      }
      case "unknown-id":
        steps.push({ op, kind: pickFresh(r, ["brand", "batch", "idea"] as const, drawn.unknown) });
        break;
      case "other-team": {
        const call = pickFresh(r, batches.length ? (["get-brand", "patch-brand", "get-batch"] as const) : (["get-brand", "patch-brand"] as const), drawn.otherTeam);
        if (call === "get-batch") steps.push({ op, call, batch: r.pick(batches).label });
        else steps.push({ op, call, brand: r.pick(brands).label, ...(call === "patch-brand" ? { body: fields(r, ["name"]) } : {}) });
        break;
      }
    }
  }
  return steps;
}

const show = (v: unknown) => JSON.stringify(v);

/** One line for people: what the step does. */
export function describeStep(step: Step): string {
  switch (step.op) {
    case "create-brand":
      return `create brand ${step.brand} ${show({ ...(step.website ? { website: `<${step.website}>` } : {}), ...step.body })}`;
    case "patch-brand":
      return `PATCH brand ${step.brand} ${show({ ...(step.website ? { website: `<${step.website}>` } : {}), ...step.body })}`;
    case "get-brand":
      return `GET brand ${step.brand}`;
    case "create-batch":
      return `ask ideas ${step.batch} for brand ${step.brand} ${show(step.body)}`;
    case "get-batch":
      return `GET batch ${step.batch}`;
    case "feedback":
      return `feedback on idea ${step.idea + 1} of batch ${step.batch} ${show(step.body)}`;
    case "predict":
      return `rank ${step.drafts.length} draft(s) for brand ${step.brand}`;
    case "wait":
      return "wait until every brand and batch settles";
    case "unknown-id":
      return `an unknown ${step.kind} id`;
    case "other-team":
      return `another team's token: ${step.call} ${step.brand ?? step.batch}`;
  }
}
