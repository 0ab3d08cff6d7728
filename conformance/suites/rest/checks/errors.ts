// Error answers: the envelope, the type for each status (the seed's table), 404 for ids that name nothing, 400
// for a body that is not valid, 409 brand_not_ready, 429 with Retry-After and 500. (401s: authentication.ts.)
import type { RuleRef } from "../../../core/judge.js";
import type { RuleId } from "../../../../generated/rules.js";
import type { CheckContext, RestCheck } from "../check.js";
import { operations, pathOf, type OperationId } from "../contract.js";
import { expectError } from "../expect.js";
import { errorRules, unknownId } from "./common.js";

const group = "errors";

const inPath = (param: string) => ({ param, paramRules: "error-param-path-id" as const });
const inBody = (param: "brand" | "idea") => ({ param, paramRules: `error-param-names-field/${param}` as const });
const unknownIds: RestCheck[] = [
  {
    id: "unknown-brand-404",
    description: "GET and PATCH of a brand id that names nothing answer 404 not_found",
    rules: [...errorRules(404), "unknown-id-404/brand", "error-param-path-id"],
    group,
    needs: ["stateful"],
    async run(ctx: CheckContext) {
      const id = unknownId("brand_");
      expectError(ctx, await ctx.api.get(pathOf("getBrand", { brand_id: id })), "getBrand", 404, { statusRules: "unknown-id-404/brand", ...inPath("brand_id") });
      expectError(ctx, await ctx.api.patch(pathOf("updateBrand", { brand_id: id }), { country: "IE" }), "updateBrand", 404, {
        statusRules: "unknown-id-404/brand",
        ...inPath("brand_id"),
      });
      // An id of another kind names no brand either.
      const batchId = unknownId("batch_");
      expectError(ctx, await ctx.api.get(pathOf("getBrand", { brand_id: batchId })), "getBrand", 404, { statusRules: "unknown-id-404/brand", ...inPath("brand_id") });
    },
  },
  {
    id: "unknown-batch-404",
    description: "GET of a batch id that names nothing answers 404 not_found",
    rules: [...errorRules(404), "unknown-id-404/batch", "error-param-path-id"],
    group,
    needs: ["stateful"],
    async run(ctx: CheckContext) {
      const res = await ctx.api.get(pathOf("getIdeaBatch", { batch_id: unknownId("batch_") }));
      expectError(ctx, res, "getIdeaBatch", 404, { statusRules: "unknown-id-404/batch", ...inPath("batch_id") });
    },
  },
  {
    id: "unknown-brand-in-body-404",
    description: "POST /v1/ideas and /v1/predictions for a brand id that names nothing answer 404 naming brand",
    rules: [...errorRules(404), "unknown-id-404/brand", "error-param-names-field/brand"],
    group,
    needs: ["stateful"],
    async run(ctx: CheckContext) {
      const brand = unknownId("brand_");
      const ideas = await ctx.api.post(pathOf("createIdeas"), { brand });
      expectError(ctx, ideas, "createIdeas", 404, { statusRules: "unknown-id-404/brand", ...inBody("brand") });
      const pred = await ctx.api.post(pathOf("createPrediction"), { brand, drafts: [{ text: "Fresh bread." }] });
      expectError(ctx, pred, "createPrediction", 404, { statusRules: "unknown-id-404/brand", ...inBody("brand") });
    },
  },
  {
    id: "unknown-idea-404",
    description: "POST /v1/feedback about an idea id that names nothing answers 404 naming idea",
    rules: [...errorRules(404), "unknown-id-404/idea", "error-param-names-field/idea"],
    group,
    needs: ["stateful"],
    async run(ctx: CheckContext) {
      const res = await ctx.api.post(pathOf("createFeedback"), { idea: unknownId("idea_"), outcome: "posted" });
      expectError(ctx, res, "createFeedback", 404, { statusRules: "unknown-id-404/idea", ...inBody("idea") });
    },
  },
];

/**
 * A body of each operation with one field of the wrong JSON type (and nothing else wrong); holds on a validating
 * stateless mock too, so `param` is left to the negative checks.
 */
