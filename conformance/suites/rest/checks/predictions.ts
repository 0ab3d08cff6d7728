// Predictions: every draft sent comes back once, ranked 1..n best first, pointing back to the request by
// position and the caller's id, for the brand asked about.
import type { CheckContext, RestCheck } from "../check.js";
import { pathOf } from "../contract.js";
import { expectSuccess } from "../expect.js";
import { predictionRules } from "./common.js";
import type { Answered } from "../../../core/answered.js";
import type { Prediction } from "../../../../generated/rest/types.js";

const group = "predictions";
const show = (v: unknown) => JSON.stringify(v);

export const predictionChecks: RestCheck[] = [
  {
    id: "predictions-rank-drafts",
    description: "POST /v1/predictions ranks every draft sent once, 1..n in order, with the caller's ids",
    rules: [...predictionRules, "create-prediction-200", "predictions-rank-drafts", "predictions-keep-caller-ids", "predictions-brand-echoed"],
    group,
    needs: ["stateful"],
    async run(ctx: CheckContext) {
      const brand = await ctx.fixtures.readyBrandId(ctx);
      const drafts = [
        { id: "d-a", text: "Fresh sourdough, baked this morning.", format: "image" },
        { id: "d-b", text: "Our winter opening hours start on Monday.", format: "text" },
        { text: "Three things to know before you order a cake." },
      ];
      const res = await ctx.api.post(pathOf("createPrediction"), { brand, drafts });
      if (!expectSuccess(ctx, res, "createPrediction", 200, "create-prediction-200")) return;
      // No body at all is allowed by the seed (response shape not shown): then nothing shows a ranking (inferred rules).
      const p: Answered<Prediction> = res.body ?? {};
      const data = Array.isArray(p.data) ? p.data : [];
      ctx.expect(p.brand === brand, "predictions-brand-echoed", `brand is ${show(p.brand)}, expected ${show(brand)}`);
      ctx.expect(data.length === drafts.length, "predictions-rank-drafts", `${data.length} ranked drafts for ${drafts.length} sent`);
      const indexes = data.map((d) => d?.index).sort();
      ctx.expect(show(indexes) === show([0, 1, 2]), "predictions-keep-caller-ids", `indexes ${show(data.map((d) => d?.index))}, expected each of 0, 1, 2 once`);
      ctx.expect(show(data.map((d) => d?.rank)) === show(data.map((_, i) => i + 1)), "predictions-rank-drafts", `ranks ${show(data.map((d) => d?.rank))}, expected 1..${data.length} in order`);
      for (const d of data) {
        const sent = drafts[d?.index as number];
        if (sent) ctx.expect(d.id === (sent.id ?? null), "predictions-keep-caller-ids", `draft ${d.index}: id ${show(d.id)}, expected ${show(sent.id ?? null)}`);
      }
    },
  },
];
