// Lazy settlement in the gateway mock: it runs no timers, so every call settles what has ended by the instant it
// runs at, and reads nothing else. The clock is driven by hand (a simulated wall clock, or freeze/advance) onto and
// 1 ms around each end instant, so no verdict depends on timing luck.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClock } from "../mock/clock.js";
import { between } from "../mock/rest/hash.js";
import type { ToolOutputs } from "../generated/mcp/types.js";
import { startMcpMock, type McpMock } from "../mock/mcp/server.js";
import { brandIdBySlug as brandId, connectMcp, type McpTestClient } from "./support/mcp-client.js";

const minute = 60_000;

describe("a call that reads the clock more than once (simulated wall clock that ticks 1 ms during a call)", () => {
  // While `straddling`, the wall reads `wall` once, then `wall + 1`: a call that reads now twice sees two instants,
  // and when its first read is 1 ms before an end instant, the second lands on it.
  let wall = Date.now();
  let straddling = false;
  let reads = 0;
  const realNow = () => (++reads > 1 && straddling ? wall + 1 : wall);
  let mock: McpMock;
  let alex: McpTestClient;
  let partner: McpTestClient;

  beforeAll(async () => {
    mock = await startMcpMock({ port: 0, clock: createClock({ timeScale: 0.001, realNow }) });
    [alex, partner] = await Promise.all([connectMcp(mock.url, "mcp_user"), connectMcp(mock.url, "mcp_partner")]);
  });
  afterAll(async () => {
    await Promise.all([alex?.close(), partner?.close()]);
    await mock?.stop();
  });

  it("reads the wall clock once per tool call and per picture request, whatever the tool does", async () => {
    const counted = async <T>(what: string, call: () => Promise<T>): Promise<T> => {
      reads = 0;
      const out = await call();
      expect(reads, what).toBe(1);
      return out;
    };
    const harbour = await brandId(alex, "harbour-bakery", "harbour-bakery");
    const { batchId } = await counted("create_posts", () => alex.ok("create_posts", { brandId: harbour, brief: "One read per call.", count: 2 }));
    wall += 10 * minute;
    const batch = await counted("get_post_batch_status", () => alex.ok("get_post_batch_status", { batchId }));
    const id = batch.items[0]!.postId;
    await counted("view_post", () => alex.ok("view_post", { id }));
    await counted("get_post_status", () => alex.ok("get_post_status", { id }));
    await counted("schedule_post", () => alex.ok("schedule_post", { id, scheduledAt: new Date(wall + 60 * minute).toISOString() }));
    const booked = (await alex.ok("get_post_status", { id })).platformResults.find((r) => r.platform === "FACEBOOK");
    await counted("unschedule_platform", () => alex.ok("unschedule_platform", { id, platform: "FACEBOOK", platformPostId: booked!.platformPostId }));
    await counted("publish_post_now", () => alex.ok("publish_post_now", { id, platforms: ["FACEBOOK"] }));
    const { postId } = await counted("create_draft", () => alex.ok("create_draft", { brandId: harbour, caption: "A draft.", platforms: ["FACEBOOK"] }));
    const { jobId } = await counted("regenerate_post_image", () => alex.ok("regenerate_post_image", { postId }));
    await counted("get_generation_job", () => alex.ok("get_generation_job", { jobId }));
    const { imageUrl } = await counted("upload_image", () => alex.ok("upload_image", { brandId: harbour, sourceUrl: "https://cdn.example.com/one-4x5.jpg" }));
    await counted("a picture", () => fetch(imageUrl).then((r) => r.arrayBuffer()));
    await counted("get_profile", () => alex.ok("get_profile", { brandId: harbour }));
    await counted("get_workspaces", () => alex.ok("get_workspaces", {}));
    const client = await counted("create_profile", () => partner.ok("create_profile", { websiteUrl: "https://www.harbourbakery.co.uk", name: "One read", externalId: "one-read" }));
    await counted("list_brands", () => partner.ok("list_brands", { workspaceId: client.companyId }));
    await counted("deactivate_profile", () => partner.ok("deactivate_profile", { brandId: client.brandId }));
    await counted("delete_profile", () => partner.ok("delete_profile", { brandId: client.brandId, confirm: true }));
  });

  it("get_generation_job never reads completed without the picture, whichever read lands on the render's end", async () => {
    const harbour = await brandId(alex, "harbour-bakery", "harbour-bakery");
    const { postId } = await alex.ok("create_draft", { brandId: harbour, caption: "Rye loaves today.", platforms: ["FACEBOOK"] });
    const { jobId } = await alex.ok("regenerate_post_image", { postId });
    // The render ends 22–62 ms later (time scale 0.001): poll 1 ms apart until it reads completed.
    let job: ToolOutputs["get_generation_job"] | undefined;
    for (let i = 0; i < 200 && job?.status !== "completed"; i++) {
      wall++;
      [straddling, reads] = [true, 0];
      job = await alex.ok("get_generation_job", { jobId }).finally(() => (straddling = false));
    }
    expect(job!.status).toBe("completed");
    // The first poll that saw the end began 1 ms before it: its picture must be there all the same.
    expect(job!.imageUrl).toEqual(expect.any(String));
    const post = await alex.ok("view_post", { id: postId });
    expect(post.imageUrls).toEqual([job!.imageUrl]);
  });
});

