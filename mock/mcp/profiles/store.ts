// State of the profiles domain: workspaces (client companies), their brands (profiles) with channels, build,
// look and connect links, and tombstones of erased workspaces. Access rules live here too. Nothing grows without
// bound (profileCaps): a partner keeps its newest 1,000 clients (an older one is forgotten whole, posts and
// pictures included, and answers not_found like any unknown id), a brand its newest 50 connect links, a tenant
// the tombstones of its newest 10,000 erased brands.
import { CappedStore } from "../../capped-store.js";
import type { Principal } from "../context.js";
import { ToolError } from "../context.js";
import type { ConnectChannel } from "./magic.js";
import { uuidFrom } from "./ids.js";

/** A social account connected to a brand. Health is derived from state and the token's expiry (readiness.ts). */
export interface ChannelState {
  platform: string;
  displayName: string | null;
  username: string | null;
  profileUrl: string | null;
  /** needs_reauth and disconnected are set; connected may turn expiring_soon / needs_reauth as the token ages. */
  state: "connected" | "needs_reauth" | "disconnected";
  connectedAt: number | null;
  /** Epoch ms when the token must be refreshed; null when the provider does not report it. */
  tokenExpiresAt: number | null;
  scopes: string[];
  missingScopes: string[];
  canFetchAnalytics: boolean;
  /** The provider cannot be reached when this account's state is checked (blocker connection_check_failed). */
  checkFails?: boolean;
}

/** A profile build started by create_profile; its status follows from the clock. */
export interface BuildState {
  externalId: string;
  websiteUrl: string;
  attempt: number;
  startedAt: number;
  /** When the current attempt ends. */
  endsAt: number;
  /** Failure code this attempt ends with, or null when it ends ready. */
  failure: string | null;
  /** build_not_queued: failed from the start, nothing running. */
  notQueued: boolean;
  /** Minutes of the build's work done once the current attempt ends (a restart resumes from there). */
  doneMinutes: number;
}

export interface LogoState {
  id: string;
  /** Path on the mock's own origin (the URL is built with the origin when answering). */
  path: string;
  width: number;
  height: number;
  color: string;
}

export interface StyleState {
  palette: string[];
  /** null: not on a design style (roles and fonts cannot be set). */
  designStyle: { colorRoles: Record<"primary" | "secondary" | "accent" | "background" | "text", string | null>; fonts: Record<"heading" | "body", string | null> } | null;
  fontLibrary: string[];
  logos: LogoState[];
  currentLogoId: string | null;
}

export interface BrandState {
  id: string;
  companyId: string;
  name: string;
  slug: string;
  isActive: boolean;
  hasBrandProfile: boolean;
  defaultPlatform: string | null;
  channels: ChannelState[];
  /** Only on brands made by create_profile. */
  build: BuildState | null;
  style: StyleState;
}

export interface WorkspaceState {
  id: string;
  tenant: string;
  /** "partner": made by create_profile for a partner's client; "user": an app user's own workspace. */
  kind: "partner" | "user";
  name: string;
  slug: string;
  role: string;
  membershipType: string | null;
  /** Pays for its own plan: the gateway cannot end it. */
  externalBilling: boolean;
  brandIds: string[];
  ai: { allowance: number; used: number; period: string };
  deactivation: { startedAt: number; endsAt: number; unscheduledPosts: number; finished: boolean } | null;
  deletion: { startedAt: number; endsAt: number } | null;
}

export interface ConnectLinkState {
  token: string;
  brandId: string;
  /** The channel the link targets (instagram when the caller named none). */
  platform: ConnectChannel;
  platformNamed: boolean;
  returnUrl: string | null;
  createdAt: number;
  expiresAt: number;
  /** created → (authorised →) completed | failed. */
  state: "created" | "authorised" | "completed" | "failed";
  visitedAt: number | null;
  account: string | null;
  options: { id: string; name: string; type: string }[];
}

export const profileCaps = { clientsPerPartner: 1000, linksPerBrand: 50, tombstonesPerTenant: 10_000, externalIdsPerPartner: 10_000 } as const;

/** The profile a partner's externalId made: what a repeated create_profile answers, even once it is gone. */
export interface MadeProfile {
  brandId: string;
  companyId: string;
  /** The build as it last stood (a live brand's own build takes precedence). */
  build: BuildState;
}

