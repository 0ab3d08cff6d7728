// The calendar behind `why_now`: holidays of the seven countries the service knows (US, UK, NO, AU, CA, NZ,
// IE) and, for every other country, the season of the requested day, hemisphere-aware. Pure functions of the
// date; all days are UTC calendar days written YYYY-MM-DD. The holidays are data: rules per country in
// holidays.json.
import { dataFile, type DataFile } from "../data-file.js";
import holidaysJson from "./holidays.json" with { type: "json" };
import seasonsJson from "./seasons.json" with { type: "json" };

export type Season = "winter" | "spring" | "summer" | "autumn";

export interface Holiday {
  name: string;
  /** YYYY-MM-DD */
  date: string;
}

export interface UpcomingHoliday extends Holiday {
  /** Days from the requested day to the holiday (0 = that very day). */
  daysAway: number;
}

/** How far ahead a holiday still makes an idea timely. */
export const holidayWindowDays = 21;

const day = 86_400_000;

/** The country codes with a holiday calendar; `UK` is accepted as an alias of `GB`. */
export const holidayCountries = ["US", "GB", "NO", "AU", "CA", "NZ", "IE"] as const;
export type HolidayCountry = (typeof holidayCountries)[number];

/** Countries wholly or mostly south of the equator (seasons flipped): seasons.json. */
const southern = new Set(readSouthern(seasonsJson));

export function holidayCountry(country: string | null | undefined): HolidayCountry | null {
  if (!country) return null;
  const c = country.trim().toUpperCase();
  const code = c === "UK" ? "GB" : c;
  return (holidayCountries as readonly string[]).includes(code) ? (code as HolidayCountry) : null;
}

export function parseDay(date: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) throw new RangeError(`not a YYYY-MM-DD day: ${date}`);
  return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
}

/** The last day formatted: most calls in a request ask for today, and toISOString is a measurable part of one. */
let lastDay = { index: Number.NaN, text: "" };

export function formatDay(ms: number): string {
  const index = Math.floor(ms / day);
  if (index !== lastDay.index) lastDay = { index, text: new Date(index * day).toISOString().slice(0, 10) };
  return lastDay.text;
}

/** Whether a YYYY-MM-DD string names a real calendar day. */
export function isRealDay(date: string): boolean {
  try {
    return formatDay(parseDay(date)) === date;
  } catch {
    return false;
  }
}

const ymd = (year: number, month: number, dayOfMonth: number) => formatDay(Date.UTC(year, month - 1, dayOfMonth));

/** Easter Sunday (Gregorian, anonymous algorithm). */
export function easter(year: number): number {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const dayOfMonth = ((h + l - 7 * m + 114) % 31) + 1;
  return Date.UTC(year, month - 1, dayOfMonth);
}

const fromEaster = (year: number, offset: number) => formatDay(easter(year) + offset * day);

/** The n-th (1-based) weekday (0 = Sunday) of a month. */
function nth(year: number, month: number, weekday: number, n: number): string {
  const first = new Date(Date.UTC(year, month - 1, 1)).getUTCDay();
  return ymd(year, month, 1 + ((weekday - first + 7) % 7) + (n - 1) * 7);
}

/** The last weekday (0 = Sunday) of a month. */
function last(year: number, month: number, weekday: number): string {
  const lastDay = new Date(Date.UTC(year, month, 0));
  const back = (lastDay.getUTCDay() - weekday + 7) % 7;
  return formatDay(lastDay.getTime() - back * day);
}

/** The weekday on or before a day. */
function onOrBefore(year: number, month: number, dayOfMonth: number, weekday: number): string {
  const d = new Date(Date.UTC(year, month - 1, dayOfMonth));
  return formatDay(d.getTime() - ((d.getUTCDay() - weekday + 7) % 7) * day);
}


/** A holiday as a rule for any year (holidays.json). */
type HolidayRule =
  | { fixed: [number, number] }
  | { easter: number }
  | { nth: [number, number, number] }
  | { last: [number, number] }
  | { onOrBefore: [number, number, number] }
  | { fixedOnWeekday: [number, number, number]; otherwise: HolidayRule };

/** Arity of each rule's numbers (holidays.json's $comment says what they mean). */
const ruleArity = { fixed: 2, easter: 1, nth: 3, last: 2, onOrBefore: 3, fixedOnWeekday: 3 } as const;
const ruleKinds = Object.keys(ruleArity) as (keyof typeof ruleArity)[];

