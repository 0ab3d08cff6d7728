// The gateway mock's posts half, end to end through real SDK clients: the approval gate, pre-flight, provider
// refusals (schedule_failed and its retry rule), bookings held at the provider, reschedule_posts, publish results
// and their repeat, status per destination, unpublishing and withdrawal on deactivation.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMcpMock, type McpMock } from "../mock/mcp/server.js";
import { brandIdBySlug as brandId, connectMcp, type McpTestClient } from "./support/mcp-client.js";

let mock: McpMock;
let alex: McpTestClient;
let partner: McpTestClient;
let harbour: string;
let physio: string;
let fitness: string;

const minute = 60_000;
const hour = 60 * minute;
const day = 24 * hour;

/** Connects a channel through a plain connect link (opening it connects at once). */
async function connect(c: McpTestClient, brand: string, platform: string): Promise<void> {
  const link = await c.ok("create_connect_link", { brandId: brand, platform });
  const res = await fetch(link.url);
  expect(res.status).toBe(200);
  await res.text();
}

/** A time `ms` after the virtual now, as the caller would send it. */
const later = (ms: number) => new Date(mock.clock.now() + ms).toISOString().replace(/\.\d{3}Z$/, "Z");
const utc = (t: string) => new Date(t).toISOString();

async function picture(c: McpTestClient, brand: string, name = "shot-4x5.jpg"): Promise<string> {
  return (await c.ok("upload_image", { brandId: brand, sourceUrl: `https://cdn.example.com/${name}` })).mediaId;
}

/** A schedulable Instagram + Facebook draft of Harbour Bakery with a 4:5 picture; optional Facebook caption. */
async function feedPost(caption = "Fresh loaves from 7 am.", facebookCaption?: string): Promise<string> {
  const { postId } = await alex.ok("create_draft", { brandId: harbour, caption, mediaIds: [await picture(alex, harbour)], platforms: ["FACEBOOK"] });
  if (facebookCaption !== undefined) await alex.ok("update_post", { id: postId, platform: "FACEBOOK", caption: facebookCaption });
  return postId;
}

/** Results by destination (a destination missing reads as undefined and fails the expectation on it). */
const byPlatform = <R extends { platform: string }>(results: R[] | undefined): Record<string, R> => Object.fromEntries((results ?? []).map((r) => [r.platform, r]));

beforeAll(async () => {
  mock = await startMcpMock({ port: 0, timeScale: 1 });
  [alex, partner] = await Promise.all([connectMcp(mock.url, "mcp_user"), connectMcp(mock.url, "mcp_partner")]);
  harbour = await brandId(alex, "harbour-bakery", "harbour-bakery");
  physio = await brandId(alex, "northside-studio", "northside-physio");
  fitness = await brandId(alex, "northside-studio", "northside-fitness");
});

afterAll(async () => {
  await Promise.all([alex?.close(), partner?.close()]);
  await mock?.stop();
});

