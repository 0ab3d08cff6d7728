// Comparisons of values a target keeps, as the seed means them rather than byte for byte: a website is "the
// website that was read" (the same URL once normalised), a country is "an ISO 3166-1 code" (any of its forms),
// and objects may gain members (seed 000, Conventions 5), so only their documented members are compared.
import { isDeepStrictEqual } from "node:util";
import { openapi } from "./contract.js";

/** The same URL after WHATWG normalisation (scheme and host case, default port, an empty path as `/`). */
export function sameUrl(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "string" || typeof b !== "string") return false;
  try {
    return new URL(a).href === new URL(b).href;
  } catch {
    return false;
  }
}

/**
 * ISO 3166-1 alpha-2 → [alpha-3, numeric] for the countries the suite sends (its fixtures and PATCHes) and the
 * seed's calendar countries: enough to compare what it sent with any form the target answers in.
 */
const iso3166: Readonly<Record<string, readonly [string, string]>> = {
  AT: ["AUT", "040"], AU: ["AUS", "036"], BE: ["BEL", "056"], BR: ["BRA", "076"], CA: ["CAN", "124"], CH: ["CHE", "756"],
  DE: ["DEU", "276"], DK: ["DNK", "208"], ES: ["ESP", "724"], FI: ["FIN", "246"], FR: ["FRA", "250"], GB: ["GBR", "826"],
  IE: ["IRL", "372"], IN: ["IND", "356"], IT: ["ITA", "380"], JP: ["JPN", "392"], MX: ["MEX", "484"], NL: ["NLD", "528"],
  NO: ["NOR", "578"], NZ: ["NZL", "554"], PL: ["POL", "616"], PT: ["PRT", "620"], SE: ["SWE", "752"], US: ["USA", "840"],
};

/** The forms of an ISO 3166-1 code: alpha-2, alpha-3 (uppercase letters) and numeric (three digits). */
export const isIso3166Form = (v: unknown): v is string => typeof v === "string" && /^([A-Z]{2,3}|[0-9]{3})$/.test(v);

/** A code's alpha-2 form when the table knows it (the code itself otherwise). */
const alpha2 = (code: string) => Object.entries(iso3166).find(([a2, forms]) => a2 === code || forms.includes(code))?.[0] ?? code;

/** The same country, whichever ISO 3166-1 form each is written in. */
export function sameCountry(sent: unknown, got: unknown): boolean {
  if (sent === got) return true;
  return isIso3166Form(sent) && isIso3166Form(got) && alpha2(sent) === alpha2(got);
}

/** The same ISO 639-1 language, in whichever letter case each is written (the seed does not fix it). */
export const sameLanguage = (sent: unknown, got: unknown): boolean =>
  sent === got || (typeof sent === "string" && typeof got === "string" && /^[a-z]{2}$/i.test(sent) && sent.toLowerCase() === got.toLowerCase());

const refName = (ref: unknown) => (typeof ref === "string" ? ref.slice(ref.lastIndexOf("/") + 1) : undefined);
/** The object schema a property holds (directly, in a list, or one of its nullable forms), if any. */
function innerSchema(prop: any): { schema: string; list: boolean } | undefined {
  if (!prop || typeof prop !== "object") return undefined;
  const named = refName(prop.$ref) ?? refName(prop.allOf?.[0]?.$ref) ?? refName(prop.anyOf?.find((s: any) => s.$ref)?.$ref);
  if (named && openapi.components.schemas[named]?.properties) return { schema: named, list: false };
  const item = prop.type === "array" ? innerSchema(prop.items) : undefined;
  return item ? { schema: item.schema, list: true } : undefined;
}

/** Only the members a schema of the contract lists, at every depth (what a caller relies on; new ones may appear). */
export function documented(schema: string, value: unknown): unknown {
  if (!value || typeof value !== "object" || Array.isArray(value)) return value;
  const props: Record<string, unknown> = openapi.components.schemas[schema]?.properties ?? {};
  const out: Record<string, unknown> = {};
  for (const [name, prop] of Object.entries(props)) {
    if (!(name in value)) continue;
    const v = (value as Record<string, unknown>)[name];
    const inner = innerSchema(prop);
    out[name] = !inner ? v : inner.list && Array.isArray(v) ? v.map((item) => documented(inner.schema, item)) : documented(inner.schema, v);
  }
  return out;
}

/** The same archetype: its documented members (value, rationale) equal. */
export const sameArchetype = (a: unknown, b: unknown) => isDeepStrictEqual(documented("BrandArchetype", a), documented("BrandArchetype", b));

/** The same rules: each list equal, a list not there read as empty (both members are optional). */
export function sameRules(sent: unknown, got: unknown): boolean {
  const list = (r: any, k: string) => (r?.[k] === undefined ? [] : r[k]);
  if (!got || typeof got !== "object") return false;
  return ["always", "never"].every((k) => isDeepStrictEqual(list(sent, k), list(got, k)));
}
