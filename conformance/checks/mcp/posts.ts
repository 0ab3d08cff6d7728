// One post as it reads and changes: the post view's own consistency, the content digest following the content,
// and a picture render (regenerate_post_image → get_generation_job) replacing a picture with a new URL, with a
// second render refused while the first runs.
import type { Check } from "../../check.js";
import { renderRetryable } from "../../mcp/contract.js";
import { expectError, expectOk } from "../../mcp/expect.js";
import { okData } from "../../mcp/jobs.js";
import { editCaption, mcpCheck, pollCall, show, viewPost, wellFormedError } from "./common.js";

const group = "mcp-posts";

/** The job states after which nothing more happens (the contract's set is open; these two end a render). */
const finishedJob = (status: unknown) => status === "completed" || status === "failed";

export const postChecks: Check[] = [
  mcpCheck({
    id: "mcp-view-post-fields",
    description: "view_post: id and postId the same, postText a caption of the post, imageUrl the first picture, characterCount the caption's length",
    rules: ["view-post-fields"],
    group,
    async run(ctx, m) {
      const rule = "view-post-fields";
      const t = await m.jobs.doneBatch(ctx);
      const ids: string[] = (t.last?.items ?? []).map((i: any) => i?.postId).filter((id: unknown) => typeof id === "string").slice(0, 3);
      if (!ids.length) return ctx.skip("the main batch made no post");
      for (const id of ids) {
        const v = await viewPost(ctx, m, id, rule);
        ctx.expect(v.id === id && v.postId === id, rule, `view_post ${id} answered id ${show(v.id)} and postId ${show(v.postId)}`);
        const destinations: any[] = Array.isArray(v.destinations) ? v.destinations : [];
        const captions = destinations.map((d) => d?.text).filter((s): s is string => typeof s === "string" && s !== "");
        if (captions.length) ctx.expect(captions.includes(v.postText), rule, `post ${id}: postText ${show(v.postText)} is none of its destinations' captions`);
        const urls: unknown[] = Array.isArray(v.imageUrls) ? v.imageUrls : [];
        ctx.expect(v.imageUrl === (urls[0] ?? null), rule, `post ${id}: imageUrl ${show(v.imageUrl)} is not the first of imageUrls ${show(urls)}`);
        for (const d of destinations) {
          if (typeof d?.text !== "string") continue;
          // Platforms count characters as code points (an emoji is one), not UTF-16 units.
          const length = [...d.text].length;
          ctx.expect(d.characterCount === length, rule, `post ${id} ${d.platform}: characterCount ${show(d.characterCount)} for a caption of ${length} characters`);
        }
      }
    },
  }),
  mcpCheck({
    id: "mcp-digest-follows-content",
    description: "contentDigest stays while the content does, changes with a caption, and get_post_status reports the same digest",
    rules: ["digest-follows-content"],
    group,
    async run(ctx, m) {
      const rule = "digest-follows-content";
      const id = await m.jobs.claimPost(ctx, "the digest check");
      const first = await viewPost(ctx, m, id, rule);
      const again = await viewPost(ctx, m, id, rule);
      ctx.expect(typeof first.contentDigest === "string" && first.contentDigest.length > 0, rule, `post ${id} with its picture landed has contentDigest ${show(first.contentDigest)}`);
      ctx.expect(again.contentDigest === first.contentDigest, rule, `post ${id}: two reads of unchanged content gave digests ${show(first.contentDigest)} and ${show(again.contentDigest)}`);
      const status = okData(await m.session.call("get_post_status", { id }));
      if (status && "contentDigest" in status)
        ctx.expect(status.contentDigest === first.contentDigest, rule, `post ${id}: get_post_status reports digest ${show(status.contentDigest)}, view_post ${show(first.contentDigest)}`);
      const platform = first.destinations?.find((d: any) => typeof d?.text === "string" && d.text !== "")?.platform;
      if (!platform) return ctx.skip(`post ${id} has no destination with a caption to change`);
      const caption = `${first.destinations.find((d: any) => d.platform === platform).text} (edited by the conformance run)`;
      await editCaption(ctx, m, id, caption, rule, platform);
      const edited = await viewPost(ctx, m, id, rule);
      ctx.expect(edited.destinations?.find((d: any) => d?.platform === platform)?.text === caption, rule, `post ${id}: the new ${platform} caption does not read back`);
      ctx.expect(edited.contentDigest !== first.contentDigest, rule, `post ${id}: the ${platform} caption changed and contentDigest stayed ${show(first.contentDigest)}`);
    },
  }),
  mcpCheck({
    id: "mcp-regenerate-job",
    description: "regenerate_post_image answers a jobId; a second render is refused while it runs; it ends with a new picture URL and digest",
    rules: ["regenerate-job", "image-in-progress", "new-picture-new-url"],
    group,
    async run(ctx, m) {
      const id = await m.jobs.claimPost(ctx, "the picture render check");
      const before = await viewPost(ctx, m, id, "new-picture-new-url");
      const started = expectOk(ctx, await m.session.call("regenerate_post_image", { postId: id }), "regenerate-job");
      if (!started) return;
      if (!ctx.expect(typeof started.jobId === "string" && started.jobId.length > 0, "regenerate-job", `regenerate_post_image answered ${show(started)}, no jobId`)) return;
      const follow = (jobId: string) =>
        pollCall(ctx, m, `render ${jobId}`, () => m.session.call("get_generation_job", { jobId }), (o) => !okData(o) || finishedJob(okData(o).status), m.target.timing.jobPollMs, m.target.timing.jobDeadlineMs);

      // A second render while one runs. A render runs from its answer on; when it is still unfinished after the
      // next call, it ran throughout, and that call must have been refused. When it had ended, the call proves
      // nothing, but a render it started is running now: try again against that one (three tries in all).
      let running: string = started.jobId;
      let lastJob: string = started.jobId;
      for (let attempt = 1; ; attempt++) {
        const again = await m.session.call("regenerate_post_image", { postId: id });
        const status = okData(await m.session.call("get_generation_job", { jobId: running }))?.status;
        if (!finishedJob(status)) {
          const e = expectError(ctx, again, { code: "image_generation_in_progress", rule: "image-in-progress" });
          if (e && "jobId" in e) ctx.expect(e.jobId === running, "image-in-progress", `image_generation_in_progress names job ${show(e.jobId)}, the running one is ${running}`);
          break;
        }
        const next = okData(again)?.jobId;
        if (typeof next === "string") running = lastJob = next;
        if (attempt === 3 || typeof next !== "string") {
          ctx.note(`renders ended before a second call reached them (${attempt} tries): image_generation_in_progress not judged`);
          break;
        }
      }

      const polled = await follow(started.jobId);
      const last = polled.outcomes.at(-1);
      const end = last ? expectOk(ctx, last, "regenerate-job") : undefined;
      if (!end) return;
      if (!ctx.expect(polled.finished, "regenerate-job", `render ${started.jobId} had not ended by the deadline: ${show(end)}`)) return;
      ctx.expect(end.jobId === started.jobId, "regenerate-job", `get_generation_job ${started.jobId} answered jobId ${show(end.jobId)}`);
      if (end.status === "failed") {
        ctx.expect(wellFormedError(end.error), "regenerate-job", `a failed render has error ${show(end.error)}`);
        const want = renderRetryable(end.error?.code);
        ctx.expect(want !== undefined, "regenerate-job", `a failed render has code ${show(end.error?.code)}, not an image render code`);
        if (want !== undefined) ctx.expect(end.error.retryable === want, "retryable-per-catalogue", `render code ${end.error.code} has retryable ${show(end.error.retryable)}, the catalogue says ${want}`);
        return ctx.skip(`the render failed (${show(end.error?.code)}), so no new picture to look at`);
      }
      const final = lastJob === started.jobId ? end : okData((await follow(lastJob)).outcomes.at(-1));
      const after = await viewPost(ctx, m, id, "new-picture-new-url");
      const oldUrls = new Set<unknown>(before.imageUrls ?? []);
      const fresh = (after.imageUrls ?? []).filter((u: unknown) => !oldUrls.has(u));
      ctx.expect(fresh.length > 0, "new-picture-new-url", `post ${id}: after the render, imageUrls ${show(after.imageUrls)} has no new URL (before ${show(before.imageUrls)})`);
      if (typeof final?.imageUrl === "string")
        ctx.expect((after.imageUrls ?? []).includes(final.imageUrl), "regenerate-job", `the last render's imageUrl ${final.imageUrl} is not among the post's pictures ${show(after.imageUrls)}`);
      ctx.expect(after.contentDigest !== before.contentDigest, "new-picture-new-url", `post ${id}: a new picture and contentDigest stayed ${show(before.contentDigest)}`);
    },
  }),
];