describe("settlement on a frozen clock", () => {
  let mock: McpMock;
  let alex: McpTestClient;
  let partner: McpTestClient;
  let harbour: string;

  beforeAll(async () => {
    mock = await startMcpMock({ port: 0, timeScale: 1 });
    mock.clock.freeze();
    [alex, partner] = await Promise.all([connectMcp(mock.url, "mcp_user"), connectMcp(mock.url, "mcp_partner")]);
    harbour = await brandId(alex, "harbour-bakery", "harbour-bakery");
  });
  afterAll(async () => {
    await Promise.all([alex?.close(), partner?.close()]);
    await mock?.stop();
  });

  it("a deletion that has ended erases the client's pictures whether or not a profiles tool looked first", async () => {
    const client = await partner.ok("create_profile", { websiteUrl: "https://www.harbourbakery.co.uk", name: "Erased client", externalId: "settle-erase" });
    const { imageUrl } = await partner.ok("upload_image", { brandId: client.brandId, sourceUrl: "https://cdn.example.com/shop-4x5.jpg" });
    expect((await fetch(imageUrl)).status).toBe(200);
    expect(await partner.ok("delete_profile", { brandId: client.brandId, confirm: true })).toMatchObject({ status: "deletion_scheduled" });
    // ending.ts: deletion takes 2–5 virtual minutes, fixed per workspace.
    const takes = between(2, 5, "deletion", client.companyId) * minute;
    mock.clock.advance(takes - 1);
    expect((await fetch(imageUrl)).status).toBe(200);
    mock.clock.advance(1);
    // No tool call in between: the picture request itself settles the deletion that ended at this instant.
    expect((await fetch(imageUrl)).status).toBe(404);
    expect(await partner.ok("delete_profile", { brandId: client.brandId, confirm: true })).toMatchObject({ status: "deleted" });
    expect((await fetch(imageUrl)).status).toBe(404);
  });

  it("batch items, view_post and get_post_status agree at every end instant of a batch and a booking, ±1 ms", async () => {
    const brief = "Settlement walk: rye, spelt and a seeded loaf.";
    const { batchId } = await alex.ok("create_posts", { brandId: harbour, brief, count: 3, platforms: ["INSTAGRAM", "FACEBOOK"] });
    let bookedAt: number | null = null;
    let bookedPost: string | null = null;
    const landed = new Set<string>();
    const seen = new Set<string>();
    let steps = 0;
    const instants = new Set<number>();

    /** The three views at the clock's instant; `postsFirst` reads the posts before the batch (order must not matter). */
    const check = async (postsFirst: boolean) => {
      steps++;
      const now = mock.clock.now();
      const known = [...seen];
      const early = postsFirst ? await Promise.all(known.map((id) => views(id))) : [];
      const status = await alex.ok("get_post_batch_status", { batchId });
      const created = status.items.filter((i) => i.status === "created");
      // Existence: every post an earlier step saw is still an item, and only created items name a post.
      for (const id of known) expect(created.map((i) => i.postId)).toContain(id);
      for (const item of status.items) if (item.status !== "created") expect(item.postId).toBeNull();
      for (const item of created) {
        seen.add(item.postId!);
        const i = known.indexOf(item.postId!);
        const [post, postStatus] = i >= 0 && postsFirst ? early[i]! : await views(item.postId!);
        const at = `${item.postId} at ${now - (bookedAt ?? now)} ms from the booking, step ${steps}`;
        expect(post.imageUrls, at).toEqual(item.imageUrls);
        expect(post.destinations, at).toEqual(item.destinations);
        expect(postStatus.contentDigest, at).toBe(item.contentDigest);
        expect(post.contentDigest, at).toBe(item.contentDigest);
        expect(postStatus.platformResults.map((r) => r.platform), at).toEqual(item.platforms);
        // Pictures: pending means none landed yet; once landed, a picture stays.
        expect(item.imagePending, at).toBe(item.imageUrls!.length === 0);
        if (landed.has(item.postId!)) expect(item.imagePending, at).toBe(false);
        if (!item.imagePending) landed.add(item.postId!);
        // Status: the booking goes live exactly at its time, and nothing else moves a destination.
        const facebook = postStatus.platformResults.find((r) => r.platform === "FACEBOOK");
        const expected = item.postId !== bookedPost ? "draft" : now < bookedAt! ? "scheduled" : "published";
        expect(facebook?.status, at).toBe(expected);
        expect(postStatus.status, at).toBe(expected === "published" ? "partially_published" : expected);
      }
      const pending = created.filter((i) => i.imagePending).length;
      expect(status.imagesPendingCount).toBe(pending);
      return created;
    };
    const views = (id: string) => Promise.all([alex.ok("view_post", { id }), alex.ok("get_post_status", { id })]);

    for (let round = 0; ; round++) {
      const next = mock.gateway.endInstants("posts")[0];
      if (next === undefined) break;
      instants.add(next);
      for (const t of [next - 1, next, next + 1]) {
        if (t <= mock.clock.now()) continue;
        mock.clock.advance(t - mock.clock.now());
        const created = await check(round % 2 === 1);
        if (bookedPost === null && created.length > 0) {
          // Book the first post's FACEBOOK for the instant the batch's last picture lands: two ends at once.
          bookedPost = created[0]!.postId;
          bookedAt = Math.max(...mock.gateway.endInstants("posts"));
          await alex.ok("schedule_post", { id: bookedPost, scheduledAt: new Date(bookedAt).toISOString(), platforms: ["FACEBOOK"] });
        }
      }
    }
    expect(bookedAt).not.toBeNull();
    expect(mock.clock.now()).toBeGreaterThan(bookedAt!);
    expect(landed.size).toBe(3);
    // generating from the first slot's start, three slot ends, three pictures (the booking shares the last one's
    // instant): each seen 1 ms before, on it, and 1 ms after.
    expect(instants.size).toBeGreaterThanOrEqual(7);
    expect(steps).toBe(3 * instants.size);
  });

  it("get_workspaces, list_brands, get_profile, create_profile and delete_profile agree at every end instant of builds, tokens, a deactivation and a deletion, ±1 ms", async () => {
    const site = "https://www.harbourbakery.co.uk";
    const built = await partner.ok("create_profile", { websiteUrl: site, name: "Walk built", externalId: "walk-built" });
    const ended = await partner.ok("create_profile", { websiteUrl: site, name: "Walk deactivated", externalId: "walk-deactivated" });
    const erased = await partner.ok("create_profile", { websiteUrl: site, name: "Walk erased", externalId: "walk-erased" });
    const start = mock.clock.now();
    await partner.ok("deactivate_profile", { brandId: ended.brandId });
    await partner.ok("delete_profile", { brandId: erased.brandId, confirm: true });
    // ending.ts: 2–5 virtual minutes, fixed per workspace.
    const deactivatedAt = start + between(2, 5, "deactivation", ended.companyId) * minute;
    const deletedAt = start + between(2, 5, "deletion", erased.companyId) * minute;
    let drafts = 0;
    let steps = 0;

    /** One principal's three views of its workspaces and brands, at the clock's instant. */
    const agree = async (c: McpTestClient, at: string) => {
      const { workspaces } = await c.ok("get_workspaces", {});
      for (const ws of workspaces) {
        const list = await c.ok("list_brands", { workspaceId: ws.id });
        expect(list.brands.length, at).toBe(ws.numBrands);
        for (const item of list.brands) {
          const profile = await c.ok("get_profile", { brandId: item.id });
          expect([profile.brandName, profile.companyId, profile.isActive], at).toEqual([item.name, ws.id, item.isActive]);
          const health = profile.channels.map((ch) => ch.health);
          const readiness =
            !profile.isActive || health.length === 0 || health.every((h) => h === "disconnected")
              ? "not_connected"
              : profile.readiness.blockers.includes("connection_check_failed") || !profile.channels.some((ch) => ch.canPost)
                ? "unknown"
                : "ready";
          expect(item.publishReadiness, `${at}: ${item.id}`).toBe(readiness);
          const building = profile.onboarding !== undefined && profile.onboarding.status !== "ready";
          expect(profile.readiness.blockers.includes("profile_not_ready"), at).toBe(building);
          expect(profile.readiness.canGenerate, at).toBe(profile.isActive && !building && !profile.readiness.blockers.includes("no_brand_profile"));
        }
      }
      return workspaces;
    };

    for (;;) {
      const next = mock.gateway.endInstants("profiles")[0];
      if (next === undefined) break;
      for (const t of [next - 1, next, next + 1]) {
        if (t <= mock.clock.now()) continue;
        mock.clock.advance(t - mock.clock.now());
        steps++;
        const at = `${t - start} ms after the start`;
        await agree(alex, at);
        const workspaces = await agree(partner, at);
        // The build: create_profile's repeat, get_profile and the posts domain's refusal read one status.
        const repeat = await partner.ok("create_profile", { websiteUrl: site, name: "Walk built", externalId: "walk-built" });
        const profile = await partner.ok("get_profile", { brandId: built.brandId });
        expect(repeat.status, at).toBe(profile.onboarding?.status);
        if (profile.onboarding?.status === "building") {
          expect((await partner.fails("create_draft", { brandId: built.brandId, prompt: "Fresh rye" })).code, at).toBe("profile_not_ready");
        } else if (drafts++ < 2) {
          await partner.ok("create_draft", { brandId: built.brandId, prompt: "Fresh rye" });
        }
        // Ending: the workspace lists, the profile reads and the repeat answers as the instant says.
        const deactivated = workspaces.find((w) => w.id === ended.companyId);
        expect(deactivated?.membershipType, at).toBeNull();
        expect((await partner.ok("get_profile", { brandId: ended.brandId })).isActive, at).toBe(false);
        expect((await partner.ok("deactivate_profile", { brandId: ended.brandId })).status, at).toBe(t < deactivatedAt ? "deactivation_scheduled" : "deactivated");
        expect(workspaces.some((w) => w.id === erased.companyId), at).toBe(false);
        expect((await partner.fails("get_profile", { brandId: erased.brandId })).code, at).toBe("not_found");
        expect((await partner.ok("delete_profile", { brandId: erased.brandId, confirm: true })).status, at).toBe(t < deletedAt ? "deletion_scheduled" : "deleted");
      }
    }
    expect(mock.clock.now()).toBeGreaterThan(Math.max(deactivatedAt, deletedAt));
    expect(drafts).toBeGreaterThanOrEqual(2);
    // Three builds, the deactivation and the deletion at least, each seen 1 ms before, on it and 1 ms after.
    expect(steps).toBeGreaterThanOrEqual(3 * 5);
  });
});
