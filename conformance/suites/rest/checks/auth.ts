// Team isolation: another team's credentials reach none of this team's brands, batches or ideas (403
// permission_error), whether reading, changing, asking for ideas on them or ranking drafts for them.
import type { RuleId } from "../../../../generated/rules.js";
import type { CheckContext, RestCheck } from "../check.js";
import { pathOf, type OperationId } from "../contract.js";
import { expectError } from "../expect.js";
import type { ApiResponse } from "../../../core/http.js";
import { errorRules } from "./common.js";

const group = "auth";
const needs = ["stateful"] as const;
/** The rules a check of another team's access to `op` names. */
const rulesFor = (op: OperationId): RuleId[] => [...errorRules(403), `team-isolation-403/${op}`];

// The 403's type is part of the isolation rule (error-type-per-status covers the statuses any caller can provoke).
const forbidden = (ctx: CheckContext, res: ApiResponse, op: OperationId, param?: string) =>
  expectError(ctx, res, op, 403, {
    statusRules: `team-isolation-403/${op}`,
    typeRules: `team-isolation-403/${op}`,
    ...(param ? { param, paramRules: `team-isolation-403/${op}` } : {}),
  });

export const authChecks: RestCheck[] = [
  {
    id: "other-team-brand-get-403",
    description: "GET of this team's brand with another team's token answers 403 permission_error",
    rules: rulesFor("getBrand"),
    group,
    needs,
    async run(ctx: CheckContext) {
      const track = await ctx.fixtures.brand("main");
      if (!track.id) return ctx.fixtures.missing(ctx, track, "the main brand");
      forbidden(ctx, await ctx.api.get(pathOf("getBrand", { brand_id: track.id }), "other-team"), "getBrand");
    },
  },
  {
    id: "other-team-brand-patch-403",
    description: "PATCH of this team's brand with another team's token answers 403 and changes nothing",
    rules: rulesFor("updateBrand"),
    group,
    needs,
    async run(ctx: CheckContext) {
      const brandId = await ctx.fixtures.probeBrand(ctx, "a brand to update");
      const path = pathOf("updateBrand", { brand_id: brandId });
      const name = `Taken over ${ctx.fixtures.run}`;
      forbidden(ctx, await ctx.api.patch(path, { name }, "other-team"), "updateBrand");
      const after = await ctx.api.get(pathOf("getBrand", { brand_id: brandId }));
      ctx.expect(after.body?.name !== name, "team-isolation-403/updateBrand", `another team's PATCH changed the brand's name to ${JSON.stringify(name)}`);
    },
  },
  {
    id: "other-team-batch-get-403",
    description: "GET of this team's batch with another team's token answers 403 permission_error",
    rules: rulesFor("getIdeaBatch"),
    group,
    needs,
    async run(ctx: CheckContext) {
      const track = await ctx.fixtures.batch("main");
      if (!track.id) return ctx.fixtures.missing(ctx, track, "the main batch");
      forbidden(ctx, await ctx.api.get(pathOf("getIdeaBatch", { batch_id: track.id }), "other-team"), "getIdeaBatch");
    },
  },
  {
    id: "other-team-brand-ideas-403",
    description: "POST /v1/ideas with another team's token for this team's ready brand answers 403 naming brand",
    rules: rulesFor("createIdeas"),
    group,
    needs,
    async run(ctx: CheckContext) {
      const brand = await ctx.fixtures.readyBrandId(ctx);
      forbidden(ctx, await ctx.api.post(pathOf("createIdeas"), { brand }, "other-team"), "createIdeas", "brand");
    },
  },
  {
    id: "other-team-idea-feedback-403",
    description: "POST /v1/feedback with another team's token about this team's idea answers 403 naming idea",
    rules: rulesFor("createFeedback"),
    group,
    needs,
    async run(ctx: CheckContext) {
      const batch = await ctx.fixtures.doneBatch(ctx);
      const idea = batch.last?.data?.[0]?.id;
      if (typeof idea !== "string") ctx.skip("the done batch holds no idea");
      forbidden(ctx, await ctx.api.post(pathOf("createFeedback"), { idea, outcome: "posted" }, "other-team"), "createFeedback", "idea");
    },
  },
  {
    id: "other-team-brand-predictions-403",
    description: "POST /v1/predictions with another team's token for this team's ready brand answers 403 naming brand",
    rules: rulesFor("createPrediction"),
    group,
    needs,
    async run(ctx: CheckContext) {
      const brand = await ctx.fixtures.readyBrandId(ctx);
      const res = await ctx.api.post(pathOf("createPrediction"), { brand, drafts: [{ text: "Fresh bread." }] }, "other-team");
      forbidden(ctx, res, "createPrediction", "brand");
    },
  },
];
