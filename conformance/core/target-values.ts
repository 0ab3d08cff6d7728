// The values a target file holds, read the same way in every suite's section: mappings with known keys, strings
// (or `{ env: NAME }`), booleans, positive numbers, URLs, a CA file; errors are TargetErrors naming the key.
import { readFileSync } from "node:fs";

type Raw = Record<string, unknown>;

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

export function object(value: unknown, where: string): Raw {
  if (value === undefined || value === null) return {};
  if (typeof value !== "object" || Array.isArray(value)) throw new TargetError(`${where} must be a mapping`);
  return value as Raw;
}

/** Refuses keys outside `keys`, naming the known ones. */
export function onlyKeys(obj: Raw, keys: readonly string[], where: string): void {
  for (const key of Object.keys(obj)) if (!keys.includes(key)) throw new TargetError(`${where}: unknown key "${key}" (known: ${keys.join(", ")})`);
}

/** A string value, or `{ env: NAME }` read from the environment (undefined when the variable is unset). */
export function str(value: unknown, where: string, env: NodeJS.ProcessEnv): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string") return value;
  if (typeof value === "object" && !Array.isArray(value) && typeof (value as Raw).env === "string") {
    const v = env[(value as Raw).env as string];
    return v === undefined || v === "" ? undefined : v;
  }
  throw new TargetError(`${where} must be a string or { env: NAME }`);
}

/** A boolean value, or undefined when absent. */
export function bool(value: unknown, where: string): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "boolean") throw new TargetError(`${where} must be true or false`);
  return value;
}

export function num(value: unknown, where: string, positive = true): number | undefined {
  if (value === undefined || value === null) return undefined;
  const n = typeof value === "string" ? Number(value) : value;
  if (typeof n !== "number" || !Number.isFinite(n) || (positive ? n <= 0 : n < 0))
    throw new TargetError(`${where} must be a ${positive ? "positive " : ""}number, got ${JSON.stringify(value)}`);
  return n;
}

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

/** Reads the slots of `table` from a section of a target file (the section's other keys are refused by the caller). */
export function readSlots<K extends string>(section: Raw, table: Readonly<Record<K, TriggerSlot>>, at: (key: string) => string, env: NodeJS.ProcessEnv): SlotValues<K> {
  const out: Record<string, string> = {};
  for (const key of Object.keys(table) as K[]) {
    const value = str(section[key], at(key), env);
    if (value) out[camelKey(key)] = value;
  }
  return out as SlotValues<K>;
}
