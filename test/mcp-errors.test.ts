// The error catalogue: every code of the seed with the seed's retryable flag, the upstream_<status> rule,
// the schedule_failed rule, and the tool files and catalogue agreeing both ways.
import { describe, expect, it } from "vitest";
import { catalogue, envelopeRetryable, destinationRetryable, expectedRetryable } from "../generated/mcp/errors.js";
import { tools } from "./support/mcp-sources.js";

/** The seed's envelope code tables, restated: code → retryable. */
const seedEnvelope: Record<string, boolean | "varies"> = {
  // any tool
  bad_request: false, not_found: false, forbidden: false, subscription_required: false, writes_disabled: false,
  internal_error: true, upstream_timeout: true, upstream_unavailable: true, upstream_identity_failed: true,
  identity_provider_unavailable: true, upstream_429: true, partner_only: false, partner_not_found: false,
  partner_downstream_auth_failed: true,
  // profiles, branding, connecting
  profile_not_ready: true, invalid_website_url: false, external_billing_workspace: false, font_not_found: false,
  logo_unreadable: false, source_not_https: false, source_not_public: false, design_style_unavailable: false,
  design_style_busy: true, platform_not_connected: false, platform_not_supported: false,
  connect_session_expired: false, headless_connect_unavailable: false,
  // posts and generation
  usage_limit_exceeded: false, ai_generation_failed: true, media_required: false, caption_over_limit: false,
  reddit_options_required: false, image_generation_in_progress: false, template_rendering: false,
  post_already_published: false, already_published: false, platform_scheduled: false,
  // approval
  approval_required: false, approval_stale: false, approval_rejected: false, design_changed_after_approval: false,
  post_content_changed: false,
  // scheduling and publishing
  schedule_preflight_failed: false, schedule_failed: "varies", already_scheduled: false,
  post_already_scheduled: false, publisher_error: true,
};

const seedDestination: Record<string, boolean> = {
  channel_not_connected: false, channel_needs_reauth: false, permission_denied: false, rate_limited: true,
  provider_timeout: true, provider_unavailable: true, media_required: false, media_invalid: false,
  content_rejected: false, duplicate_content: false, validation_failed: false, unknown_error: false,
};

const seedOtherKinds: Record<string, string[]> = {
  preflight: [
    "caption_too_long", "media_required", "image_aspect_invalid", "too_many_images", "video_required",
    "video_not_supported", "post_empty", "reddit_subreddit_required", "reddit_subreddit_not_found",
    "reddit_flair_required", "reddit_title_too_long",
  ],
  publish_reason: ["publishing_in_progress", "already_published", "held_by_provider", "stuck_at_provider", "story_partially_published", "not_requested"],
  image_render: ["content_rejected", "quota_exhausted", "provider_timeout", "provider_unavailable", "generation_failed"],
  build_failure: ["website_unreachable", "analysis_failed", "enrichment_failed", "build_not_queued", "build_interrupted"],
  readiness_blocker: [
    "brand_inactive", "no_brand_profile", "profile_not_ready", "no_channel_connected", "all_channels_need_reauth",
    "all_channels_disconnected", "connection_check_failed",
  ],
  channel_health: ["connected", "expiring_soon", "needs_reauth", "disconnected"],
  connect_failure: ["oauth_denied", "link_expired", "account_in_another_workspace", "connection_failed"],
  website_refusal: ["BLOCKED_DOMAIN", "URL_NOT_REACHABLE", "URL_UNSAFE", "URL_NOT_ALLOWED"],
};

const seedImageRender: Record<string, boolean> = {
  content_rejected: false, quota_exhausted: false, provider_timeout: true, provider_unavailable: true, generation_failed: true,
};

const codesOf = (kind: string) => catalogue.filter((e) => e.kind === kind).map((e) => e.code);

