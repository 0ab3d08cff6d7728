// Runs the steps of one REST walk against the target: each step's request, every answer judged by the
// assertions of the scripted checks (expect.ts) and by the model's predictions (model.ts), the model
// updated from what the target showed. A walk stops at its first step that fails something.
import type { RuleRef } from "../../../core/judge.js";
import type { RuleId } from "../../../../generated/rules.js";
import type { CheckContext } from "../check.js";
import { restWalksId } from "../checks/walks.js";
import { pathOf } from "../contract.js";
import { expectError, expectSuccess } from "../expect.js";
import { judgingInto } from "../replies.js";
import type { ApiResponse } from "../../../core/http.js";
import { followWhile, unknownId } from "../checks/common.js";
import { applyPatch, brandFromCreate, judgeBatch, judgeBrand, type BatchModel, type BrandModel } from "./model.js";
import type { WalkKind, Walker } from "../../../core/walks/engine.js";
import { describeStep, planWalk, restFocusOf, restReplayFormat, type Step, type WebsiteSlot } from "./steps.js";

const show = (v: unknown) => JSON.stringify(v);

/** A read of the team's own brand or batch refused as another team's breaks team-reaches-own-brands too. */
const ownRules = (rule: RuleId, res: ApiResponse): RuleRef => (res.status === 403 ? [rule, "team-reaches-own-brands"] : rule);

class RestWalk implements Walker<Step> {
  readonly brands = new Map<string, BrandModel>();
  readonly batches = new Map<string, BatchModel>();
  constructor(readonly ctx: CheckContext) {}

  website(slot: WebsiteSlot): string {
    return this.ctx.slot(slot === "website" ? "rest.inputs.website" : "rest.inputs.other_website");
  }

  getBrand(res: ApiResponse, model: BrandModel, where: string, cause?: RuleId): void {
    if (expectSuccess(this.ctx, res, "getBrand", 200, ownRules("get-brand-200", res))) judgeBrand(this.ctx, model, res.body, "get", where, cause ? { cause } : {});
  }

  getBatch(res: ApiResponse, model: BatchModel, where: string): void {
    if (expectSuccess(this.ctx, res, "getIdeaBatch", 200, ownRules("get-batch-200", res), { ideas: true })) judgeBatch(this.ctx, model, res.body, where);
  }

