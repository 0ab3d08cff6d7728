// Deterministic hashing: every "random" choice of the REST mock (ids, durations, wording) comes from a
// SHA-256 of its inputs and the server's seed, never from Math.random, so the same inputs give the same answers.
import { hash } from "node:crypto";

const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** SHA-256 of the parts (joined with a separator that cannot occur in JSON-encoded parts). */
export function digest(...parts: unknown[]): Buffer {
  return hash("sha256", parts.map((p) => JSON.stringify(p) ?? "undefined").join("\u0000"), "buffer");
}

/** An unsigned 32-bit number from the parts. */
export function hash32(...parts: unknown[]): number {
  return digest(...parts).readUInt32BE(0);
}

/** A number in [0, 1) from the parts. */
export function unit(...parts: unknown[]): number {
  return hash32(...parts) / 2 ** 32;
}

/** An integer in [min, max] from the parts. */
export function between(min: number, max: number, ...parts: unknown[]): number {
  return min + (hash32(...parts) % (max - min + 1));
}

/** One item of a non-empty list, chosen by the parts. */
export function choose<T>(items: readonly T[], ...parts: unknown[]): T {
  if (items.length === 0) throw new RangeError("choose from an empty list");
  return items[hash32(...parts) % items.length]!;
}

/** `length` letters and digits from the parts. */
export function token(length: number, ...parts: unknown[]): string {
  const bytes = digest(...parts);
  let out = "";
  for (let i = 0; out.length < length; i++) out += base62[bytes[i % bytes.length]! % 62];
  return out;
}

/** A stable permutation of the items, ordered by the hash of each item's index and the parts. */
export function shuffle<T>(items: readonly T[], ...parts: unknown[]): T[] {
  return items
    .map((item, i) => ({ item, key: hash32(...parts, i) }))
    .sort((a, b) => a.key - b.key)
    .map((x) => x.item);
}
