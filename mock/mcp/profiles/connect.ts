// Connecting social accounts: create_connect_link mints a single-use link on the mock's own origin; opening it
// (GET /connect/<token>?account=<name>) simulates the platform's sign-in. A plain link connects at once. A
// headless link (platform + returnUrl) to a platform with Pages/organisations/boards/locations sends the
// browser back with status=needs_selection&connectToken=<token>, and the caller finishes with
// get_connect_options and complete_connect. The connectToken is the link's token. returnUrl is only ever put
// in a Location header, never fetched.
import type http from "node:http";
import { ToolError, type ToolContext } from "../context.js";
import type { Clock } from "../../clock.js";
import type { CompleteConnectOutput, ConnectLink, ConnectOptions } from "../../../generated/mcp/types.js";
import { minute, numericIdFrom, tokenFrom } from "./ids.js";
import { accountMagic, connectChannels, expiredConnectToken, hostedOnlyChannels, unreachableAccount, type ConnectChannel } from "./magic.js";
import { channelView } from "./readiness.js";
import type { BrandState, ChannelState, ConnectLinkState, ProfilesStore } from "./store.js";

/** A link (and the connect session behind it) works this long after it is minted. */
export const linkLifetime = 30 * minute;
/** After the client authorised a headless connect, the caller has this long to pick an option. */
export const sessionLifetime = 15 * minute;
const tokenLifetime = 60 * 24 * 60 * minute;

export const supportedChannels = Object.keys(connectChannels) as ConnectChannel[];

const profileUrls: Record<ConnectChannel, (account: string) => string | null> = {
  instagram: (a) => `https://www.instagram.com/${a}`,
  facebook: (a) => `https://www.facebook.com/${a}`,
  linkedin: (a) => `https://www.linkedin.com/company/${a}`,
  tiktok: (a) => `https://www.tiktok.com/@${a}`,
  pinterest: (a) => `https://www.pinterest.com/${a}`,
  google_business: () => null,
  youtube: (a) => `https://www.youtube.com/@${a}`,
  threads: (a) => `https://www.threads.net/@${a}`,
};

const scopesByChannel: Record<ConnectChannel, string[]> = {
  instagram: ["instagram_basic", "instagram_content_publish"],
  facebook: ["pages_manage_posts", "pages_read_engagement"],
  linkedin: ["w_organization_social", "r_organization_social"],
  tiktok: ["video.publish", "user.info.basic"],
  pinterest: ["boards:read", "pins:write"],
  google_business: ["business.manage"],
  youtube: ["youtube.upload"],
  threads: ["threads_basic", "threads_content_publish"],
};

const optionNames: Record<string, (account: string) => string[]> = {
  page: (a) => [a, `${a} Events`],
  organization: (a) => [a, `${a} Careers`],
  board: () => ["Ideas", "Products"],
  location: () => ["Main Street", "Harbour Front"],
};

/** Adds (or reconnects) the brand's channel for `platform`. */
function connectChannel(brand: BrandState, platform: ConnectChannel, account: string, displayName: string, clock: Clock): ChannelState {
  const now = clock.now();
  const channel: ChannelState = {
    platform,
    displayName,
    username: platform === "facebook" || platform === "google_business" ? null : account,
    profileUrl: profileUrls[platform](account),
    state: "connected",
    connectedAt: now,
    tokenExpiresAt: now + clock.window(tokenLifetime),
    scopes: [...scopesByChannel[platform]],
    missingScopes: [],
    canFetchAnalytics: true,
    ...(account.toLowerCase() === unreachableAccount ? { checkFails: true } : {}),
  };
  const i = brand.channels.findIndex((c) => c.platform === platform);
  if (i >= 0) brand.channels[i] = channel;
  else brand.channels.push(channel);
  brand.defaultPlatform ??= platform.toUpperCase();
  return channel;
}

const isHeadless = (link: ConnectLinkState) => link.platformNamed && link.returnUrl !== null;

// rule: connect-platform-not-supported headless-connect-unavailable
export function createConnectLink(store: ProfilesStore, args: Record<string, any>, ctx: ToolContext): ConnectLink {
  const brand = store.brandFor(ctx.principal, args.brandId as string);
  const platform = args.platform as string | undefined;
  // Own keys only: a channel named like an Object.prototype member (`constructor`) is not supported either.
  if (platform !== undefined && !Object.hasOwn(connectChannels, platform)) {
    throw new ToolError("platform_not_supported", `The gateway cannot connect ${platform}.`, { supportedChannels });
  }
  const returnUrl = args.returnUrl as string | undefined;
  if (returnUrl !== undefined && !/^https?:$/.test(new URL(returnUrl).protocol)) {
    throw new ToolError("bad_request", "returnUrl must be an http or https address.", { invalidFields: ["returnUrl"] });
  }
  if (returnUrl !== undefined && platform !== undefined && hostedOnlyChannels.includes(platform as ConnectChannel)) {
    throw new ToolError("headless_connect_unavailable", `${platform} connects only through the hosted page; call create_connect_link again without platform and returnUrl.`);
  }
  const now = ctx.clock.now();
  const token = tokenFrom(24, "connect-link", store.nextId("connect-link"));
  store.links.set(token, brand.id, {
    token,
    brandId: brand.id,
    platform: (platform ?? "instagram") as ConnectChannel,
    platformNamed: platform !== undefined,
    returnUrl: returnUrl ?? null,
    createdAt: now,
    expiresAt: now + ctx.clock.window(linkLifetime),
    state: "created",
    visitedAt: null,
    account: null,
    options: [],
  });
  return { url: new URL(`connect/${token}`, ctx.origin).href, expiresAt: new Date(now + ctx.clock.window(linkLifetime)).toISOString() };
}

