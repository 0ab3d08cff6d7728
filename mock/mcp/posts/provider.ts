// The publishing provider as the mock plays it: it refuses destinations whose channel cannot publish
// (needs_reauth → channel_needs_reauth, disconnected or missing → channel_not_connected) and those whose caption
// carries a [refuse:<code>] marker. Transient refusals (retryable codes) happen on the first attempt only.
import { catalogue, destinationRetryable } from "../../../generated/mcp/errors.js";
import { ToolError, type BrandRecord } from "../context.js";
import { isStory } from "./limits.js";
import { providerRefusal, publisherError } from "./magic.js";
import type { DestinationReasonRecord, DestinationState, Post } from "./store.js";

const meanings = new Map(catalogue.filter((e) => e.kind === "destination").map((e) => [e.code, e.meaning]));

/** Where a destination's magic markers are read: its caption, or for a story (no caption) the post's main caption. */
export function markerText(post: Post, d: DestinationState): string {
  if (!isStory(d.platform) && d.text !== "") return d.text;
  return post.destinations.find((x) => x.text !== "")?.text ?? "";
}

export function reason(code: string, message?: string): DestinationReasonRecord {
  // Own keys only: a [refuse:constructor] or [refuse:__proto__] code is outside the catalogue, so not retryable.
  const retryable = Object.hasOwn(destinationRetryable, code) ? (destinationRetryable as Readonly<Record<string, boolean>>)[code]! : false;
  return { code, message: message ?? meanings.get(code) ?? `The provider refused the destination (${code}).`, retryable };
}

/** A refusal the channel's health makes certain, or null; used by dry runs too. */
export function healthRefusal(brand: BrandRecord, platform: string): DestinationReasonRecord | null {
  const health = brand.healthOf(platform);
  if (health === "needs_reauth") return reason("channel_needs_reauth", `The ${platform} connection must be renewed by the client.`);
  if (health === null || health === "disconnected") return reason("channel_not_connected", `No ${platform} account is connected; send the client a connect link.`);
  return null;
}

/** One attempt at the provider for one destination: null when it accepts, else why it refused. */
// rule: destination-code-retryable schedule-failed-retryable
export function attempt(brand: BrandRecord, post: Post, d: DestinationState): DestinationReasonRecord | null {
  const first = d.attempts === 0;
  d.attempts++;
  const health = healthRefusal(brand, d.platform);
  if (health) return health;
  const code = providerRefusal(markerText(post, d));
  if (code) {
    const r = reason(code);
    if (!r.retryable || first) return r;
  }
  return null;
}

/** [publisher-error] anywhere in the post's captions: the whole call fails and nothing changes. */
export function checkPublisher(post: Post): void {
  if (post.destinations.some((d) => publisherError(d.text))) {
    throw new ToolError("publisher_error", "The publishing provider failed; read get_post_status before retrying.");
  }
}
