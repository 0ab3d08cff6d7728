// Deterministic ids of the profiles domain: UUIDs and tokens come from a SHA-256 of a fixed namespace and the
// parts (usually a kind and a counter), never from randomness, so every run hands out the same ids.
import { digest, token } from "../../rest/hash.js";

const namespace = "ideas-contract/mcp-mock/profiles";

/** A UUID (version 5 layout) from the parts. */
export function uuidFrom(...parts: unknown[]): string {
  const bytes = Buffer.from(digest(namespace, ...parts).subarray(0, 16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** `length` letters and digits from the parts (connect-link tokens). */
export function tokenFrom(length: number, ...parts: unknown[]): string {
  return token(length, namespace, ...parts);
}

/** A numeric id such as a provider's Page id, from the parts. */
export function numericIdFrom(...parts: unknown[]): string {
  return (digest(namespace, ...parts).readBigUInt64BE(0) % 10n ** 15n).toString().padStart(15, "1");
}

/** A URL slug from a name. */
export function slugify(name: string): string {
  return (
    name
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 60) || "client"
  );
}

export const minute = 60_000;
export const day = 24 * 60 * minute;
