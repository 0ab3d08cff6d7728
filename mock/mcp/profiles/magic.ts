// Magic inputs of the profiles domain, as data: each rule below is both what the handlers consult and a row
// of the table the README shows. Nothing here ever touches the network: hosts are judged by their names only.
import { catalogue } from "../../../generated/mcp/errors.js";

/** One row of the magic-inputs table. */
export interface MagicInput {
  tool: string;
  input: string;
  /** What the mock looks for (substring, suffix or exact value). */
  match: string;
  effect: string;
}

/** Social and platform hosts refused as a client's website (BLOCKED_DOMAIN); subdomains included. */
export const socialHosts = [
  "instagram.com", "facebook.com", "fb.com", "tiktok.com", "linkedin.com", "x.com", "twitter.com",
  "youtube.com", "pinterest.com", "threads.net", "linktr.ee",
] as const;

/** Build outcomes chosen by a substring of the website's host (first match wins). */
export const buildMagic = [
  { hostContains: "fail-queue", failure: "build_not_queued", note: "create_profile answers status failed at once (the build could not start)" },
  { hostContains: "fail-unreachable", failure: "website_unreachable", note: "the build stops a tenth of the way in (reading the website)" },
  { hostContains: "fail-analysis", failure: "analysis_failed", note: "the build stops 30% of the way in (analysis)" },
  { hostContains: "fail-enrichment", failure: "enrichment_failed", note: "the build stops 60% of the way in (enrichment)" },
  { hostContains: "fail-interrupted", failure: "build_interrupted", note: "the build stops 10–90% of the way in" },
] as const;

/**
 * Host marker `fail-code-<code>`: the first build fails with that build failure code of the catalogue (the
 * conformance slot website_fails_build_code provokes each code with it). build_not_queued fails at once.
 */
export const buildFailsWithCode = "fail-code-";
const buildFailureCodes = catalogue.filter((e) => e.kind === "build_failure").map((e) => e.code);

/** The failure code a website host asks for (buildMagic first, then fail-code-<code>), or undefined. */
// rule: build-failure-codes
export function buildFailureFor(host: string): string | undefined {
  const named = buildMagic.find((m) => host.includes(m.hostContains));
  if (named) return named.failure;
  return buildFailureCodes.find((code) => host.includes(`${buildFailsWithCode}${code}.`) || host.endsWith(`${buildFailsWithCode}${code}`));
}

/**
 * Host marker: the build takes 1,000 minutes (× time scale) instead of 10–30, so a caller sees it building for the
 * whole of a conformance run (slot website_builds_slowly).
 */
export const buildSlowMarker = "build-slow";
export const slowBuildMinutes = 1000;

/** With this in the host as well, every restart fails again (otherwise a restart succeeds). */
export const buildFailsAlways = "fail-always";

/** externalId substring: the new workspace pays for its own plan (deactivate/delete → external_billing_workspace). */
export const externalBillingMarker = "external-billing";

/** A hex colour in addColors or colorRoles that makes update_brand_style collide with a concurrent save. */
export const busyColor = "#BEEBEE";

/** sourceUrl substrings of upload_brand_logo (checked after the https and public-address rules). */
export const logoMagic = [
  { contains: "busy", code: "design_style_busy", note: "a concurrent save of the design style" },
  { contains: "tiny", code: "logo_unreadable", note: "image smaller than 16 px on a side" },
  { contains: "broken", code: "logo_unreadable", note: "not an image" },
  { contains: "infected", code: "logo_unreadable", note: "fails the upload scan" },
] as const;

/** ?account= values on a connect link that make the connect fail (the link is used up all the same). */
export const accountMagic = [
  { account: "denied", error: "oauth_denied" },
  { account: "taken", error: "account_in_another_workspace" },
  { account: "broken", error: "connection_failed" },
] as const;

/**
 * ?account= value that connects, but whose provider cannot be reached when the account's state is checked: the
 * profile shows blocker connection_check_failed and list_brands publishReadiness unknown (the channel keeps its
 * last known health).
 */
export const unreachableAccount = "unreachable";

/** Channels a connect link can target, with the kind of option a headless connect binds to (null: none). */
export const connectChannels = {
  instagram: null,
  facebook: "page",
  linkedin: "organization",
  tiktok: null,
  pinterest: "board",
  google_business: "location",
  youtube: null,
  threads: null,
} as const satisfies Record<string, string | null>;
export type ConnectChannel = keyof typeof connectChannels;

/** A connectToken whose session has expired, for any brand the caller reaches (connect_session_expired). */
export const expiredConnectToken = "conformance-expired-connect-session";

/** Channels that connect only through the hosted page (create_connect_link with returnUrl → headless_connect_unavailable). */
export const hostedOnlyChannels: readonly ConnectChannel[] = ["threads"];

/** Public font families (besides each brand's own font library). */
export const publicFonts = [
  "Inter", "Roboto", "Lato", "Montserrat", "Playfair Display", "Open Sans", "Poppins", "Merriweather",
  "Oswald", "Raleway", "Nunito", "Work Sans", "DM Sans", "Source Serif 4", "Libre Baskerville",
] as const;

