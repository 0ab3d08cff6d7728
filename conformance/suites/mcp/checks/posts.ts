// One post as it reads and changes: the post view's own consistency, the content digest following the content,
// and a picture render (regenerate_post_image → get_generation_job) replacing a picture with a new URL (a second
// render refused while one runs: image-in-progress.ts).
import type { RuleId } from "../../../../generated/rules.js";
import { catalogue, renderRetryable } from "../contract.js";
import { expectError, expectOk, okData } from "../expect.js";
import { expectContractFields } from "../fields.js";
import { editCaption, madeId, platformsOf, pollCall, show, viewPost, wellFormedError, type McpCheck } from "./common.js";
import { claimPost, doneBatch } from "./batch-scenario.js";
import { brandIdOrSkip } from "./brand-under-test.js";

const group = "mcp-posts";
/** The image render codes of the catalogue (the members of render-failure-codes). */
const renderCodes = new Set((catalogue as readonly { code: string; kind: string }[]).filter((e) => e.kind === "image_render").map((e) => e.code));

/** The job states after which nothing more happens (the contract's set is open; these two end a render). */
const finishedJob = (status: unknown) => status === "completed" || status === "failed";

export const postChecks: McpCheck[] = [
  {
    id: "mcp-view-post-fields",
    description: "view_post: id and postId the same, postText a caption of the post, imageUrl the first picture, characterCount the caption's length",
    rules: ["view-post-fields", "same-picture-per-slot", "images-match-image-urls"],
    group,
    async run(ctx) {
      const m = ctx.mcp;
      const rule = (member: string): RuleId => `view-post-fields/${member}`;
      const t = await doneBatch(ctx, m);
      const ids: string[] = (t.last?.items ?? []).map((i) => i?.postId).filter((id: unknown) => typeof id === "string").slice(0, 3);
      if (!ids.length) return ctx.skip("the main batch made no post");
      for (const id of ids) {
        const v = await viewPost(ctx, m, id, rule("id-post-id"));
        ctx.expect(v.id === id && v.postId === id, rule("id-post-id"), `view_post ${id} answered id ${show(v.id)} and postId ${show(v.postId)}`);
        const destinations = Array.isArray(v.destinations) ? v.destinations : [];
        const captions = destinations.map((d) => d?.text).filter((s): s is string => typeof s === "string" && s !== "");
        if (captions.length) ctx.expect(captions.includes(v.postText as string), rule("post-text"), `post ${id}: postText ${show(v.postText)} is none of its destinations' captions`);
        const urls: unknown[] = Array.isArray(v.imageUrls) ? v.imageUrls : [];
        ctx.expect(v.imageUrl === (urls[0] ?? null), rule("image-url"), `post ${id}: imageUrl ${show(v.imageUrl)} is not the first of imageUrls ${show(urls)}`);
        for (const d of destinations) {
          if (typeof d?.text !== "string") continue;
          // Platforms count characters as code points (an emoji is one), not UTF-16 units.
          const length = [...d.text].length;
          ctx.expect(d.characterCount === length, rule("character-count"), `post ${id} ${d.platform}: characterCount ${show(d.characterCount)} for a caption of ${length} characters`);
        }
        // Every destination shares the post's picture in each slot (stories carry one picture or video).
        for (const d of destinations.filter((d) => Array.isArray(d?.imageUrls) && d.imageUrls.length > 0))
          ctx.expect((d.imageUrls ?? []).every((u, k) => u === urls[k]), "same-picture-per-slot/imageUrls", `post ${id} ${d.platform}: pictures ${show(d.imageUrls)}, the post's ${show(urls)}`);
        for (const d of destinations.filter((d) => Array.isArray(d?.images)))
          ctx.expect(show((d.images ?? []).map((i) => i?.url)) === show(d.imageUrls), "images-match-image-urls/images", `post ${id} ${d.platform}: images ${show((d.images ?? []).map((i) => i?.url))}, imageUrls ${show(d.imageUrls)}`);
      }
    },
  },
  {
    id: "mcp-batch-item-matches-post",
    description: "A created batch item, get_post_status and view_post of one post agree on destinations, media, pictures and digest",
    rules: ["batch-item-matches-post", "digest-agrees-across-views"],
    group,
    async run(ctx) {
      const m = ctx.mcp;
      // A post no other check changes, read through both views one after the other.
      const id = await claimPost(ctx, m, "the batch item against its post");
      const t = await doneBatch(ctx, m);
      const batch = expectOk(ctx, await m.session.call("get_post_batch_status", { batchId: t.batchId }), "batch-item-matches-post/platforms");
      const v = await viewPost(ctx, m, id, "batch-item-matches-post/platforms");
      const item = (batch?.items ?? []).find((i) => i?.postId === id);
      if (!item) return ctx.fail("batch-item-matches-post/platforms", `batch ${t.batchId} no longer lists post ${id}`);
      const urls: unknown[] = Array.isArray(v.imageUrls) ? v.imageUrls : [];
      const same = (member: string, ok: boolean, what: string) => ctx.expect(ok, `batch-item-matches-post/${member}`, `post ${id}: ${what}`);
      same("platforms", show([...(item.platforms ?? [])].sort()) === show(platformsOf(v).sort()), `batch item platforms ${show(item.platforms)}, view_post destinations ${show(platformsOf(v))}`);
      if ("hasMedia" in item) same("has-media", item.hasMedia === urls.length > 0, `batch item hasMedia ${show(item.hasMedia)}, view_post imageUrls ${show(urls)}`);
      if ("imageUrls" in item) same("image-urls", show(item.imageUrls) === show(urls), `batch item imageUrls ${show(item.imageUrls)}, view_post ${show(urls)}`);
      if ("contentDigest" in item)
        ctx.expect(item.contentDigest === v.contentDigest, ["batch-item-matches-post/content-digest", "digest-agrees-across-views/get_post_batch_status"], `post ${id}: batch item contentDigest ${show(item.contentDigest)}, view_post ${show(v.contentDigest)}`);
      // rule: digest-agrees-across-views/<tool> (contentDigest on status and items is in development: judged when given)
      const status = expectOk(ctx, await m.session.call("get_post_status", { id }), "digest-agrees-across-views/get_post_status");
      if (status && "contentDigest" in status)
        ctx.expect(status.contentDigest === v.contentDigest, "digest-agrees-across-views/get_post_status", `post ${id}: get_post_status reports digest ${show(status.contentDigest)}, view_post ${show(v.contentDigest)}`);
    },
  },
  {
    id: "mcp-digest-follows-content",
    description: "contentDigest stays while the content does, and changes with a caption and with a first comment",
    rules: ["digest-follows-content/stable", "digest-follows-content/caption", "digest-follows-content/first-comment"],
    group,
    async run(ctx) {
      const m = ctx.mcp;
      const rule = (member: string): RuleId => `digest-follows-content/${member}`;
      const id = await claimPost(ctx, m, "the digest check");
      const first = await viewPost(ctx, m, id, rule("stable"));
      const again = await viewPost(ctx, m, id, rule("stable"));
      ctx.expect(typeof first.contentDigest === "string" && first.contentDigest.length > 0, rule("stable"), `post ${id} with its picture landed has contentDigest ${show(first.contentDigest)}`);
      ctx.expect(again.contentDigest === first.contentDigest, rule("stable"), `post ${id}: two reads of unchanged content gave digests ${show(first.contentDigest)} and ${show(again.contentDigest)}`);
      const platform = first.destinations?.find((d) => typeof d?.text === "string" && d.text !== "")?.platform;
      if (!platform) return ctx.skip(`post ${id} has no destination with a caption to change`);
      const caption = `${first.destinations?.find((d) => d?.platform === platform)?.text} (edited by the conformance run)`;
      await editCaption(ctx, m, id, caption, rule("caption"), platform);
      const edited = await viewPost(ctx, m, id, rule("caption"));
      ctx.expect(edited.destinations?.find((d) => d?.platform === platform)?.text === caption, rule("caption"), `post ${id}: the new ${platform} caption does not read back`);
      ctx.expect(edited.contentDigest !== first.contentDigest, rule("caption"), `post ${id}: the ${platform} caption changed and contentDigest stayed ${show(first.contentDigest)}`);
      // A first comment is digested content too.
      if (!expectOk(ctx, await m.session.call("update_post", { id, firstComment: `Conformance run ${m.run.id}: a first comment.` }), rule("first-comment"))) return;
      const commented = await viewPost(ctx, m, id, rule("first-comment"));
      ctx.expect(commented.contentDigest !== edited.contentDigest, rule("first-comment"), `post ${id}: the first comment changed and contentDigest stayed ${show(edited.contentDigest)}`);
    },
  },
  {
    id: "mcp-regenerate-job",
    description: "regenerate_post_image answers a jobId that get_generation_job follows to its end, with a new picture URL and digest",
    rules: ["regenerate-job", "new-picture-new-url", "digest-follows-content/picture", "generation-job-fields", "generation-in-background/regenerate_post_image"],
    needs: ["mcp:cost-renders"],
    spend: () => ({ renders: 1 }),
    group,
    async run(ctx) {
      const m = ctx.mcp;
      const id = await claimPost(ctx, m, "the picture render check");
      const before = await viewPost(ctx, m, id, "new-picture-new-url/new-url");
      const started = expectOk(ctx, await m.session.call("regenerate_post_image", { postId: id }), "regenerate-job/job-id");
      if (!started) return;
      const jobId = started.jobId;
      const named = typeof jobId === "string" && jobId.length > 0;
      if (!ctx.expect(named, ["regenerate-job/job-id", "generation-in-background/regenerate_post_image"], `regenerate_post_image answered ${show(started)}, no jobId`) || !named) return;
      const polled = await pollCall(ctx, m, `render ${jobId}`, () => m.session.call("get_generation_job", { jobId }), (o) => !okData(o) || finishedJob(okData(o)?.status), m.target.timing.jobPollMs, m.target.timing.jobDeadlineMs);
      const last = polled.outcomes.at(-1);
      for (const o of polled.outcomes) {
        const job = okData(o);
        if (job) expectContractFields(ctx, "generation-job-fields", "get_generation_job", "GenerationJob", job, `get_generation_job ${started.jobId}`);
        // The contract's imageUrl is the new picture's address "once completed": a completed job that has the field
        // must hold one there (a gateway without the field is judged by the fields above, as inferred).
        if (job?.status === "completed" && "imageUrl" in job)
          ctx.expect(typeof job.imageUrl === "string", "generation-job-fields/imageUrl", `get_generation_job ${started.jobId} is completed with imageUrl ${show(job.imageUrl)}`);
      }
      const end = last ? expectOk(ctx, last, "regenerate-job/ends") : undefined;
      if (!end) return;
      // The seed names only the failed end; "completed" is our word, and the status set is open. A status the
      // contract does not list that is still there at the deadline is an end when the post shows a new picture.
      const ended = polled.finished || (typeof end.status === "string" && !["queued", "running"].includes(end.status) && (await viewPost(ctx, m, id, "regenerate-job/ends")).imageUrls?.some((u) => !(before.imageUrls ?? []).includes(u)));
      if (!ctx.expect(ended === true, "regenerate-job/ends", `render ${started.jobId} had not ended by the deadline: ${show(end)}`)) return;
      ctx.expect(end.jobId === started.jobId, "regenerate-job/job-id", `get_generation_job ${started.jobId} answered jobId ${show(end.jobId)}`);
      if (end.status === "failed") {
        ctx.expect(wellFormedError(end.error), "regenerate-job/ends", `a failed render has error ${show(end.error)}`);
        const code = end.error?.code;
        const want = typeof code === "string" ? renderRetryable(code) : undefined;
        ctx.expect(want !== undefined, "regenerate-job/ends", `a failed render has code ${show(end.error?.code)}, not an image render code`);
        if (want !== undefined) ctx.expect(end.error?.retryable === want, "regenerate-job/ends", `render code ${code} has retryable ${show(end.error?.retryable)}, the catalogue says ${want}`);
        return ctx.skip(`the render failed (${show(end.error?.code)}), so no new picture to look at`);
      }
      const after = await viewPost(ctx, m, id, "new-picture-new-url/new-url");
      const oldUrls = new Set<unknown>(before.imageUrls ?? []);
      const fresh = (after.imageUrls ?? []).filter((u: unknown) => !oldUrls.has(u));
      ctx.expect(fresh.length > 0, "new-picture-new-url/new-url", `post ${id}: after the render, imageUrls ${show(after.imageUrls)} has no new URL (before ${show(before.imageUrls)})`);
      if (typeof end.imageUrl === "string")
        ctx.expect((after.imageUrls ?? []).includes(end.imageUrl), "regenerate-job/image-url", `the last render's imageUrl ${end.imageUrl} is not among the post's pictures ${show(after.imageUrls)}`);
      ctx.expect(after.contentDigest !== before.contentDigest, ["new-picture-new-url/new-digest", "digest-follows-content/picture"], `post ${id}: a new picture and contentDigest stayed ${show(before.contentDigest)}`);
    },
  },
  {
    id: "mcp-render-failures",
    description: "A render that fails with each image render code ends failed with it and its retryable; a template-rendering workspace refuses regenerate_post_image, and generate_image with saveToLibrary",
    rules: ["render-failure-codes", "template-rendering"],
    needs: ["mcp:cost-renders"],
    optionalSlots: { "mcp.triggers.render_fails": "each part runs when its own trigger is given", "mcp.triggers.prompt_templates": "each part runs when its own trigger is given" },
    spend: ({ triggers }) => ({ renders: triggers.renderFails ? 5 : 0 }),
    group,
    async run(ctx) {
      const m = ctx.mcp;
      const renderFails = ctx.slot("mcp.triggers.render_fails", "optional");
      const promptTemplates = ctx.slot("mcp.triggers.prompt_templates", "optional");
      if (!renderFails && !promptTemplates) return ctx.skip("no prompt that fails a render or renders from templates (mcp.triggers.render_fails, prompt_templates)");
      // A draft of its own with the caller's caption (no generation), so no post of the main batch is used up.
      const brandId = await brandIdOrSkip(ctx, m);
      const draft = expectOk(ctx, await m.session.call("create_draft", { brandId, caption: `Conformance run ${m.run.id}: a draft for failing renders.` }), "template-rendering/regenerate_post_image");
      const id = madeId(ctx, "create_draft", draft);
      const t = m.target.timing;
      for (const code of renderFails ? [...renderCodes] : []) {
        // rule: render-failure-codes/<code>. One render at a time: the next starts once this one ended.
        const rule: RuleId = `render-failure-codes/${code}`;
        const started = expectOk(ctx, await m.session.call("regenerate_post_image", { postId: id, prompt: `Conformance run. ${renderFails!.replaceAll("{code}", code)}` }), rule);
        if (typeof started?.jobId !== "string") continue;
        const polled = await pollCall(ctx, m, `render ${started.jobId}`, () => m.session.callRaw("get_generation_job", { jobId: started.jobId }), (o) => !okData(o) || finishedJob(okData(o)?.status), t.jobPollMs, t.jobDeadlineMs);
        const end = okData(polled.outcomes.at(-1));
        ctx.expect(end?.status === "failed" && end.error?.code === code && end.error?.retryable === renderRetryable(code), rule, `a render failing with ${code} ended ${show({ status: end?.status, error: end?.error })}`);
      }
      if (promptTemplates) {
        const prompt = `Conformance run. ${promptTemplates}`;
        expectError(ctx, await m.session.call("regenerate_post_image", { postId: id, prompt }), { code: "template_rendering", rule: "template-rendering/regenerate_post_image" });
        expectError(ctx, await m.session.call("generate_image", { brandId, prompt, saveToLibrary: true }), { code: "template_rendering", rule: "template-rendering/generate_image-save-to-library" });
      }
      await m.session.call("delete_post", { id });
    },
  },
  {
    id: "mcp-draft-edits",
    description: "On a draft of its own: a caption too long for every destination is refused with caption_over_limit, removePlatforms takes a destination off, generate_caption answers a caption, delete_post removes the draft",
    rules: ["caption-over-limit", "remove-platforms", "generate-caption", "delete-post"],
    group,
    async run(ctx) {
      const m = ctx.mcp;
      const brandId = await brandIdOrSkip(ctx, m);
      const draft = expectOk(ctx, await m.session.call("create_draft", { brandId, caption: `Conformance run ${m.run.id}: a draft to edit.` }), "remove-platforms/update_post");
      const id = madeId(ctx, "create_draft", draft);
      const view = await viewPost(ctx, m, id, "remove-platforms/update_post");
      const limits: number[] = (view.destinations ?? []).map((d) => d?.characterLimit).filter((n: unknown): n is number => typeof n === "number");
      // Longer than every destination allows (a 0 limit means none on record: then no caption is too long).
      if (limits.length && !limits.includes(0)) {
        const rule = "caption-over-limit/update_post";
        const e = expectError(ctx, await m.session.call("update_post", { id, caption: "x".repeat(Math.max(...limits) + 1) }), { code: "caption_over_limit", rule });
        if (e) ctx.expect(e.characterLimit === Math.min(...limits), rule, `caption_over_limit names characterLimit ${show(e.characterLimit)}; the shortest refusing limit is ${Math.min(...limits)}`);
        ctx.expect((await viewPost(ctx, m, id, rule)).contentDigest === view.contentDigest, rule, `post ${id} changed though the caption was refused`);
      }
      const platforms = platformsOf(view);
      if (platforms.length > 1) {
        const gone = platforms.at(-1)!;
        expectOk(ctx, await m.session.call("update_post", { id, removePlatforms: [gone] }), "remove-platforms/update_post");
        const after = platformsOf(await viewPost(ctx, m, id, "remove-platforms/update_post"));
        ctx.expect(!after.includes(gone) && after.length === platforms.length - 1, "remove-platforms/update_post", `removePlatforms ${gone}: destinations went ${show(platforms)} → ${show(after)}`);
      }
      const caption = expectOk(ctx, await m.session.call("generate_caption", { postId: id }), "generate-caption");
      if (caption) ctx.expect(caption.postId === id && typeof caption.caption === "string" && caption.caption.length > 0, "generate-caption", `generate_caption answered ${show(caption)}`);
      const deleted = expectOk(ctx, await m.session.call("delete_post", { id }), "delete-post");
      if (deleted) ctx.expect(deleted.deleted === true && deleted.id === id, "delete-post", `delete_post answered ${show(deleted)}`);
      expectError(ctx, await m.session.call("view_post", { id }), { code: ["not_found"], rule: "delete-post" });
    },
  },
];
