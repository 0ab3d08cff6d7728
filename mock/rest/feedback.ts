// Feedback: `POST /v1/feedback` records what happened to an idea (posted, saved, rejected with an optional
// reason such as `wrong_language`) and keeps it with the idea's brand. The mock stores it (bounded) and does
// not let it change later ideas, so batches stay deterministic.
import type { CreateFeedbackRequest, Feedback } from "../../generated/rest/types.js";
import { badRequest, forbidden, notFound } from "./http.js";
import { lookupIdea } from "./ideas.js";
import type { State } from "./state.js";
import { check } from "./validation.js";

const variants = {
  posted: "PostedFeedbackRequest",
  saved: "SavedFeedbackRequest",
  rejected: "RejectedFeedbackRequest",
} as const;

// rule: create-feedback-201, feedback-recorded, feedback-outcome-recorded, feedback-wrong-language, feedback-rejection-reason, feedback-reason-only-on-rejection, feedback-fields-complete, inferred-enum-values/outcome, inferred-enum-values/reason, unknown-id-404/idea, team-isolation-403/createFeedback, object-field-inferred-kinds/Feedback, id-prefixes/FeedbackId
export function createFeedback(state: State, team: string, body: Record<string, unknown>): Feedback {
  // Pick the variant by `outcome` so errors name the field, not the union.
  if (body.outcome === undefined) throw badRequest("outcome is required.", "outcome", "missing_field");
  // Own keys only: `constructor`, `toString` or `__proto__` must not pass as an outcome.
  if (typeof body.outcome !== "string" || !Object.hasOwn(variants, body.outcome))
    throw badRequest(`outcome must be one of ${Object.keys(variants).join(", ")}.`, "outcome");
  const outcome = body.outcome as keyof typeof variants;
  // A reason with another outcome is refused by the variant's schema (`reason` may only be null there).
  check(variants[outcome], body);
  const req: CreateFeedbackRequest = body;
  const found = lookupIdea(state, req.idea);
  if (!found) throw notFound(`No idea with id ${req.idea}.`, "idea");
  if (found.team !== team) throw forbidden(`These credentials cannot reach ${req.idea}.`, "idea");
  const record: Feedback = {
    id: state.nextId("fb"),
    object: "feedback",
    idea: req.idea,
    brand: found.batch.brandId,
    outcome: req.outcome,
    reason: req.outcome === "rejected" ? (req.reason ?? null) : null,
    comment: req.comment ?? null,
    created_at: state.clock.iso(),
  };
  state.feedback.set(record.id, team, record);
  return record;
}
