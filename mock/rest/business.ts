// What "reading" a brand finds. The mock never fetches the website: it derives a plausible business from the
// URL's host (name from the words, country and language from the top-level domain, offerings from the kind of
// business the words name), or from the name and description the caller sent. Deterministic: the same input
// always reads the same way. The tables (kinds of business, top-level domains, country names) are data:
// business.json, checked when this module loads.
import net from "node:net";
import { domainToUnicode } from "node:url";
import type { Archetype } from "../../generated/rest/types.js";
import { dataFile } from "../data-file.js";
import { choose } from "./hash.js";
import { websiteFailsToRead, websiteHasNoBacking } from "./magic.js";
import businessJson from "./business.json" with { type: "json" };

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

const archetypes: readonly Archetype[] = ["innocent", "everyman", "hero", "outlaw", "explorer", "creator", "ruler", "magician", "lover", "caregiver", "jester", "sage"];

/** The tables of business.json, checked when the module loads; throws naming the first problem. */
export function readBusinessData(data: unknown): {
  kinds: Kind[];
  genericKind: Kind;
  tlds: Record<string, { country: string | null; language: string }>;
  countryNames: Record<string, string>;
} {
  const f = dataFile("mock/rest/business.json");
  const tables = ["kinds", "generic", "tlds", "countryNames"] as const;
  const root = f.object(data, "the file", tables, tables);
  const countryCode = (v: unknown, where: string) => f.matching(v, where, /^[A-Z]{2}$/, "a two-letter country code");
  const kind = (v: unknown, where: string, withWords: boolean): Kind => {
    const keys = [...(withWords ? ["words"] : []), "label", "offerings", "archetype", "because"];
    const k = f.object(v, where, keys, keys);
    const words = withWords ? f.texts(k.words, `${where}.words`, true) : [];
    if (words.some((w) => w !== w.toLowerCase())) f.fail(`${where}.words`, "must be lowercase");
    const offerings = f.texts(k.offerings, `${where}.offerings`, true);
    return { words, label: f.text(k.label, `${where}.label`), offerings, archetype: f.oneOf(k.archetype, `${where}.archetype`, archetypes), because: f.text(k.because, `${where}.because`) };
  };
  const tlds = Object.entries(f.record(root.tlds, "tlds")).map(([tld, v]) => {
    const t = f.object(v, `tlds.${tld}`, ["country", "language"], ["country", "language"]);
    const country = t.country === null ? null : countryCode(t.country, `tlds.${tld}.country`);
    return [tld, { country, language: f.matching(t.language, `tlds.${tld}.language`, /^[a-z]{2}$/, "two lowercase letters") }] as const;
  });
  const countryNames = Object.entries(f.record(root.countryNames, "countryNames")).map(([code, name]) => [countryCode(code, `countryNames.${code}`), f.text(name, `countryNames.${code}`)] as const);
  return {
    kinds: f.list(root.kinds, "kinds", true).map((k, i) => kind(k, `kinds[${i}]`, true)),
    genericKind: kind(root.generic, "generic", false),
    tlds: Object.fromEntries(tlds),
    countryNames: Object.fromEntries(countryNames),
  };
}

const { kinds, genericKind, tlds, countryNames } = readBusinessData(businessJson);

/** Language most used in a country, for brands whose site does not tell. */
const countryLanguages: Record<string, string> = Object.fromEntries(
  Object.values(tlds)
    .filter((t) => t.country)
    .map((t) => [t.country!, t.language]),
);

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
