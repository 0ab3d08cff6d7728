// The calendar behind `why_now`: holidays of the seven countries the service knows (US, UK, NO, AU, CA, NZ,
// IE) and, for every other country, the season of the requested day, hemisphere-aware. Pure functions of the
// date; all days are UTC calendar days written YYYY-MM-DD.

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

/** Countries wholly or mostly south of the equator (seasons flipped). */
const southern = new Set([
  "AU", "NZ", "ZA", "AR", "CL", "UY", "PY", "BO", "BR", "PE", "LS", "SZ", "NA", "BW", "ZW", "ZM", "MZ", "MG", "MU",
  "MW", "AO", "FJ", "PG", "SB", "VU", "NC", "WS", "TO", "RE", "FK",
]);

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

export const formatDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

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

const SUN = 0, MON = 1, THU = 4;

/** Holidays and widely kept days of a country in one year, sorted by date. */
export function holidaysOf(country: HolidayCountry, year: number): Holiday[] {
  const h = (name: string, date: string): Holiday => ({ name, date });
  const list: Holiday[] = (() => {
    switch (country) {
      case "US":
        return [
          h("New Year's Day", ymd(year, 1, 1)),
          h("Martin Luther King Jr. Day", nth(year, 1, MON, 3)),
          h("Valentine's Day", ymd(year, 2, 14)),
          h("Presidents' Day", nth(year, 2, MON, 3)),
          h("Easter", fromEaster(year, 0)),
          h("Mother's Day", nth(year, 5, SUN, 2)),
          h("Memorial Day", last(year, 5, MON)),
          h("Father's Day", nth(year, 6, SUN, 3)),
          h("Independence Day", ymd(year, 7, 4)),
          h("Labor Day", nth(year, 9, MON, 1)),
          h("Halloween", ymd(year, 10, 31)),
          h("Thanksgiving", nth(year, 11, THU, 4)),
          h("Christmas Day", ymd(year, 12, 25)),
          h("New Year's Eve", ymd(year, 12, 31)),
        ];
      case "GB":
        return [
          h("New Year's Day", ymd(year, 1, 1)),
          h("Valentine's Day", ymd(year, 2, 14)),
          h("Mothering Sunday", fromEaster(year, -21)),
          h("Good Friday", fromEaster(year, -2)),
          h("Easter Monday", fromEaster(year, 1)),
          h("the early May bank holiday", nth(year, 5, MON, 1)),
          h("the spring bank holiday", last(year, 5, MON)),
          h("Father's Day", nth(year, 6, SUN, 3)),
          h("the summer bank holiday", last(year, 8, MON)),
          h("Halloween", ymd(year, 10, 31)),
          h("Bonfire Night", ymd(year, 11, 5)),
          h("Christmas Day", ymd(year, 12, 25)),
          h("Boxing Day", ymd(year, 12, 26)),
        ];
      case "NO":
        return [
          h("New Year's Day (nyttårsdag)", ymd(year, 1, 1)),
          h("Mother's Day (morsdag)", nth(year, 2, SUN, 2)),
          h("Maundy Thursday (skjærtorsdag)", fromEaster(year, -3)),
          h("Good Friday (langfredag)", fromEaster(year, -2)),
          h("Easter Sunday (første påskedag)", fromEaster(year, 0)),
          h("Easter Monday (andre påskedag)", fromEaster(year, 1)),
          h("Labour Day (arbeidernes dag)", ymd(year, 5, 1)),
          h("Constitution Day (17. mai)", ymd(year, 5, 17)),
          h("Ascension Day (Kristi himmelfartsdag)", fromEaster(year, 39)),
          h("Whit Monday (andre pinsedag)", fromEaster(year, 50)),
          h("Midsummer Eve (sankthansaften)", ymd(year, 6, 23)),
          h("Father's Day (farsdag)", nth(year, 11, SUN, 2)),
          h("Christmas Eve (julaften)", ymd(year, 12, 24)),
          h("Christmas Day (første juledag)", ymd(year, 12, 25)),
          h("Boxing Day (andre juledag)", ymd(year, 12, 26)),
        ];
      case "AU":
        return [
          h("New Year's Day", ymd(year, 1, 1)),
          h("Australia Day", ymd(year, 1, 26)),
          h("Valentine's Day", ymd(year, 2, 14)),
          h("Good Friday", fromEaster(year, -2)),
          h("Easter Monday", fromEaster(year, 1)),
          h("Anzac Day", ymd(year, 4, 25)),
          h("Mother's Day", nth(year, 5, SUN, 2)),
          h("the King's Birthday", nth(year, 6, MON, 2)),
          h("Father's Day", nth(year, 9, SUN, 1)),
          h("Christmas Day", ymd(year, 12, 25)),
          h("Boxing Day", ymd(year, 12, 26)),
        ];
      case "CA":
        return [
          h("New Year's Day", ymd(year, 1, 1)),
          h("Family Day", nth(year, 2, MON, 3)),
          h("Valentine's Day", ymd(year, 2, 14)),
          h("Good Friday", fromEaster(year, -2)),
          h("Mother's Day", nth(year, 5, SUN, 2)),
          h("Victoria Day", onOrBefore(year, 5, 24, MON)),
          h("Father's Day", nth(year, 6, SUN, 3)),
          h("Canada Day", ymd(year, 7, 1)),
          h("Labour Day", nth(year, 9, MON, 1)),
          h("Thanksgiving", nth(year, 10, MON, 2)),
          h("Halloween", ymd(year, 10, 31)),
          h("Remembrance Day", ymd(year, 11, 11)),
          h("Christmas Day", ymd(year, 12, 25)),
          h("Boxing Day", ymd(year, 12, 26)),
        ];
      case "NZ":
        return [
          h("New Year's Day", ymd(year, 1, 1)),
          h("Waitangi Day", ymd(year, 2, 6)),
          h("Valentine's Day", ymd(year, 2, 14)),
          h("Good Friday", fromEaster(year, -2)),
          h("Easter Monday", fromEaster(year, 1)),
          h("Anzac Day", ymd(year, 4, 25)),
          h("Mother's Day", nth(year, 5, SUN, 2)),
          h("the King's Birthday", nth(year, 6, MON, 1)),
          h("Father's Day", nth(year, 9, SUN, 1)),
          h("Labour Day", nth(year, 10, MON, 4)),
          h("Christmas Day", ymd(year, 12, 25)),
          h("Boxing Day", ymd(year, 12, 26)),
        ];
      case "IE":
        return [
          h("New Year's Day", ymd(year, 1, 1)),
          h("St Brigid's Day", new Date(Date.UTC(year, 1, 1)).getUTCDay() === 5 ? ymd(year, 2, 1) : nth(year, 2, MON, 1)),
          h("Valentine's Day", ymd(year, 2, 14)),
          h("Mother's Day", fromEaster(year, -21)),
          h("St Patrick's Day", ymd(year, 3, 17)),
          h("Easter Monday", fromEaster(year, 1)),
          h("the May bank holiday", nth(year, 5, MON, 1)),
          h("the June bank holiday", nth(year, 6, MON, 1)),
          h("the August bank holiday", nth(year, 8, MON, 1)),
          h("the October bank holiday", last(year, 10, MON)),
          h("Halloween", ymd(year, 10, 31)),
          h("Christmas Day", ymd(year, 12, 25)),
          h("St Stephen's Day", ymd(year, 12, 26)),
        ];
    }
  })();
  return list.sort((a, b) => a.date.localeCompare(b.date));
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