describe("approval", () => {
  it("gates scheduling and publishing in a partner workspace: required, stale, rejected", async () => {
    const profile = await partner.ok("create_profile", { websiteUrl: "https://gate-bakery.example", name: "Gate Bakery", externalId: "posts-gate-1" });
    mock.clock.advance(31 * minute);
    await connect(partner, profile.brandId, "instagram");
    const mediaId = await picture(partner, profile.brandId);
    const { postId: id } = await partner.ok("create_draft", { brandId: profile.brandId, caption: "Gate test.", mediaIds: [mediaId] });

    expect(await partner.fails("schedule_post", { id, scheduledAt: later(2 * day) })).toMatchObject({ code: "approval_required", retryable: false });
    expect(await partner.fails("publish_post_now", { id })).toMatchObject({ code: "approval_required" });
    const gated = await partner.ok("reschedule_posts", { moves: [{ postId: id, scheduledAt: later(2 * day) }] });
    expect(gated.moves[0]).toMatchObject({ postId: id, ok: false, error: { code: "approval_required", retryable: false } });

    // The reviewer saw v1; the post changed before the decision.
    const v1 = await partner.ok("view_post", { id });
    await partner.ok("update_post", { id, caption: "Gate test, edited." });
    expect(await partner.fails("approve_post", { id, contentDigest: v1.contentDigest })).toMatchObject({ code: "post_content_changed", retryable: false });
    const v2 = await partner.ok("view_post", { id });
    const approved = await partner.ok("approve_post", { id, contentDigest: v2.contentDigest });
    expect(approved.approval).toMatchObject({ decision: "approved", contentDigest: v2.contentDigest, reason: null, stale: false, decidedBy: expect.any(String) });

    // A change after approval makes it stale.
    await partner.ok("update_post", { id, caption: "Gate test, edited again." });
    const status = await partner.ok("get_post_status", { id });
    expect(status.approval).toMatchObject({ decision: "approved", stale: true });
    expect(status.contentDigest).not.toBe(v2.contentDigest);
    expect(await partner.fails("schedule_post", { id, scheduledAt: later(2 * day) })).toMatchObject({ code: "approval_stale" });

    const v3 = await partner.ok("view_post", { id });
    await partner.ok("approve_post", { id, contentDigest: v3.contentDigest });
    const booked = await partner.ok("schedule_post", { id, scheduledAt: later(2 * day) });
    expect(booked.scheduledDestinations).toEqual(["INSTAGRAM"]);

    // A held post cannot be rejected; its lockedDestinations carry no platformPostId.
    const locked = await partner.fails("reject_post", { id, reason: "Wrong hours" });
    expect(locked).toMatchObject({ code: "already_scheduled", lockedDestinations: [{ platform: "INSTAGRAM" }] });
    expect(locked.lockedDestinations![0]!.platformPostId).toBeUndefined();
    const held = (await partner.ok("get_post_status", { id })).platformResults[0];
    await partner.ok("unschedule_platform", { id, platform: "INSTAGRAM", platformPostId: held!.platformPostId });

    expect(await partner.fails("reject_post", { id, reason: "Wrong hours", contentDigest: v1.contentDigest })).toMatchObject({ code: "post_content_changed" });
    const rejected = await partner.ok("reject_post", { id, reason: "Wrong hours", contentDigest: v3.contentDigest });
    expect(rejected.approval).toMatchObject({ decision: "rejected", reason: "Wrong hours", contentDigest: v3.contentDigest });
    expect(await partner.fails("publish_post_now", { id })).toMatchObject({ code: "approval_rejected" });
    expect(await partner.fails("schedule_post", { id, scheduledAt: later(2 * day) })).toMatchObject({ code: "approval_rejected" });

    // Only a new approval clears a rejection.
    await partner.ok("approve_post", { id, contentDigest: (await partner.ok("view_post", { id })).contentDigest });
    const published = await partner.ok("publish_post_now", { id });
    expect(published.publishResults).toEqual([expect.objectContaining({ platform: "INSTAGRAM", status: "published", platformPostId: expect.any(String) })]);

    // [design-changed]: an approved post whose design changed since is refused and nothing goes out.
    const { postId: redesigned } = await partner.ok("create_draft", { brandId: profile.brandId, caption: "Redesigned [design-changed]", mediaIds: [mediaId] });
    await partner.ok("approve_post", { id: redesigned, contentDigest: (await partner.ok("view_post", { id: redesigned })).contentDigest });
    expect(await partner.fails("publish_post_now", { id: redesigned })).toMatchObject({ code: "design_changed_after_approval", retryable: false });
    expect(await partner.fails("schedule_post", { id: redesigned, scheduledAt: later(2 * day) })).toMatchObject({ code: "design_changed_after_approval" });
    expect((await partner.ok("get_post_status", { id: redesigned })).platformResults[0]).toMatchObject({ status: "draft", platformPostId: null });

    // Deactivation withdraws bookings, which keep their date; an inactive profile cannot publish.
    const { postId: other } = await partner.ok("create_draft", { brandId: profile.brandId, caption: "Booked, then withdrawn.", mediaIds: [mediaId] });
    await partner.ok("approve_post", { id: other, contentDigest: (await partner.ok("view_post", { id: other })).contentDigest });
    const when = later(3 * day);
    await partner.ok("schedule_post", { id: other, scheduledAt: when });
    expect(await partner.ok("deactivate_profile", { brandId: profile.brandId })).toMatchObject({ unscheduledPosts: 1 });
    const withdrawn = await partner.ok("get_post_status", { id: other });
    expect(withdrawn.platformResults[0]).toMatchObject({ platform: "INSTAGRAM", status: "unscheduled", platformPostId: null, scheduledAt: utc(when) });
    expect(withdrawn.scheduledAt).toBe(utc(when));
    expect(await partner.fails("schedule_post", { id: other, scheduledAt: later(4 * day) })).toMatchObject({ code: "subscription_required" });
  });
});

