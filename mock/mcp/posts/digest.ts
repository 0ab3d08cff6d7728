// The content digest: a SHA-256 of the canonical JSON of everything a post would publish, per destination —
// caption, first comment, title, pictures in order, their alt text, the video cover and the publishing options.
// It changes exactly when one of those changes (a pending picture landing included); the intended time, the
// approval and destination states are not content and leave it alone.
import { createHash } from "node:crypto";
import type { PostDestination } from "../../../generated/mcp/types.js";

/** JSON with object keys sorted at every level, so equal content always gives equal text. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value ?? null);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
}

/** The digested part of each destination, in the post's destination order. */
// rule: digest-follows-content
export function digestedContent(destinations: readonly PostDestination[]): unknown[] {
  return destinations.map((d) => ({
    platform: d.platform,
    text: d.text,
    firstComment: d.firstComment,
    title: d.title,
    imageUrls: d.imageUrls,
    altText: (d.images ?? []).map((i) => i.altText),
    thumbnailUrl: d.thumbnailUrl,
    publishingOptions: d.publishingOptions,
  }));
}

/** 32 hex characters of SHA-256 over the canonical JSON of the digested content. */
export function contentDigest(destinations: readonly PostDestination[]): string {
  return createHash("sha256").update(canonicalJson(digestedContent(destinations))).digest("hex").slice(0, 32);
}
