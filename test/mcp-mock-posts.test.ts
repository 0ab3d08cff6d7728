// The gateway mock's posts half, end to end through real SDK clients: batches on the virtual clock, the content
// digest, editing rules, picture renders, uploads and drafts, real PNG picture URLs, deletion and erasure.
// Scheduling, approval and publishing are in mcp-mock-posts-publishing.test.ts.
import { inflateSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMcpMock, type McpMock } from "../mock/mcp/server.js";
import {
  aiFails,
  allowanceExhausted,
  allowanceRunsOut,
  aspectInUrl,
  aspectMarker,
  batchFails,
  captionMarkers,
  imagesFail,
  itemFailures,
  longTitle,
  partialBatch,
  picturesHeld,
  postsMagicInputs,
  providerRefusal,
  publisherError,
  designChanged,
  renderFailure,
  renderStuck,
  slowPublish,
  stepwise,
  storyPartial,
  stripMarkers,
  stuckPublish,
  templateRendering,
} from "../mock/mcp/posts/magic.js";
import { encodePng, readPngSize, sizeForAspect } from "../mock/png.js";
import { canonicalJson, contentDigest } from "../mock/mcp/posts/digest.js";
import { destinationRules, supportedDestinations, targetAspect } from "../mock/mcp/posts/limits.js";
import { brandIdBySlug as brandId, connectMcp, settleBatch, type McpTestClient } from "./support/mcp-client.js";

let mock: McpMock;
let alex: McpTestClient;
let blake: McpTestClient;
let partner: McpTestClient;
let harbour: string;
let physio: string;
let blakeBrand: string;

const minute = 60_000;

const settle = (c: McpTestClient, batchId: string, pictures = true) => settleBatch(c, mock.clock, batchId, pictures);

/** A real PNG: signature, IHDR, and IDAT that inflates to exactly the rows the size needs. */
async function fetchPng(url: string | null | undefined): Promise<{ status: number; width: number; height: number }> {
  if (!url) throw new Error("no picture address to fetch");
  const res = await fetch(url);
  if (res.status !== 200) return { status: res.status, width: 0, height: 0 };
  expect(res.headers.get("content-type")).toBe("image/png");
  const bytes = Buffer.from(await res.arrayBuffer());
  expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  expect(bytes.toString("ascii", 12, 16)).toBe("IHDR");
  const width = bytes.readUInt32BE(16);
  const height = bytes.readUInt32BE(20);
  const idat = bytes.indexOf("IDAT", 0, "ascii");
  const length = bytes.readUInt32BE(idat - 4);
  expect(inflateSync(bytes.subarray(idat + 4, idat + 4 + length)).length).toBe((1 + width * 3) * height);
  return { status: 200, width, height };
}

async function upload(c: McpTestClient, brand: string, name = "shot-4x5.jpg"): Promise<{ mediaId: string; imageUrl: string }> {
  return c.ok("upload_image", { brandId: brand, sourceUrl: `https://cdn.example.com/${name}` });
}

beforeAll(async () => {
  mock = await startMcpMock({ port: 0, timeScale: 1 });
  [alex, blake, partner] = await Promise.all([connectMcp(mock.url, "mcp_user"), connectMcp(mock.url, "mcp_other_user"), connectMcp(mock.url, "mcp_partner")]);
  harbour = await brandId(alex, "harbour-bakery", "harbour-bakery");
  physio = await brandId(alex, "northside-studio", "northside-physio");
  blakeBrand = await brandId(blake, "blake-ceramics", "blake-ceramics");
});

afterAll(async () => {
  await Promise.all([alex?.close(), blake?.close(), partner?.close()]);
  await mock?.stop();
});

