// Feedback: recorded with an fb_ id and what was sent, including the rejection reason wrong_language.
import type { Check, CheckContext } from "../../check.js";
import { pathOf } from "../../contract.js";
import { expectSuccess } from "../../expect.js";
import { objectRules } from "./common.js";

const group = "feedback";
const show = (v: unknown) => JSON.stringify(v);

async function doneIdea(ctx: CheckContext): Promise<{ idea: string; brand: string }> {
  const batch = await ctx.fixtures.doneBatch(ctx);
  const idea = batch.last?.data?.[0]?.id;
  if (typeof idea !== "string") ctx.skip("the done batch holds no idea");
  return { idea, brand: batch.last.brand };
}

export const feedbackChecks: Check[] = [
  {
    id: "feedback-recorded",
    description: "Feedback that an idea was posted is recorded: 201 with an fb_ id, the idea, its brand and the comment",
    rules: [...objectRules, "feedback-recorded"],
    group,
    needs: ["stateful"],
    async run(ctx: CheckContext) {
      const { idea, brand } = await doneIdea(ctx);
      const comment = "Posted on Tuesday; it did well.";
      const res = await ctx.api.post(pathOf("createFeedback"), { idea, outcome: "posted", comment });
      if (!expectSuccess(ctx, res, "createFeedback", 201, "feedback-recorded")) return;
      const f = res.body;
      ctx.expect(f.idea === idea, "feedback-recorded", `idea is ${show(f.idea)}, expected ${show(idea)}`);
      ctx.expect(f.brand === brand, "feedback-recorded", `brand is ${show(f.brand)}, expected the idea's brand ${show(brand)}`);
      ctx.expect(f.outcome === "posted", "feedback-recorded", `outcome is ${show(f.outcome)}, expected "posted"`);
      ctx.expect(f.comment === comment, "feedback-recorded", `comment is ${show(f.comment)}, expected what was sent`);
      ctx.expect(f.reason === null, "feedback-recorded", `reason is ${show(f.reason)} on feedback that is not a rejection, expected null`);
    },
  },
  {
    id: "feedback-wrong-language",
    description: "A rejection with the reason wrong_language is recorded with that reason",
    rules: [...objectRules, "feedback-recorded", "feedback-wrong-language"],
    group,
    needs: ["stateful"],
    async run(ctx: CheckContext) {
      const { idea } = await doneIdea(ctx);
      const res = await ctx.api.post(pathOf("createFeedback"), { idea, outcome: "rejected", reason: "wrong_language" });
      if (!expectSuccess(ctx, res, "createFeedback", 201, "feedback-wrong-language")) return;
      ctx.expect(res.body.outcome === "rejected", "feedback-wrong-language", `outcome is ${show(res.body.outcome)}, expected "rejected"`);
      ctx.expect(res.body.reason === "wrong_language", "feedback-wrong-language", `reason is ${show(res.body.reason)}, expected "wrong_language"`);
    },
  },
];