/** The live headless session named by connectToken, or the envelope error that says why not. */
// rule: connect-session-expired connect-completed
function session(store: ProfilesStore, args: Record<string, any>, ctx: ToolContext): { brand: BrandState; link: ConnectLinkState } {
  const brand = store.brandFor(ctx.principal, args.brandId as string);
  if (args.connectToken === expiredConnectToken) throw new ToolError("connect_session_expired", "This connect session has expired; mint a new link with create_connect_link.");
  const link = store.links.get(args.connectToken as string);
  if (!link || link.brandId !== brand.id) throw new ToolError("not_found", "No connect session with this connectToken for this profile.");
  if (!isHeadless(link)) {
    throw new ToolError("headless_connect_unavailable", "This link was not made for a headless connect; mint one with platform and returnUrl, or let the client finish on the hosted page.");
  }
  const now = ctx.clock.now();
  const expiresAt = link.visitedAt === null ? link.expiresAt : link.visitedAt + ctx.clock.window(sessionLifetime);
  if (now >= expiresAt || link.state === "completed" || link.state === "failed") {
    throw new ToolError("connect_session_expired", "This connect session has expired or already finished; mint a new link with create_connect_link.");
  }
  if (link.state === "created") {
    throw new ToolError("bad_request", "The client has not authorised an account with this link yet; wait for the browser to return to returnUrl.", { invalidFields: ["connectToken"] });
  }
  return { brand, link };
}

export function getConnectOptions(store: ProfilesStore, args: Record<string, any>, ctx: ToolContext): ConnectOptions {
  const { link } = session(store, args, ctx);
  return { platform: link.platform, options: link.options.map((o) => ({ ...o })), expiresAt: new Date(link.visitedAt! + ctx.clock.window(sessionLifetime)).toISOString() };
}

export function completeConnect(store: ProfilesStore, args: Record<string, any>, ctx: ToolContext): CompleteConnectOutput {
  const { brand, link } = session(store, args, ctx);
  const option = link.options.find((o) => o.id === args.optionId);
  if (!option) throw new ToolError("bad_request", "optionId is not one of the options get_connect_options listed.", { invalidFields: ["optionId"] });
  const channel = connectChannel(brand, link.platform, link.account!, option.name, ctx.clock);
  link.state = "completed";
  return { brandId: brand.id, channel: channelView(channel, ctx.clock.now(), false) };
}

// ---- the hosted page ------------------------------------------------------------------------------------

function page(res: http.ServerResponse, status: number, title: string, text: string): void {
  const esc = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  const body = `<!doctype html><html><head><meta charset="utf-8"><title>${esc(title)}</title></head><body><h1>${esc(title)}</h1><p>${esc(text)}</p></body></html>`;
  res.writeHead(status, { "content-type": "text/html; charset=utf-8", "content-length": Buffer.byteLength(body), "cache-control": "no-store" });
  res.end(body);
}

function backTo(res: http.ServerResponse, returnUrl: string, params: Record<string, string>): void {
  const target = new URL(returnUrl);
  for (const [k, v] of Object.entries(params)) target.searchParams.set(k, v);
  res.writeHead(302, { location: target.href, "cache-control": "no-store", "content-length": 0 });
  res.end();
}

/** GET /connect/<token>: the simulated sign-in with the platform. */
export function serveConnectLink(store: ProfilesStore, clock: Clock, token: string, url: URL, res: http.ServerResponse): void {
  const now = clock.now();
  const link = store.links.get(token);
  if (!link) return page(res, 404, "Link not found", "This connect link does not exist.");
  const brand = store.brands.get(link.brandId);
  const usable = link.state === "created" && now < link.expiresAt && brand !== undefined && !store.workspaceOf(brand).deletion;
  if (!usable || !brand) {
    if (link.returnUrl) return backTo(res, link.returnUrl, { status: "failed", error: "link_expired" });
    return page(res, 410, "Link no longer valid", "This connect link was already used or has expired. Ask for a new one.");
  }
  const account = (url.searchParams.get("account") ?? brand.slug.replace(/-/g, "")).replace(/[^A-Za-z0-9._-]/g, "").slice(0, 60) || "account";
  link.visitedAt = now;
  link.account = account;
  const failure = accountMagic.find((m) => m.account === account.toLowerCase());
  if (failure) {
    link.state = "failed";
    if (link.returnUrl) return backTo(res, link.returnUrl, { status: "failed", error: failure.error });
    return page(res, 400, "Connection failed", `The account could not be connected (${failure.error}). Ask for a new link to try again.`);
  }
  const optionType = connectChannels[link.platform];
  if (optionType !== null) {
    link.options = optionNames[optionType]!(account).map((name) => ({ id: numericIdFrom("option", link.token, name), name, type: optionType }));
  }
  if (isHeadless(link) && optionType !== null) {
    link.state = "authorised";
    return backTo(res, link.returnUrl!, { status: "needs_selection", connectToken: link.token });
  }
  // Hosted flow: the client picks on our page; the simulation takes the first option.
  connectChannel(brand, link.platform, account, link.options[0]?.name ?? account, clock);
  link.state = "completed";
  if (link.returnUrl) return backTo(res, link.returnUrl, { status: "connected" });
  return page(res, 200, "Account connected", `Your ${link.platform} account ${account} is now connected to ${brand.name}. You can close this page.`);
}
