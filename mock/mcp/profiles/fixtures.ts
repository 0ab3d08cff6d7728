// The deterministic starting data of the profiles domain. The workspaces, brands and channels are data
// (fixtures.json, checked when this module loads); this module turns them into state: ids are fixed UUIDs (a
// namespace hash of the slug), times are relative to the clock at start, so every run sees the same workspaces,
// brands and channels.
import { dataFile } from "../../data-file.js";
import { destinationRules, supportedDestinations } from "../posts/limits.js";
import fixturesJson from "./fixtures.json" with { type: "json" };
import { day, uuidFrom } from "./ids.js";
import type { BrandState, ChannelState, LogoState, ProfilesStore, StyleState, WorkspaceState } from "./store.js";

const id = (slug: string) => uuidFrom("fixture", slug);

/** Fixture ids, for tests and the posts domain (each must name a workspace or brand of fixtures.json). */
export const fixtureIds = {
  /** user-alex (mcp_user, mcp_readonly): ready brand, instagram connected + facebook expiring_soon. */
  harbourWorkspace: id("ws:harbour-bakery"),
  harbourBrand: id("brand:harbour-bakery"),
  /** user-alex: a workspace with three brands. */
  northsideWorkspace: id("ws:northside-studio"),
  /** No channel connected, not on a design style. */
  northsidePhysio: id("brand:northside-physio"),
  /** Every channel needs_reauth. */
  northsideFitness: id("brand:northside-fitness"),
  /** instagram, reddit, tiktok and google_business connected: the destinations whose pre-flight codes need them. */
  northsideMarket: id("brand:northside-market"),
  /** user-blake (mcp_other_user): low AI allowance (3 units a month). */
  blakeWorkspace: id("ws:blake-ceramics"),
  /** instagram connected, token expiry not reported. */
  blakeBrand: id("brand:blake-ceramics"),
  /** No brand settings (blocker no_brand_profile), pinterest connected. */
  blakeShop: id("brand:blake-ceramics-shop"),
} as const;

/**
 * AI allowance of a workspace per calendar month (UTC), in the units the posts domain spends. The seed gives no
 * figure; it is large so that a mock left running all day under repeated conformance runs (about 25 units each)
 * never runs dry. Blake's workspace (3 units) and the [allowance-…] magic show the refusal.
 */
export const defaultAiAllowance = 100_000;

/** A channel as fixtures.json gives it: days instead of times. */
interface ChannelData extends Omit<ChannelState, "connectedAt" | "tokenExpiresAt" | "checkFails"> {
  connectedDaysAgo: number;
  tokenExpiresInDays: number | null;
}

/** A logo as fixtures.json gives it: its id and path follow from the brand's slug and its place. */
type LogoData = Omit<LogoState, "id" | "path">;

interface BrandData extends Pick<BrandState, "slug" | "name" | "defaultPlatform" | "hasBrandProfile"> {
  channels: ChannelData[];
  style: Omit<StyleState, "logos" | "currentLogoId"> & { logos: LogoData[]; currentLogo: number | null };
}

interface WorkspaceData extends Pick<WorkspaceState, "slug" | "tenant" | "name" | "role" | "membershipType"> {
  aiAllowance: number;
  brands: BrandData[];
}

const channelStates = ["connected", "needs_reauth", "disconnected"] as const satisfies readonly ChannelState["state"][];
const colorRoles = ["primary", "secondary", "accent", "background", "text"] as const;
const fontRoles = ["heading", "body"] as const;
/** The lowercase channels the posts domain publishes through. */
const channelNames = [...new Set(destinationRules.map((r) => r.channel))];