describe("pre-flight", () => {
  it("reports every problem of every destination before contacting any platform", async () => {
    // Feed and story content in one batch: the 9:16 picture fails the Instagram feed band.
    const batch = await alex.ok("create_posts", { brandId: harbour, brief: "Christmas opening hours", count: 1, platforms: ["FACEBOOK", "INSTAGRAM_STORIES"] });
    mock.clock.advance(10 * minute);
    const mixed = (await alex.ok("get_post_batch_status", { batchId: batch.batchId })).items[0]!.postId;
    const aspect = await alex.fails("schedule_post", { id: mixed, scheduledAt: later(7 * day) });
    expect(aspect).toMatchObject({ code: "schedule_preflight_failed", retryable: false, blockedDestinations: [{ platform: "INSTAGRAM", code: "image_aspect_invalid" }] });
    expect((await alex.ok("get_post_status", { id: mixed })).status).toBe("draft");
    expect((await alex.ok("schedule_post", { id: mixed, scheduledAt: later(7 * day), platforms: ["FACEBOOK", "INSTAGRAM_STORIES"] })).scheduledDestinations).toEqual([
      "FACEBOOK",
      "INSTAGRAM_STORIES",
    ]);

    // Too long for Instagram and no picture; a dry run lists the same without booking.
    const { postId: long } = await alex.ok("create_draft", { brandId: harbour, caption: "c".repeat(2300), platforms: ["FACEBOOK"] });
    const tooLong = await alex.fails("schedule_post", { id: long, scheduledAt: later(7 * day) });
    expect(tooLong.blockedDestinations).toEqual([
      { platform: "INSTAGRAM", code: "caption_too_long", characterCount: 2300, characterLimit: 2200 },
      { platform: "INSTAGRAM", code: "media_required" },
    ]);
    const dry = await alex.ok("schedule_post", { id: long, scheduledAt: later(7 * day), dryRun: true });
    expect(dry.dryRun).toBe(true);
    expect(dry.blocked!.map((b) => [b.platform, b.code])).toEqual([["INSTAGRAM", "caption_too_long"], ["INSTAGRAM", "media_required"]]);
    expect(dry.blocked![0]!.message).toEqual(expect.any(String));
    expect((await alex.ok("publish_post_now", { id: long, dryRun: true })).blocked).toHaveLength(2);
    expect((await alex.ok("get_post_status", { id: long })).platformResults.map((r) => r.status)).toEqual(["draft", "draft"]);

    // A story takes one picture.
    const two = [await picture(alex, harbour, "a-9x16.jpg"), await picture(alex, harbour, "b-9x16.jpg")];
    const { postId: story } = await alex.ok("create_draft", { brandId: harbour, mediaIds: two, platforms: ["INSTAGRAM_STORIES"] });
    await alex.ok("update_post", { id: story, removePlatforms: ["INSTAGRAM"] });
    expect((await alex.fails("schedule_post", { id: story, scheduledAt: later(7 * day) })).blockedDestinations).toEqual([
      { platform: "INSTAGRAM_STORIES", code: "too_many_images", imageCount: 2, imageLimit: 1 },
    ]);

    // Neither caption nor picture.
    const { postId: empty } = await alex.ok("create_draft", { brandId: harbour, caption: "x", platforms: ["FACEBOOK"] });
    await alex.ok("update_post", { id: empty, caption: "" });
    expect((await alex.fails("publish_post_now", { id: empty })).blockedDestinations).toEqual([
      { platform: "INSTAGRAM", code: "post_empty" },
      { platform: "INSTAGRAM", code: "media_required" },
      { platform: "FACEBOOK", code: "post_empty" },
    ]);
  });

  it("checks video and Reddit rules on a brand connected step by step", async () => {
    // While Northside Physio has no channel, REDDIT can be added as a provisional destination.
    const { postId: reddit } = await alex.ok("create_draft", {
      brandId: physio,
      caption: "Desk stretches that work.",
      platforms: ["REDDIT"],
      reddit: { subreddit: "   " },
    });
    const longTitle = `${"Why your desk chair is not the problem and what to change instead ".repeat(5)}\nMore below.`;
    const { postId: titled } = await alex.ok("create_draft", { brandId: physio, caption: longTitle, platforms: ["REDDIT"], reddit: { subreddit: "physiotherapy" } });
    expect(await alex.fails("schedule_post", { id: reddit, scheduledAt: later(7 * day) })).toMatchObject({ code: "platform_not_connected", connectedPlatforms: [] });
    for (const channel of ["instagram", "youtube", "google_business"]) await connect(alex, physio, channel);

    const blockedFor = async (id: string) => (await alex.fails("schedule_post", { id, scheduledAt: later(7 * day) })).blockedDestinations!;
    expect(await blockedFor(reddit)).toEqual([
      { platform: "INSTAGRAM", code: "media_required" },
      { platform: "REDDIT", code: "reddit_subreddit_required" },
    ]);
    await alex.ok("update_post", { id: reddit, reddit: { subreddit: "physionotfound" } });
    expect((await blockedFor(reddit))[1]).toEqual({ platform: "REDDIT", code: "reddit_subreddit_not_found" });
    await alex.ok("update_post", { id: reddit, reddit: { subreddit: "flairphysio" } });
    expect((await blockedFor(reddit))[1]).toEqual({ platform: "REDDIT", code: "reddit_flair_required" });
    const titleProblem = (await blockedFor(titled)).find((b) => b.platform === "REDDIT");
    expect(titleProblem).toMatchObject({ code: "reddit_title_too_long", characterLimit: 300 });
    expect(titleProblem?.characterCount).toBeGreaterThan(300);

    // With the options right, pre-flight passes and the provider refuses REDDIT (no Reddit account connected).
    await alex.ok("update_post", { id: reddit, reddit: { subreddit: "flairphysio", flair: "Advice" } });
    await alex.ok("update_post", { id: reddit, removePlatforms: ["INSTAGRAM"] });
    const refused = await alex.fails("schedule_post", { id: reddit, scheduledAt: later(7 * day) });
    expect(refused).toMatchObject({ code: "schedule_failed", retryable: false, refusedDestinations: [{ platform: "REDDIT", code: "channel_not_connected" }], scheduledDestinations: [] });

    // Video destinations.
    const photo = await picture(alex, physio);
    const clip = await alex.ok("upload_image", { brandId: physio, sourceUrl: "https://cdn.example.com/stretch-clip.mp4" });
    const { postId: yt } = await alex.ok("create_draft", { brandId: physio, caption: "Three stretches.", mediaIds: [photo], platforms: ["YOUTUBE"] });
    expect(await blockedFor(yt)).toEqual([{ platform: "YOUTUBE", code: "video_required" }]);
    const { postId: ytOk } = await alex.ok("create_draft", { brandId: physio, caption: "Three stretches.", mediaIds: [clip.mediaId], platforms: ["YOUTUBE"] });
    const view = await alex.ok("view_post", { id: ytOk });
    expect(view.destinations[1]).toMatchObject({ platform: "YOUTUBE", imageUrls: [], thumbnailUrl: clip.imageUrl, title: "Three stretches." });
    expect((await alex.ok("schedule_post", { id: ytOk, scheduledAt: later(7 * day) })).scheduledDestinations).toEqual(["INSTAGRAM", "YOUTUBE"]);
    const { postId: gb } = await alex.ok("create_draft", { brandId: physio, caption: "Open late Thursdays.", mediaIds: [clip.mediaId], platforms: ["GOOGLE_BUSINESS"] });
    expect(await blockedFor(gb)).toEqual([{ platform: "GOOGLE_BUSINESS", code: "video_not_supported" }]);
  });
});