describe("create_posts and get_post_batch_status", () => {
  it("runs queued → generating → ready on the virtual clock, with counts, and pictures that land later", async () => {
    const brief = "Our new autumn menu: pumpkin sourdough, spiced apple buns and hot chocolate.";
    const batch = await alex.ok("create_posts", { brandId: harbour, brief, count: 3 });
    expect(batch).toMatchObject({ brandId: harbour, status: "queued", requestedCount: 3, includeImage: true });
    expect(batch.items).toEqual([0, 1, 2].map((index) => ({ index, status: "pending" })));
    expect(batch.connectionWarning).toBeUndefined();

    const queued = await alex.ok("get_post_batch_status", { batchId: batch.batchId });
    expect(queued).toMatchObject({ status: "queued", settled: false, createdCount: 0, failedCount: 0, pendingCount: 3 });
    mock.clock.advance(4_000);
    const generating = await alex.ok("get_post_batch_status", { batchId: batch.batchId });
    expect(generating).toMatchObject({ status: "generating", settled: false, pendingCount: 3 });
    expect(generating.items[0]!.status).toBe("generating");

    // Copy settles within 1–3 virtual minutes; the last post's picture is still rendering then.
    const settled = await settle(alex, batch.batchId, false);
    expect(settled).toMatchObject({ status: "ready", settled: true, requestedCount: 3, createdCount: 3, failedCount: 0, pendingCount: 0, error: null });
    expect(Date.parse(settled.updatedAt!) - Date.parse(settled.createdAt!)).toBeGreaterThanOrEqual(minute);
    expect(Date.parse(settled.updatedAt!) - Date.parse(settled.createdAt!)).toBeLessThanOrEqual(3.1 * minute);
    const last = settled.items[2]!;
    expect(last).toMatchObject({ status: "created", imagePending: true, hasMedia: false, imageUrls: [] });
    expect(settled.imagesPendingCount).toBeGreaterThanOrEqual(1);
    for (const item of settled.items) {
      expect(item.postId).toEqual(expect.any(String));
      expect(item.platforms).toEqual(["INSTAGRAM", "FACEBOOK"]);
      expect(item.appUrl).toContain(item.postId);
      expect(item.destinations!.map((d) => d.platform)).toEqual(["INSTAGRAM", "FACEBOOK"]);
      // Copy per destination.
      expect(item.destinations![0]!.text).not.toBe(item.destinations![1]!.text);
      expect(item.destinations![0]!).toMatchObject({ characterLimit: 2200, characterCount: [...item.destinations![0]!.text].length });
      expect(item.destinations![1]!.characterLimit).toBe(63206);
    }
    // A different angle per post.
    expect(new Set(settled.items.map((i) => i.title)).size).toBe(3);
    const digestBefore = last.contentDigest;

    const done = await settle(alex, batch.batchId);
    expect(done.imagesPendingCount).toBe(0);
    const landed = done.items[2]!;
    expect(landed).toMatchObject({ imagePending: false, hasMedia: true });
    expect(landed.imageUrls).toHaveLength(1);
    expect(landed.contentDigest).not.toBe(digestBefore);
    const view = await alex.ok("view_post", { id: landed.postId });
    expect(view.contentDigest).toBe(landed.contentDigest);
    expect(view.imageUrl).toBe(landed.imageUrls![0]);
    expect(view.destinations.every((d) => d.imageUrls[0] === view.imageUrl)).toBe(true);
    // Feed pictures are 4:5 real PNGs.
    expect(await fetchPng(view.imageUrl)).toEqual({ status: 200, width: 80, height: 100 });

    // Deterministic from the brief: the same brief gives the same titles.
    const again = await alex.ok("create_posts", { brandId: harbour, brief, count: 3 });
    const againDone = await settle(alex, again.batchId, false);
    expect(againDone.items.map((i) => i.title)).toEqual(settled.items.map((i) => i.title));
  });

  it("ends partial, failed or skipped as the brief's magic markers say", async () => {
    const partial = await alex.ok("create_posts", { brandId: harbour, brief: "Weekend specials [partial]", count: 4, includeImage: false });
    expect(partial.includeImage).toBe(false);
    const p = await settle(alex, partial.batchId);
    expect(p).toMatchObject({ status: "partial", settled: true, createdCount: 2, failedCount: 2, pendingCount: 0 });
    expect(p.items[1]).toMatchObject({ status: "failed", postId: null, error: { code: "ai_generation_failed", retryable: true } });
    expect(p.items[0]!.mediaRequiredFor).toEqual(["INSTAGRAM"]);
    expect(p.warnings?.join(" ")).toContain("INSTAGRAM");

    const skipped = await alex.ok("create_posts", { brandId: harbour, brief: "Opening hours [allowance-runs-out]", count: 4, includeImage: false });
    const s = await settle(alex, skipped.batchId);
    expect(s).toMatchObject({ status: "partial", createdCount: 2, failedCount: 2 });
    expect(s.items.slice(2).map((i) => [i.status, i.error?.code])).toEqual([["skipped", "usage_limit_exceeded"], ["skipped", "usage_limit_exceeded"]]);

    const failed = await alex.ok("create_posts", { brandId: harbour, brief: "Anything [batch-fails]", count: 2 });
    const f = await settle(alex, failed.batchId);
    expect(f).toMatchObject({ status: "failed", settled: true, createdCount: 0, failedCount: 2, error: expect.any(String) });

    const noPictures = await alex.ok("create_posts", { brandId: harbour, brief: "Spring flowers [images-fail]", count: 1 });
    const n = await settle(alex, noPictures.batchId);
    expect(n).toMatchObject({ status: "ready", imagesPendingCount: 0 });
    expect(n.items[0]).toMatchObject({ hasMedia: false, imagePending: false, imageUrls: [], mediaRequiredFor: ["INSTAGRAM"] });
  });

  it("refuses before anything is made, and creates no batch", async () => {
    const unsupported = await alex.fails("create_posts", { brandId: harbour, brief: "x", count: 1, platforms: ["MYSPACE"] });
    expect(unsupported).toMatchObject({ code: "platform_not_supported", retryable: false, unsupportedPlatforms: ["MYSPACE"] });
    expect(unsupported.supportedPlatforms).toContain("INSTAGRAM");

    const unconnected = await alex.fails("create_posts", { brandId: harbour, brief: "x", count: 1, platforms: ["LINKEDIN"] });
    expect(unconnected).toMatchObject({ code: "platform_not_connected", retryable: false, unavailablePlatforms: ["LINKEDIN"] });
    expect(unconnected.connectedPlatforms).toEqual(expect.arrayContaining(["INSTAGRAM", "FACEBOOK"]));

    const storiesOnly = await alex.fails("create_posts", { brandId: harbour, brief: "x", count: 1, platforms: ["INSTAGRAM_STORIES"] });
    expect(storiesOnly).toMatchObject({ code: "media_required", retryable: false });

    expect(await alex.fails("create_posts", { brandId: harbour, brief: "x [allowance-exhausted]", count: 1 })).toMatchObject({
      code: "usage_limit_exceeded",
      retryable: false,
      resetDate: expect.stringMatching(/-01T00:00:00.000Z$/),
    });
    expect(await alex.fails("create_posts", { brandId: harbour, brief: "x [ai-fails]", count: 1 })).toMatchObject({ code: "ai_generation_failed", retryable: true });
    // The real allowance: Blake's workspace has 3 units a month.
    expect(await blake.fails("create_posts", { brandId: blakeBrand, brief: "Mugs", count: 4 })).toMatchObject({ code: "usage_limit_exceeded", resetDate: expect.any(String) });
    // An unknown library picture.
    expect(await alex.fails("create_posts", { brandId: harbour, brief: "x", count: 1, mediaIds: ["nope"] })).toMatchObject({ code: "bad_request", invalidFields: ["mediaIds.0"] });

    // A brand with no connected channel: provisional destinations and a connectionWarning; REDDIT needs options.
    const provisional = await alex.ok("create_posts", { brandId: physio, brief: "Back pain myths", count: 1, platforms: ["FACEBOOK"] });
    expect(provisional.connectionWarning).toEqual(expect.any(String));
    const pb = await settle(alex, provisional.batchId, false);
    expect(pb.items[0]!.platforms).toEqual(["INSTAGRAM", "FACEBOOK"]);
    expect(await alex.fails("create_posts", { brandId: physio, brief: "x", count: 1, platforms: ["REDDIT"] })).toMatchObject({ code: "reddit_options_required" });

    // Another tenant's brand, batch and post are refused the same way.
    expect(await blake.fails("create_posts", { brandId: harbour, brief: "x", count: 1 })).toMatchObject({ code: "forbidden" });
    expect(await blake.fails("get_post_batch_status", { batchId: provisional.batchId })).toMatchObject({ code: "forbidden" });
    expect(await blake.fails("view_post", { id: pb.items[0]!.postId })).toMatchObject({ code: "forbidden" });
    // The refusal names only what the caller sent: the post or batch id, never the owner's brand id.
    for (const [tool, args, sent] of [
      ["view_post", { id: pb.items[0]!.postId }, pb.items[0]!.postId],
      ["get_post_batch_status", { batchId: provisional.batchId }, provisional.batchId],
    ] as const) {
      const refused = await blake.fails(tool, args);
      expect(refused.message).toContain(sent);
      expect(refused.message).not.toContain(physio);
      expect(refused.message).not.toContain(harbour);
    }
    expect(await alex.fails("get_post_batch_status", { batchId: "no-such-batch" })).toMatchObject({ code: "not_found" });
  });

  it("holds generation up while a partner's profile builds, but not an own-caption draft", async () => {
    const created = await partner.ok("create_profile", { websiteUrl: "https://harbourbikes.example", name: "Harbour Bikes", externalId: "posts-build-1" });
    expect(created.status).toBe("building");
    expect(await partner.fails("create_posts", { brandId: created.brandId, brief: "x", count: 1 })).toMatchObject({ code: "profile_not_ready", retryable: true });
    expect(await partner.fails("create_draft", { brandId: created.brandId, prompt: "x" })).toMatchObject({ code: "profile_not_ready" });
    expect(await partner.fails("create_draft", { brandId: created.brandId, caption: "x", includeImage: true })).toMatchObject({ code: "profile_not_ready" });
    const draft = await partner.ok("create_draft", { brandId: created.brandId, caption: "Our own words, not held up." });
    expect(draft).toMatchObject({ postId: expect.any(String), contentDigest: expect.any(String), approval: null, imagePending: false });
    mock.clock.advance(31 * minute);
    const batch = await partner.ok("create_posts", { brandId: created.brandId, brief: "Bike servicing", count: 1 });
    expect(batch.connectionWarning).toEqual(expect.any(String));
  });
});

