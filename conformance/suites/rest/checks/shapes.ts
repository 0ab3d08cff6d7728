// Shapes: one success answer of every operation, valid against the generated validators for its operation and
// status, with `object` and id prefixes right. These hold for a stateless mock too.
import type { CheckContext, RestCheck } from "../check.js";
import { pathOf } from "../contract.js";
import { expectSuccess } from "../expect.js";
import { batchRules, brandRules, feedbackRules, patchRules, predictionRules, unknownId } from "./common.js";

const group = "shapes";

export const shapeChecks: RestCheck[] = [
  {
    id: "create-brand-from-website",
    description: "POST /v1/brands with a website answers 201 with a valid brand",
    rules: [...brandRules, "create-brand-201", "brand-create-website-or-name-description/website", "version-in-path"],
    group,
    async run(ctx: CheckContext) {
      const track = await ctx.fixtures.brand("main");
      const rules = ["create-brand-201", "brand-create-website-or-name-description/website"];
      if (!track.created) ctx.fail(rules, `POST /v1/brands failed: ${track.problem}`);
      ctx.expect(track.created.path.startsWith("/v1/") && track.created.status !== 404, "version-in-path", `${track.created.path} → ${track.created.status}: not served under /v1`);
      expectSuccess(ctx, track.created, "createBrand", 201, rules);
    },
  },
  {
    id: "create-brand-from-name-and-description",
    description: "POST /v1/brands with a name and a description answers 201 with a valid brand",
    rules: [...brandRules, "create-brand-201", "brand-create-website-or-name-description/name_and_description"],
    group,
    async run(ctx: CheckContext) {
      const track = await ctx.fixtures.brand("patchLists");
      const rule = "brand-create-website-or-name-description/name_and_description";
      if (!track.created) ctx.fail(rule, `POST /v1/brands failed: ${track.problem}`);
      expectSuccess(ctx, track.created, "createBrand", 201, ["create-brand-201", rule]);
    },
  },
  {
    id: "get-brand",
    description: "GET /v1/brands/{brand_id} answers 200 with a valid brand",
    rules: [...brandRules, "get-brand-200", "team-reaches-own-brands"],
    group,
    async run(ctx: CheckContext) {
      const track = await ctx.fixtures.brand("main");
      const first = track.history[0];
      if (!first) return ctx.fixtures.missing(ctx, track, "a brand to read");
      for (const res of [first, track.again]) if (res) expectSuccess(ctx, res, "getBrand", 200, ["get-brand-200", "team-reaches-own-brands"]);
    },
  },
  {
    id: "update-brand",
    description: "PATCH /v1/brands/{brand_id} answers 200 with a valid brand",
    rules: [...patchRules, "update-brand-200"],
    group,
    async run(ctx: CheckContext) {
      const brandId = await ctx.fixtures.probeBrand(ctx, "a brand to update");
      const res = await ctx.api.patch(pathOf("updateBrand", { brand_id: brandId }), { country: "IE" });
      expectSuccess(ctx, res, "updateBrand", 200, "update-brand-200");
    },
  },
  {
    id: "create-ideas",
    description: "POST /v1/ideas answers 202 with a valid batch",
    rules: [...batchRules, "ideas-accepted-202/status-202"],
    group,
    async run(ctx: CheckContext) {
      const track = await ctx.fixtures.batch("main");
      if (!track.created) return ctx.fixtures.missing(ctx, track, "a batch asked for");
      expectSuccess(ctx, track.created, "createIdeas", 202, "ideas-accepted-202/status-202");
    },
  },
  {
    id: "get-idea-batch",
    description: "GET /v1/ideas/{batch_id} answers 200 with a valid batch, while thinking and once settled",
    rules: [...batchRules, "get-batch-200"],
    group,
    async run(ctx: CheckContext) {
      ctx.fixtures.startBatches("main", "plain");
      for (const key of ["main", "plain"] as const) {
        const track = await ctx.fixtures.batch(key);
        if (!track.history.length) return ctx.fixtures.missing(ctx, track, "a batch to read");
        for (const res of [...track.history, ...(track.again ? [track.again] : [])]) expectSuccess(ctx, res, "getIdeaBatch", 200, "get-batch-200");
      }
    },
  },
  {
    id: "create-feedback",
    description: "POST /v1/feedback answers 201 with a valid feedback record",
    rules: [...feedbackRules, "create-feedback-201"],
    group,
    async run(ctx: CheckContext) {
      const { stateful } = await ctx.fixtures.statefulness();
      let idea: unknown;
      if (stateful) {
        const batch = await ctx.fixtures.doneBatch(ctx);
        idea = batch.last?.data?.[0]?.id;
        if (typeof idea !== "string") ctx.skip("the done batch holds no idea to give feedback on");
      } else idea = unknownId("idea_");
      const res = await ctx.api.post(pathOf("createFeedback"), { idea, outcome: "saved" });
      expectSuccess(ctx, res, "createFeedback", 201, "create-feedback-201");
    },
  },
  {
    id: "create-prediction",
    description: "POST /v1/predictions answers 200 with a valid ranking",
    rules: [...predictionRules, "create-prediction-200"],
    group,
    async run(ctx: CheckContext) {
      const brand = await ctx.fixtures.readyBrandId(ctx);
      const res = await ctx.api.post(pathOf("createPrediction"), { brand, drafts: [{ id: "d1", text: "Fresh bread, baked this morning." }] });
      expectSuccess(ctx, res, "createPrediction", 200, "create-prediction-200");
    },
  },
];