const wrongTypeBodies: Record<"createBrand" | "updateBrand" | "createIdeas" | "createFeedback" | "createPrediction", { id: string; body: Record<string, unknown> }> = {
  createBrand: { id: "bad-request-400-create-brand", body: { website: 7 } },
  updateBrand: { id: "bad-request-400-update-brand", body: { archetype: 7 } },
  createIdeas: { id: "bad-request-400-create-ideas", body: { brand: 7 } },
  createFeedback: { id: "bad-request-400-create-feedback", body: { idea: 7, outcome: "saved" } },
  createPrediction: { id: "bad-request-400-create-prediction", body: { brand: 7, drafts: [{ text: "Fresh bread." }] } },
};
const badBodies: RestCheck[] = (Object.keys(wrongTypeBodies) as (keyof typeof wrongTypeBodies)[]).map((op) => ({
  id: wrongTypeBodies[op].id,
  description: `${operations[op].method} ${operations[op].template} with a field of the wrong JSON type answers 400 invalid_request in the envelope`,
  rules: [...errorRules(400), "invalid-field-400/wrong-type"],
  group,
  async run(ctx: CheckContext) {
    let path = pathOf(op);
    if (op === "updateBrand") {
      path = pathOf(op, { brand_id: await ctx.fixtures.probeBrand(ctx, "a brand to update") });
    }
    const res = await ctx.api.send({ method: operations[op].method, path, body: wrongTypeBodies[op].body });
    expectError(ctx, res, op, 400, { statusRules: "invalid-field-400/wrong-type" });
  },
}));

/** The 409 of a brand that is not ready: status, code and param, each under its rule. */
type NotReadyRules = { status: RuleRef; code: RuleRef; param: RuleRef };
const ideasNotReady: NotReadyRules = { status: "ideas-brand-not-ready-409/status", code: "ideas-brand-not-ready-409/code", param: "ideas-brand-not-ready-409/param" };
const same = (rule: RuleId): NotReadyRules => ({ status: rule, code: rule, param: rule });
/** A failed brand is not ready either: its 409 is a case of both rules. */
const failedNotReady: NotReadyRules = { status: ["ideas-failed-brand-409", "ideas-brand-not-ready-409/status"], code: ["ideas-failed-brand-409", "ideas-brand-not-ready-409/code"], param: ["ideas-failed-brand-409", "ideas-brand-not-ready-409/param"] };
const notReady = (ctx: CheckContext, res: Parameters<typeof expectError>[1], op: OperationId, rules: NotReadyRules) =>
  expectError(ctx, res, op, 409, { statusRules: rules.status, param: "brand", paramRules: rules.param, code: "brand_not_ready", codeRules: rules.code });

/**
 * Creates a brand and at once sends `send(brand)`, while the brand is still reading. A read faster than a round
 * trip is no fault, so when the request was accepted and the brand turns out ready, it tries again with a new
 * brand (three times at most) before giving up as skipped.
 */
async function whileReading(
  ctx: CheckContext,
  op: OperationId,
  body: (brand: string) => Record<string, unknown>,
  rules: NotReadyRules,
): Promise<void> {
  for (let attempt = 1; attempt <= 3; attempt++) {
    const created = await ctx.api.post(pathOf("createBrand"), { website: ctx.slot("rest.inputs.website") });
    // The target file's website is one the target can read: a refused create breaks the seed, it is no reason to look away.
    if (created.status < 200 || created.status > 299) ctx.fail("brand-create-website-or-name-description/website", `POST /v1/brands with the target file's website answered ${created.status}: ${created.text.slice(0, 200)}`);
    if (typeof created.body?.id !== "string") ctx.fail("brand-fields-complete/id", `POST /v1/brands answered ${created.status} with no brand id: ${created.text.slice(0, 200)}`);
    // Read before its own create answer was written (a loaded machine at a fast time scale): try a new brand.
    if (created.body.status !== "reading") continue;
    const brand = created.body.id as string;
    const res = await ctx.api.send({ method: "POST", path: pathOf(op), body: body(brand), priority: true });
    if (res.status >= 200 && res.status <= 299) {
      const now = await ctx.api.get(pathOf("getBrand", { brand_id: brand }));
      if (now.body?.status === "ready") continue;
    }
    notReady(ctx, res, op, rules);
    return;
  }
  ctx.skip("each of three brands was read before the request arrived; nothing to see");
}