describe("view_post and the content digest", () => {
  it("changes exactly when digested content changes", async () => {
    const draft = await alex.ok("create_draft", { brandId: harbour, caption: "Fresh bread every morning.", platforms: ["FACEBOOK"] });
    const id = draft.postId;
    const d0 = (await alex.ok("view_post", { id })).contentDigest;
    expect(draft.contentDigest).toBe(d0);
    expect((await alex.ok("view_post", { id })).contentDigest).toBe(d0);

    // The intended time is not content.
    const timed = await alex.ok("update_post", { id, scheduledAt: "2030-01-02T10:30:00+01:00" });
    expect(timed.scheduledAt).toBe("2030-01-02T09:30:00.000Z");
    expect((await alex.ok("view_post", { id })).contentDigest).toBe(d0);

    await alex.ok("update_post", { id, caption: "Fresh bread every morning!" });
    const d1 = (await alex.ok("view_post", { id })).contentDigest;
    expect(d1).not.toBe(d0);
    await alex.ok("update_post", { id, caption: "Fresh bread every morning." });
    expect((await alex.ok("view_post", { id })).contentDigest).toBe(d0);

    await alex.ok("update_post", { id, platform: "FACEBOOK", firstComment: "Open 7–3." });
    const d2 = (await alex.ok("view_post", { id })).contentDigest;
    expect(d2).not.toBe(d0);
    await alex.ok("update_post", { id, platform: "FACEBOOK", firstComment: null });
    expect((await alex.ok("view_post", { id })).contentDigest).toBe(d0);

    await alex.ok("update_post", { id, removePlatforms: ["FACEBOOK"] });
    const d3 = (await alex.ok("view_post", { id })).contentDigest;
    expect(d3).not.toBe(d0);

    const picture = await alex.ok("generate_image", { postId: id, prompt: "A loaf on a board" });
    const view = await alex.ok("view_post", { id });
    expect(view.imageUrls).toEqual([picture.imageUrl]);
    expect(view.contentDigest).not.toBe(d3);
    expect(view.destinations[0]!.images?.[0]).toMatchObject({ url: picture.imageUrl, slideText: "A loaf on a board", slideTextSource: "prompt" });
  });
});