/** One rule of holidays.json (`at` names it; a country's rules carry a name, an `otherwise` does not), checked. */
function readRule(f: DataFile, v: unknown, at: string, named: boolean): HolidayRule {
  const rule = f.object(v, at, [...ruleKinds, "otherwise", ...(named ? ["name"] : [])], named ? ["name"] : []);
  const where = named ? `${at} (${f.text(rule.name, `${at}.name`)})` : at;
  const kinds = ruleKinds.filter((k) => k in rule);
  if (kinds.length !== 1) f.fail(where, `must have exactly one of ${ruleKinds.join(", ")}`);
  const kind = kinds[0]!;
  const args = kind === "easter" ? [rule.easter] : rule[kind];
  if (!Array.isArray(args) || args.length !== ruleArity[kind] || !args.every(Number.isInteger)) f.fail(where, `${kind} must be ${ruleArity[kind]} whole number(s)`);
  if ((kind === "fixedOnWeekday") !== ("otherwise" in rule)) f.fail(`${where}.otherwise`, kind === "fixedOnWeekday" ? "is missing" : "belongs to fixedOnWeekday rules only");
  if (kind === "fixedOnWeekday") readRule(f, rule.otherwise, `${where}.otherwise`, false);
  return rule as HolidayRule;
}

/** The holiday rules per country, checked when the module loads; throws naming the first problem. */
export function readHolidayRules(data: unknown): Record<HolidayCountry, (HolidayRule & { name: string })[]> {
  const f = dataFile("mock/rest/holidays.json");
  const root = f.object(data, "the file", holidayCountries, holidayCountries);
  for (const country of holidayCountries) f.list(root[country], country, true).forEach((rule, i) => readRule(f, rule, `${country}[${i}]`, true));
  return root as Record<HolidayCountry, (HolidayRule & { name: string })[]>;
}

/** The southern-hemisphere country codes of seasons.json, checked. */
export function readSouthern(data: unknown): string[] {
  const f = dataFile("mock/rest/seasons.json");
  const root = f.object(data, "the file", ["southern"], ["southern"]);
  return f.list(root.southern, "southern").map((c, i) => f.matching(c, `southern[${i}]`, /^[A-Z]{2}$/, "a two-letter country code"));
}

const holidayRules = readHolidayRules(holidaysJson);

function dateOf(rule: HolidayRule, year: number): string {
  if ("fixed" in rule) return ymd(year, ...rule.fixed);
  if ("easter" in rule) return fromEaster(year, rule.easter);
  if ("nth" in rule) return nth(year, ...rule.nth);
  if ("last" in rule) return last(year, ...rule.last);
  if ("onOrBefore" in rule) return onOrBefore(year, ...rule.onOrBefore);
  const [month, dayOfMonth, weekday] = rule.fixedOnWeekday;
  return new Date(Date.UTC(year, month - 1, dayOfMonth)).getUTCDay() === weekday ? ymd(year, month, dayOfMonth) : dateOf(rule.otherwise, year);
}

/** Holidays and widely kept days of a country in one year (the rules in holidays.json), sorted by date. */
export function holidaysOf(country: HolidayCountry, year: number): Holiday[] {
  return holidayRules[country].map((rule) => ({ name: rule.name, date: dateOf(rule, year) })).sort((a, b) => a.date.localeCompare(b.date));
}

/** The first holiday of the country on or after `date` and at most `holidayWindowDays` later, or null. */
export function upcomingHoliday(country: string | null | undefined, date: string): UpcomingHoliday | null {
  const code = holidayCountry(country);
  if (!code) return null;
  const from = parseDay(date);
  const year = new Date(from).getUTCFullYear();
  for (const holiday of [...holidaysOf(code, year), ...holidaysOf(code, year + 1)]) {
    const daysAway = Math.round((parseDay(holiday.date) - from) / day);
    if (daysAway >= 0 && daysAway <= holidayWindowDays) return { ...holiday, daysAway };
    if (daysAway > holidayWindowDays) break;
  }
  return null;
}

export const isSouthern = (country: string | null | undefined): boolean =>
  country ? southern.has(country.trim().toUpperCase()) : false;

/** Meteorological season of a day: Dec–Feb, Mar–May, Jun–Aug, Sep–Nov; flipped south of the equator. */
export function seasonOf(country: string | null | undefined, date: string): { season: Season; part: "early" | "mid" | "late" } {
  const month = new Date(parseDay(date)).getUTCMonth(); // 0 = January
  const north: Season[] = ["winter", "spring", "summer", "autumn"];
  const index = Math.floor(((month + 1) % 12) / 3); // Dec, Jan, Feb → 0
  const season = isSouthern(country) ? north[(index + 2) % 4]! : north[index]!;
  const part = (["early", "mid", "late"] as const)[(month + 1) % 3]!;
  return { season, part };
}

/** A day written for people: "Thursday 26 November 2026". */
export function longDay(date: string): string {
  const d = new Date(parseDay(date));
  const weekday = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"][d.getUTCDay()]!;
  const month = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"][
    d.getUTCMonth()
  ]!;
  return `${weekday} ${d.getUTCDate()} ${month} ${d.getUTCFullYear()}`;
}