export class ProfilesStore {
  readonly workspaces = new Map<string, WorkspaceState>();
  readonly brands = new Map<string, BrandState>();
  /** Connect links by token, owned by their brand. */
  readonly links = new CappedStore<ConnectLinkState>(profileCaps.linksPerBrand);
  /**
   * (partner, externalId) → the profile it made. Kept when the profile is erased or forgotten by the cap, so a
   * repeat never makes a second workspace; the newest 10,000 per partner.
   */
  readonly externalIds = new CappedStore<MadeProfile>(profileCaps.externalIdsPerPartner);
  /** brandId of an erased workspace → its workspace and tenant (owned by the tenant), so delete_profile keeps answering deleted. */
  readonly erased = new CappedStore<{ companyId: string; tenant: string }>(profileCaps.tombstonesPerTenant);
  /** Workspaces whose deactivation or deletion has not finished yet: settle() visits only these. */
  readonly ending = new Set<WorkspaceState>();
  private counter = 0;

  /** A fresh deterministic UUID of the given kind. */
  nextId(kind: string): string {
    return uuidFrom(kind, ++this.counter);
  }

  addWorkspace(ws: WorkspaceState): void {
    this.workspaces.set(ws.id, ws);
  }

  addBrand(brand: BrandState): void {
    this.brands.set(brand.id, brand);
    this.workspaces.get(brand.companyId)!.brandIds.push(brand.id);
  }

  workspaceOf(brand: BrandState): WorkspaceState {
    return this.workspaces.get(brand.companyId)!;
  }

  brandsOf(ws: WorkspaceState): BrandState[] {
    return ws.brandIds.map((id) => this.brands.get(id)!);
  }

  /** Workspaces the principal can reach: a user's own, or a partner's clients; never ones being erased. */
  workspacesFor(principal: Principal): WorkspaceState[] {
    return [...this.workspaces.values()].filter((ws) => ws.tenant === principal.tenant && !ws.deletion);
  }

  /**
   * The rule for ids: an id nobody has (or one whose workspace is being erased) is not_found; an existing brand
   * of another tenant is forbidden (the seed allows either; telling them apart helps a caller debugging ids).
   */
  brandFor(principal: Principal, brandId: string, asked = `Profile ${brandId}`): BrandState {
    const brand = this.brands.get(brandId);
    const ws = brand && this.workspaceOf(brand);
    if (!brand || !ws || ws.deletion) throw new ToolError("not_found", `${asked} is not visible to this token.`);
    if (ws.tenant !== principal.tenant) throw new ToolError("forbidden", `${asked} is not one of yours.`);
    return brand;
  }

  /** The same rule for workspaces (list_brands). */
  workspaceFor(principal: Principal, workspaceId: string): WorkspaceState {
    const ws = this.workspaces.get(workspaceId);
    if (!ws || ws.deletion) throw new ToolError("not_found", `No workspace ${workspaceId}.`);
    if (ws.tenant !== principal.tenant) throw new ToolError("forbidden", `Workspace ${workspaceId} is not one of yours.`);
    return ws;
  }

  /** Removes an erased workspace and everything in it, keeping tombstones for its brand ids. */
  erase(ws: WorkspaceState): void {
    for (const brandId of ws.brandIds) this.erased.set(brandId, ws.tenant, { companyId: ws.id, tenant: ws.tenant });
    this.forget(ws);
  }

  /** Removes a workspace and everything in it, leaving no trace (its ids answer as unknown ones). */
  forget(ws: WorkspaceState): void {
    for (const brandId of ws.brandIds) {
      this.brands.delete(brandId);
      this.links.deleteOwner(brandId);
    }
    this.workspaces.delete(ws.id);
    this.ending.delete(ws);
  }

  /** A partner's client workspaces beyond its cap, oldest first: the ones to forget after adding a client. */
  clientsOverCap(tenant: string): WorkspaceState[] {
    const clients = [...this.workspaces.values()].filter((ws) => ws.tenant === tenant && ws.kind === "partner");
    return clients.slice(0, Math.max(0, clients.length - profileCaps.clientsPerPartner));
  }
}

/** Requires a partner principal (the server already hides partner-only tools from others). */
// rule: partner-only-code
export function requirePartner(principal: Principal): void {
  if (principal.kind !== "partner") throw new ToolError("partner_only", "Only a partner backend can call this tool.");
}