describe("update_post", () => {
  it("checks limits, destinations and options, and writes nothing when it refuses", async () => {
    const { postId: id } = await alex.ok("create_draft", { brandId: harbour, caption: "Short caption.", platforms: ["FACEBOOK"] });
    const before = await alex.ok("view_post", { id });

    const long = "a".repeat(2300);
    expect(await alex.fails("update_post", { id, platform: "INSTAGRAM", caption: long })).toMatchObject({
      code: "caption_over_limit", retryable: false, overLimitPlatforms: ["INSTAGRAM"], characterCount: 2300, characterLimit: 2200,
    });
    expect(await alex.fails("update_post", { id, caption: "b".repeat(70000) })).toMatchObject({
      code: "caption_over_limit", overLimitPlatforms: ["INSTAGRAM", "FACEBOOK"], characterCount: 70000, characterLimit: 2200,
    });
    expect((await alex.ok("view_post", { id })).contentDigest).toBe(before.contentDigest);
    // Fits Facebook, so it is written; pre-flight catches Instagram later.
    await alex.ok("update_post", { id, caption: long });
    expect((await alex.ok("view_post", { id })).destinations.map((d) => d.characterCount)).toEqual([2300, 2300]);

    expect(await alex.fails("update_post", { id, platforms: ["LINKEDIN"] })).toMatchObject({ code: "platform_not_connected", unavailablePlatforms: ["LINKEDIN"] });
    expect(await alex.fails("update_post", { id, platforms: ["MYSPACE"] })).toMatchObject({ code: "platform_not_supported" });
    expect(await alex.fails("update_post", { id, removePlatforms: ["LINKEDIN"] })).toMatchObject({ code: "bad_request", invalidFields: ["removePlatforms.0"] });
    expect(await alex.fails("update_post", { id, removePlatforms: ["INSTAGRAM", "FACEBOOK"] })).toMatchObject({ code: "bad_request" });
    expect(await alex.fails("update_post", { id, reddit: { subreddit: "Breadit" } })).toMatchObject({ code: "bad_request", invalidFields: ["reddit"] });
    expect(await alex.fails("update_post", { id, platform: "FACEBOOK" })).toMatchObject({ code: "bad_request", invalidFields: ["platform"] });

    const stories = await alex.ok("update_post", { id, platforms: ["INSTAGRAM_STORIES"], removePlatforms: ["INSTAGRAM"] });
    expect(stories.platforms).toEqual(["FACEBOOK", "INSTAGRAM_STORIES"]);
    const view = await alex.ok("view_post", { id });
    expect(view.destinations[1]).toMatchObject({ platform: "INSTAGRAM_STORIES", text: "", characterLimit: 0 });

    // REDDIT on a brand with no connected channel (provisional): options are required, then shown.
    const { postId: rid } = await alex.ok("create_draft", { brandId: physio, caption: "Desk stretches that work." });
    expect(await alex.fails("update_post", { id: rid, platforms: ["REDDIT"] })).toMatchObject({ code: "reddit_options_required" });
    const added = await alex.ok("update_post", { id: rid, platforms: ["REDDIT"], reddit: { subreddit: "r/physiotherapy", flair: "Advice" } });
    expect(added.platforms).toEqual(["INSTAGRAM", "REDDIT"]);
    const reddit = (await alex.ok("view_post", { id: rid })).destinations[1];
    expect(reddit).toMatchObject({ platform: "REDDIT", title: "Desk stretches that work.", publishingOptions: { subreddit: "physiotherapy", flair: "Advice" } });
  });

  it("rewrites captions with generate_caption in the brand's voice", async () => {
    const { postId } = await alex.ok("create_draft", { brandId: harbour, caption: "Plain words.", platforms: ["FACEBOOK"] });
    const one = await alex.ok("generate_caption", { postId, platform: "FACEBOOK", instructions: "friendlier" });
    expect(one).toMatchObject({ postId, platform: "FACEBOOK", characterCount: [...one.caption].length });
    const view = await alex.ok("view_post", { id: postId });
    expect(view.destinations.map((d) => d.text)).toEqual(["Plain words.", one.caption]);
    const all = await alex.ok("generate_caption", { postId });
    expect(all.platform).toBeNull();
    expect(await alex.fails("generate_caption", { postId, instructions: "[ai-fails]" })).toMatchObject({ code: "ai_generation_failed", retryable: true });
  });
});

