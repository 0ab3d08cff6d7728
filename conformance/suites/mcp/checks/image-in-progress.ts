// A second picture render while one runs on the same post is refused with image_generation_in_progress naming the
// running job. With mcp.triggers.render_stuck the first render keeps running until its post is deleted, so the
// refusal is always judged; without it, it is judged only when the first render is seen still running after the
// second call (otherwise skipped with that reason, never passed on timing luck).
import { expectError, expectOk, okData } from "../expect.js";
import { madeId, show, type McpCheck } from "./common.js";
import { brandIdOrSkip } from "./brand-under-test.js";

const running = (status: unknown) => status !== "completed" && status !== "failed";

export const imageInProgressChecks: McpCheck[] = [
  {
    id: "mcp-image-in-progress",
    description: "While a render runs on a post, another regenerate_post_image on it is refused with image_generation_in_progress (not retryable) naming the running job",
    rules: ["image-in-progress", "retryable-per-catalogue/image_generation_in_progress", "error-structured-fields/image_generation_in_progress"],
    needs: ["mcp:cost-renders"],
    // The second render starts only when the first ended before it arrived.
    spend: ({ triggers }) => ({ renders: triggers.renderStuck ? 1 : 2 }),
    group: "mcp-posts",
    optionalSlots: { "mcp.triggers.render_stuck": "a render that keeps running makes the refusal certain where it is given" },
    async run(ctx) {
      const m = ctx.mcp;
      const rule = "image-in-progress/refused";
      const brandId = await brandIdOrSkip(ctx, m);
      // A draft of its own with the caller's caption (no generation), deleted at the end (which ends a stuck render).
      const d = expectOk(ctx, await m.session.call("create_draft", { brandId, caption: `Conformance run ${m.run.id}: a draft for two renders.` }), rule);
      const id = madeId(ctx, "create_draft", d);
      try {
        const stuck = m.slot("mcp.triggers.render_stuck", "optional");
        const first = expectOk(ctx, await m.session.call("regenerate_post_image", { postId: id, ...(stuck ? { prompt: `Conformance run. ${stuck}` } : {}) }), rule);
        const jobId = first?.jobId;
        if (!ctx.expect(typeof jobId === "string", rule, `regenerate_post_image answered ${show(first)}, no jobId`) || typeof jobId !== "string") return;
        const again = await m.session.call("regenerate_post_image", { postId: id });
        const status = okData(await m.session.callRaw("get_generation_job", { jobId: jobId }))?.status;
        if (!running(status)) {
          if (stuck) ctx.expect(false, rule, `the render started with ${stuck} ended (${show(status)}); it should run until its post is deleted`);
          return ctx.skip(`render ${jobId} ended before a second call reached it, so the refusal was not judged (mcp.triggers.render_stuck keeps one running)`);
        }
        const e = expectError(ctx, again, { code: "image_generation_in_progress", rule });
        // The running job is known here (this render started it), so the refusal names it.
        if (e) ctx.expect(e.jobId === jobId, ["image-in-progress/job-id", "error-structured-fields/image_generation_in_progress"], `image_generation_in_progress names job ${show(e.jobId)}, the running one is ${jobId}`);
      } finally {
        await m.session.call("delete_post", { id });
      }
    },
  },
];
