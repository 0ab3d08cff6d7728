// Every check of the REST suite, in report order, each judging every reply it gets (replies.ts).
import type { RestCheck } from "../check.js";
import { judgingReplies } from "../replies.js";
import { defaultWalks, restWalksCheck } from "../walks/check.js";
import { authChecks } from "./auth.js";
import { authenticationChecks } from "./authentication.js";
import { batchLifecycleChecks } from "./batch-lifecycle.js";
import { brandLifecycleChecks } from "./brand-lifecycle.js";
import { errorChecks } from "./errors.js";
import { feedbackChecks } from "./feedback.js";
import { edgeChecks } from "./edges.js";
import { negativeChecks } from "./negative.js";
import { predictionChecks } from "./predictions.js";
import { shapeChecks } from "./shapes.js";
import { transportChecks } from "./transport.js";

export const restChecks: readonly RestCheck[] = [
  ...shapeChecks,
  ...authenticationChecks,
  ...errorChecks,
  ...authChecks,
  ...brandLifecycleChecks,
  ...batchLifecycleChecks,
  ...feedbackChecks,
  ...predictionChecks,
  ...transportChecks,
  ...negativeChecks,
  ...edgeChecks,
  // Its options (count, length, seed, replay) come from the run: runConformance puts in the run's own.
  restWalksCheck({ ...defaultWalks, seed: "set-by-the-run" }),
].map(judgingReplies);

