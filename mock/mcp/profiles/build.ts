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

/** Minutes a build attempt takes: 10–30 for the first, half of that (at least 5) for a restart. */
function attemptMinutes(externalId: string, websiteUrl: string, attempt: number): number {
  if (parseWebsite(websiteUrl)!.hostname.toLowerCase().includes(buildSlowMarker)) return slowBuildMinutes;
  const first = between(10, 30, "build", externalId, websiteUrl);
  return attempt === 1 ? first : Math.max(5, Math.ceil(first / 2));
}

/** Starts attempt `attempt` of a build at `now`; failures come from the website host (magic.ts). */
function startAttempt(build: Pick<BuildState, "externalId" | "websiteUrl">, attempt: number, clock: Clock): BuildState {
  const now = clock.now();
  const host = parseWebsite(build.websiteUrl)!.hostname.toLowerCase();
  const failure = buildFailureFor(host);
  const fails = failure !== undefined && (attempt === 1 || host.includes(buildFailsAlways));
  const notQueued = fails && failure === "build_not_queued";
  return {
    ...build,
    attempt,
    startedAt: now,
    endsAt: notQueued ? now : now + clock.work(attemptMinutes(build.externalId, build.websiteUrl, attempt) * minute),
    failure: fails ? failure : null,
    notQueued,
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