describe("the error catalogue", () => {
  it("holds every envelope code of the seed with its retryable flag, and no other", () => {
    expect({ ...envelopeRetryable }).toEqual(seedEnvelope);
  });

  it("holds every per-destination code with its retryable flag", () => {
    expect({ ...destinationRetryable }).toEqual(seedDestination);
  });

  it.each(Object.entries(seedOtherKinds))("holds every %s code of the seed", (kind, codes) => {
    expect(codesOf(kind)).toEqual(expect.arrayContaining(codes));
  });

  it("gives image render codes the seed's retryable flags", () => {
    for (const [code, flag] of Object.entries(seedImageRender)) {
      expect(catalogue.find((e) => e.kind === "image_render" && e.code === code)?.retryable, code).toBe(flag);
    }
  });

  it("pairs publish reasons with the status they arrive under", () => {
    const status = (code: string) => catalogue.find((e) => e.kind === "publish_reason" && e.code === code)?.publishStatus;
    expect(status("publishing_in_progress")).toBe("pending");
    for (const code of ["already_published", "held_by_provider", "stuck_at_provider", "story_partially_published", "not_requested"]) {
      expect(status(code), code).toBe("skipped");
    }
  });

  it("records the HTTP-level refusals outside the envelope", () => {
    const http = catalogue.filter((e) => e.kind === "http").map((e) => [e.httpStatus, e.code]);
    expect(http).toEqual(expect.arrayContaining([[401, expect.any(String)], [403, "insufficient_scope"], [429, expect.any(String)]]));
  });

  it("has one entry per (kind, code)", () => {
    const keys = catalogue.map((e) => `${e.kind}:${e.code}`);
    expect(new Set(keys).size).toBe(keys.length);
  });
});

describe("tools and catalogue agree", () => {
  it("every code a tool lists is an envelope code of the catalogue", () => {
    const envelope = new Set(codesOf("envelope"));
    for (const t of tools) for (const code of t.errors) expect(envelope.has(code), `${t.name}: ${code}`).toBe(true);
  });

  it("every envelope code is returned by at least one tool", () => {
    const orphans = catalogue.filter((e) => e.kind === "envelope" && !(e.tools as string[]).length).map((e) => e.code);
    expect(orphans).toEqual([]);
  });

  it("codes any tool can return reach every tool; writes_disabled only the tools that change data", () => {
    const all = tools.map((t) => t.name).sort();
    const writers = tools.filter((t) => t.scopes.includes("mcp:write")).map((t) => t.name).sort();
    const toolsOf = (code: string) => [...(catalogue.find((e) => e.kind === "envelope" && e.code === code)!.tools as string[])].sort();
    expect(toolsOf("internal_error")).toEqual(all);
    expect(toolsOf("writes_disabled")).toEqual(writers);
  });
});

describe("expectedRetryable", () => {
  it("follows the catalogue for fixed codes", () => {
    expect(expectedRetryable({ code: "internal_error" })).toBe(true);
    expect(expectedRetryable({ code: "approval_stale" })).toBe(false);
  });

  it("applies the upstream_<status> rule: 4xx not retryable, 429 and 5xx retryable", () => {
    expect(expectedRetryable({ code: "upstream_409" })).toBe(false);
    expect(expectedRetryable({ code: "upstream_400" })).toBe(false);
    expect(expectedRetryable({ code: "upstream_429" })).toBe(true);
    expect(expectedRetryable({ code: "upstream_503" })).toBe(true);
  });

  it("applies the schedule_failed rule", () => {
    const refused = (code: string) => ({ code: "schedule_failed", refusedDestinations: [{ platform: "INSTAGRAM", code }] });
    expect(expectedRetryable(refused("rate_limited"))).toBe(true);
    for (const code of ["media_invalid", "channel_not_connected", "channel_needs_reauth", "content_rejected"]) {
      expect(expectedRetryable(refused(code)), code).toBe(false);
    }
    expect(expectedRetryable({ code: "schedule_failed" })).toBe(false);
    expect(expectedRetryable({ code: "schedule_failed", scheduledDestinations: ["FACEBOOK"] })).toBe(true);
  });

  it("does not judge a code it does not know", () => {
    expect(expectedRetryable({ code: "brand_new_code" })).toBeUndefined();
    expect(expectedRetryable({ code: "upstream_302" })).toBeUndefined();
  });
});