const conflicts: RestCheck[] = [
  {
    id: "brand-not-ready-409-reading",
    description: "POST /v1/ideas for a brand still reading answers 409 invalid_request, code brand_not_ready, param brand",
    rules: [...errorRules(409), "ideas-brand-not-ready-409"],
    group,
    needs: ["stateful"],
    run: (ctx: CheckContext) => whileReading(ctx, "createIdeas", (brand) => ({ brand }), ideasNotReady),
  },
  {
    id: "brand-not-ready-409-failed",
    description: "POST /v1/ideas for a brand whose read failed answers 409 brand_not_ready (it is not ready)",
    rules: [...errorRules(409), "ideas-failed-brand-409", "ideas-brand-not-ready-409"],
    group,
    needs: ["stateful"],
    async run(ctx: CheckContext) {
      const track = await ctx.fixtures.failingBrand(ctx.slot("rest.triggers.website_fails_read"));
      if (track.last?.status !== "failed" || !track.id) ctx.skip(`needs a failed brand: ${track.problem ?? `the brand is ${track.last?.status}`}`);
      const res = await ctx.api.post(pathOf("createIdeas"), { brand: track.id });
      notReady(ctx, res, "createIdeas", failedNotReady);
    },
  },
  {
    id: "brand-not-ready-409-predictions",
    description: "POST /v1/predictions for a brand still reading answers 409 brand_not_ready",
    rules: [...errorRules(409), "predictions-brand-not-ready-409"],
    group,
    needs: ["stateful"],
    run: (ctx: CheckContext) => whileReading(ctx, "createPrediction", (brand) => ({ brand, drafts: [{ text: "Fresh bread." }] }), same("predictions-brand-not-ready-409")),
  },
];

const limits: RestCheck[] = [
  {
    id: "rate-limit-429",
    description: "Requests beyond the rate limit answer 429 rate_limit with Retry-After in whole seconds",
    rules: [...errorRules(429), "rate-limit-429"],
    group,
    needs: ["stateful"],
    tokenless: true,
    async run(ctx: CheckContext) {
      const path = pathOf("getBrand", { brand_id: unknownId("brand_") });
      // Bursts sent side by side (this token exists to be limited), so the limit is hit even when each
      // request takes a while; a few rounds, in case a burst straddles the limit's window.
      const rounds = 5;
      const burst = 6;
      for (let round = 1; round <= rounds; round++) {
        const answers = await Promise.all(
          Array.from({ length: burst }, () => ctx.api.send({ method: "GET", path, auth: "rate-limited", retry429: false, priority: true })),
        );
        const limited = answers.find((res) => res.status === 429);
        if (limited) {
          expectError(ctx, limited, "getBrand", 429, { statusRules: "rate-limit-429", typeRules: "rate-limit-429" });
          ctx.note(`429 in burst ${round} of ${burst} requests`);
          return;
        }
        if (answers.some((res) => res.status === 401)) ctx.fail("rate-limit-429", "the rate-limited token was refused with 401 before any 429");
      }
      const tries = rounds * burst;
      ctx.fail("rate-limit-429", `no 429 after ${tries} quick requests with the rate-limited token`);
    },
  },
  {
    id: "server-error-500",
    description: "A failure on the target's side answers 500 server_error in the envelope",
    rules: [...errorRules(500), "server-error-500"],
    group,
    needs: ["stateful"],
    async run(ctx: CheckContext) {
      const brand = await ctx.fixtures.readyBrandId(ctx);
      const res = await ctx.api.post(pathOf("createIdeas"), { brand, focus: ctx.slot("rest.triggers.focus_server_error") });
      expectError(ctx, res, "createIdeas", 500, { statusRules: "server-error-500", typeRules: "server-error-500" });
    },
  },
];

export const errorChecks: RestCheck[] = [...unknownIds, ...badBodies, ...conflicts, ...limits];