describe("scheduling", () => {
  it("answers schedule_failed with the catalogue's retryable rule; a retry books only what is outstanding", async () => {
    const T = later(10 * day);
    const p = await feedPost("Fresh loaves.", "Fresh loaves. [refuse:rate_limited]");
    const failed = await alex.fails("schedule_post", { id: p, scheduledAt: T });
    expect(failed).toMatchObject({ code: "schedule_failed", retryable: true, refusedDestinations: [{ platform: "FACEBOOK", code: "rate_limited" }], scheduledDestinations: ["INSTAGRAM"] });
    const mid = byPlatform((await alex.ok("get_post_status", { id: p })).platformResults);
    expect(mid.INSTAGRAM).toMatchObject({ status: "scheduled", platformPostId: expect.any(String), scheduledAt: utc(T) });
    expect(mid.FACEBOOK).toMatchObject({ status: "draft", platformPostId: null, error: { code: "rate_limited", retryable: true } });
    const retried = await alex.ok("schedule_post", { id: p, scheduledAt: T });
    expect(retried).toEqual({ id: p, scheduledAt: utc(T), scheduledDestinations: ["INSTAGRAM", "FACEBOOK"] });
    const booked = byPlatform((await alex.ok("get_post_status", { id: p })).platformResults);
    expect(booked.INSTAGRAM?.platformPostId).toBe(mid.INSTAGRAM?.platformPostId);
    expect(booked.FACEBOOK).toMatchObject({ status: "scheduled", error: null });

    // Everything held: already_scheduled with a platformPostId per destination.
    const again = await alex.fails("schedule_post", { id: p, scheduledAt: T });
    expect(again).toMatchObject({ code: "already_scheduled", retryable: false });
    expect(again.lockedDestinations).toEqual([
      { platform: "INSTAGRAM", platformPostId: booked.INSTAGRAM?.platformPostId },
      { platform: "FACEBOOK", platformPostId: booked.FACEBOOK?.platformPostId },
    ]);
    // A held destination cannot be removed or edited (platform_scheduled arrives as upstream_409) or deleted.
    expect(await alex.fails("update_post", { id: p, removePlatforms: ["FACEBOOK"] })).toMatchObject({ code: "upstream_409", retryable: false });
    expect(await alex.fails("update_post", { id: p, caption: "New words" })).toMatchObject({ code: "upstream_409" });
    expect(await alex.fails("delete_post", { id: p })).toMatchObject({ code: "post_already_scheduled", lockedDestinations: again.lockedDestinations });
    expect(await alex.ok("update_post", { id: p, scheduledAt: T })).toMatchObject({ scheduledAt: utc(T) });

    // A refusal that is not retryable stays refused.
    const q = await feedPost("Rye is back.", "Rye is back. [refuse:content_rejected]");
    for (let i = 0; i < 2; i++) {
      expect(await alex.fails("schedule_post", { id: q, scheduledAt: T })).toMatchObject({
        code: "schedule_failed", retryable: false, refusedDestinations: [{ platform: "FACEBOOK", code: "content_rejected" }], scheduledDestinations: ["INSTAGRAM"],
      });
    }
    // A new time while held: withdraw with unschedule_platform, one call per locked destination.
    const lockedQ = await alex.fails("schedule_post", { id: q, scheduledAt: later(11 * day) });
    const { platformPostId } = lockedQ.lockedDestinations![0]!;
    expect(await alex.fails("unschedule_platform", { id: q, platform: "INSTAGRAM", platformPostId: "pp_wrong" })).toMatchObject({ code: "not_found" });
    const withdrawn = await alex.ok("unschedule_platform", { id: q, platform: "INSTAGRAM", platformPostId });
    expect(withdrawn).toEqual({ id: q, platform: "INSTAGRAM", unscheduled: true, scheduledDestinations: [] });
    expect(await alex.ok("unschedule_platform", { id: q, platform: "INSTAGRAM", platformPostId })).toEqual(withdrawn);
    expect((await alex.ok("get_post_status", { id: q })).platformResults[0]).toMatchObject({ status: "unscheduled", platformPostId: null, scheduledAt: utc(T) });
    await alex.ok("delete_post", { id: q });

    expect(await alex.fails("schedule_post", { id: await feedPost(), scheduledAt: "2001-01-01T00:00:00Z" })).toMatchObject({ code: "bad_request", invalidFields: ["scheduledAt"] });
    expect(await alex.fails("schedule_post", { id: await feedPost(), scheduledAt: T, platforms: ["LINKEDIN"] })).toMatchObject({ code: "bad_request", invalidFields: ["platforms.0"] });
    expect(await alex.fails("schedule_post", { id: await feedPost("[publisher-error] x"), scheduledAt: T })).toMatchObject({ code: "publisher_error", retryable: true });
    // No connected channel at all (every Northside Fitness channel needs reauth).
    const { postId: f } = await alex.ok("create_draft", { brandId: fitness, caption: "Leg day" });
    expect(await alex.fails("schedule_post", { id: f, scheduledAt: T })).toMatchObject({ code: "platform_not_connected", connectedPlatforms: [], unavailablePlatforms: ["INSTAGRAM"] });
  });

  it("publishes a booking at its time", async () => {
    const p = await feedPost();
    const T = later(hour);
    await alex.ok("schedule_post", { id: p, scheduledAt: T });
    expect((await alex.ok("get_post_status", { id: p })).status).toBe("scheduled");
    mock.clock.advance(2 * hour);
    const live = await alex.ok("get_post_status", { id: p });
    expect(live.status).toBe("published");
    expect(live.platformResults.every((r) => r.status === "published" && r.publishedAt === utc(T) && r.postUrl)).toBe(true);
  });

  it("moves up to 25 posts with reschedule_posts, each entry on its own", async () => {
    const a = await feedPost();
    const { postId: b } = await alex.ok("create_draft", { brandId: harbour, caption: "No picture yet." });
    await alex.ok("schedule_post", { id: a, scheduledAt: later(10 * day) });
    const before = byPlatform((await alex.ok("get_post_status", { id: a })).platformResults);
    const T2 = later(12 * day);
    const { moves } = await alex.ok("reschedule_posts", {
      moves: [
        { postId: a, scheduledAt: T2 },
        { postId: b, scheduledAt: T2 },
        { postId: "no-such-post", scheduledAt: T2 },
        { postId: a, scheduledAt: later(13 * day) },
      ],
    });
    expect(moves[0]).toEqual({ postId: a, ok: true, scheduledAt: utc(T2), scheduledDestinations: ["INSTAGRAM", "FACEBOOK"], error: null });
    expect(moves[1]).toMatchObject({ postId: b, ok: false, error: { code: "schedule_preflight_failed", retryable: false, blockedDestinations: [{ platform: "INSTAGRAM", code: "media_required" }] } });
    expect(moves[2]).toMatchObject({ ok: false, error: { code: "not_found" } });
    expect(moves[3]).toMatchObject({ ok: false, error: { code: "bad_request" } });
    const after = byPlatform((await alex.ok("get_post_status", { id: a })).platformResults);
    expect(after.INSTAGRAM).toMatchObject({ status: "scheduled", scheduledAt: utc(T2), platformPostId: before.INSTAGRAM?.platformPostId });

    const tooMany = await alex.call("reschedule_posts", { moves: Array.from({ length: 26 }, () => ({ postId: a, scheduledAt: T2 })) });
    expect(tooMany.result.isError).toBe(true);
    expect(tooMany.data).toBeUndefined();
  });
});

