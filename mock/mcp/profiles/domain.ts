// The profiles & workspaces domain of the gateway mock: its tool handlers, the ProfilesApi the posts domain
// uses, and the plain HTTP pages it serves (connect links, stored logos).
import type http from "node:http";
import type { Clock } from "../../clock.js";
import { ToolError, type BrandRecord, type PostsApi, type ProfilesApi, type ToolContext, type ToolHandler, type Domain } from "../context.js";
import { solidPng } from "./assets.js";
import { findLogo, getBrandStyle, updateBrandStyle, uploadBrandLogo } from "./branding.js";
import { createProfile } from "./build.js";
import { completeConnect, createConnectLink, getConnectOptions, serveConnectLink } from "./connect.js";
import { deactivateProfile, deleteProfile, settle } from "./ending.js";
import { seedFixtures } from "./fixtures.js";
import { brandRecord, expiringSoonDays } from "./readiness.js";
import { day } from "./ids.js";
import { ProfilesStore } from "./store.js";
import { getProfile, getWorkspaces, listBrands } from "./workspaces.js";
import type { ToolName } from "../../../generated/mcp/types.js";

/** JSON bytes of one palette colour ("#RRGGBB", quotes and comma) and, about, of one saved logo's record. */
const bytesPerColour = 10;
const bytesPerLogo = 160;

type DomainHandler = (store: ProfilesStore, args: Record<string, any>, ctx: ToolContext) => unknown;

const tools = {
  create_profile: createProfile,
  get_profile: getProfile,
  get_workspaces: getWorkspaces,
  list_brands: listBrands,
  deactivate_profile: deactivateProfile,
  delete_profile: deleteProfile,
  get_brand_style: getBrandStyle,
  update_brand_style: updateBrandStyle,
  upload_brand_logo: uploadBrandLogo,
  create_connect_link: createConnectLink,
  get_connect_options: getConnectOptions,
  complete_connect: completeConnect,
} satisfies Partial<Record<ToolName, DomainHandler>>;

/** The tools this domain answers (a name the contract does not have is a compile error above). */
export type ProfilesToolName = keyof typeof tools;

/** UTC calendar month of an instant, and the first instant of the next one (when the AI allowance refills). */
function month(now: number): { key: string; next: string } {
  const d = new Date(now);
  return {
    key: `${d.getUTCFullYear()}-${d.getUTCMonth() + 1}`,
    next: new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1)).toISOString(),
  };
}

/** Every instant still ahead at which a build, a token, a deactivation or a deletion changes what a view shows. */
export function endInstants(store: ProfilesStore, now: number): number[] {
  const out: number[] = [];
  for (const ws of store.workspaces.values()) {
    if (ws.deactivation && !ws.deactivation.finished) out.push(ws.deactivation.endsAt);
    if (ws.deletion) out.push(ws.deletion.endsAt);
    for (const brand of store.brandsOf(ws)) {
      if (brand.build && !brand.build.notQueued) out.push(brand.build.endsAt);
      for (const c of brand.channels) {
        if (c.state === "connected" && c.tokenExpiresAt !== null) out.push(c.tokenExpiresAt - expiringSoonDays * day, c.tokenExpiresAt);
      }
    }
  }
  return out.filter((t) => t > now);
}

export function createProfilesDomain(clock: Clock, origin: () => URL, posts: PostsApi): Domain<ProfilesApi> {
  const store = new ProfilesStore();
  seedFixtures(store, clock.now());

  const api: ProfilesApi = {
    brandFor: (principal, brandId, asked) => brandRecord(store, store.brandFor(principal, brandId, asked), clock),
    spendAi(brand: BrandRecord, units: number) {
      const ws = store.workspaces.get(brand.companyId);
      if (!ws) throw new ToolError("not_found", `No profile ${brand.id}.`);
      const { key, next } = month(clock.now());
      if (ws.ai.period !== key) ws.ai = { ...ws.ai, used: 0, period: key };
      if (ws.ai.used + units > ws.ai.allowance) {
        throw new ToolError("usage_limit_exceeded", `The workspace's AI allowance for this month is used up (${ws.ai.used} of ${ws.ai.allowance}); it refills on ${next}.`, { resetDate: next });
      }
      ws.ai.used += units;
    },
    brandsOf: (tenant) => [...store.workspaces.values()].filter((ws) => ws.tenant === tenant).flatMap((ws) => ws.brandIds),
    styleBytesOf(brandId) {
      const style = store.brands.get(brandId)?.style;
      // Counted, not serialised: this runs before every write call, over all of a tenant's brands.
      return style ? style.palette.length * bytesPerColour + style.logos.length * bytesPerLogo : 0;
    },
    requireBuilt(brand: BrandRecord) {
      const status = brand.buildStatus;
      if (status === "building") throw new ToolError("profile_not_ready", "The profile is still being built; poll get_profile about once a minute and retry when onboarding.status is ready.");
      if (status === "failed") throw new ToolError("profile_not_ready", "The profile build failed; restart it with create_profile and the same externalId, then retry when it is ready.");
    },
  };

  const handlers: Record<string, ToolHandler> = Object.fromEntries(
    Object.entries(tools).map(([name, handle]) => [name, (args: Record<string, any>, ctx: ToolContext) => handle(store, args, ctx)]),
  );

  function serveHttp(req: http.IncomingMessage, res: http.ServerResponse, url: URL): boolean {
    const connect = /^\/connect\/([A-Za-z0-9]+)$/.exec(url.pathname);
    const asset = /^\/brand-assets\/([0-9a-f-]{36})\.png$/.exec(url.pathname);
    if (!connect && !asset) return false;
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { allow: "GET, HEAD", "content-length": 0 });
      res.end();
      return true;
    }
    if (connect) {
      serveConnectLink(store, clock, connect[1]!, url, res);
      return true;
    }
    const logo = findLogo(store, asset![1]!);
    if (!logo) {
      res.writeHead(404, { "content-type": "text/plain", "content-length": 9 });
      res.end("not found");
      return true;
    }
    const png = solidPng(logo.width, logo.height, logo.color);
    res.writeHead(200, { "content-type": "image/png", "content-length": png.length, "cache-control": "public, max-age=31536000, immutable" });
    res.end(req.method === "HEAD" ? undefined : png);
    return true;
  }

  void origin; // URLs are built from each call's ctx.origin, which is the same origin.
  return { api, handlers, settle: () => settle(store, clock.now(), posts), endInstants: () => endInstants(store, clock.now()), serveHttp };
}
