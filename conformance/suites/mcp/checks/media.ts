// Pictures: upload_image refuses addresses that are not https or not public before fetching anything, and
// generate_image made for a post puts its picture into the slot it names, as view_post then shows.
import type { RuleId } from "../../../../generated/rules.js";
import type { RunContext } from "../../../core/check.js";
import { expectError, expectOk, show } from "../expect.js";
import type { McpContext } from "../extension.js";
import { viewPost, type McpCheck } from "./common.js";
import { brandIdOrSkip } from "./brand-under-test.js";

const group = "mcp-media";

/** generate_image for the last picture of post `id`: answered for that slot, shown there by view_post. */
async function replaceLastPicture(ctx: RunContext, m: McpContext, id: string, rule: RuleId): Promise<void> {
  const before = await viewPost(ctx, m, id, rule);
  const slots: unknown[] = Array.isArray(before.imageUrls) ? before.imageUrls : [];
  if (!ctx.expect(slots.length > 0, rule, `post ${id}, made with a library picture, shows no picture (imageUrls ${show(before.imageUrls)})`)) return;
  const imageIndex = slots.length - 1;
  const made = expectOk(ctx, await m.session.call("generate_image", { postId: id, imageIndex, prompt: "Conformance run: a basket of rolls at dawn." }), rule);
  if (!made) return;
  ctx.expect(made.postId === id && made.imageIndex === imageIndex, rule, `generate_image answered postId ${show(made.postId)}, imageIndex ${show(made.imageIndex)}; expected ${id}, ${imageIndex}`);
  ctx.expect(made.imageUrl !== slots[imageIndex], rule, `generate_image answered the picture slot ${imageIndex} already held (${show(made.imageUrl)})`);
  const after = await viewPost(ctx, m, id, rule);
  const urls: unknown[] = Array.isArray(after.imageUrls) ? after.imageUrls : [];
  ctx.expect(urls[imageIndex] === made.imageUrl, rule, `view_post shows ${show(urls[imageIndex])} in slot ${imageIndex}; generate_image answered ${show(made.imageUrl)}`);
  ctx.expect(urls.length === slots.length, rule, `the post had ${slots.length} picture(s), now ${urls.length}: generate_image replaces one slot`);
}

export const mediaChecks: McpCheck[] = [
  {
    id: "mcp-upload-image-source",
    description: "upload_image refuses a sourceUrl that is not https (source_not_https) or points at a private address (source_not_public)",
    rules: ["upload-image-source"],
    group,
    async run(ctx) {
      const m = ctx.mcp;
      const brandId = await brandIdOrSkip(ctx, m);
      const cases = [
        { member: "not-https", code: "source_not_https", sourceUrl: "http://www.example.com/conformance-picture.jpg" },
        { member: "not-public", code: "source_not_public", sourceUrl: "https://10.20.30.40/conformance-picture.jpg" },
      ] as const;
      for (const c of cases) expectError(ctx, await m.session.call("upload_image", { brandId, sourceUrl: c.sourceUrl }), { code: c.code, rule: `upload-image-source/${c.member}` });
    },
  },
  {
    id: "mcp-generate-image-on-post",
    description: "generate_image with postId answers the new picture's address and puts it into slot imageIndex, as view_post then shows",
    rules: ["generate-image-on-post"],
    group,
    needs: ["mcp:cost-renders"],
    // A library picture and the replacement in the draft's last slot.
    spend: () => ({ renders: 2 }),
    async run(ctx) {
      const m = ctx.mcp;
      const rule = "generate-image-on-post";
      // A draft of the check's own, with a library picture the gateway made; deleted at the end.
      const brandId = await brandIdOrSkip(ctx, m);
      const art = expectOk(ctx, await m.session.call("generate_image", { brandId, prompt: "Conformance run: a loaf on a board.", saveToLibrary: true }), rule);
      if (typeof art?.mediaId !== "string") return ctx.fail(rule, `generate_image with saveToLibrary answered mediaId ${show(art?.mediaId)}: no picture for a draft`);
      const draft = expectOk(ctx, await m.session.call("create_draft", { brandId, caption: "Conformance run: rolls at dawn.", mediaIds: [art.mediaId] }), rule);
      if (typeof draft?.postId !== "string") return ctx.fail(rule, "create_draft made no post");
      try {
        await replaceLastPicture(ctx, m, draft.postId, rule);
      } finally {
        await m.session.call("delete_post", { id: draft.postId });
      }
    },
  },
];
