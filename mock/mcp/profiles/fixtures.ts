// The deterministic starting data of the profiles domain. Ids are fixed UUIDs (a namespace hash of the slug),
// times are relative to the clock at start, so every run sees the same workspaces, brands and channels.
import { day, uuidFrom } from "./ids.js";
import type { BrandState, ChannelState, ProfilesStore, StyleState, WorkspaceState } from "./store.js";

const id = (slug: string) => uuidFrom("fixture", slug);

/** Fixture ids, for tests and the posts domain. */
export const fixtureIds = {
  /** user-alex (mcp_user, mcp_readonly): ready brand, instagram connected + facebook expiring_soon. */
  harbourWorkspace: id("ws:harbour-bakery"),
  harbourBrand: id("brand:harbour-bakery"),
  /** user-alex: a workspace with two brands. */
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

function channel(now: number, c: Partial<ChannelState> & Pick<ChannelState, "platform">): ChannelState {
  return {
    displayName: null,
    username: null,
    profileUrl: null,
    state: "connected",
    connectedAt: now - 60 * day,
    tokenExpiresAt: null,
    scopes: [],
    missingScopes: [],
    canFetchAnalytics: true,
    ...c,
  };
}

function style(s: Partial<StyleState>): StyleState {
  return { palette: [], designStyle: null, fontLibrary: [], logos: [], currentLogoId: null, ...s };
}

function workspace(w: Pick<WorkspaceState, "id" | "tenant" | "name" | "slug" | "role" | "membershipType"> & { allowance?: number }): WorkspaceState {
  return {
    kind: "user",
    externalBilling: false,
    brandIds: [],
    ai: { allowance: w.allowance ?? defaultAiAllowance, used: 0, period: "" },
    deactivation: null,
    deletion: null,
    ...w,
  };
}

function brand(b: Pick<BrandState, "id" | "companyId" | "name" | "slug" | "defaultPlatform" | "channels" | "style"> & { hasBrandProfile?: boolean }): BrandState {
  return { isActive: true, hasBrandProfile: true, build: null, ...b };
}

const logo = (slug: string, n: number, width: number, height: number, color: string) => {
  const logoId = uuidFrom("fixture", `logo:${slug}:${n}`);
  return { id: logoId, path: `brand-assets/${logoId}.png`, width, height, color };
};

export function seedFixtures(store: ProfilesStore, now: number): void {
  const ids = fixtureIds;
  const harbourLogos = [logo("harbour-bakery", 1, 512, 512, "#0B3D91"), logo("harbour-bakery", 2, 1200, 400, "#F2A900")];
  const fitnessLogo = logo("northside-fitness", 1, 400, 400, "#C62828");

  store.addWorkspace(workspace({ id: ids.harbourWorkspace, tenant: "user-alex", name: "Harbour Bakery", slug: "harbour-bakery", role: "OWNER", membershipType: "PRO" }));
  store.addBrand(
    brand({
      id: ids.harbourBrand,
      companyId: ids.harbourWorkspace,
      name: "Harbour Bakery",
      slug: "harbour-bakery",
      defaultPlatform: "INSTAGRAM",
      channels: [
        channel(now, {
          platform: "instagram", displayName: "Harbour Bakery", username: "harbourbakery", profileUrl: "https://www.instagram.com/harbourbakery",
          connectedAt: now - 60 * day, tokenExpiresAt: now + 41 * day,
          scopes: ["instagram_basic", "instagram_content_publish", "instagram_manage_insights"],
        }),
        channel(now, {
          platform: "facebook", displayName: "Harbour Bakery", username: null, profileUrl: "https://www.facebook.com/harbourbakery",
          connectedAt: now - 51 * day, tokenExpiresAt: now + 9 * day,
          scopes: ["pages_manage_posts", "pages_read_engagement"],
        }),
      ],
      style: style({
        palette: ["#0B3D91", "#F2A900", "#FFFFFF", "#1B1B1B"],
        designStyle: {
          colorRoles: { primary: "#0B3D91", secondary: "#F2A900", accent: null, background: "#FFFFFF", text: "#1B1B1B" },
          fonts: { heading: "Playfair Display", body: "Inter" },
        },
        fontLibrary: ["Harbour Script"],
        logos: harbourLogos,
        currentLogoId: harbourLogos[1]!.id,
      }),
    }),
  );

  store.addWorkspace(workspace({ id: ids.northsideWorkspace, tenant: "user-alex", name: "Northside Studio", slug: "northside-studio", role: "ADMIN", membershipType: "TEAM" }));
  store.addBrand(
    brand({
      id: ids.northsidePhysio,
      companyId: ids.northsideWorkspace,
      name: "Northside Physio",
      slug: "northside-physio",
      defaultPlatform: null,
      channels: [],
      style: style({ palette: ["#2E7D32"] }),
    }),
  );
  store.addBrand(
    brand({
      id: ids.northsideFitness,
      companyId: ids.northsideWorkspace,
      name: "Northside Fitness",
      slug: "northside-fitness",
      defaultPlatform: "INSTAGRAM",
      channels: [
        channel(now, {
          platform: "instagram", displayName: "Northside Fitness", username: "northsidefit", profileUrl: "https://www.instagram.com/northsidefit",
          state: "needs_reauth", connectedAt: now - 200 * day, scopes: ["instagram_basic", "instagram_content_publish"],
        }),
        channel(now, {
          platform: "linkedin", displayName: "Northside Fitness Ltd", username: null, profileUrl: "https://www.linkedin.com/company/northside-fitness",
          state: "needs_reauth", connectedAt: now - 120 * day, scopes: ["w_organization_social"], missingScopes: ["r_organization_social"],
          canFetchAnalytics: false,
        }),
      ],
      style: style({
        palette: ["#C62828", "#212121"],
        designStyle: { colorRoles: { primary: "#C62828", secondary: "#212121", accent: null, background: null, text: null }, fonts: { heading: "Montserrat", body: null } },
        logos: [fitnessLogo],
        currentLogoId: fitnessLogo.id,
      }),
    }),
  );

  // Destinations the Harbour brand lacks (a subreddit, exactly one video, no video at all), so a caller can reach
  // every pre-flight code (rule: preflight-codes).
  store.addBrand(
    brand({
      id: ids.northsideMarket,
      companyId: ids.northsideWorkspace,
      name: "Northside Market",
      slug: "northside-market",
      defaultPlatform: "INSTAGRAM",
      channels: ["instagram", "reddit", "tiktok", "google_business"].map((platform) =>
        channel(now, { platform, displayName: "Northside Market", connectedAt: now - 20 * day, tokenExpiresAt: null }),
      ),
      style: style({ palette: ["#6A1B9A"] }),
    }),
  );

  store.addWorkspace(workspace({ id: ids.blakeWorkspace, tenant: "user-blake", name: "Blake Ceramics", slug: "blake-ceramics", role: "OWNER", membershipType: "STARTER", allowance: 3 }));
  store.addBrand(
    brand({
      id: ids.blakeBrand,
      companyId: ids.blakeWorkspace,
      name: "Blake Ceramics",
      slug: "blake-ceramics",
      defaultPlatform: "INSTAGRAM",
      channels: [
        channel(now, {
          platform: "instagram", displayName: "Blake Ceramics", username: "blakeceramics", profileUrl: "https://www.instagram.com/blakeceramics",
          connectedAt: now - 30 * day, tokenExpiresAt: null, scopes: ["instagram_basic", "instagram_content_publish"],
        }),
      ],
      style: style({
        palette: ["#8D6E63"],
        designStyle: { colorRoles: { primary: "#8D6E63", secondary: null, accent: null, background: null, text: null }, fonts: { heading: null, body: "Lato" } },
      }),
    }),
  );
  store.addBrand(
    brand({
      id: ids.blakeShop,
      companyId: ids.blakeWorkspace,
      name: "Blake Ceramics Shop",
      slug: "blake-ceramics-shop",
      defaultPlatform: "PINTEREST",
      hasBrandProfile: false,
      channels: [
        channel(now, {
          platform: "pinterest", displayName: "Blake Ceramics", username: "blakeceramics", profileUrl: "https://www.pinterest.com/blakeceramics",
          connectedAt: now - 10 * day, tokenExpiresAt: now + 355 * day, scopes: ["boards:read", "pins:write"],
        }),
      ],
      style: style({}),
    }),
  );
}
