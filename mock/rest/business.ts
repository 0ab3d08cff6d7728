// What "reading" a brand finds. The mock never fetches the website: it derives a plausible business from the
// URL's host (name from the words, country and language from the top-level domain, offerings from the kind of
// business the words name), or from the name and description the caller sent. Deterministic: the same input
// always reads the same way.
import net from "node:net";
import { domainToUnicode } from "node:url";
import type { Archetype } from "../../generated/rest/types.js";
import { choose } from "./hash.js";
import { websiteFailsToRead, websiteHasNoBacking } from "./magic.js";

interface Kind {
  /** Words (lowercase) in a host or description that name this kind of business. */
  words: string[];
  /** What the business is, for a sentence: "a bakery". */
  label: string;
  offerings: string[];
  archetype: Archetype;
  /** Why that archetype, completing "The business …". */
  because: string;
}

const kinds: Kind[] = [
  { words: ["bakery", "bakeri", "bakehouse", "baker", "bread", "loaf", "boulangerie", "backerei"], label: "bakery", offerings: ["Sourdough bread", "Cinnamon buns", "Seasonal cakes", "Catering for small events"], archetype: "caregiver", because: "feeds its neighbourhood every morning and looks after its regulars" },
  { words: ["cafe", "coffee", "kaffe", "espresso", "roastery", "roasters", "kafe"], label: "café", offerings: ["Espresso drinks", "Filter coffee", "Homemade pastries", "Coffee beans to take home"], archetype: "everyman", because: "is a down-to-earth place where everyone is welcome" },
  { words: ["florist", "flowers", "flower", "blomster", "bloom", "blooms"], label: "florist", offerings: ["Seasonal bouquets", "Wedding flowers", "Plant subscriptions", "Same-day delivery"], archetype: "lover", because: "is about beauty, feeling and the moments people share" },
  { words: ["yoga", "pilates", "meditation"], label: "yoga studio", offerings: ["Morning flow classes", "Beginner courses", "Private sessions", "Weekend retreats"], archetype: "sage", because: "teaches and explains a practice people grow into" },
  { words: ["gym", "fitness", "crossfit", "training", "athletics"], label: "gym", offerings: ["Strength classes", "Personal training", "Open gym hours", "Nutrition coaching"], archetype: "hero", because: "helps members push through and reach goals they set themselves" },
  { words: ["dental", "dentist", "tannlege", "clinic", "physio", "health"], label: "clinic", offerings: ["Check-ups", "Emergency appointments", "Preventive care", "Family appointments"], archetype: "caregiver", because: "looks after people and puts them at ease" },
  { words: ["plumbing", "plumber", "rorlegger", "electric", "electrician", "repairs", "repair", "handyman"], label: "trade business", offerings: ["Emergency call-outs", "Bathroom renovations", "Annual safety checks", "Free quotes"], archetype: "everyman", because: "speaks plainly and shows up when something breaks" },
  { words: ["bike", "bikes", "cycles", "cycle", "sykkel"], label: "bike shop", offerings: ["Bike servicing", "Commuter bikes", "Gravel and touring gear", "Bike fitting"], archetype: "explorer", because: "is about getting out and finding new roads" },
  { words: ["books", "bookshop", "bookstore", "bokhandel", "library"], label: "bookshop", offerings: ["Staff picks", "Book clubs", "Author evenings", "Gift wrapping"], archetype: "sage", because: "knows its shelves and loves to explain why a book matters" },
  { words: ["salon", "hair", "barber", "beauty", "spa", "nails"], label: "salon", offerings: ["Cuts and colour", "Beard trims", "Treatments", "Gift cards"], archetype: "lover", because: "is about looking and feeling good" },
  { words: ["brewery", "brewing", "beer", "bryggeri", "taproom"], label: "brewery", offerings: ["Core range beers", "Seasonal brews", "Taproom tastings", "Brewery tours"], archetype: "outlaw", because: "brews what it likes and says what other brewers will not" },
  { words: ["wine", "vineyard", "winery", "cellar"], label: "winery", offerings: ["Estate wines", "Tasting flights", "Wine club", "Private events"], archetype: "lover", because: "is about taste, place and sharing a good bottle" },
  { words: ["pizza", "pizzeria", "restaurant", "bistro", "kitchen", "grill", "diner", "sushi"], label: "restaurant", offerings: ["Dinner menu", "Weekend brunch", "Takeaway", "Private dining"], archetype: "everyman", because: "is a table for everyone with food people come back for" },
  { words: ["hotel", "inn", "lodge", "hostel", "cabins", "hytte"], label: "place to stay", offerings: ["Rooms and suites", "Breakfast", "Weekend packages", "Meeting rooms"], archetype: "caregiver", because: "takes care of guests far from home" },
  { words: ["photo", "photography", "photographer", "studio", "films"], label: "studio", offerings: ["Portrait sessions", "Wedding photography", "Brand shoots", "Prints and albums"], archetype: "creator", because: "cares about craft and making something that lasts" },
  { words: ["design", "agency", "creative", "digital", "media", "web"], label: "design agency", offerings: ["Brand identity", "Websites", "Campaigns", "Design workshops"], archetype: "creator", because: "invents and cares about craft" },
  { words: ["law", "legal", "advokat", "solicitors", "lawyers", "accounting", "accountants", "tax", "consulting"], label: "firm", offerings: ["Advice for small businesses", "Contracts", "Annual accounts", "Free first meeting"], archetype: "ruler", because: "sets the standard and keeps clients in control" },
  { words: ["pet", "pets", "dog", "dogs", "cat", "vet", "veterinary", "grooming"], label: "pet shop", offerings: ["Pet food", "Grooming", "Toys and treats", "Puppy training"], archetype: "caregiver", because: "is kind and protective of the animals in its care" },
  { words: ["garden", "gardens", "nursery", "plants", "hagesenter", "landscaping"], label: "garden centre", offerings: ["Seasonal plants", "Garden design", "Tools and soil", "Workshops"], archetype: "innocent", because: "is simple, honest and hopeful about what grows" },
  { words: ["chocolate", "sweets", "candy", "confectionery", "icecream", "gelato"], label: "sweet shop", offerings: ["Handmade chocolates", "Gift boxes", "Seasonal specials", "Tasting sessions"], archetype: "magician", because: "turns simple ingredients into small moments of wonder" },
  { words: ["toys", "games", "party", "fun", "comedy", "magic"], label: "toy shop", offerings: ["Board games", "Toys for every age", "Party supplies", "Game nights"], archetype: "jester", because: "is playful and makes people laugh" },
  { words: ["surf", "ski", "outdoor", "adventure", "tours", "travel", "kayak", "climbing"], label: "outdoor company", offerings: ["Guided trips", "Gear rental", "Courses for beginners", "Private tours"], archetype: "explorer", because: "is curious, free and always looking for the next trip" },
  { words: ["tech", "software", "apps", "cloud", "data", "ai", "labs"], label: "software company", offerings: ["Software subscriptions", "Onboarding", "Integrations", "Support plans"], archetype: "magician", because: "makes hard things look easy" },
  { words: ["school", "academy", "tutoring", "courses", "learning", "music", "dance"], label: "school", offerings: ["Courses for beginners", "Private lessons", "Holiday camps", "Exam preparation"], archetype: "sage", because: "teaches and explains" },
];

