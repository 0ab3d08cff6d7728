// The REST model: what seed 000 fixes about the state each view shows, and nothing the reference chooses.
// For each brand: the values the caller sent (each with the rule that fixes it: kept since the create, or
// changed by a PATCH), the website (compared as a URL: a target may normalise it), the rules lists (replaced,
// never merged), and once seen settled, a terminal status and what the read filled in, which must not move
// while nothing new is sent. For each batch: its brand, and once seen done or failed, the whole batch, which
// must stay exactly so. Every prediction names its rule of spec/rules/rest.yaml; answers are judged by the
// same assertions as the scripted checks (expect.ts). Kept values are compared as the seed means them
// (conformance/suites/rest/kept.ts): a website as a URL, a country in any ISO 3166-1 form, objects by their documented members.
import { isDeepStrictEqual } from "node:util";
import type { CheckContext } from "../check.js";
import { documented, sameCountry, sameLanguage, sameUrl } from "../kept.js";
import type { BrandFields } from "./steps.js";

const show = (v: unknown) => JSON.stringify(v);

/** A value the target must show, and the rule that fixes it. */
export interface Fixed<T> {
  value: T;
  rule: string;
}

export const scalarFields = ["name", "description", "language", "country", "archetype"] as const;
export type ScalarField = (typeof scalarFields)[number];
export const lists = ["always", "never"] as const;
export type ListName = (typeof lists)[number];

export interface BrandModel {
  label: string;
  id: string;
  /** Values the caller sent, as the brand must show them. */
  supplied: Partial<Record<ScalarField, Fixed<string>>>;
  website: Fixed<string | null>;
  lists: Partial<Record<ListName, Fixed<string[]>>>;
  /** Seen ready or failed, with no new website sent since: the status may not move. */
  terminal?: "ready" | "failed";
  /** What the read filled in (fields not supplied, offerings, created_at), seen once ready: it may not move. */
  read?: Record<string, unknown>;
  /** A new website was sent: when its re-read ends is not shown (a target may show ready meanwhile), so what the read fills in is no longer fixed. */
  reread?: boolean;
}

export interface BatchModel {
  label: string;
  id: string;
  brandId: string;
  /** Seen done or failed: the whole batch (its documented members) may not change. */
  terminal?: any;
}

const shown = (body: any, field: ScalarField) => (field === "archetype" ? body?.archetype?.value : body?.[field]);

/** A brand made by a create answer: everything sent is fixed as kept. */
export function brandFromCreate(label: string, id: string, website: string | undefined, body: BrandFields): BrandModel {
  const model: BrandModel = {
    label,
    id,
    supplied: {},
    website: { value: website ?? null, rule: website === undefined ? "brand-without-website-null" : "brand-supplied-values-kept/website" },
    lists: {},
  };
  for (const f of scalarFields) if (body[f] !== undefined) model.supplied[f] = { value: body[f]!, rule: `brand-supplied-values-kept/${f}` };
  for (const l of lists) if (body.rules?.[l] !== undefined) model.lists[l] = { value: [...body.rules[l]!], rule: "brand-supplied-values-kept/rules" };
  return model;
}

/**
 * What a PATCH fixes: each field sent now shows what was sent (a list exactly, replaced), and a new website
 * starts a new read (status and read findings are open again). Returns the fields sent, for attribution.
 */
export function applyPatch(model: BrandModel, website: string | undefined, body: BrandFields): string[] {
  const sent: string[] = [];
  for (const f of scalarFields)
    if (body[f] !== undefined) {
      model.supplied[f] = { value: body[f]!, rule: `brand-patch-partial/${f}` };
      if (model.read) delete model.read[f];
      sent.push(f);
    }
  for (const l of lists)
    if (body.rules?.[l] !== undefined) {
      model.lists[l] = { value: [...body.rules[l]!], rule: `brand-patch-lists-replaced/${l}` };
      if (!sent.includes("rules")) sent.push("rules");
    }
  if (website !== undefined) {
    if (!sameUrl(website, model.website.value)) {
      delete model.terminal;
      delete model.read;
      model.reread = true;
    }
    model.website = { value: website, rule: "brand-patch-website-kept" };
    sent.push("website");
  }
  return sent;
}

export type BrandView = "create" | "patch" | "get";

/**
 * Judges a brand the target showed against the model, then learns from it (a settled status, what the read
 * filled in). `patched`: the fields the PATCH this answers sent (a read finding that moves on a PATCH breaks
 * brand-patch-partial for them). `cause`: the rule every difference breaks instead (another team's refused PATCH).
 * A PATCH answer, whose body the seed does not show, is judged on the members it holds.
 */
