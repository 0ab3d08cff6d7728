// MCP mutants of families that had none (issue 16, part 1): workspaces and brands (query, list and item fields,
// the list against the profile), a profile's channels and readiness, story destinations, and create_profile's
// building answer and website refusals. Each breaks one member other than the first the fixtures reach and runs
// only the check that declares it.
import type { Profile, ProfileChannel } from "../../../generated/mcp/types.js";
import type { McpMutant } from "./catalogue.js";
import { cutTo, dataOf, errorOf, isSuccess, onPayload, onResult, payloadOf, toolsOf, withData, withTools } from "./rewrite.js";

/** A profile's channels, each rewritten. */
const channels = (p: Profile, rewrite: (c: ProfileChannel) => unknown) => ({ ...p, channels: (p.channels ?? []).map(rewrite) });
const publishable = new Set(["connected", "expiring_soon"]);

export const familiesBMutants: McpMutant[] = [
  {
    id: "mcp-workspaces-query-clamped",
    rule: "limit-workspaces-query/max",
    description: "get_workspaces cuts a query over 200 characters to 200 instead of refusing it (the empty query is still refused)",
    run: { only: ["mcp-workspaces-query"] },
    request: cutTo("get_workspaces", "query", 200),
  },
  {
    id: "mcp-partner-deactivate-unlisted",
    rule: "partner-only-listed/deactivate_profile",
    description: "The partner token's tools/list leaves out deactivate_profile (the other partner-only tools are listed)",
    run: { only: ["mcp-partner-tools-listed"] },
    response: (req, res) => {
      const listed = req.body?.method === "tools/list" && req.token === "mcp_partner" ? toolsOf(res) : undefined;
      return listed ? withTools(res, listed.filter((t) => t.name !== "deactivate_profile")) : res;
    },
  },
  {
    id: "mcp-workspaces-truncated-as-text",
    rule: "workspaces-output-fields/truncated",
    description: "get_workspaces answers truncated as the string \"false\" or \"true\"",
    run: { only: ["mcp-workspace-and-brand-fields"] },
    response: onPayload("get_workspaces", (d) => ({ ...d, truncated: String(d.truncated) })),
  },
  {
    id: "mcp-workspace-brands-counted-as-text",
    rule: "workspace-item-fields/numBrands",
    description: "get_workspaces answers each workspace's numBrands as a string",
    run: { only: ["mcp-workspace-and-brand-fields"] },
    response: onPayload("get_workspaces", (d) => ({ ...d, workspaces: (d.workspaces ?? []).map((w) => ({ ...w, numBrands: String(w.numBrands) })) })),
  },
  {
    id: "mcp-workspaces-query-name-only",
    rule: "workspaces-query/slug",
    description: "get_workspaces' query matches workspace names only, not slugs (totalCount, truncated and needsUserChoice follow the shorter list)",
    run: { only: ["mcp-workspaces-query"] },
    response: onResult(
      (c, r) => c.name === "get_workspaces" && typeof c.args.query === "string" && isSuccess(r),
      (r, c) => {
        const q = String(c.args.query).toLowerCase();
        const listed = payloadOf(r, "get_workspaces");
        const kept = listed.workspaces.filter((w) => String(w.name).toLowerCase().includes(q));
        const dropped = listed.workspaces.length - kept.length;
        const totalCount = listed.totalCount - dropped;
        return withData(r, { ...payloadOf(r, "get_workspaces"), workspaces: kept, totalCount, truncated: totalCount > kept.length, needsUserChoice: totalCount > 1 });
      },
    ),
  },
  {
    id: "mcp-list-brands-choice-as-text",
    rule: "list-brands-output-fields/needsUserChoice",
    description: "list_brands answers needsUserChoice as a string",
    run: { only: ["mcp-workspace-and-brand-fields"] },
    response: onPayload("list_brands", (d) => ({ ...d, needsUserChoice: String(d.needsUserChoice) })),
  },
  {
    id: "mcp-brand-active-as-text",
    rule: "brand-item-fields/isActive",
    description: "list_brands answers each brand's isActive as a string",
    run: { only: ["mcp-workspace-and-brand-fields"] },
    response: onPayload("list_brands", (d) => ({ ...d, brands: (d.brands ?? []).map((b) => ({ ...b, isActive: String(b.isActive) })) })),
  },
  {
    id: "mcp-brand-list-active-flipped",
    rule: "brand-list-matches-profile/is-active",
    description: "list_brands says the opposite isActive of get_profile for every brand",
    run: { only: ["mcp-list-brands"] },
    response: onResult((c, r) => c.name === "list_brands" && isSuccess(r), (r) => withData(r, { ...payloadOf(r, "list_brands"), brands: payloadOf(r, "list_brands").brands.map((b) => ({ ...b, isActive: !b.isActive })) })),
  },
  {
    id: "mcp-channel-refresh-days-as-text",
    rule: "channel-fields/tokenRefreshInDays",
    description: "get_profile answers each channel's tokenRefreshInDays as a string",
    run: { only: ["mcp-profile-fields"] },
    response: onPayload("get_profile", (p) => channels(p, (c) => ({ ...c, tokenRefreshInDays: String(c.tokenRefreshInDays) }))),
  },
  {
    id: "mcp-connected-with-reason",
    rule: "health-reason-null-when-connected/connected",
    description: "get_profile gives connected channels a healthReason (token_valid) instead of null",
    run: { only: ["mcp-profile-readiness"] },
    response: onPayload("get_profile", (p) => channels(p, (c) => (c.health === "connected" ? { ...c, healthReason: "token_valid" } : c))),
  },
  {
    id: "mcp-expiring-soon-wide",
    rule: "expiring-soon-window/expiring_soon",
    description: "get_profile calls a channel expiring_soon with 30 days left (its window is a month, not 14 days)",
    run: { only: ["mcp-profile-readiness"] },
    response: onPayload("get_profile", (p) => channels(p, (c) => (c.health === "expiring_soon" && typeof c.tokenRefreshInDays === "number" ? { ...c, tokenRefreshInDays: c.tokenRefreshInDays + 21 } : c))),
  },
  {
    id: "mcp-scopes-always-filled",
    rule: "channel-scopes-on-request/without-include-scopes",
    description: "get_profile fills each channel's scopes without includeScopes",
    run: { only: ["mcp-profile-fields"] },
    response: onPayload("get_profile", (p) => channels(p, (c) => ({ ...c, scopes: c.scopes ?? ["pages_manage_posts"] })), (c) => c.args.includeScopes !== true),
  },
  {
    id: "mcp-readiness-blockers-as-text",
    rule: "readiness-fields/blockers",
    description: "get_profile answers readiness.blockers as one comma-separated string",
    run: { only: ["mcp-profile-fields"] },
    response: onPayload("get_profile", (p) => ({ ...p, readiness: { ...p.readiness, blockers: (p.readiness?.blockers ?? []).join(",") } })),
  },
  {
    id: "mcp-readiness-blockers-as-sentences",
    rule: "readiness-blockers-are-codes/blockers",
    description: "get_profile answers readiness blockers as sentences (\"No channel connected.\") instead of codes",
    run: { only: ["mcp-profile-readiness"] },
    response: onPayload("get_profile", (p) => ({
      ...p,
      readiness: { ...p.readiness, blockers: (p.readiness?.blockers ?? []).map((b: string) => `${b.charAt(0).toUpperCase()}${b.slice(1).replace(/_/g, " ")}.`) },
    })),
  },
  {
    id: "mcp-can-publish-without-live-channel",
    rule: "can-publish-definition/publishable-channel",
    description:
      "get_profile says canPublish for an active profile with brand settings and channels that all need reconnecting (the channel blockers dropped with it)",
    run: { only: ["mcp-profile-readiness"] },
    response: onPayload("get_profile", (p) => {
      const r = p.readiness;
      const dead = (p.channels ?? []).length > 0 && !(p.channels ?? []).some((c) => publishable.has(c?.health));
      if (!p.isActive || !r || r.blockers?.includes("no_brand_profile") || !dead) return p;
      return { ...p, readiness: { ...r, canPublish: true, blockers: r.blockers.filter((b: string) => !/^all_channels_/.test(b)) } };
    }),
  },
  {
    id: "mcp-facebook-story-without-channel",
    rule: "story-destination-values/facebook_stories",
    description: "get_profile keeps facebook_stories in storyDestinations while leaving the facebook channel out",
    run: { only: ["mcp-destination-case"] },
    response: onPayload("get_profile", (p) =>
      (p.storyDestinations ?? []).includes("facebook_stories") ? { ...p, channels: (p.channels ?? []).filter((c) => c?.platform !== "facebook") } : p,
    ),
  },
  {
    id: "mcp-new-profile-ready-at-once",
    rule: "create-profile-building/status",
    description: "create_profile with a new externalId answers status ready instead of building",
    run: { only: ["mcp-create-profile-building"] },
    response: onPayload("create_profile", (d) => (d.created === true && d.status === "building" ? { ...d, status: "ready" } : d)),
  },
  {
    id: "mcp-not-queued-as-enrichment",
    rule: "create-profile-not-queued/build_not_queued",
    description: "A build that cannot start answers failed with enrichment_failed instead of build_not_queued",
    run: { only: ["mcp-create-profile-trigger-refusals"] },
    response: onPayload("create_profile", (d) => (d.error === "build_not_queued" ? { ...d, error: "enrichment_failed" } : d)),
  },
  {
    id: "mcp-unreachable-website-not-allowed",
    rule: "website-refusal-reason/URL_NOT_REACHABLE",
    description: "A website that never resolves is refused as URL_NOT_ALLOWED instead of URL_NOT_REACHABLE",
    run: { only: ["mcp-website-refused"] },
    response: onResult(
      (c, r) => c.name === "create_profile" && errorOf(r)?.websiteRefusal === "URL_NOT_REACHABLE",
      (r) => withData(r, { ...payloadOf(r, "create_profile"), error: { ...errorOf(r), websiteRefusal: "URL_NOT_ALLOWED" } }),
    ),
  },
];
