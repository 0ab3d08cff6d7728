// Every check of the suite, in report order.
import type { Check } from "../check.js";
import { authChecks } from "./rest/auth.js";
import { batchLifecycleChecks } from "./rest/batch-lifecycle.js";
import { brandLifecycleChecks } from "./rest/brand-lifecycle.js";
import { errorChecks } from "./rest/errors.js";
import { feedbackChecks } from "./rest/feedback.js";
import { negativeChecks } from "./rest/negative.js";
import { predictionChecks } from "./rest/predictions.js";
import { shapeChecks } from "./rest/shapes.js";
import { transportChecks } from "./rest/transport.js";

export const restChecks: readonly Check[] = [
  ...shapeChecks,
  ...errorChecks,
  ...authChecks,
  ...brandLifecycleChecks,
  ...batchLifecycleChecks,
  ...feedbackChecks,
  ...predictionChecks,
  ...transportChecks,
  ...negativeChecks,
];

/** Checks whose id matches any of the patterns (a `*` matches any run of characters); all when none given. */
export function selectChecks(checks: readonly Check[], patterns: readonly string[] = []): Check[] {
  if (!patterns.length) return [...checks];
  const res = patterns.map((p) => new RegExp(`^${p.split("*").map((s) => s.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join(".*")}$`));
  return checks.filter((c) => res.some((re) => re.test(c.id)));
}
