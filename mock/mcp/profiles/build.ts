// The background build of a profile made by create_profile, and the create_profile tool. A build's status is
// read off the clock: building until endsAt, then ready or failed with the attempt's failure code.
import { ToolError, type ToolContext } from "../context.js";
import type { Clock } from "../../clock.js";
import { between } from "../../rest/hash.js";
import type { CreateProfileOutput } from "../../../generated/mcp/types.js";
import { minute, slugify } from "./ids.js";
import { buildFailsAlways, buildFailureFor, buildSlowMarker, externalBillingMarker, slowBuildMinutes, websiteRefusal } from "./magic.js";
import { defaultAiAllowance } from "./fixtures.js";
import { requirePartner, type BrandState, type BuildState, type ProfilesStore } from "./store.js";

export type BuildView = { status: "building" | "ready" } | { status: "failed"; error: string };

/** Where a build stands at `now`. */
// rule: build-completes build-fails build-failure-codes
export function buildStatus(build: BuildState, now: number): BuildView {
  if (build.notQueued) return { status: "failed", error: "build_not_queued" };
  if (now < build.endsAt) return { status: "building" };
  return build.failure ? { status: "failed", error: build.failure } : { status: "ready" };
}

/** The build status a BrandRecord reports: null for a brand that was never built. */
export function brandBuildStatus(brand: BrandState, now: number): "building" | "ready" | "failed" | null {
  return brand.build ? buildStatus(brand.build, now).status : null;
}

