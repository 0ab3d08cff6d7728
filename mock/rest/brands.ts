// Brands: create, get and update, with the lazy read lifecycle. A read (on creation, and after an update that
// changes `website`) keeps the instant it settles at (20–40 s × time scale after it starts, chosen from a hash of
// what is read); the brand is `reading` until then and `ready` or `failed` after. Nothing runs in the
// background: the outcome is worked out when the brand is looked at.
import type { Archetype, Brand, CreateBrandRequest, Rules, UpdateBrandRequest } from "../../generated/rest/types.js";
import { readDescription, readWebsite, type ReadFindings, type Supplied } from "./business.js";
import { between } from "./hash.js";
import { isPrivateHost } from "../private-address.js";
import { badRequest, forbidden, notFound } from "./http.js";
import type { BrandRecord, State } from "./state.js";

export type { BrandRecord };
import { check } from "./validation.js";

/** How long a read takes at the real service's pace (the clock scales it): 20 to 40 seconds. */
export const readDurationMs = { min: 20_000, max: 40_000 };


function startRead(state: State, brand: BrandRecord): void {
  const what = brand.website ?? [brand.supplied.name, brand.supplied.description];
  brand.read = { settlesAt: state.clock.now() + state.clock.work(between(readDurationMs.min, readDurationMs.max, state.seed, "read", what)), website: brand.website };
}

/** Finishes a read whose time has come. */
// rule: brand-reading-to-ready, brand-reading-to-failed, brand-reading-until-settled, brand-terminal-stays, brand-failed-stays
function settle(state: State, brand: BrandRecord): void {
  if (!brand.read || state.clock.now() < brand.read.settlesAt) return;
  const { website } = brand.read;
  brand.read = null;
  if (website === null) {
    brand.known = readDescription(brand.supplied.name ?? "", brand.supplied.description ?? "", brand.supplied);
    brand.settled = "ready";
    return;
  }
  const outcome = readWebsite(website, brand.supplied, state.seed);
  if (outcome.ok) {
    brand.known = outcome.findings;
    brand.settled = "ready";
  } else brand.settled = "failed";
}

/** The brand as the API shows it now. */
// rule: brand-fields-complete, brand-field-types, brand-create-reading, brand-supplied-values-kept, brand-archetype-set-rationale-null, brand-archetype-echoed, brand-without-website-null, brand-language-iso-639-1, object-field-names-kind/Brand, iso-8601-times/created_at
export function brandView(state: State, brand: BrandRecord): Brand {
  settle(state, brand);
  const { supplied, known } = brand;
  const reading = brand.read !== null;
  return {
    id: brand.id,
    object: "brand",
    status: reading ? "reading" : brand.settled,
    name: supplied.name ?? known?.name ?? null,
    website: brand.website,
    language: supplied.language ?? known?.language ?? null,
    country: supplied.country ?? known?.country ?? null,
    description: supplied.description ?? known?.description ?? null,
    offerings: reading ? [] : (known?.offerings.slice() ?? []),
    archetype: supplied.archetype
      ? { value: supplied.archetype, rationale: null }
      : known
        ? { value: known.archetype, rationale: known.rationale }
        : null,
    rules: structuredClone(brand.rules),
    created_at: new Date(brand.createdAt).toISOString(),
  };
}

/** The caller's brand; 404 when unknown (or malformed), 403 when another team's. */
// rule: unknown-id-404/brand, team-isolation-403, error-param-names-field, error-param-path-id, brand-readable-after-create, team-reaches-own-brands
export function findBrand(state: State, team: string, id: string, param: string): BrandRecord {
  const entry = /^brand_[A-Za-z0-9]+$/.test(id) ? state.brands.entry(id) : undefined;
  if (!entry) throw notFound(`No brand with id ${id}.`, param);
  if (entry.owner !== team) throw forbidden(`These credentials cannot reach ${id}.`, param);
  return entry.value;
}

function copyRules(rules: Rules): Rules {
  const out: Rules = {};
  if (rules.always !== undefined) out.always = rules.always.slice();
  if (rules.never !== undefined) out.never = rules.never.slice();
  return out;
}

/**
 * 400 for a website on a private, loopback or link-local host, judged as the MCP mock judges create_profile's
 * websiteUrl. Inferred: seed 000 does not say which websites the service refuses to read; a service that fetches
 * what callers name must not be pointed at its own network, so the reference refuses them (a real service may
 * instead fail the read).
 */
function refusePrivateWebsite(website: unknown): void {
  if (typeof website !== "string") return;
  let host: string;
  try {
    host = new URL(website).hostname;
  } catch {
    return; // not a URL: the read fails, as for any unreadable site
  }
  if (isPrivateHost(host)) throw badRequest("website must be on a public host; private, loopback and link-local addresses are refused.", "website");
}

// rule: brand-create-website-or-name-description, brand-create-needs-something-to-read, limit-description, limit-rules-entries, website-https, input-language-iso-639-1, input-language-lowercase, enum-values/archetype
export function createBrand(state: State, team: string, body: Record<string, unknown>): Brand {
  // The either-or rule first, so the error names the field that is missing.
  if (body.website === undefined) {
    if (body.name === undefined && body.description === undefined)
      throw badRequest("Send website, or name and description.", "website", "missing_field");
    if (body.name === undefined) throw badRequest("name is required when no website is sent.", "name", "missing_field");
    if (body.description === undefined)
      throw badRequest("description is required when no website is sent.", "description", "missing_field");
    check("CreateBrandFromNameAndDescription", body);
  } else check("CreateBrandFromWebsite", body);
  refusePrivateWebsite(body.website);
  const req: CreateBrandRequest = body;
  const supplied: BrandRecord["supplied"] = {};
  if (req.name !== undefined) supplied.name = req.name;
  if (req.description !== undefined) supplied.description = req.description;
  if (req.language !== undefined) supplied.language = req.language;
  if (req.country !== undefined) supplied.country = req.country;
  if (req.archetype !== undefined) supplied.archetype = req.archetype;
  const brand: BrandRecord = {
    id: state.nextId("brand"),
    createdAt: state.clock.now(),
    website: req.website ?? null,
    supplied,
    rules: copyRules(req.rules ?? {}),
    known: null,
    settled: "failed",
    read: null,
  };
  startRead(state, brand);
  state.brands.set(brand.id, team, brand);
  return brandView(state, brand);
}

// rule: brand-patch-partial, brand-patch-lists-replaced, brand-patch-website-kept, brand-patch-website-rereads
export function updateBrand(state: State, brand: BrandRecord, body: Record<string, unknown>): Brand {
  check("UpdateBrandRequest", body);
  refusePrivateWebsite(body.website);
  const req: UpdateBrandRequest = body;
  settle(state, brand);
  const s = brand.supplied;
  if (req.name !== undefined) s.name = req.name;
  if (req.description !== undefined) s.description = req.description;
  if (req.language !== undefined) s.language = req.language;
  if (req.country !== undefined) s.country = req.country;
  if (req.archetype !== undefined) s.archetype = req.archetype;
  if (req.rules !== undefined) {
    // Lists are replaced, not merged; a list not sent keeps its value.
    if (req.rules.always !== undefined) brand.rules.always = req.rules.always.slice();
    if (req.rules.never !== undefined) brand.rules.never = req.rules.never.slice();
  }
  if (req.website !== undefined && req.website !== brand.website) {
    brand.website = req.website;
    startRead(state, brand);
  }
  state.brands.remeasure(brand.id); // a PATCH can grow it in place
  return brandView(state, brand);
}