/** fixtures.json, checked; throws naming the first problem. */
export function readFixtures(data: unknown): readonly WorkspaceData[] {
  const f = dataFile("mock/mcp/profiles/fixtures.json");
  const hex = (v: unknown, where: string) => (/^#[0-9A-F]{6}$/.test(f.text(v, where)) ? (v as string) : f.fail(where, "must be a colour #RRGGBB (capitals)"));
  const roles = <K extends string>(v: unknown, where: string, keys: readonly K[], read: (v: unknown, where: string) => string | null) => {
    const o = f.object(v, where, keys, keys);
    return Object.fromEntries(keys.map((k) => [k, read(o[k], `${where}.${k}`)])) as Record<K, string | null>;
  };
  const nullable = (read: (v: unknown, where: string) => string) => (v: unknown, where: string) => (v === null ? null : read(v, where));

  const channel = (v: unknown, where: string): ChannelData => {
    const c = f.object(v, where, ["platform", "displayName", "username", "profileUrl", "state", "connectedDaysAgo", "tokenExpiresInDays", "scopes", "missingScopes", "canFetchAnalytics"], ["platform", "connectedDaysAgo"]);
    const profileUrl = c.profileUrl === undefined ? null : f.textOrNull(c.profileUrl, `${where}.profileUrl`);
    if (profileUrl !== null && !profileUrl.startsWith("https://")) f.fail(`${where}.profileUrl`, "must be an https address");
    return {
      platform: f.oneOf(c.platform, `${where}.platform`, channelNames),
      displayName: c.displayName === undefined ? null : f.textOrNull(c.displayName, `${where}.displayName`),
      username: c.username === undefined ? null : f.textOrNull(c.username, `${where}.username`),
      profileUrl,
      state: c.state === undefined ? "connected" : f.oneOf(c.state, `${where}.state`, channelStates),
      connectedDaysAgo: f.count(c.connectedDaysAgo, `${where}.connectedDaysAgo`),
      tokenExpiresInDays: c.tokenExpiresInDays === undefined || c.tokenExpiresInDays === null ? null : f.count(c.tokenExpiresInDays, `${where}.tokenExpiresInDays`),
      scopes: c.scopes === undefined ? [] : f.texts(c.scopes, `${where}.scopes`),
      missingScopes: c.missingScopes === undefined ? [] : f.texts(c.missingScopes, `${where}.missingScopes`),
      canFetchAnalytics: c.canFetchAnalytics === undefined ? true : f.boolean(c.canFetchAnalytics, `${where}.canFetchAnalytics`),
    };
  };

  const style = (v: unknown, where: string): BrandData["style"] => {
    const s = f.object(v, where, ["palette", "designStyle", "fontLibrary", "logos", "currentLogo"]);
    let designStyle: StyleState["designStyle"] = null;
    if (s.designStyle !== undefined && s.designStyle !== null) {
      const d = f.object(s.designStyle, `${where}.designStyle`, ["colorRoles", "fonts"], ["colorRoles", "fonts"]);
      designStyle = {
        colorRoles: roles(d.colorRoles, `${where}.designStyle.colorRoles`, colorRoles, nullable(hex)),
        fonts: roles(d.fonts, `${where}.designStyle.fonts`, fontRoles, nullable(f.text)),
      };
    }
    const logos = (s.logos === undefined ? [] : f.list(s.logos, `${where}.logos`)).map((l, i) => {
      const at = `${where}.logos[${i}]`;
      const o = f.object(l, at, ["width", "height", "color"], ["width", "height", "color"]);
      return { width: f.count(o.width, `${at}.width`, 16), height: f.count(o.height, `${at}.height`, 16), color: hex(o.color, `${at}.color`) };
    });
    const currentLogo = s.currentLogo === undefined || s.currentLogo === null ? null : f.count(s.currentLogo, `${where}.currentLogo`, 1);
    if (currentLogo !== null && currentLogo > logos.length) f.fail(`${where}.currentLogo`, `names logo ${currentLogo} of ${logos.length}`);
    return {
      palette: s.palette === undefined ? [] : f.list(s.palette, `${where}.palette`).map((c, i) => hex(c, `${where}.palette[${i}]`)),
      designStyle,
      fontLibrary: s.fontLibrary === undefined ? [] : f.texts(s.fontLibrary, `${where}.fontLibrary`),
      logos,
      currentLogo,
    };
  };

  const slug = (v: unknown, where: string) => (/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(f.text(v, where)) ? (v as string) : f.fail(where, "must be a slug (lowercase words and hyphens)"));
  const brand = (v: unknown, where: string): BrandData => {
    const b = f.object(v, where, ["slug", "name", "defaultPlatform", "hasBrandProfile", "channels", "style"], ["slug", "name", "defaultPlatform", "channels", "style"]);
    return {
      slug: slug(b.slug, `${where}.slug`),
      name: f.text(b.name, `${where}.name`),
      defaultPlatform: b.defaultPlatform === null ? null : f.oneOf(b.defaultPlatform, `${where}.defaultPlatform`, supportedDestinations),
      hasBrandProfile: b.hasBrandProfile === undefined ? true : f.boolean(b.hasBrandProfile, `${where}.hasBrandProfile`),
      channels: f.list(b.channels, `${where}.channels`).map((c, i) => channel(c, `${where}.channels[${i}]`)),
      style: style(b.style, `${where}.style`),
    };
  };

  const root = f.object(data, "the file", ["workspaces"], ["workspaces"]);
  const workspaces = f.list(root.workspaces, "workspaces", true).map((v, i): WorkspaceData => {
    const where = `workspaces[${i}]`;
    const w = f.object(v, where, ["slug", "tenant", "name", "role", "membershipType", "aiAllowance", "brands"], ["slug", "tenant", "name", "role", "membershipType", "brands"]);
    return {
      slug: slug(w.slug, `${where}.slug`),
      tenant: f.text(w.tenant, `${where}.tenant`),
      name: f.text(w.name, `${where}.name`),
      role: f.text(w.role, `${where}.role`),
      membershipType: f.textOrNull(w.membershipType, `${where}.membershipType`),
      aiAllowance: w.aiAllowance === undefined ? defaultAiAllowance : f.count(w.aiAllowance, `${where}.aiAllowance`),
      brands: f.list(w.brands, `${where}.brands`).map((b, j) => brand(b, `${where}.brands[${j}]`)),
    };
  });
  const seeded = new Set(workspaces.flatMap((w) => [id(`ws:${w.slug}`), ...w.brands.map((b) => id(`brand:${b.slug}`))]));
  if (seeded.size !== workspaces.reduce((n, w) => n + 1 + w.brands.length, 0)) f.fail("workspaces", "repeat a workspace or brand slug");
  for (const [name, fixtureId] of Object.entries(fixtureIds)) if (!seeded.has(fixtureId)) f.fail("workspaces", `lack the workspace or brand of fixtureIds.${name}`);
  return workspaces;
}

function logos(brandSlug: string, data: readonly LogoData[]): LogoState[] {
  return data.map(({ width, height, color }, i) => {
    const logoId = uuidFrom("fixture", `logo:${brandSlug}:${i + 1}`);
    return { id: logoId, path: `brand-assets/${logoId}.png`, width, height, color };
  });
}

/** The file with its ids worked out once (hashes), so a reset only copies. */
const fixtures = readFixtures(fixturesJson).map((w) => ({
  ...w,
  id: id(`ws:${w.slug}`),
  brands: w.brands.map((b) => ({ ...b, id: id(`brand:${b.slug}`), logos: logos(b.slug, b.style.logos) })),
}));

/** A brand's state, with lists and objects of its own: handlers change them in place, and a reset must start from the file again. */
function brandState(b: (typeof fixtures)[number]["brands"][number], companyId: string, now: number): BrandState {
  const { palette, designStyle, fontLibrary, currentLogo } = b.style;
  return {
    isActive: true,
    hasBrandProfile: b.hasBrandProfile,
    build: null,
    id: b.id,
    companyId,
    name: b.name,
    slug: b.slug,
    defaultPlatform: b.defaultPlatform,
    channels: b.channels.map((c) => ({
      displayName: c.displayName,
      username: c.username,
      profileUrl: c.profileUrl,
      state: c.state,
      connectedAt: now - c.connectedDaysAgo * day,
      tokenExpiresAt: c.tokenExpiresInDays === null ? null : now + c.tokenExpiresInDays * day,
      scopes: [...c.scopes],
      missingScopes: [...c.missingScopes],
      canFetchAnalytics: c.canFetchAnalytics,
      platform: c.platform,
    })),
    style: {
      palette: [...palette],
      designStyle: designStyle && { colorRoles: { ...designStyle.colorRoles }, fonts: { ...designStyle.fonts } },
      fontLibrary: [...fontLibrary],
      logos: b.logos.map((l) => ({ ...l })),
      currentLogoId: currentLogo === null ? null : b.logos[currentLogo - 1]!.id,
    },
  };
}

export function seedFixtures(store: ProfilesStore, now: number): void {
  for (const w of fixtures) {
    store.addWorkspace({
      kind: "user",
      externalBilling: false,
      brandIds: [],
      ai: { allowance: w.aiAllowance, used: 0, period: "" },
      deactivation: null,
      deletion: null,
      id: w.id,
      tenant: w.tenant,
      name: w.name,
      slug: w.slug,
      role: w.role,
      membershipType: w.membershipType,
    });
    for (const b of w.brands) store.addBrand(brandState(b, w.id, now));
  }
}