describe("picture renders", () => {
  it("runs regenerate_post_image as a job and refuses a second render while one runs", async () => {
    const batch = await alex.ok("create_posts", { brandId: harbour, brief: "Cinnamon buns", count: 1 });
    const copy = await settle(alex, batch.batchId, false);
    const postId = copy.items[0]!.postId;
    // The batch picture is still rendering (no job id for it).
    const busy = await alex.fails("regenerate_post_image", { postId });
    expect(busy).toMatchObject({ code: "image_generation_in_progress", retryable: false });
    expect(busy.jobId).toBeUndefined();
    await settle(alex, batch.batchId);
    const before = await alex.ok("view_post", { id: postId });

    const job = await alex.ok("regenerate_post_image", { postId, prompt: "Buns on a tray" });
    expect(job).toMatchObject({ jobId: expect.any(String), postId, status: "queued" });
    expect(await alex.fails("regenerate_post_image", { postId })).toMatchObject({ code: "image_generation_in_progress", jobId: job.jobId });
    mock.clock.advance(3_000);
    expect(await alex.ok("get_generation_job", { jobId: job.jobId })).toMatchObject({ status: "running", imageUrl: null, error: null });
    mock.clock.advance(2 * minute);
    const done = await alex.ok("get_generation_job", { jobId: job.jobId });
    expect(done).toMatchObject({ status: "completed", postId, error: null, imageUrl: expect.any(String) });
    const after = await alex.ok("view_post", { id: postId });
    expect(after.imageUrls).toEqual([done.imageUrl]);
    expect(after.contentDigest).not.toBe(before.contentDigest);
    // A new URL; the old one keeps working.
    expect(done.imageUrl).not.toBe(before.imageUrl);
    expect((await fetchPng(before.imageUrl)).status).toBe(200);
    expect(await fetchPng(done.imageUrl)).toEqual({ status: 200, width: 80, height: 100 });

    for (const [code, retryable] of [["content_rejected", false], ["provider_timeout", true]] as const) {
      const failing = await alex.ok("regenerate_post_image", { postId, prompt: `[render-fails:${code}]` });
      mock.clock.advance(2 * minute);
      expect(await alex.ok("get_generation_job", { jobId: failing.jobId })).toMatchObject({ status: "failed", imageUrl: null, error: { code, retryable } });
    }
    expect((await alex.ok("view_post", { id: postId })).imageUrls).toEqual([done.imageUrl]);
    expect(await alex.fails("regenerate_post_image", { postId, prompt: "[templates]" })).toMatchObject({ code: "template_rendering" });
    expect(await alex.fails("regenerate_post_image", { postId, imageIndex: 5 })).toMatchObject({ code: "bad_request", invalidFields: ["imageIndex"] });
    expect(await blake.fails("get_generation_job", { jobId: job.jobId })).toMatchObject({ code: "forbidden" });
  });

  it("renders story posts at 9:16 and makes pictures with generate_image at any aspect", async () => {
    const batch = await alex.ok("create_posts", { brandId: harbour, brief: "Christmas hours", count: 1, platforms: ["FACEBOOK", "INSTAGRAM_STORIES"] });
    const done = await settle(alex, batch.batchId);
    expect(done.items[0]!.platforms).toEqual(["INSTAGRAM", "FACEBOOK", "INSTAGRAM_STORIES"]);
    expect(done.warnings?.join(" ")).toContain("9:16");
    expect(await fetchPng(done.items[0]!.imageUrls![0])).toEqual({ status: 200, width: 90, height: 160 });

    const square = await alex.ok("generate_image", { brandId: harbour, prompt: "Logo wall [aspect:1:1]", saveToLibrary: true });
    expect(square).toMatchObject({ mediaId: expect.any(String), postId: null, imageIndex: null });
    expect(await fetchPng(square.imageUrl)).toEqual({ status: 200, width: 100, height: 100 });
    expect(await alex.fails("generate_image", { brandId: harbour, prompt: "x [render-fails]" })).toMatchObject({ code: "ai_generation_failed" });
    expect(await alex.fails("generate_image", { brandId: harbour, prompt: "x [templates]", saveToLibrary: true })).toMatchObject({ code: "template_rendering" });
  });
});

