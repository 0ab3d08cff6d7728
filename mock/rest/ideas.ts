// Idea batches: `POST /v1/ideas` answers 202 with a batch `thinking`; the batch keeps the instant it settles
// at (2–6 minutes later, chosen from a hash of the brand's id and the request) and is `done` or `failed` when looked
// at after that. The ideas are written from a snapshot of the brand taken when the batch was asked for, so a
// later update of the brand does not change a batch; they are rewritten (deterministically) on every read
// instead of being stored.
import type { IdeaBatch, IdeaFormat, CreateIdeasRequest } from "../../generated/rest/types.js";
import { formatDay, isRealDay, parseDay } from "./calendar.js";
import { between } from "./hash.js";
import { ApiError, badRequest, forbidden, notFound } from "./http.js";
import { writeIdeas, type BrandSnapshot, type IdeaRequest, type WrittenIdea } from "./idea-writer.js";
import { brandView, findBrand } from "./brands.js";
import { focusFailsBatch, focusServerError } from "./magic.js";
import type { BatchRecord, BrandRecord, State } from "./state.js";

export type { BatchRecord };
import { check } from "./validation.js";

/** The name the mock answers in `model`. */
export const mockModel = "ideas-reference-mock-1";
/** How long a batch thinks, at the real service's pace (the clock scales it): 2 to 6 minutes. */
export const batchDurationMs = { min: 120_000, max: 360_000 };
/** How far ahead `date` may be. */
export const dateHorizonDays = 45;
export const batchFailure = "The model did not answer in time. Ask for a new batch.";


// rule: ideas-brand-not-ready-409, ideas-failed-brand-409, error-type-per-status/409
const brandNotReady = (id: string, status: string) =>
  new ApiError(
    409,
    "invalid_request",
    status === "failed"
      ? `Brand ${id} could not be read; create it again with name and description.`
      : `Brand ${id} is still being read; try again when its status is ready.`,
    "brand",
    "brand_not_ready",
  );

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);
const sameSnapshot = (a: BrandSnapshot, b: BrandSnapshot) =>
  a.name === b.name && a.website === b.website && a.description === b.description && a.language === b.language && a.country === b.country &&
  a.archetype === b.archetype && sameList(a.offerings, b.offerings) && sameList(a.rules.always, b.rules.always) && sameList(a.rules.never, b.rules.never);

/**
 * The brand's last snapshot when this one equals it: batches asked of an unchanged brand share one (read-only)
 * object, so a team's 10,000 batches keep one copy of the brand rather than 10,000 (the copies were most of a
 * batch's memory and of the garbage collector's work under load).
 */
const lastSnapshot = new WeakMap<BrandRecord, BrandSnapshot>();
function shared(record: BrandRecord, snapshot: BrandSnapshot): BrandSnapshot {
  const last = lastSnapshot.get(record);
  if (last && sameSnapshot(last, snapshot)) return last;
  lastSnapshot.set(record, snapshot);
  return snapshot;
}

// rule: ideas-accepted-202, formats-accepted, limit-count, count-whole-number, limit-focus, limit-date-horizon, date-format, date-not-in-past, enum-values/formats, server-error-500, batch-count-respected
export function createBatch(state: State, team: string, body: Record<string, unknown>): IdeaBatch {
  check("CreateIdeasRequest", body);
  const req: CreateIdeasRequest = body;
  const now = state.clock.now();
  const todayText = formatDay(now);
  const day = req.date ?? todayText;
  if (req.date !== undefined && !isRealDay(day)) throw badRequest("date must be a real day written YYYY-MM-DD.", "date");
  const ahead = req.date === undefined ? 0 : Math.round((parseDay(day) - parseDay(todayText)) / 86_400_000);
  if (ahead < 0) throw badRequest(`date must not be in the past (today is ${todayText}).`, "date");
  if (ahead > dateHorizonDays) throw badRequest(`date must be at most ${dateHorizonDays} days ahead.`, "date");

  const record = findBrand(state, team, req.brand, "brand");
  const brand = brandView(state, record);
  if (brand.status !== "ready") throw brandNotReady(brand.id, brand.status);
  if (focusServerError(req.focus)) throw new ApiError(500, "server_error", "Something went wrong on our side; please try again.");

  const snapshot = shared(record, {
    name: brand.name ?? "",
    website: brand.website,
    description: brand.description ?? "",
    offerings: brand.offerings,
    language: brand.language ?? "en",
    country: brand.country,
    archetype: brand.archetype?.value ?? "everyman",
    rules: { always: brand.rules.always ?? [], never: brand.rules.never ?? [] },
  });
  const request: IdeaRequest = {
    count: req.count ?? 3,
    formats: [...new Set<IdeaFormat>(req.formats ?? [])],
    focus: req.focus ?? null,
    date: day,
  };
  const batch: BatchRecord = {
    id: state.nextId("batch"),
    brandId: brand.id,
    createdAt: now,
    settlesAt: now + state.clock.work(between(batchDurationMs.min, batchDurationMs.max, state.seed, "batch", brand.id, request)),
    fails: focusFailsBatch(req.focus),
    brand: snapshot,
    request,
  };
  state.batches.set(batch.id, team, batch);
  return batchView(state, batch);
}

