// What get_profile shows: each channel's health on the clock, readiness with the seed's blockers, and
// the BrandRecord view the posts domain works with.
import type { Clock } from "../../clock.js";
import type { BrandRecord } from "../context.js";
import type { Known, Profile, ProfileChannel } from "../../../generated/mcp/types.js";
import { day } from "./ids.js";
import { brandBuildStatus, buildStatus } from "./build.js";
import type { BrandState, ChannelState, ProfilesStore } from "./store.js";

type Health = Known<ProfileChannel["health"]>;

/** A connected token reads expiring_soon from this many days before it expires. */
export const expiringSoonDays = 14;

/** Health of a channel at `now`: a connected token turns expiring_soon within 14 days and needs_reauth at 0. */
// rule: channel-health-publishes health-reason-null-when-connected expiring-soon-window
export function channelHealth(c: ChannelState, now: number): { health: Health; healthReason: string | null; tokenRefreshInDays: number | null } {
  if (c.state === "disconnected") return { health: "disconnected", healthReason: "account_removed", tokenRefreshInDays: null };
  if (c.state === "needs_reauth") return { health: "needs_reauth", healthReason: "token_expired_or_revoked", tokenRefreshInDays: null };
  if (c.tokenExpiresAt === null) return { health: "connected", healthReason: null, tokenRefreshInDays: null };
  const daysLeft = (c.tokenExpiresAt - now) / day;
  if (daysLeft <= 0) return { health: "needs_reauth", healthReason: "token_expired_or_revoked", tokenRefreshInDays: null };
  const tokenRefreshInDays = Math.ceil(daysLeft);
  if (daysLeft <= expiringSoonDays) return { health: "expiring_soon", healthReason: "token_refresh_due", tokenRefreshInDays };
  return { health: "connected", healthReason: null, tokenRefreshInDays };
}

export const publishes = (health: Health) => health === "connected" || health === "expiring_soon";

/** Whether the provider could not be reached when a live account of the brand was checked. */
export const connectionCheckFailed = (brand: BrandState) => brand.channels.some((c) => c.checkFails === true && c.state !== "disconnected");

/** Lowercase channels that can publish now. */
export function publishableChannels(brand: BrandState, now: number): string[] {
  return brand.channels.filter((c) => publishes(channelHealth(c, now).health)).map((c) => c.platform);
}

// rule: channel-fields channel-scopes-on-request destination-case
export function channelView(c: ChannelState, now: number, includeScopes: boolean): ProfileChannel {
  const { health, healthReason, tokenRefreshInDays } = channelHealth(c, now);
  return {
    platform: c.platform,
    displayName: c.displayName,
    username: c.username,
    profileUrl: c.profileUrl,
    health,
    healthReason,
    connectedAt: c.connectedAt === null ? null : new Date(c.connectedAt).toISOString(),
    tokenRefreshInDays,
    tokenExpiresAt: c.tokenExpiresAt === null || c.state !== "connected" ? null : new Date(c.tokenExpiresAt).toISOString(),
    scopes: includeScopes && c.state !== "disconnected" ? [...c.scopes] : null,
    missingScopes: includeScopes && c.state !== "disconnected" ? [...c.missingScopes] : null,
    canPost: publishes(health),
    canFetchAnalytics: publishes(health) && c.canFetchAnalytics,
  };
}

/**
 * Readiness with the seed's blockers, in a fixed order. Channel blockers: none at all → no_channel_connected;
 * none publishable → all_channels_disconnected when every one was removed, otherwise all_channels_need_reauth
 * (a mix of removed and reauth-needing accounts is reported as needing reauth: reconnecting is the remedy).
 */
// rule: readiness-fields readiness-consistent readiness-blockers-are-codes can-publish-definition profile-not-ready-blocker
export function readiness(brand: BrandState, now: number): Profile["readiness"] {
  const blockers: string[] = [];
  if (!brand.isActive) blockers.push("brand_inactive");
  if (!brand.hasBrandProfile) blockers.push("no_brand_profile");
  const build = brandBuildStatus(brand, now);
  const built = build === null || build === "ready";
  if (!built) blockers.push("profile_not_ready");
  const health = brand.channels.map((c) => channelHealth(c, now).health);
  const canPublishSomewhere = health.some(publishes);
  if (health.length === 0) blockers.push("no_channel_connected");
  else if (!canPublishSomewhere) blockers.push(health.every((h) => h === "disconnected") ? "all_channels_disconnected" : "all_channels_need_reauth");
  // The provider could not be reached: the state is unknown, so it stops neither generating nor publishing.
  if (connectionCheckFailed(brand)) blockers.push("connection_check_failed");
  return {
    canGenerate: brand.isActive && brand.hasBrandProfile && built,
    canPublish: brand.isActive && brand.hasBrandProfile && canPublishSomewhere,
    blockers,
  };
}

// rule: profile-fields onboarding-fields destination-case story-destination-values
export function profileView(brand: BrandState, now: number, includeScopes: boolean): Profile {
  const live = publishableChannels(brand, now);
  const stories = (["instagram", "facebook"] as const).filter((p) => live.includes(p)).map((p) => `${p}_stories` as const);
  return {
    brandId: brand.id,
    brandName: brand.name,
    companyId: brand.companyId,
    isActive: brand.isActive,
    defaultPlatform: brand.defaultPlatform,
    generationPlatforms: live,
    storyDestinations: stories,
    socialProvider: "social-hub",
    channels: brand.channels.map((c) => channelView(c, now, includeScopes)),
    readiness: readiness(brand, now),
    ...(brand.build ? { onboarding: buildStatus(brand.build, now) } : {}),
  };
}

/** Uppercase destinations with a live connection, stories riding on their base channel. */
export function connectedDestinations(brand: BrandState, now: number): string[] {
  const live = publishableChannels(brand, now);
  const out = live.map((p) => p.toUpperCase());
  for (const base of ["instagram", "facebook"]) if (live.includes(base)) out.push(`${base.toUpperCase()}_STORIES`);
  return out;
}

/** A live view of a brand for the posts domain: every getter reads the current state. */
export function brandRecord(store: ProfilesStore, brand: BrandState, clock: Clock): BrandRecord {
  return {
    id: brand.id,
    companyId: brand.companyId,
    get name() {
      return brand.name;
    },
    get isActive() {
      return brand.isActive && store.brands.has(brand.id);
    },
    get hasBrandProfile() {
      return brand.hasBrandProfile;
    },
    get buildStatus() {
      return brandBuildStatus(brand, clock.now());
    },
    get defaultPlatform() {
      return brand.defaultPlatform;
    },
    connectedDestinations: () => connectedDestinations(brand, clock.now()),
    healthOf(destination: string) {
      const platform = destination.toLowerCase().replace(/_stories$/, "");
      const c = brand.channels.find((ch) => ch.platform === platform);
      return c ? channelHealth(c, clock.now()).health : null;
    },
    get requiresApproval() {
      return store.workspaceOf(brand)?.kind === "partner";
    },
  };
}