describe("upload_image and create_draft", () => {
  it("saves pictures to the library without fetching anything", async () => {
    const tall = await upload(alex, harbour, "story-9x16.jpg");
    expect(tall.mediaId).toEqual(expect.any(String));
    expect(await fetchPng(tall.imageUrl)).toEqual({ status: 200, width: 90, height: 160 });
    expect(await fetchPng((await upload(alex, harbour, "plain.jpg")).imageUrl)).toMatchObject({ width: 80, height: 100 });
    // One of the mock's own URLs is copied (a new URL, the same picture size).
    const copy = await alex.ok("upload_image", { brandId: harbour, sourceUrl: tall.imageUrl });
    expect(copy.imageUrl).not.toBe(tall.imageUrl);
    expect(await fetchPng(copy.imageUrl)).toMatchObject({ width: 90, height: 160 });
    expect(await alex.fails("upload_image", { brandId: harbour, sourceUrl: "http://cdn.example.com/a.jpg" })).toMatchObject({ code: "source_not_https", retryable: false });
    expect(await alex.fails("upload_image", { brandId: harbour, sourceUrl: "https://localhost/a.jpg" })).toMatchObject({ code: "source_not_public" });
    expect(await alex.fails("upload_image", { brandId: harbour, sourceUrl: "https://10.0.0.7/a.jpg" })).toMatchObject({ code: "source_not_public" });
    expect(await alex.fails("upload_image", { brandId: harbour, sourceUrl: new URL("/images/nothere.png", mock.url).href })).toMatchObject({ code: "bad_request" });
    expect(await blake.fails("upload_image", { brandId: harbour, sourceUrl: "https://cdn.example.com/a.jpg" })).toMatchObject({ code: "forbidden" });
  });

  it("makes drafts from a caption, a prompt or library pictures", async () => {
    const pic = await upload(alex, harbour);
    const withMedia = await alex.ok("create_draft", { brandId: harbour, mediaIds: [pic.mediaId], firstComment: "#bread", scheduledAt: "2030-05-01T08:00:00Z" });
    expect(withMedia).toMatchObject({ platforms: ["INSTAGRAM", "FACEBOOK"], scheduledAt: "2030-05-01T08:00:00.000Z", imagePending: false, approval: null });
    const view = await alex.ok("view_post", { id: withMedia.postId });
    expect(view).toMatchObject({ postText: "", imageUrls: [pic.imageUrl] });
    expect(view.destinations[0]).toMatchObject({ text: "", firstComment: "#bread" });

    const prompted = await alex.ok("create_draft", { brandId: harbour, prompt: "Sourdough class on Saturday", platforms: ["FACEBOOK"] });
    const pv = await alex.ok("view_post", { id: prompted.postId });
    expect(pv.destinations.map((d) => d.text.includes("Sourdough class on Saturday"))).toEqual([true, true]);

    const rendering = await alex.ok("create_draft", { brandId: harbour, caption: "Picture coming", includeImage: true });
    expect(rendering).toMatchObject({ imagePending: true, contentDigest: null });
    expect((await alex.ok("view_post", { id: rendering.postId })).imageUrls).toEqual([]);
    mock.clock.advance(2 * minute);
    expect((await alex.ok("view_post", { id: rendering.postId })).imageUrls).toHaveLength(1);

    expect(await alex.fails("create_draft", { brandId: harbour, caption: "x", platforms: ["INSTAGRAM_STORIES"] })).toMatchObject({ code: "media_required" });
    expect(await alex.fails("create_draft", { brandId: harbour, caption: "x".repeat(64000) })).toMatchObject({ code: "caption_over_limit", overLimitPlatforms: ["INSTAGRAM", "FACEBOOK"], characterLimit: 2200 });
    expect(await alex.fails("create_draft", { brandId: harbour, caption: "x", platforms: ["LINKEDIN"] })).toMatchObject({ code: "platform_not_connected" });
    expect(await alex.fails("create_draft", { brandId: harbour, prompt: "x [allowance-exhausted]" })).toMatchObject({ code: "usage_limit_exceeded" });
    expect(await alex.fails("create_draft", { brandId: harbour, mediaIds: ["unknown"] })).toMatchObject({ code: "bad_request", invalidFields: ["mediaIds.0"] });
  });
});