const genericKind: Kind = {
  words: [],
  label: "local business",
  offerings: ["Services for local customers", "Advice and consultations", "Gift cards"],
  archetype: "everyman",
  because: "speaks plainly to the people it serves",
};

/** Country and language per top-level domain (second-level `co.uk`-style suffixes are handled by their last label). */
const tlds: Record<string, { country: string | null; language: string }> = {
  no: { country: "NO", language: "nb" },
  uk: { country: "GB", language: "en" },
  ie: { country: "IE", language: "en" },
  au: { country: "AU", language: "en" },
  nz: { country: "NZ", language: "en" },
  ca: { country: "CA", language: "en" },
  us: { country: "US", language: "en" },
  se: { country: "SE", language: "sv" },
  dk: { country: "DK", language: "da" },
  fi: { country: "FI", language: "fi" },
  is: { country: "IS", language: "is" },
  de: { country: "DE", language: "de" },
  at: { country: "AT", language: "de" },
  ch: { country: "CH", language: "de" },
  fr: { country: "FR", language: "fr" },
  be: { country: "BE", language: "nl" },
  nl: { country: "NL", language: "nl" },
  es: { country: "ES", language: "es" },
  mx: { country: "MX", language: "es" },
  ar: { country: "AR", language: "es" },
  cl: { country: "CL", language: "es" },
  it: { country: "IT", language: "it" },
  pt: { country: "PT", language: "pt" },
  br: { country: "BR", language: "pt" },
  pl: { country: "PL", language: "pl" },
  jp: { country: "JP", language: "ja" },
  za: { country: "ZA", language: "en" },
  in: { country: "IN", language: "en" },
  sg: { country: "SG", language: "en" },
  com: { country: null, language: "en" },
  org: { country: null, language: "en" },
  net: { country: null, language: "en" },
  io: { country: null, language: "en" },
  co: { country: null, language: "en" },
  app: { country: null, language: "en" },
  shop: { country: null, language: "en" },
};

/** Language most used in a country, for brands whose site does not tell. */
const countryLanguages: Record<string, string> = Object.fromEntries(
  Object.values(tlds)
    .filter((t) => t.country)
    .map((t) => [t.country!, t.language]),
);

const countryNames: Record<string, string> = {
  NO: "Norway", GB: "the United Kingdom", UK: "the United Kingdom", IE: "Ireland", AU: "Australia", NZ: "New Zealand",
  CA: "Canada", US: "the United States", SE: "Sweden", DK: "Denmark", FI: "Finland", IS: "Iceland", DE: "Germany",
  AT: "Austria", CH: "Switzerland", FR: "France", BE: "Belgium", NL: "the Netherlands", ES: "Spain", MX: "Mexico",
  AR: "Argentina", CL: "Chile", IT: "Italy", PT: "Portugal", BR: "Brazil", PL: "Poland", JP: "Japan",
  ZA: "South Africa", IN: "India", SG: "Singapore",
};