/** The id of the idea at a rank of a batch: the batch's letters and the rank in two digits. */
export const ideaId = (batchId: string, rank: number) => `idea_${batchId.slice("batch_".length)}${String(rank).padStart(2, "0")}`;

/** The batch id and rank an idea id points to, or null when it is not an idea id. */
export function parseIdeaId(id: string): { batchId: string; rank: number } | null {
  const m = /^idea_([A-Za-z0-9]+)([0-9]{2})$/.exec(id);
  return m ? { batchId: `batch_${m[1]}`, rank: Number(m[2]) } : null;
}

function written(state: State, batch: BatchRecord): { ideas: WrittenIdea[]; leftOut: string[] } {
  return writeIdeas(batch.brand, batch.request, state.seed);
}

// rule: batch-fields-complete, batch-field-types, batch-thinking-to-done, batch-thinking-to-failed, batch-only-done-has-ideas, batch-failed-no-ideas, batch-error-null-unless-failed, batch-ranks-ordered, batch-model-named, batch-brand-matches-request, batch-done-at-after-created, batch-created-after-brand, batch-terminal-stays, batch-failed-stays, batch-readable-after-create, object-field-names-kind/IdeaBatch, object-field-names-kind/Idea, iso-8601-times
export function batchView(state: State, batch: BatchRecord): IdeaBatch {
  if (state.clock.now() < batch.settlesAt) return viewOf(batch, "thinking", [], [], null, null);
  if (batch.fails) return viewOf(batch, "failed", [], [], batchFailure, null);
  const { ideas, leftOut } = written(state, batch);
  const data = ideas.map((idea, i) => ({ id: ideaId(batch.id, i + 1), object: "idea" as const, rank: i + 1, ...idea }));
  return viewOf(batch, "done", data, leftOut, null, new Date(batch.settlesAt).toISOString());
}

/**
 * The batch's fields in the contract's order, as one literal: `{ ...base, status, … }` makes V8 copy `base`
 * property by property (a few µs; it was a fifth of `POST /v1/ideas` when profiled).
 */
function viewOf(batch: BatchRecord, status: IdeaBatch["status"], data: IdeaBatch["data"], leftOut: string[], error: string | null, doneAt: string | null): IdeaBatch {
  return {
    id: batch.id,
    object: "idea_batch",
    model: mockModel,
    brand: batch.brandId,
    created_at: new Date(batch.createdAt).toISOString(),
    status,
    data,
    left_out: leftOut,
    error,
    done_at: doneAt,
  };
}

// rule: unknown-id-404/batch, team-isolation-403/getIdeaBatch, error-param-path-id
export function findBatch(state: State, team: string, id: string): BatchRecord {
  const entry = /^batch_[A-Za-z0-9]+$/.test(id) ? state.batches.entry(id) : undefined;
  if (!entry) throw notFound(`No batch with id ${id}.`, "batch_id");
  if (entry.owner !== team) throw forbidden(`These credentials cannot reach ${id}.`, "batch_id");
  return entry.value;
}

/** The idea with that id in a `done` batch, with the team owning it; undefined when there is none. */
export function lookupIdea(state: State, id: string): { team: string; batch: BatchRecord } | undefined {
  const ref = parseIdeaId(id);
  if (!ref) return undefined;
  const entry = state.batches.entry(ref.batchId);
  if (!entry) return undefined;
  const view = batchView(state, entry.value);
  if (view.status !== "done" || ref.rank < 1 || ref.rank > view.data.length) return undefined;
  return { team: entry.owner, batch: entry.value };
}
