// The `rest-walks` check: N seeded random walks of up to K steps over the REST API (steps.ts), each judged
// after every step by the model (model.ts) and the scripted checks' assertions; run, shrunk and reported
// by the walks engine (engine.ts), shared with the MCP walks (../../mcp/walks/check.ts).
import type { RuleId } from "../../../../generated/rules.js";
import type { CheckContext, RestCheck } from "../check.js";
import { answerRulesOf, errorRulesOf } from "../expect.js";
import { runWalks, type WalkOptions } from "../../../core/walks/engine.js";
import { restWalkKind } from "./walk.js";
import type { Step } from "./steps.js";

import { restWalksId } from "../checks/walks.js";

export { restWalksId };
export { walksLine, type WalkOptions } from "../../../core/walks/engine.js";
export { defaultWalks } from "./defaults.js";

/** Rules every walk judges (each starts by creating a brand). */
const always: RuleId[] = [...answerRulesOf("Brand"), "create-brand-201", "brand-create-reading/status"];
/** Rules a walk judges when it comes to them: counted in the ledger when it did, never a skipped case when not. */
const reached: RuleId[] = ([
  ...answerRulesOf("IdeaBatch", { ideas: true }),
  ...answerRulesOf("Feedback"),
  ...answerRulesOf("Prediction"),
  ...errorRulesOf(403),
  ...errorRulesOf(404),
  ...errorRulesOf(409),
  "get-brand-200",
  "update-brand-200",
  "get-batch-200",
  "create-feedback-201",
  "create-prediction-200",
  "brand-readable-after-create",
  "batch-readable-after-create",
  "brand-create-website-or-name-description",
  "brand-create-reading",
  "brand-supplied-values-kept",
  "brand-archetype-set-rationale-null",
  "brand-without-website-null",
  "brand-terminal-stays",
  "brand-failed-stays",
  "brand-reading-to-ready/status",
  "brand-patch-partial",
  "brand-patch-lists-replaced",
  "brand-patch-website-kept",
  "ideas-accepted-202",
  "ideas-brand-not-ready-409",
  "batch-brand-matches-request",
  "batch-only-done-has-ideas",
  "batch-thinking-to-done/status",
  "batch-terminal-stays",
  "batch-failed-stays",
  "feedback-recorded",
  "feedback-outcome-recorded",
  "feedback-rejection-reason",
  "predictions-rank-drafts",
  "predictions-brand-echoed",
  "predictions-brand-not-ready-409",
  "unknown-id-404",
  "error-param-path-id",
  "error-param-names-field/idea",
  "team-isolation-403/getBrand",
  "team-isolation-403/updateBrand",
  "team-isolation-403/getIdeaBatch",
  "team-reaches-own-brands",
] satisfies RuleId[]).filter((r) => !always.includes(r));

export function restWalksCheck(o: WalkOptions<Step>): RestCheck {
  return {
    id: restWalksId,
    description: "Seeded random walks over brands, batches, feedback and predictions; every step's effects read back through every view (shrunk on failure)",
    rules: always,
    incidental: reached,
    group: "walks",
    needs: ["stateful"],
    run: (ctx: CheckContext) => runWalks(restWalkKind, ctx, o),
  };
}