describe("delete_post and erasure", () => {
  it("deletes a draft; erasing a client makes its posts unknown and its picture URLs 404", async () => {
    const { postId } = await alex.ok("create_draft", { brandId: harbour, caption: "Bye" });
    expect(await alex.ok("delete_post", { id: postId })).toEqual({ id: postId, deleted: true });
    expect(await alex.fails("view_post", { id: postId })).toMatchObject({ code: "not_found" });

    const profile = await partner.ok("create_profile", { websiteUrl: "https://erase-me-bakery.example", name: "Erase Me", externalId: "posts-erase-1" });
    mock.clock.advance(31 * minute);
    const draft = await partner.ok("create_draft", { brandId: profile.brandId, caption: "Soon gone", includeImage: true });
    mock.clock.advance(2 * minute);
    const view = await partner.ok("view_post", { id: draft.postId });
    expect((await fetchPng(view.imageUrl)).status).toBe(200);
    const lib = await partner.ok("generate_image", { brandId: profile.brandId, prompt: "Kept in the library", saveToLibrary: true });
    expect(await partner.ok("delete_profile", { brandId: profile.brandId, confirm: true })).toMatchObject({ deleted: true });
    mock.clock.advance(10 * minute);
    expect((await partner.ok("delete_profile", { brandId: profile.brandId, confirm: true })).status).toBe("deleted");
    expect((await fetchPng(view.imageUrl)).status).toBe(404);
    expect((await fetchPng(lib.imageUrl)).status).toBe(404);
    expect(await partner.fails("view_post", { id: draft.postId })).toMatchObject({ code: "not_found" });
  });
});

