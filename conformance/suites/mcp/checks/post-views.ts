// Two views of one thing: a create_posts batch with mediaIds and scheduledAt, whose posts must all carry those
// pictures (view_post, each destination, the batch item when it lists them) and the intended time without any
// booking (get_post_status); and the contentDigest following a post's destinations as they are removed and added.
import { expectOk, okData } from "../expect.js";
import { goneOut, platformsOf, show, unbook, viewPost, type McpCheck } from "./common.js";
import { brandPublishingTo, caseCaption, draft, FEED, libraryPicture } from "./drafts.js";
import { batchMissing, followNewBatch } from "./batch-scenario.js";
import { brandIdOrSkip } from "./brand-under-test.js";

export const postViewChecks: McpCheck[] = [
  {
    id: "mcp-media-ids-batch",
    description: "create_posts with mediaIds and scheduledAt gives every post the same pictures (view_post, each destination, the batch item) and records the time without booking anything",
    rules: ["media-ids-same-pictures", "scheduled-at-records-only"],
    group: "mcp-batch",
    async run(ctx) {
      const m = ctx.mcp;
      const pictures = "media-ids-same-pictures";
      const recorded = "scheduled-at-records-only";
      const brandId = await brandIdOrSkip(ctx, m);
      const mediaIds = [await libraryPicture(ctx, m, brandId, pictures), await libraryPicture(ctx, m, brandId, pictures)];
      const when = m.run.clock.future(40);
      const request = { brandId, brief: `Conformance run ${m.run.id}: the same two photos on every post.`, count: 2, mediaIds, scheduledAt: when };
      const track = await followNewBatch(m, "media-ids", request, m.session);
      if (!track.batchId) return ctx.fail([pictures, recorded], `create_posts with mediaIds and scheduledAt made no batch: ${track.problem ?? ""}`);
      if (track.outcome !== "done") return batchMissing(ctx, track, `batch ${track.batchId} did not finish`);
      const items = (track.last?.items ?? []).filter((i) => i?.status === "created" && typeof i.postId === "string");
      if (items.length < 2) return ctx.skip(`batch ${track.batchId} created ${items.length} post(s); two are needed to compare`);
      let first: string | undefined;
      for (const item of items) {
        const id = item.postId as string;
        const view = await viewPost(ctx, m, id, pictures);
        const urls = show(view.imageUrls);
        first ??= urls;
        ctx.expect(Array.isArray(view.imageUrls) && view.imageUrls.length === mediaIds.length, pictures, `post ${id} of a batch with ${mediaIds.length} mediaIds shows imageUrls ${urls}`);
        ctx.expect(urls === first, pictures, `the posts of one batch with the same mediaIds show different pictures: ${first} and ${urls}`);
        for (const d of view.destinations ?? []) ctx.expect(show(d?.imageUrls) === urls, pictures, `post ${id}: ${d?.platform} shows ${show(d?.imageUrls)}, the post ${urls}`);
        if (Array.isArray(item.imageUrls)) ctx.expect(show(item.imageUrls) === urls, pictures, `post ${id}: the batch item lists ${show(item.imageUrls)}, view_post ${urls}`);
        const status = expectOk(ctx, await m.session.call("get_post_status", { id }), recorded);
        if (status) ctx.expect(Date.parse(String(status.scheduledAt)) === Date.parse(when), recorded, `post ${id} made with scheduledAt ${when}: get_post_status reports scheduledAt ${show(status.scheduledAt)}`);
        const out = await goneOut(m, id);
        ctx.expect(out.length === 0, recorded, `create_posts' scheduledAt booked post ${id}: ${out.join(", ")}`);
        if (out.length) await unbook(ctx, m, id);
      }
    },
  },
  {
    id: "mcp-digest-follows-destinations",
    description: "A post's contentDigest changes when a destination is removed and again when one is added",
    rules: ["digest-follows-content/destinations"],
    group: "mcp-posts",
    async run(ctx) {
      const m = ctx.mcp;
      const rule = "digest-follows-content/destinations";
      const brandId = await brandPublishingTo(ctx, m, ["instagram", FEED.toLowerCase()]);
      const id = await draft(ctx, m, brandId, { caption: caseCaption(m, "two destinations"), platforms: ["INSTAGRAM", FEED] }, rule);
      const before = await viewPost(ctx, m, id, rule);
      if (!platformsOf(before).includes(FEED) || platformsOf(before).length < 2) return ctx.skip(`post ${id} has destinations ${show(platformsOf(before))}; two are needed to remove one`);
      expectOk(ctx, await m.session.call("update_post", { id, removePlatforms: [FEED] }), rule);
      const removed = await viewPost(ctx, m, id, rule);
      ctx.expect(!platformsOf(removed).includes(FEED), rule, `post ${id}: ${FEED} was removed and view_post still shows it`);
      ctx.expect(removed.contentDigest !== before.contentDigest, rule, `post ${id}: ${FEED} was removed and contentDigest stayed ${show(before.contentDigest)}`);
      expectOk(ctx, await m.session.call("update_post", { id, platforms: [FEED] }), rule);
      const added = await viewPost(ctx, m, id, rule);
      ctx.expect(platformsOf(added).includes(FEED), rule, `post ${id}: ${FEED} was added and view_post does not show it`);
      ctx.expect(added.contentDigest !== removed.contentDigest, rule, `post ${id}: ${FEED} was added and contentDigest stayed ${show(removed.contentDigest)}`);
      const status = okData(await m.session.call("get_post_status", { id }));
      if (status && "contentDigest" in status) ctx.expect(status.contentDigest === added.contentDigest, rule, `post ${id}: get_post_status reports digest ${show(status.contentDigest)}, view_post ${show(added.contentDigest)}`);
    },
  },
];