  /** Runs one step; false when it was left out (what it names does not exist in this walk). */
  async step(step: Step, where: string): Promise<boolean> {
    const { ctx } = this;
    switch (step.op) {
      case "create-brand": {
        const website = step.website ? this.website(step.website) : undefined;
        const res = await ctx.api.post(pathOf("createBrand"), { ...(website ? { website } : {}), ...step.body });
        const member: RuleId = `brand-create-website-or-name-description/${website ? "website" : "name_and_description"}`;
        if (!expectSuccess(ctx, res, "createBrand", 201, ["create-brand-201", member]) || typeof res.body?.id !== "string") return true;
        const model = brandFromCreate(step.brand, res.body.id, website, step.body);
        this.brands.set(step.brand, model);
        judgeBrand(ctx, model, res.body, "create", where);
        return true;
      }
      case "patch-brand": {
        const model = this.brands.get(step.brand);
        if (!model) return false;
        const website = step.website ? this.website(step.website) : undefined;
        const res = await ctx.api.patch(pathOf("updateBrand", { brand_id: model.id }), { ...step.body, ...(website ? { website } : {}) });
        const answered = expectSuccess(ctx, res, "updateBrand", 200, "update-brand-200");
        // Taken (any 2xx: the seed does not show PATCH's answer), the change is what later views must show.
        if (res.status < 200 || res.status > 299) return true;
        const patched = applyPatch(model, website, step.body);
        if (answered && res.body?.object === "brand") judgeBrand(ctx, model, res.body, "patch", where, { patched });
        return true;
      }
      case "get-brand": {
        const model = this.brands.get(step.brand);
        if (!model) return false;
        this.getBrand(await ctx.api.get(pathOf("getBrand", { brand_id: model.id })), model, where);
        return true;
      }
      case "create-batch": {
        const brand = this.brands.get(step.brand);
        if (!brand) return false;
        const res = await ctx.api.post(pathOf("createIdeas"), { brand: brand.id, ...step.body });
        // A brand seen ready (no new website since) must be accepted; one not seen so may still be reading.
        if (brand.terminal !== "ready" && res.status === 409) {
          const rule = (m: string): RuleId => `ideas-brand-not-ready-409/${m}`;
          expectError(ctx, res, "createIdeas", 409, { statusRules: rule("status"), param: "brand", paramRules: rule("param"), code: "brand_not_ready", codeRules: rule("code") });
          return true;
        }
        const member = (m: string): RuleId => `ideas-accepted-202/${m}`;
        if (!expectSuccess(ctx, res, "createIdeas", 202, member("status-202")) || typeof res.body?.id !== "string") return true;
        const b = res.body;
        ctx.expect(b.status === "thinking", member("thinking"), `${where}: a new batch is ${show(b.status)}, expected thinking`);
        ctx.expect(Array.isArray(b.data) && b.data.length === 0, member("data-empty"), `${where}: a new batch holds data ${show(b.data)}, expected []`);
        ctx.expect(Array.isArray(b.left_out) && b.left_out.length === 0, member("left-out-empty"), `${where}: a new batch holds left_out ${show(b.left_out)}, expected []`);
        ctx.expect(b.error === null, member("error-null"), `${where}: a new batch has error ${show(b.error)}, expected null`);
        ctx.expect(b.done_at === null, member("done-at-null"), `${where}: a new batch has done_at ${show(b.done_at)}, expected null`);
        ctx.expect(b.brand === brand.id, "batch-brand-matches-request", `${where}: brand is ${show(b.brand)}, expected ${show(brand.id)}`);
        this.batches.set(step.batch, { label: step.batch, id: b.id, brandId: brand.id });
        return true;
      }
      case "get-batch": {
        const model = this.batches.get(step.batch);
        if (!model) return false;
        this.getBatch(await ctx.api.get(pathOf("getIdeaBatch", { batch_id: model.id })), model, where);
        return true;
      }
      case "feedback": {
        const batch = this.batches.get(step.batch);
        const ideas: any[] = batch?.terminal?.status === "done" && Array.isArray(batch.terminal.data) ? batch.terminal.data : [];
        const idea = ideas.length ? ideas[step.idea % ideas.length]?.id : undefined;
        if (!batch || typeof idea !== "string") return false;
        const res = await ctx.api.post(pathOf("createFeedback"), { idea, ...step.body });
        if (!expectSuccess(ctx, res, "createFeedback", 201, "create-feedback-201")) return true;
        const f = res.body;
        ctx.expect(f?.idea === idea && f?.brand === batch.brandId, "feedback-recorded", `${where}: feedback names idea ${show(f?.idea)} of brand ${show(f?.brand)}, expected ${show(idea)} of ${show(batch.brandId)}`);
        ctx.expect(f?.outcome === step.body.outcome, `feedback-outcome-recorded/${step.body.outcome}`, `${where}: outcome is ${show(f?.outcome)}, expected ${show(step.body.outcome)}`);
        if (step.body.reason)
          ctx.expect(f?.reason === step.body.reason, `feedback-rejection-reason/${step.body.reason}`, `${where}: reason is ${show(f?.reason)}, expected ${show(step.body.reason)}`);
        return true;
      }
      case "predict": {
        const brand = this.brands.get(step.brand);
        if (!brand) return false;
        const res = await ctx.api.post(pathOf("createPrediction"), { brand: brand.id, drafts: step.drafts });
        if (brand.terminal !== "ready" && res.status === 409) {
          const rule = "predictions-brand-not-ready-409";
          expectError(ctx, res, "createPrediction", 409, { statusRules: rule, param: "brand", paramRules: rule, code: "brand_not_ready", codeRules: rule });
          return true;
        }
        if (!expectSuccess(ctx, res, "createPrediction", 200, "create-prediction-200")) return true;
        const data: any[] = Array.isArray(res.body?.data) ? res.body.data : [];
        ctx.expect(res.body?.brand === brand.id, "predictions-brand-echoed", `${where}: brand is ${show(res.body?.brand)}, expected ${show(brand.id)}`);
        ctx.expect(
          data.length === step.drafts.length && data.every((d, i) => d?.rank === i + 1),
          "predictions-rank-drafts",
          `${where}: ranks ${show(data.map((d) => d?.rank))} for ${step.drafts.length} drafts, expected 1..${step.drafts.length} in order`,
        );
        return true;
      }
      case "wait": {
        // What had settled before is read once more: whatever happened meanwhile must not show on it.
        const settledBrands = [...this.brands.values()].filter((b) => b.terminal);
        const settledBatches = [...this.batches.values()].filter((b) => b.terminal);
        await Promise.all([
          ...[...this.brands.values()].filter((b) => !b.terminal).map(async (b) => {
            const followed = await followWhile(ctx, "brand", b.id, "reading", `walk waits for brand ${b.label}`);
            for (const res of followed.history) this.getBrand(res, b, where);
            if (followed.timedOut) ctx.expect(false, "brand-reading-to-ready/status", `${where}: brand ${b.label} was still reading at the deadline`);
          }),
          ...[...this.batches.values()].filter((b) => !b.terminal).map(async (b) => {
            const followed = await followWhile(ctx, "batch", b.id, "thinking", `walk waits for batch ${b.label}`);
            for (const res of followed.history) this.getBatch(res, b, where);
            if (followed.timedOut) ctx.expect(false, "batch-thinking-to-done/status", `${where}: batch ${b.label} was still thinking at the deadline`);
          }),
          ...settledBrands.map(async (b) => this.getBrand(await ctx.api.get(pathOf("getBrand", { brand_id: b.id })), b, where)),
          ...settledBatches.map(async (b) => this.getBatch(await ctx.api.get(pathOf("getIdeaBatch", { batch_id: b.id })), b, where)),
        ]);
        return true;
      }
      case "unknown-id": {
        if (step.kind === "idea") {
          const res = await ctx.api.post(pathOf("createFeedback"), { idea: unknownId("idea_"), outcome: "saved" });
          expectError(ctx, res, "createFeedback", 404, { statusRules: "unknown-id-404/idea", param: "idea", paramRules: "error-param-names-field/idea" });
        } else if (step.kind === "brand") {
          const res = await ctx.api.get(pathOf("getBrand", { brand_id: unknownId("brand_") }));
          expectError(ctx, res, "getBrand", 404, { statusRules: "unknown-id-404/brand", param: "brand_id", paramRules: "error-param-path-id" });
        } else {
          const res = await ctx.api.get(pathOf("getIdeaBatch", { batch_id: unknownId("batch_") }));
          expectError(ctx, res, "getIdeaBatch", 404, { statusRules: "unknown-id-404/batch", param: "batch_id", paramRules: "error-param-path-id" });
        }
        return true;
      }
      case "other-team": {
        if (!ctx.target.tokens.otherTeam) return false;
        const forbidden = (res: ApiResponse, op: "getBrand" | "updateBrand" | "getIdeaBatch") =>
          expectError(ctx, res, op, 403, { statusRules: `team-isolation-403/${op}`, typeRules: `team-isolation-403/${op}` });
        if (step.call === "get-batch") {
          const batch = this.batches.get(step.batch ?? "");
          if (!batch) return false;
          forbidden(await ctx.api.get(pathOf("getIdeaBatch", { batch_id: batch.id }), "other-team"), "getIdeaBatch");
          return true;
        }
        const brand = this.brands.get(step.brand ?? "");
        if (!brand) return false;
        const path = pathOf(step.call === "get-brand" ? "getBrand" : "updateBrand", { brand_id: brand.id });
        if (step.call === "get-brand") forbidden(await ctx.api.get(path, "other-team"), "getBrand");
        else {
          forbidden(await ctx.api.patch(path, step.body ?? {}, "other-team"), "updateBrand");
          // Refused, so nothing changed: the brand as this team reads it is still what the model says.
          this.getBrand(await ctx.api.get(path), brand, `${where} (read back by the team)`, "team-isolation-403/updateBrand");
        }
        return true;
      }
    }
  }
}

/** The REST walks: planned by steps.ts, judged by model.ts. */
export const restWalkKind: WalkKind<Step, CheckContext> = {
  checkId: restWalksId,
  format: restReplayFormat,
  plan: (seed, walk, length) => planWalk(seed, walk, length),
  focus: (walk) => restFocusOf(walk).name,
  describe: describeStep,
  waits: (s) => s.op === "wait",
  // A brand reads on creation and on a new website; a batch thinks.
  startsWork: (s) => s.op === "create-brand" || s.op === "create-batch" || (s.op === "patch-brand" && s.website !== undefined),
  walker: (ctx) => new RestWalk(ctx),
  concurrency: (ctx) => ctx.target.concurrency,
  // Every reply of the walk is judged into the walk (replies.ts), so a bad one fails a step and is shrunk like any.
  judging: (ctx, run) => judgingInto(ctx, run),
};
