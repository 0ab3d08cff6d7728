// get_workspaces, list_brands and get_profile: what a principal can see of its workspaces and brands.
import type { ToolContext } from "../context.js";
import type { BrandItem, GetWorkspacesOutput, ListBrandsOutput, Profile, WorkspaceItem } from "../../../generated/mcp/types.js";
import { channelHealth, connectionCheckFailed, profileView, publishes } from "./readiness.js";
import { logoUrl } from "./branding.js";
import type { BrandState, ProfilesStore, WorkspaceState } from "./store.js";

// rule: workspace-item-fields
function workspaceItem(store: ProfilesStore, ws: WorkspaceState, origin: URL): WorkspaceItem {
  const first = store.brandsOf(ws)[0];
  return {
    id: ws.id,
    name: ws.name,
    slug: ws.slug,
    logo: first ? logoUrl(first, origin) : null,
    role: ws.role,
    membershipType: ws.membershipType,
    numBrands: ws.brandIds.length,
  };
}

/**
 * ready: active with a live publishing connection; not_connected: inactive, no channel, or every channel removed;
 * unknown: channels exist but none publishes now (reauth needed) — get_profile tells the rest.
 */
// rule: publish-readiness-values
export function publishReadiness(brand: BrandState, now: number): BrandItem["publishReadiness"] {
  const health = brand.channels.map((c) => channelHealth(c, now).health);
  if (!brand.isActive || health.length === 0 || health.every((h) => h === "disconnected")) return "not_connected";
  if (connectionCheckFailed(brand)) return "unknown";
  return health.some(publishes) ? "ready" : "unknown";
}

// rule: workspaces-output-fields workspaces-limit-truncated workspaces-query limit-workspaces-query limit-workspaces-limit cross-tenant-not-listed
export function getWorkspaces(store: ProfilesStore, args: Record<string, any>, ctx: ToolContext): GetWorkspacesOutput {
  const query = typeof args.query === "string" ? args.query.toLowerCase() : null;
  const limit: number = args.limit ?? 50;
  const matches = store
    .workspacesFor(ctx.principal)
    .filter((ws) => query === null || ws.name.toLowerCase().includes(query) || ws.slug.toLowerCase().includes(query));
  return {
    workspaces: matches.slice(0, limit).map((ws) => workspaceItem(store, ws, ctx.origin)),
    totalCount: matches.length,
    truncated: matches.length > limit,
    needsUserChoice: matches.length > 1,
  };
}

// rule: list-brands list-brands-output-fields brand-item-fields brand-list-matches-profile list-brands-foreign-forbidden
export function listBrands(store: ProfilesStore, args: Record<string, any>, ctx: ToolContext): ListBrandsOutput {
  const ws = store.workspaceFor(ctx.principal, args.workspaceId as string);
  const now = ctx.clock.now();
  const brands = store.brandsOf(ws);
  return {
    workspaceId: ws.id,
    workspaceName: ws.name,
    brands: brands.map((b) => ({
      id: b.id,
      name: b.name,
      slug: b.slug,
      logo: logoUrl(b, ctx.origin),
      userRole: "ADMIN",
      isActive: b.isActive,
      publishReadiness: publishReadiness(b, now),
    })),
    needsUserChoice: brands.length > 1,
  };
}

// rule: profile-fields cross-tenant-refused unknown-id-refused
export function getProfile(store: ProfilesStore, args: Record<string, any>, ctx: ToolContext): Profile {
  const brand = store.brandFor(ctx.principal, args.brandId as string);
  return profileView(brand, ctx.clock.now(), args.includeScopes === true);
}
