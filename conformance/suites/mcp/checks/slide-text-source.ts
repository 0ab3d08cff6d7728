// A picture with no record of its text (slideTextSource null, for example an uploaded photo) has slideText null
// too. An uploaded photo is the sure case: upload_image to the brand library, a draft with it, view_post.
import { expectOk } from "../expect.js";
import { madeId, show, viewPost, type McpCheck } from "./common.js";
import { brandIdOrSkip } from "./brand-under-test.js";

const rule = "slide-text-source-null/slideTextSource";

export const slideTextSourceChecks: McpCheck[] = [
  {
    id: "mcp-slide-text-source-null",
    description: "An uploaded photo, shown by view_post, has slideTextSource null and slideText null",
    rules: ["slide-text-source-null"],
    group: "mcp-posts",
    async run(ctx) {
      const m = ctx.mcp;
      const brandId = await brandIdOrSkip(ctx, m);
      const up = await m.session.call("upload_image", { brandId, sourceUrl: `https://www.example.com/conformance-${m.run.id}-photo-4x5.jpg` });
      const mediaId = madeId(ctx, "upload_image", expectOk(ctx, up, rule), ["mediaId"]);
      const d = expectOk(ctx, await m.session.call("create_draft", { brandId, caption: `Conformance run ${m.run.id}: a draft with a photo.`, mediaIds: [mediaId] }), rule);
      const id = madeId(ctx, "create_draft", d);
      try {
        const destinations = (await viewPost(ctx, m, id, rule)).destinations ?? [];
        // A destination's images is optional (in development): a gateway without it shows nothing this rule is about.
        if (!destinations.some((x) => Array.isArray(x?.images))) return ctx.note("view_post shows no destination images (optional, in development): no case of slide-text-source-null");
        const images = destinations.flatMap((x) => (Array.isArray(x?.images) ? x.images : []));
        const unrecorded = images.filter((i) => i?.slideTextSource === null);
        if (!unrecorded.length) return ctx.skip(`the uploaded photo's images carry a slideTextSource (${show(images.map((i) => i?.slideTextSource))}): no case of this rule`);
        for (const img of unrecorded) ctx.expect(img.slideText === null, rule, `post ${id}: image ${show(img.url)} has slideText ${show(img.slideText)} with no slideTextSource`);
      } finally {
        await m.session.call("delete_post", { id });
      }
    },
  },
];
