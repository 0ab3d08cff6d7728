// What every suite's section of a target file shares: defaults, URL and CA checks, slot tables and the shape of a
// section as read (target-file.ts validates the file against its schema; errors are TargetErrors).
import { readFileSync } from "node:fs";

/** Defaults in the target's seconds (scaled by time_scale), from the seed's polling advice and durations. */
export const defaultTiming = {
  time_scale: 1,
  brand_poll_seconds: 10,
  batch_poll_seconds: 15,
  brand_ready_deadline_seconds: 300,
  batch_done_deadline_seconds: 900,
  request_timeout_seconds: 30,
  answer_within_seconds: 10,
  budget_seconds: 1800,
} as const;

/** Deadlines never shrink below these real durations, however small the time scale: networks do not scale. */
export const deadlineFloorsMs = { brandReady: 2_000, batchDone: 3_000, budget: 30_000 };

export const defaultInputs = { website: "https://www.example.com", otherWebsite: "https://www.example.org" };
export const defaultConcurrency = 4;

export class TargetError extends Error {}

/** A target-file value as the suites get it (target-file.ts): `{ env: NAME }` read into a string, null left out. */
export type Read<T> = T extends { env: string } ? string : T extends object ? { [K in keyof T]?: Read<NonNullable<T[K]>> } : T;

/** A number the file may also write as a string ("0.5"; the schema checked it is one). */
export const num = (value: number | string | undefined): number | undefined => (value === undefined ? undefined : Number(value));

/** A section of numbers (timing) over its defaults. */
export const numbers = <K extends string>(defaults: Readonly<Record<K, number>>, written: Partial<Record<K, number | string>> | undefined): Record<K, number> => ({
  ...defaults,
  ...(Object.fromEntries(Object.entries(written ?? {}).map(([key, value]) => [key, Number(value)])) as Partial<Record<K, number>>),
});

/** An http(s) URL without credentials or fragment, or a TargetError naming `what`. */
export function targetUrl(raw: string, what: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new TargetError(`${what} is not a URL: ${raw}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new TargetError(`${what} must be http(s), got ${url.protocol}`);
  if (url.username || url.password) throw new TargetError(`${what} must not carry credentials; give tokens instead`);
  url.hash = "";
  return url;
}

/** The run's time scale and concurrency, checked. */
export function checkedPace(scale: number, concurrency: number): void {
  if (!(scale > 0) || !Number.isFinite(scale)) throw new TargetError(`the time scale must be a positive number, got ${scale}`);
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new TargetError(`concurrency must be a whole number ≥ 1, got ${concurrency}`);
}

/** The CA file's text (for a target with a private CA), or undefined when none is named. */
export function readCa(file: string | undefined, key: string): string | undefined {
  if (!file) return undefined;
  try {
    return readFileSync(file, "utf8");
  } catch (err) {
    throw new TargetError(`cannot read ${key}: ${(err as Error).message}`);
  }
}

export const clean = <T extends object>(o: T): Partial<T> =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== "")) as Partial<T>;


/** snake_case → camelCase, as a type: a target-file key → its name in code. */
export type Camel<S extends string> = S extends `${infer H}_${infer T}` ? `${H}${Capitalize<Camel<T>>}` : S;

/** The name in code of a target-file key. */
export const camelKey = <K extends string>(key: K): Camel<K> => key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()) as Camel<K>;

/** What a table of string slots (key → what it does) reads into: each set slot under its name in code. */
export type SlotValues<K extends string> = { [P in K as Camel<P>]?: string };

/**
 * A trigger of the target file: what a target does when it meets the slot's value, and the value the reference
 * mocks honour (conformance/targets/reference.yaml is generated with it; the mock's magic tables recognise it).
 */
export interface TriggerSlot {
  what: string;
  reference: string;
}

/** A section of slots (its keys as the target file spells them) under their names in code. */
export const slotValues = <K extends string>(section: Partial<Record<K, string>> | undefined): SlotValues<K> =>
  Object.fromEntries(Object.entries(section ?? {}).map(([key, value]) => [camelKey(key), value])) as SlotValues<K>;