describe("the posts domain's building blocks", () => {
  it("encodes real PNGs and reads their size back", () => {
    for (const [w, h, size] of [[4, 5, [80, 100]], [9, 16, [90, 160]], [1, 1, [100, 100]], [16, 9, [160, 90]], [8, 10, [80, 100]]] as const) {
      expect(sizeForAspect(w, h)).toEqual({ width: size[0], height: size[1] });
      const png = encodePng(size[0], size[1], { r: 1, g: 2, b: 3 });
      expect(readPngSize(png)).toEqual({ width: size[0], height: size[1] });
    }
    expect(readPngSize(Buffer.from("not a png at all, definitely not"))).toBeNull();
  });

  it("digests canonical JSON: key order does not matter, every digested field does", () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { f: 1, e: null }], c: "x" } })).toBe('{"a":{"c":"x","d":[2,{"e":null,"f":1}]},"b":1}');
    const base = { platform: "INSTAGRAM", text: "Hi", firstComment: null, title: null, imageUrls: ["u1"], images: [{ url: "u1", slideText: null, slideTextSource: null, altText: null }], thumbnailUrl: null, characterCount: 2, characterLimit: 2200, publishingOptions: null };
    const d = contentDigest([base]);
    expect(d).toMatch(/^[0-9a-f]{32}$/);
    expect(contentDigest([{ ...base, characterCount: 99 }])).toBe(d);
    for (const change of [{ text: "Ho" }, { firstComment: "c" }, { title: "t" }, { imageUrls: ["u2"] }, { thumbnailUrl: "v" }, { publishingOptions: { subreddit: "x" } }, { images: [{ ...base.images[0]!, altText: "alt" }] }]) {
      expect(contentDigest([{ ...base, ...change }])).not.toBe(d);
    }
  });

  it("keeps the seed's limits and targets", () => {
    const rules = Object.fromEntries(destinationRules.map((r) => [r.platform, r]));
    expect(rules.INSTAGRAM).toMatchObject({ captionLimit: 2200, aspectBand: [0.75, 1.91] });
    expect(rules.FACEBOOK!.captionLimit).toBe(63206);
    expect(supportedDestinations).toEqual(expect.arrayContaining(["INSTAGRAM", "FACEBOOK", "INSTAGRAM_STORIES", "FACEBOOK_STORIES", "REDDIT"]));
    expect(targetAspect(["INSTAGRAM"])).toEqual([4, 5]);
    expect(targetAspect(["INSTAGRAM", "FACEBOOK_STORIES"])).toEqual([9, 16]);
  });

  it("reads magic markers, documented as data", () => {
    expect(postsMagicInputs.length).toBeGreaterThan(10);
    // Every [marker] the table documents is one the mock's predicates recognise (and strips from the copy).
    const predicates = [allowanceExhausted, aiFails, allowanceRunsOut, partialBatch, batchFails, imagesFail, longTitle, templateRendering, slowPublish, stuckPublish, storyPartial, publisherError, designChanged, renderStuck, picturesHeld, stepwise];
    const recognised = (marker: string) => predicates.some((p) => p(marker)) || itemFailures(marker).length > 0 || renderFailure(marker) !== null || aspectMarker(marker) !== null || providerRefusal(marker) !== null;
    // A placeholder in the table ([aspect:W:H]) stands for its example values.
    const documented = postsMagicInputs.flatMap((m) => [...m.input.matchAll(/\[[a-z-]+(?::[a-z0-9_:]+)?\]/gi)].map((x) => x[0].replace(":W:H", ":9:16")));
    expect(documented.length).toBeGreaterThan(10);
    for (const marker of documented) {
      expect(recognised(marker), `${marker} is documented but no predicate recognises it`).toBe(true);
      expect(stripMarkers(`a ${marker} b`)).toBe("a b");
    }
    expect(recognised("[no-such-marker]")).toBe(false);
    expect(providerRefusal("Hi [REFUSE:Content_Rejected]")).toBe("content_rejected");
    expect(renderFailure("[render-fails:quota_exhausted]")).toBe("quota_exhausted");
    expect(renderFailure("[render-fails:bogus]")).toBe("generation_failed");
    expect(renderFailure("nothing")).toBeNull();
    expect(aspectMarker("a [aspect:9:16] b")).toEqual([9, 16]);
    expect(aspectInUrl("https://cdn.example.com/a-1080x1920.jpg")).toEqual([1080, 1920]);
    expect(captionMarkers("Hours [partial] [refuse:rate_limited] [slow]")).toEqual(["[refuse:rate_limited]", "[slow]"]);
    expect(stripMarkers("Hours [partial] today [aspect:9:16]")).toBe("Hours today");
  });
});