export interface ReadFindings {
  name: string;
  language: string;
  country: string | null;
  description: string;
  offerings: string[];
  archetype: Archetype;
  rationale: string;
}

export type ReadOutcome = { ok: true; findings: ReadFindings } | { ok: false; reason: string };

/** What the caller already told about the brand; kept as sent. */
export interface Supplied {
  name?: string;
  description?: string;
  language?: string;
  country?: string;
}

const titleCase = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

function kindOf(words: string[]): Kind | null {
  for (const kind of kinds) if (words.some((w) => kind.words.includes(w))) return kind;
  return null;
}

/** Splits a host label into words: on hyphens and digits, and before a known kind word glued to the end. */
export function hostWords(label: string): string[] {
  const words: string[] = [];
  for (const part of label.toLowerCase().split(/[^\p{L}]+/u).filter(Boolean)) {
    const glued = kinds
      .flatMap((k) => k.words)
      .filter((w) => w.length >= 4 && part.length > w.length + 2 && part.endsWith(w))
      .sort((a, b) => b.length - a.length)[0];
    if (glued) words.push(part.slice(0, -glued.length), glued);
    else words.push(part);
  }
  return words;
}

const suggestRationale = (name: string, kind: Kind) => `${name} ${kind.because}.`;

const languageFor = (supplied: Supplied, fromSite: string | undefined) =>
  supplied.language ?? fromSite ?? (supplied.country ? countryLanguages[supplied.country.toUpperCase()] : undefined) ?? "en";

/** Reads a brand from its website. Fails for unreachable sites (see magic.ts). */
export function readWebsite(website: string, supplied: Supplied, seed: string): ReadOutcome {
  let host: string;
  try {
    host = new URL(website).hostname.toLowerCase().replace(/\.$/, "");
  } catch {
    return { ok: false, reason: "The website address could not be opened." };
  }
  if (websiteFailsToRead(host) || !host.includes(".")) return { ok: false, reason: "The site could not be reached." };
  if (!net.isIP(host)) host = domainToUnicode(host) || host;
  const labels = host.replace(/^www\d*\./, "").split(".");
  const tld = labels[labels.length - 1]!;
  const secondLevel = labels.length >= 3 && ["co", "com", "org", "net", "ac", "gov"].includes(labels[labels.length - 2]!);
  const main = labels[labels.length - (secondLevel ? 3 : 2)] ?? labels[0]!;
  const words = net.isIP(host) ? [] : hostWords(main);
  const site = net.isIP(host) ? undefined : tlds[tld];
  const country = supplied.country ?? site?.country ?? null;
  const language = languageFor(supplied, site?.language);
  const kind = kindOf(words) ?? kindOf(website.toLowerCase().split(/[^\p{L}]+/u)) ?? genericKind;
  const name = supplied.name ?? (words.length ? words.map(titleCase).join(" ") : host);
  const thin = websiteHasNoBacking(website);
  const place = country ? ` in ${countryNames[country.toUpperCase()] ?? country}` : "";
  const offerings = thin ? [] : kind.offerings;
  const description =
    supplied.description ??
    (thin
      ? `${name} is a ${kind.label}${place}.`
      : `${name} is a ${kind.label}${place}. ${choose(["It offers", "It is known for", "Customers come for"], seed, website)} ${offerings
          .slice(0, 3)
          .map((o, i) => (i === 0 ? o.toLowerCase() : o.toLowerCase()))
          .join(", ")} and more.`);
  return {
    ok: true,
    findings: { name, language, country, description, offerings, archetype: kind.archetype, rationale: suggestRationale(name, kind) },
  };
}

/**
 * Reads a brand from the name and description the caller sent (no website). Offerings are the description's own
 * phrases, exactly as written, when it lists some; none otherwise (seed 000: nothing is invented, so ideas about
 * offerings are then left out).
 */
export function readDescription(name: string, description: string, supplied: Supplied): ReadFindings {
  const words = `${name} ${description}`.toLowerCase().split(/[^a-zæøåäöüéè]+/);
  const kind = kindOf(words) ?? genericKind;
  const phrases = description
    .split(/[.;:!?\n]|,\s*|\s+(?:and|or|og|und|et|y)\s+/)
    .map((p) => p.trim())
    .filter((p) => {
      const n = p.split(/\s+/).length;
      return n >= 1 && n <= 6 && p.length >= 4;
    })
    .slice(0, 4);
  return {
    name,
    language: languageFor(supplied, undefined),
    country: supplied.country ?? null,
    description,
    offerings: phrases,
    archetype: kind.archetype,
    rationale: suggestRationale(name, kind),
  };
}