const ipv4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/** Loopback, private, link-local and internal host names (judged by name, never resolved). */
export function isPrivateHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, "").replace(/\.$/, "");
  if (host === "localhost" || host.endsWith(".localhost") || host.endsWith(".local") || host.endsWith(".internal")) return true;
  if (host === "::" || host === "::1" || /^f[cd][0-9a-f]{2}:/.test(host) || /^fe80:/.test(host) || host.startsWith("::ffff:")) return true;
  const m = ipv4.exec(host);
  if (!m) return false;
  const [a, b] = [Number(m[1]), Number(m[2])];
  return a === 0 || a === 10 || a === 127 || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127);
}

export type WebsiteRefusal = "BLOCKED_DOMAIN" | "URL_NOT_REACHABLE" | "URL_UNSAFE" | "URL_NOT_ALLOWED";

/** Why a website host is refused: a websiteRefusal value, "unknown" (refused, reason not given), or null (accepted). */
// rule: website-refusal-reason website-refusal-unsafe website-refusal-unknown-left-out
export function websiteRefusal(hostname: string): WebsiteRefusal | "unknown" | null {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  if (socialHosts.some((s) => host === s || host.endsWith(`.${s}`))) return "BLOCKED_DOMAIN";
  if (isPrivateHost(host)) return "URL_NOT_ALLOWED";
  if (host.endsWith(".invalid") || !host.includes(".")) return "URL_NOT_REACHABLE";
  if (host.includes("malware")) return "URL_UNSAFE";
  if (host.includes("refused-unknown")) return "unknown";
  return null;
}

/** The magic-inputs table of this domain (the README shows it). */
export const magicInputs: MagicInput[] = [
  { tool: "create_profile", input: "websiteUrl host", match: `${socialHosts.join(", ")} (and subdomains)`, effect: "invalid_website_url, websiteRefusal BLOCKED_DOMAIN" },
  { tool: "create_profile", input: "websiteUrl host", match: "ends in .invalid, or has no dot", effect: "invalid_website_url, websiteRefusal URL_NOT_REACHABLE" },
  { tool: "create_profile", input: "websiteUrl host", match: "localhost, *.local, *.internal, 127.x, 10.x, 172.16–31.x, 192.168.x, 169.254.x, ::1", effect: "invalid_website_url, websiteRefusal URL_NOT_ALLOWED" },
  { tool: "create_profile", input: "websiteUrl host", match: "contains malware", effect: "invalid_website_url, websiteRefusal URL_UNSAFE" },
  { tool: "create_profile", input: "websiteUrl host", match: "contains refused-unknown", effect: "invalid_website_url without websiteRefusal" },
  ...buildMagic.map((m) => ({ tool: "create_profile", input: "websiteUrl host", match: `contains ${m.hostContains}`, effect: `build failed with ${m.failure}: ${m.note}; a repeat restarts it and the restart succeeds` })),
  { tool: "create_profile", input: "websiteUrl host", match: `contains ${buildFailsWithCode}<code> (a build failure code of the catalogue)`, effect: "build failed with that code (build_not_queued: at once, the others when the build ends); a repeat restarts it and the restart succeeds" },
  { tool: "create_profile", input: "websiteUrl host", match: `contains ${buildSlowMarker}`, effect: `the build takes ${slowBuildMinutes} minutes × time scale (building for the whole of a conformance run)` },
  { tool: "create_profile", input: "websiteUrl host", match: `contains ${buildFailsAlways} (with a fail-… marker)`, effect: "every restart fails again" },
  { tool: "create_profile", input: "externalId", match: `contains ${externalBillingMarker}`, effect: "the workspace pays its own plan: deactivate_profile and delete_profile → external_billing_workspace, nothing changed" },
  { tool: "update_brand_style", input: "addColors / colorRoles value", match: busyColor, effect: "design_style_busy (retryable), nothing changed" },
  { tool: "update_brand_style", input: "fonts.*", match: "not a public family nor in the brand's library", effect: "font_not_found with invalidFields, nothing changed" },
  ...logoMagic.map((m) => ({ tool: "upload_brand_logo", input: "sourceUrl", match: `contains ${m.contains}`, effect: `${m.code} (${m.note}), nothing saved` })),
  { tool: "upload_brand_logo", input: "sourceUrl", match: "not https:", effect: "source_not_https, nothing fetched" },
  { tool: "upload_brand_logo", input: "sourceUrl host", match: "private or loopback (as for websites)", effect: "source_not_public, nothing fetched" },
  { tool: "create_connect_link", input: "platform", match: `not one of ${Object.keys(connectChannels).join(", ")}`, effect: "platform_not_supported with supportedChannels" },
  { tool: "create_connect_link", input: "platform + returnUrl", match: hostedOnlyChannels.join(", "), effect: "headless_connect_unavailable" },
  { tool: "get_connect_options, complete_connect", input: "connectToken", match: expiredConnectToken, effect: "connect_session_expired (a session that has expired), for any brand the token reaches" },
  ...accountMagic.map((m) => ({ tool: "GET /connect/<token>", input: "?account=", match: m.account, effect: `status=failed&error=${m.error} (link used up)` })),
  { tool: "GET /connect/<token>", input: "?account=", match: unreachableAccount, effect: "connects, but the provider cannot be reached when the account is checked: blocker connection_check_failed, publishReadiness unknown" },
];
