// Predictions (in development upstream): `POST /v1/predictions` ranks the caller's drafts for a ready brand at
// once. The score is deterministic: drafts that use the brand's own words (name, offerings, description) and
// keep its rules score higher, a draft breaking a `rules.never` phrase scores low; ties go to the earlier draft.
import type { CreatePredictionRequest, Prediction } from "../../generated/rest/types.js";
import { ApiError } from "./http.js";
import { unit } from "./hash.js";
import { brandView, findBrand } from "./brands.js";
import { mockModel } from "./ideas.js";
import type { State } from "./state.js";
import { check } from "./validation.js";

const words = (text: string) => new Set(text.toLowerCase().match(/[\p{L}\p{N}]{4,}/gu) ?? []);

// rule: create-prediction-200, predictions-rank-drafts, predictions-keep-caller-ids, predictions-brand-echoed, predictions-brand-not-ready-409, prediction-fields-complete, ranked-draft-fields-complete, limit-drafts, object-field-inferred-kinds/Prediction
export function createPrediction(state: State, team: string, body: Record<string, unknown>): Prediction {
  check("CreatePredictionRequest", body);
  const req: CreatePredictionRequest = body;
  const brand = brandView(state, findBrand(state, team, req.brand, "brand"));
  if (brand.status !== "ready")
    throw new ApiError(409, "invalid_request", `Brand ${brand.id} is not ready; try again when its status is ready.`, "brand", "brand_not_ready");
  const own = words([brand.name ?? "", brand.description ?? "", ...brand.offerings].join(" "));
  const never = (brand.rules.never ?? []).map((p) => p.trim().replace(/[.!]+$/, "").toLowerCase()).filter(Boolean);
  const scored = req.drafts.map((draft, index) => {
    const text = draft.text.toLowerCase();
    const draftWords = [...words(draft.text)];
    const overlap = draftWords.length ? draftWords.filter((w) => own.has(w)).length / draftWords.length : 0;
    let score = 0.25 + 0.5 * overlap + 0.2 * unit(state.seed, "prediction", brand.name, brand.description, draft.text, draft.format ?? null);
    if (never.some((p) => text.includes(p))) score *= 0.2;
    return { index, id: draft.id ?? null, score: Math.round(Math.min(1, Math.max(0, score)) * 100) / 100 };
  });
  scored.sort((a, b) => b.score - a.score || a.index - b.index);
  return {
    object: "prediction",
    model: mockModel,
    brand: brand.id,
    data: scored.map((d, i) => ({ index: d.index, id: d.id, rank: i + 1, score: d.score })),
    created_at: state.clock.iso(),
  };
}