describe("publishing", () => {
  it("reports one result per destination; a repeat retries only what failed", async () => {
    const p = await feedPost("Hot cross buns today.", "Hot cross buns today. [refuse:rate_limited]");
    const first = byPlatform((await alex.ok("publish_post_now", { id: p })).publishResults);
    expect(first.INSTAGRAM).toMatchObject({ status: "published", reason: null, platformPostId: expect.any(String) });
    expect(first.FACEBOOK).toMatchObject({ status: "failed", reason: { code: "rate_limited", retryable: true } });
    const mid = await alex.ok("get_post_status", { id: p });
    expect(mid.status).toBe("partially_published");
    expect(byPlatform(mid.platformResults).FACEBOOK).toMatchObject({ status: "failed", error: { code: "rate_limited" } });
    const second = byPlatform((await alex.ok("publish_post_now", { id: p })).publishResults);
    expect(second.INSTAGRAM).toMatchObject({ status: "skipped", reason: { code: "already_published" }, platformPostId: first.INSTAGRAM?.platformPostId });
    expect(second.FACEBOOK).toMatchObject({ status: "published" });
    const live = await alex.ok("get_post_status", { id: p });
    expect(live.status).toBe("published");
    expect(live.platformResults.every((r) => r.postUrl && r.publishedAt)).toBe(true);

    // A live post is not edited; unpublishing makes it editable again.
    expect(await alex.fails("update_post", { id: p, caption: "x" })).toMatchObject({ code: "post_already_published", publishedPlatforms: ["INSTAGRAM", "FACEBOOK"] });
    expect(await alex.fails("delete_post", { id: p })).toMatchObject({ code: "post_already_published" });
    const down = await alex.ok("unpublish_post", { id: p, platforms: ["INSTAGRAM"] });
    expect(down.unpublishResults).toEqual([{ platform: "INSTAGRAM", status: "unpublished", reason: null }]);
    await alex.ok("unpublish_post", { id: p });
    await alex.ok("update_post", { id: p, caption: "Back as a draft." });

    const q = await feedPost("Only Instagram.", "Not this one. [refuse:content_rejected]");
    const some = byPlatform((await alex.ok("publish_post_now", { id: q, platforms: ["INSTAGRAM"] })).publishResults);
    expect(some.FACEBOOK).toMatchObject({ status: "skipped", reason: { code: "not_requested", retryable: false } });
    expect(some.INSTAGRAM?.status).toBe("published");
    for (let i = 0; i < 2; i++) {
      expect(byPlatform((await alex.ok("publish_post_now", { id: q })).publishResults).FACEBOOK).toMatchObject({ status: "failed", reason: { code: "content_rejected", retryable: false } });
    }
  });

  it("reports held, pending, stuck and partly published stories", async () => {
    const held = await feedPost();
    await alex.ok("schedule_post", { id: held, scheduledAt: later(10 * day) });
    const heldResults = (await alex.ok("publish_post_now", { id: held })).publishResults;
    expect(heldResults!.map((r) => [r.status, r.reason?.code])).toEqual([["skipped", "held_by_provider"], ["skipped", "held_by_provider"]]);
    expect(heldResults!.every((r) => typeof r.platformPostId === "string")).toBe(true);

    const slow = await feedPost("Slow one.", "Slow one. [slow]");
    const pending = byPlatform((await alex.ok("publish_post_now", { id: slow })).publishResults);
    expect(pending.FACEBOOK).toMatchObject({ status: "pending", reason: { code: "publishing_in_progress" } });
    expect(byPlatform((await alex.ok("get_post_status", { id: slow })).platformResults).FACEBOOK?.status).toBe("publishing");
    expect(byPlatform((await alex.ok("publish_post_now", { id: slow })).publishResults).FACEBOOK?.status).toBe("pending");
    mock.clock.advance(3 * minute);
    expect((await alex.ok("get_post_status", { id: slow })).status).toBe("published");

    const stuck = await feedPost("Stuck one.", "Stuck one. [stuck]");
    expect(byPlatform((await alex.ok("publish_post_now", { id: stuck })).publishResults).FACEBOOK?.status).toBe("pending");
    mock.clock.advance(hour);
    expect(byPlatform((await alex.ok("publish_post_now", { id: stuck })).publishResults).FACEBOOK).toMatchObject({ status: "skipped", reason: { code: "stuck_at_provider" } });

    const tall = await picture(alex, harbour, "hours-9x16.jpg");
    const { postId: story } = await alex.ok("create_draft", { brandId: harbour, caption: "Holiday hours [story-partial]", mediaIds: [tall], platforms: ["FACEBOOK", "INSTAGRAM_STORIES"] });
    await alex.ok("update_post", { id: story, removePlatforms: ["INSTAGRAM"] });
    const firstTry = byPlatform((await alex.ok("publish_post_now", { id: story })).publishResults);
    expect(firstTry.FACEBOOK?.status).toBe("published");
    expect(firstTry.INSTAGRAM_STORIES).toMatchObject({ status: "failed", reason: { code: "provider_timeout", retryable: true } });
    expect(byPlatform((await alex.ok("publish_post_now", { id: story })).publishResults).INSTAGRAM_STORIES).toMatchObject({
      status: "skipped",
      reason: { code: "story_partially_published" },
    });

    expect(await alex.fails("publish_post_now", { id: await feedPost("[publisher-error] y") })).toMatchObject({ code: "publisher_error" });
  });

  it("refuses at the provider when a channel needs reauth (Facebook's token runs out after 9 days)", async () => {
    const p = await feedPost();
    mock.clock.advance(10 * day);
    expect((await alex.ok("schedule_post", { id: p, scheduledAt: later(2 * day), dryRun: true })).blocked).toEqual([
      { platform: "FACEBOOK", code: "channel_needs_reauth", message: expect.any(String) },
    ]);
    expect(await alex.fails("schedule_post", { id: p, scheduledAt: later(2 * day) })).toMatchObject({
      code: "schedule_failed", retryable: false, refusedDestinations: [{ platform: "FACEBOOK", code: "channel_needs_reauth" }], scheduledDestinations: ["INSTAGRAM"],
    });
    expect(await alex.fails("create_posts", { brandId: harbour, brief: "x", count: 1, platforms: ["FACEBOOK"] })).toMatchObject({ code: "platform_not_connected", unavailablePlatforms: ["FACEBOOK"] });
  });
});
