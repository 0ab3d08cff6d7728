// Magic inputs of the profiles domain, as data: each rule below is both what the handlers consult and a row
// of the table the README shows. Nothing here ever touches the network: hosts are judged by their names only.
// The lists are data (magic.json, checked when this module loads); the single markers the handlers test by name,
// the connect channels (their keys are the ConnectChannel type) and the README table built from all of them stay
// here.
import { catalogue, type BuildFailureCode, type ConnectFailureCode } from "../../../generated/mcp/errors.js";
import { dataFile } from "../../data-file.js";
import { isPrivateHost } from "../../private-address.js";
import magicJson from "./magic.json" with { type: "json" };

/** One row of the magic-inputs table. */
export interface MagicInput {
  tool: string;
  input: string;
  /** What the mock looks for (substring, suffix or exact value). */
  match: string;
  effect: string;
}

/** What upload_brand_logo's "fetch" finds: the code branding.ts answers with. */
export type LogoMagicCode = "design_style_busy" | "logo_unreadable";
const logoMagicCodes = ["design_style_busy", "logo_unreadable"] as const satisfies readonly LogoMagicCode[];

/** The catalogue's codes of a kind, typed as the generated union of that kind (the same spec makes both). */
const catalogueCodes = <T extends string>(kind: string) => catalogue.filter((e) => e.kind === kind).map((e) => e.code as T);
const buildFailureCodes = catalogueCodes<BuildFailureCode>("build_failure");

export interface MagicTables {
  socialHosts: readonly string[];
  buildMagic: readonly { hostContains: string; failure: BuildFailureCode; note: string }[];
  logoMagic: readonly { contains: string; code: LogoMagicCode; note: string }[];
  accountMagic: readonly { account: string; error: ConnectFailureCode }[];
  publicFonts: readonly string[];
}

/** magic.json, checked; throws naming the first problem. */
export function readMagicTables(data: unknown): MagicTables {
  const f = dataFile("mock/mcp/profiles/magic.json");
  const lower = (v: unknown, where: string) => (f.text(v, where) === (v as string).toLowerCase() ? (v as string) : f.fail(where, "must be lowercase (hosts and addresses are compared lowercased)"));
  const tables = ["socialHosts", "buildMagic", "logoMagic", "accountMagic", "publicFonts"];
  const root = f.object(data, "the file", tables, tables);
  const rows = <T>(key: string, keys: string[], read: (o: Record<string, unknown>, where: string) => T): T[] =>
    f.list(root[key], key, true).map((v, i) => read(f.object(v, `${key}[${i}]`, keys, keys), `${key}[${i}]`));
  return {
    socialHosts: f.list(root.socialHosts, "socialHosts", true).map((h, i) => (lower(h, `socialHosts[${i}]`).includes(".") ? (h as string) : f.fail(`socialHosts[${i}]`, "must be a host name with a dot"))),
    buildMagic: rows("buildMagic", ["hostContains", "failure", "note"], (o, at) => ({
      hostContains: lower(o.hostContains, `${at}.hostContains`),
      failure: f.oneOf(o.failure, `${at}.failure`, buildFailureCodes),
      note: f.text(o.note, `${at}.note`),
    })),
    logoMagic: rows("logoMagic", ["contains", "code", "note"], (o, at) => ({
      contains: lower(o.contains, `${at}.contains`),
      code: f.oneOf(o.code, `${at}.code`, logoMagicCodes),
      note: f.text(o.note, `${at}.note`),
    })),
    accountMagic: rows("accountMagic", ["account", "error"], (o, at) => ({
      account: lower(o.account, `${at}.account`),
      error: f.oneOf(o.error, `${at}.error`, catalogueCodes<ConnectFailureCode>("connect_failure")),
    })),
    publicFonts: f.texts(root.publicFonts, "publicFonts", true),
  };
}

/** The tables of magic.json (socialHosts, buildMagic, logoMagic, accountMagic, publicFonts), checked at load. */
export const { socialHosts, buildMagic, logoMagic, accountMagic, publicFonts } = readMagicTables(magicJson);

/**
 * Host marker `fail-code-<code>`: the first build fails with that build failure code of the catalogue (the
 * conformance slot website_fails_build_code provokes each code with it). build_not_queued fails at once.
 */
export const buildFailsWithCode = "fail-code-";

/** The failure code a website host asks for (buildMagic first, then fail-code-<code>), or undefined. */
// rule: build-failure-codes
export function buildFailureFor(host: string): string | undefined {
  const named = buildMagic.find((m) => host.includes(m.hostContains));
  if (named) return named.failure;
  return buildFailureCodes.find((code) => host.includes(`${buildFailsWithCode}${code}.`) || host.endsWith(`${buildFailsWithCode}${code}`));
}

/**
 * Host marker: the build takes a million minutes (× time scale) instead of 10–30, so a caller sees it building for the
 * whole of a conformance run (slot website_builds_slowly), however loaded the host: at the test corpus's time scale
 * (0.001) that is still some 17 minutes of wall clock, longer than any run's budget.
 */
export const buildSlowMarker = "build-slow";
export const slowBuildMinutes = 1_000_000;

/** With this in the host as well, every restart fails again (otherwise a restart succeeds). */
export const buildFailsAlways = "fail-always";

/** externalId substring: the new workspace pays for its own plan (deactivate/delete → external_billing_workspace). */
export const externalBillingMarker = "external-billing";

/** A hex colour in addColors or colorRoles that makes update_brand_style collide with a concurrent save. */
export const busyColor = "#BEEBEE";

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
  { tool: "create_profile", input: "websiteUrl host", match: "localhost, *.localhost, *.local, *.internal, 0.x, 10.x, 100.64–127.x (CGNAT), 127.x, 169.254.x, 172.16–31.x, 192.168.x, ::, ::1, fc00::/7, fe80::/10, and those IPv4 ranges IPv4-mapped (::ffff:…)", effect: "invalid_website_url, websiteRefusal URL_NOT_ALLOWED" },
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