/** Parses a website as the gateway would: a bare domain is accepted (https assumed). */
export function parseWebsite(raw: string): URL | null {
  const text = raw.trim();
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`;
  try {
    const url = new URL(withScheme);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname ? url : null;
  } catch {
    return null;
  }
}

/** Minutes a whole build takes: 10–30 (the seed's "usually"), or slowBuildMinutes for a slow-marked host. */
function buildMinutes(externalId: string, websiteUrl: string): number {
  if (parseWebsite(websiteUrl)!.hostname.toLowerCase().includes(buildSlowMarker)) return slowBuildMinutes;
  return between(10, 30, "build", externalId, websiteUrl);
}

/**
 * How far into the build's work (a share of it) each failure code stops it: the build reads the website, analyses
 * it, then enriches the profile, so a failure comes at its step, not at the end. An interruption may come anywhere.
 */
const stopsAt: Record<string, (externalId: string, websiteUrl: string) => number> = {
  website_unreachable: () => 0.1,
  analysis_failed: () => 0.3,
  enrichment_failed: () => 0.6,
  build_interrupted: (externalId, websiteUrl) => between(1, 9, "build-interrupted", externalId, websiteUrl) / 10,
};

/**
 * Starts attempt `attempt` of a build at `now`; failures come from the website host (magic.ts). A failing attempt
 * stops at its failure's step; a restart resumes where the last attempt stopped ("restarts where it stopped"), so
 * a failed and restarted build does the same work as one that never failed. A restart that fails again (a
 * fail-always host) stops after a minute of retrying the same step.
 */
function startAttempt(build: Pick<BuildState, "externalId" | "websiteUrl"> & { doneMinutes?: number }, attempt: number, clock: Clock): BuildState {
  const now = clock.now();
  const host = parseWebsite(build.websiteUrl)!.hostname.toLowerCase();
  const failure = buildFailureFor(host);
  const fails = failure !== undefined && (attempt === 1 || host.includes(buildFailsAlways));
  const notQueued = fails && failure === "build_not_queued";
  const total = buildMinutes(build.externalId, build.websiteUrl);
  const done = build.doneMinutes ?? 0;
  const stop = (stopsAt[failure ?? ""] ?? (() => 0.5))(build.externalId, build.websiteUrl);
  const minutes = notQueued ? 0 : !fails ? Math.max(0, total - done) : attempt === 1 ? Math.max(1, Math.round(total * stop)) : 1;
  return {
    externalId: build.externalId,
    websiteUrl: build.websiteUrl,
    attempt,
    startedAt: now,
    endsAt: now + clock.work(minutes * minute),
    failure: fails ? failure : null,
    notQueued,
    doneMinutes: done + minutes,
  };
}

function answer(brand: BrandState, created: boolean, now: number): CreateProfileOutput {
  return { brandId: brand.id, companyId: brand.companyId, ...buildStatus(brand.build!, now), created };
}

// rule: create-profile-building create-profile-output-fields create-profile-idempotent create-profile-bare-domain failed-build-retried-by-repeat website-refused website-refusal-reason create-profile-not-queued
export function createProfile(store: ProfilesStore, args: Record<string, any>, ctx: ToolContext): CreateProfileOutput {
  requirePartner(ctx.principal);
  const now = ctx.clock.now();
  const { websiteUrl, name, externalId } = args as { websiteUrl: string; name: string; externalId: string };
  const key = `${ctx.principal.tenant}\n${externalId}`;

  // A repeat answers with the first call's profile whatever else it sends, and never makes a second workspace:
  // not while the first is being erased, nor once it is erased or forgotten by the cap (then with its ids and
  // the build as it last stood; get_profile says not_found). Only a failed build of a live profile restarts.
  const made = store.externalIds.get(key);
  if (made) {
    const brand = store.brands.get(made.brandId);
    if (brand && !store.workspaceOf(brand).deletion && buildStatus(brand.build!, now).status === "failed") {
      brand.build = startAttempt(brand.build!, brand.build!.attempt + 1, ctx.clock);
    }
    if (brand) made.build = brand.build!;
    return { brandId: made.brandId, companyId: made.companyId, ...buildStatus(made.build, now), created: false };
  }

  const url = parseWebsite(websiteUrl);
  if (!url) {
    throw new ToolError("bad_request", "websiteUrl is not a web address.", {
      invalidFields: ["websiteUrl"],
      fieldErrors: [{ field: "websiteUrl", message: "Give the client's website as a domain or an http(s) address." }],
    });
  }
  const refusal = websiteRefusal(url.hostname);
  if (refusal) {
    const why: Record<typeof refusal, string> = {
      BLOCKED_DOMAIN: "is a social or platform address, not the client's own website",
      URL_NOT_REACHABLE: "does not resolve or refused the connection",
      URL_NOT_ALLOWED: "points at a private network address",
      URL_UNSAFE: "is flagged as harmful",
      unknown: "was refused",
    };
    throw new ToolError("invalid_website_url", `The website ${url.hostname} ${why[refusal]}; nothing was created.`, refusal === "unknown" ? {} : { websiteRefusal: refusal });
  }

  const companyId = store.nextId("workspace");
  const slug = slugify(name);
  store.addWorkspace({
    id: companyId,
    tenant: ctx.principal.tenant,
    kind: "partner",
    name,
    slug,
    role: "ADMIN",
    membershipType: "PRO",
    externalBilling: externalId.includes(externalBillingMarker),
    brandIds: [],
    ai: { allowance: defaultAiAllowance, used: 0, period: "" },
    deactivation: null,
    deletion: null,
  });
  const brand: BrandState = {
    id: store.nextId("brand"),
    companyId,
    name,
    slug,
    isActive: true,
    hasBrandProfile: true,
    defaultPlatform: null,
    channels: [],
    build: startAttempt({ externalId, websiteUrl: url.href }, 1, ctx.clock),
    style: { palette: [], designStyle: { colorRoles: { primary: null, secondary: null, accent: null, background: null, text: null }, fonts: { heading: null, body: null } }, fontLibrary: [], logos: [], currentLogoId: null },
  };
  store.addBrand(brand);
  store.externalIds.set(key, ctx.principal.tenant, { brandId: brand.id, companyId, build: brand.build! });
  // A partner keeps its newest clients only: the oldest beyond the cap are forgotten whole.
  for (const old of store.clientsOverCap(ctx.principal.tenant)) {
    for (const id of old.brandIds) ctx.posts.erase(id);
    store.forget(old);
  }
  return answer(brand, true, now);
}
