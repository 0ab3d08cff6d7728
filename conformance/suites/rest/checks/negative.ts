// Negative inputs derived from the request schemas (negative-inputs.ts): each bad body must answer 400
// invalid_request with `param` naming the field. A stateless mock answers from fixed examples, so `param`
// cannot name the field there: these checks need a stateful target (bad-request-400-* covers the shape).
import { CheckSkipped } from "../../../core/check.js";
import type { CheckContext, RestCheck } from "../check.js";
import { operations, pathOf, type OperationId } from "../contract.js";
import { expectError } from "../expect.js";
import { badInputs, type BadInput, type BaseValues } from "../negative-inputs.js";
import { dayOf, errorRules } from "./common.js";

const group = "negative";

/** The values a body's base needs (a ready brand, an idea, a brand to update), and the path to send it to. */
export async function baseValues(ctx: CheckContext, input: Pick<BadInput, "op" | "base">): Promise<{ values: BaseValues; path: string }> {
  const values: BaseValues = { brandId: "", ideaId: "", today: new Date().toISOString().slice(0, 10) };
  let path = pathOf(input.op);
  if (input.base === "ready-brand") {
    values.brandId = await ctx.fixtures.readyBrandId(ctx);
    const brand = await ctx.fixtures.brand("main");
    // The target's today: from the freshest timestamp it wrote.
    values.today = dayOf(brand.history.at(-1)?.body?.created_at) ?? values.today;
  }
  if (input.base === "idea") {
    const batch = await ctx.fixtures.doneBatch(ctx);
    const idea = batch.last?.data?.[0]?.id;
    if (typeof idea !== "string") ctx.skip("the done batch holds no idea");
    values.ideaId = idea;
  }
  if (input.base === "brand-to-patch") {
    path = pathOf("updateBrand", { brand_id: await ctx.fixtures.probeBrand(ctx, "a brand to update") });
  }
  return { values, path };
}

/** Sends one bad body and judges the answer: 400 invalid_request naming the field, as cases of the input's rules. */
async function sendBad(ctx: CheckContext, input: BadInput): Promise<void> {
  const { values, path } = await baseValues(ctx, input);
  let body = input.body(values);
  let res = await ctx.api.send({ method: operations[input.op].method, path, body });
  if (input.id === "create-ideas-date-beyond-horizon" && res.status === 202) {
    // The target's day may have turned since we read its clock; count from the day it says it is now.
    const today = dayOf(res.body?.created_at);
    if (today && today !== values.today) {
      body = input.body({ ...values, today });
      res = await ctx.api.send({ method: "POST", path, body });
    }
  }
  expectError(ctx, res, input.op, 400, { statusRules: input.rules, param: input.params, paramRules: input.rules });
}

/**
 * One check per operation (a literal id a report's reader can grep), sending every bad body derived for it. An
 * input whose base cannot be had is noted and leaves its rules without a case (the ledger says so); the others run.
 */
function negativeCheck(id: string, op: OperationId): RestCheck {
  const inputs = badInputs().filter((i) => i.op === op);
  return {
    id,
    description: `Every bad body the ${op} request schema implies (${inputs.length}) → 400 invalid_request naming the field`,
    rules: [...new Set([...errorRules(400), ...inputs.flatMap((i) => i.rules)])],
    group,
    needs: ["stateful"],
    async run(ctx: CheckContext) {
      // Side by side: the client's concurrency limit paces them, and each answer is judged as it comes back.
      await Promise.all(
        inputs.map(async (input) => {
          try {
            await sendBad(ctx, input);
          } catch (err) {
            if (!(err instanceof CheckSkipped)) throw err;
            ctx.note(`${input.id}: not sent: ${err.reason}`);
          }
        }),
      );
    },
  };
}

export const negativeChecks: RestCheck[] = [
  negativeCheck("negative-create-brand", "createBrand"),
  negativeCheck("negative-update-brand", "updateBrand"),
  negativeCheck("negative-create-ideas", "createIdeas"),
  negativeCheck("negative-create-feedback", "createFeedback"),
  negativeCheck("negative-create-prediction", "createPrediction"),
];