export function judgeBrand(ctx: CheckContext, model: BrandModel, body: any, view: BrandView, where: string, opts: { patched?: string[]; cause?: string } = {}): void {
  if (!body || typeof body !== "object") return;
  const rule = (r: string) => opts.cause ?? r;
  const has = (k: string) => view !== "patch" || k in body;
  if (view === "get") ctx.expect(body.id === model.id, "brand-readable-after-create", `${where}: GET of brand ${model.id} answered brand ${show(body.id)}`);
  const status = body.status;
  if (view === "create") ctx.expect(status === "reading", "brand-create-reading/status", `${where}: a new brand is ${show(status)}, expected reading`);
  else if (!has("status")) void 0;
  else if (model.terminal === "ready") ctx.expect(status === "ready", rule("brand-terminal-stays"), `${where}: brand ${model.label} was seen ready and no new website was sent since, now it is ${show(status)}`);
  else if (model.terminal === "failed") ctx.expect(status === "failed", rule("brand-failed-stays"), `${where}: brand ${model.label} was seen failed, now it is ${show(status)}`);
  // A failed read is the seed's only way to failed, and its remedy is a brand made from a name and a description.
  if (model.website.value === null && has("status"))
    ctx.expect(status !== "failed", rule("brand-create-website-or-name-description/name_and_description"), `${where}: brand ${model.label} has no website to read (made from a name and a description), yet it is failed`);

  for (const f of scalarFields) {
    const fixed = model.supplied[f];
    if (fixed && has(f)) ctx.expect(f === "country" ? sameCountry(fixed.value, body[f]) : f === "language" ? sameLanguage(fixed.value, body[f]) : shown(body, f) === fixed.value, rule(fixed.rule), `${where}: ${f} is ${show(body[f])}, expected ${show(fixed.value)} as sent`);
  }
  if (model.supplied.archetype && has("archetype"))
    ctx.expect(body.archetype?.rationale === null, rule("brand-archetype-set-rationale-null"), `${where}: archetype is ${show(body.archetype)}, expected rationale null (set by the caller)`);
  if (has("website")) ctx.expect(model.website.value === null ? body.website === null : sameUrl(body.website, model.website.value), rule(model.website.rule), `${where}: website is ${show(body.website)}, expected ${show(model.website.value)}`);
  for (const l of lists) {
    const fixed = model.lists[l];
    if (fixed && has("rules"))
      ctx.expect(
        isDeepStrictEqual(body.rules?.[l], fixed.value),
        rule(fixed.rule),
        `${where}: rules.${l} is ${show(body.rules?.[l])}, expected exactly ${show(fixed.value)} (${fixed.rule.startsWith("brand-patch") ? "a list sent in a PATCH replaces the old one" : "as sent when created"})`,
      );
  }
  if (view === "create") {
    for (const f of ["name", "language", "description", "archetype"] as const)
      if (!model.supplied[f]) ctx.expect(body[f] === null, `brand-create-reading/${f}`, `${where}: ${f} is ${show(body[f])} before the site was read, expected null`);
    ctx.expect(isDeepStrictEqual(body.offerings, []), "brand-create-reading/offerings", `${where}: offerings is ${show(body.offerings)} before the site was read, expected []`);
  }
  // What the read filled in stays while nothing new is sent to the brand (a PATCH changes only what it sends).
  if (model.terminal === "ready" && model.read && status === "ready") {
    const now = documented("Brand", body) as Record<string, unknown>;
    const moved = Object.keys(model.read).filter((k) => has(k) && !isDeepStrictEqual(now[k], model.read![k]));
    const rules = view === "patch" && opts.patched?.length ? opts.patched.filter((f) => f !== "website").map((f) => `brand-patch-partial/${f}`) : ["brand-terminal-stays"];
    ctx.expect(
      moved.length === 0,
      opts.cause ? [opts.cause] : rules.length ? rules : ["brand-terminal-stays"],
      `${where}: ${moved.map((k) => `${k} moved from ${show(model.read![k])} to ${show(now[k])}`).join("; ")}, though nothing sent changes ${moved.length === 1 ? "it" : "them"}`,
    );
  }
  learnBrand(model, body, view);
}

function learnBrand(model: BrandModel, body: any, view: BrandView): void {
  if (view === "create" || (body.status !== "ready" && body.status !== "failed")) return;
  model.terminal = body.status;
  if (body.status === "ready" && !model.read && !model.reread) {
    const b = documented("Brand", body) as Record<string, unknown>;
    const read: Record<string, unknown> = { offerings: b.offerings, created_at: b.created_at };
    for (const f of scalarFields) if (!model.supplied[f]) read[f] = b[f];
    model.read = structuredClone(read);
  }
}

/** Judges a batch the target showed (GET) against the model, then learns a terminal state from it. */
export function judgeBatch(ctx: CheckContext, model: BatchModel, body: any, where: string): void {
  if (!body || typeof body !== "object") return;
  ctx.expect(body.id === model.id, "batch-readable-after-create", `${where}: GET of batch ${model.id} answered batch ${show(body.id)}`);
  ctx.expect(body.brand === model.brandId, "batch-brand-matches-request", `${where}: brand is ${show(body.brand)}, expected ${show(model.brandId)}`);
  if (model.terminal) {
    const was = model.terminal.status;
    const now = documented("IdeaBatch", body) as Record<string, unknown>;
    const changed = Object.keys({ ...model.terminal, ...now }).filter((k) => !isDeepStrictEqual(now[k], model.terminal[k]));
    ctx.expect(
      changed.length === 0,
      was === "failed" ? "batch-failed-stays" : "batch-terminal-stays",
      `${where}: batch ${model.label} was seen ${was}; now ${changed.map((k) => (k === "data" ? "its ideas changed" : `${k} ${show(model.terminal[k])} → ${show(now[k])}`)).join(", ")}`,
    );
    return;
  }
  if (body.status === "thinking")
    ctx.expect(
      isDeepStrictEqual(body.data, []) && body.done_at === null,
      "batch-only-done-has-ideas",
      `${where}: batch ${model.label} is thinking with data ${show(body.data)?.slice(0, 120)} and done_at ${show(body.done_at)}; expected [] and null`,
    );
  if (body.status === "done" || body.status === "failed") model.terminal = structuredClone(documented("IdeaBatch", body));
}
