// What every tool handler of the MCP gateway mock receives and may throw. The two state domains (profiles and
// posts) talk to each other only through the small interfaces here.
import { expectedRetryable } from "../../generated/mcp/errors.js";
import type { ErrorCode } from "../../generated/mcp/errors.js";
import type http from "node:http";
import type { Clock } from "../clock.js";

export type Scope = "mcp:read" | "mcp:write";

/** Who is calling, as the bearer token says. */
export interface Principal {
  /** The token itself; never log or echo it. */
  token: string;
  /** partner: a partner backend (sees partner-only tools); user: a signed-in user of the app. */
  kind: "partner" | "user";
  /** Tenant (partner or user account) that owns workspaces. */
  tenant: string;
  scopes: ReadonlySet<Scope>;
  /** false → every call fails with partner_not_found (a partner token whose client has no partner configured). */
  partnerConfigured: boolean;
  /** A situation token's code (tokens.ts): every call that passed its arguments answers it. */
  failsWith?: string;
  /** true → every call fails with partner_downstream_auth_failed (the gateway cannot get the client's access). */
  downstreamAuthFails?: boolean;
}

/** A failure a tool reports in the contract's envelope ({ok:false, error:{code, message, retryable, …extra}}). */
// rule: retryable-per-catalogue error-structured-fields failure-envelope
export class ToolError extends Error {
  readonly code: ErrorCode;
  readonly extra: Record<string, unknown>;
  readonly retryable: boolean;
  /** `code` is a catalogue code, or upstream_<status> for failures the gateway passes on unrecognised. */
  constructor(code: ErrorCode, message: string, extra: Record<string, unknown> = {}) {
    super(message);
    this.code = code;
    this.extra = extra;
    // The catalogue decides the flag (including schedule_failed's rule), so handlers cannot get it wrong.
    this.retryable = expectedRetryable({ code, ...extra }) ?? false;
  }

  envelope() {
    return { ok: false as const, error: { code: this.code, message: this.message, retryable: this.retryable, ...this.extra } };
  }
}

/** A brand (profile) as the posts domain needs to see it. */
export interface BrandRecord {
  id: string;
  companyId: string;
  name: string;
  isActive: boolean;
  /** Has brand settings (blocker no_brand_profile otherwise): nothing generates or publishes without them. */
  hasBrandProfile: boolean;
  /** Build state of a profile made by create_profile; null for one that was never built (always ready). */
  buildStatus: "building" | "ready" | "failed" | null;
  /** Uppercase destination used when a call names none. */
  defaultPlatform: string | null;
  /** Uppercase destinations with a live (publishable) connection. */
  connectedDestinations(): string[];
  /** Health of the channel behind an uppercase destination (stories use the base channel), or null if none. */
  healthOf(destination: string): "connected" | "expiring_soon" | "needs_reauth" | "disconnected" | null;
  /** Partner workspaces require approval before scheduling or publishing. */
  requiresApproval: boolean;
}

export interface ProfilesApi {
  /**
   * The brand if the principal may reach it; throws not_found / forbidden in the envelope otherwise. `asked` is
   * what the caller sent when that was not the brand id (e.g. "Post <id>"): errors name only what was sent.
   */
  brandFor(principal: Principal, brandId: string, asked?: string): BrandRecord;
  /** Spends AI allowance of the brand's workspace; throws usage_limit_exceeded (with resetDate) when used up. */
  spendAi(brand: BrandRecord, units: number): void;
  /** Throws profile_not_ready when the brand's build is building or failed. */
  requireBuilt(brand: BrandRecord): void;
  /** Ids of every brand of the tenant's workspaces (also those being ended). */
  brandsOf(tenant: string): string[];
  /** About the bytes the brand's style lists that grow with calls (palette colours, saved logos) take as JSON. */
  styleBytesOf(brandId: string): number;
}

export interface PostsApi {
  /** Withdraws every scheduled destination of the brand's posts (they keep their date); returns how many posts. */
  withdrawScheduled(brandId: string): number;
  /** Erases every post, picture and job of the brand; its picture URLs stop resolving. */
  erase(brandId: string): void;
  /** Bytes (JSON size) the brand's posts, batches and jobs take. */
  bytesOf(brandId: string): number;
}

export interface ToolContext {
  principal: Principal;
  clock: Clock;
  /** Origin of the mock (for connect links and picture URLs it serves itself). */
  origin: URL;
  profiles: ProfilesApi;
  posts: PostsApi;
}

/** A tool's implementation: validated arguments in, success payload out; failures throw ToolError. */
export type ToolHandler = (args: Record<string, any>, ctx: ToolContext) => unknown;

/** One state domain of the gateway (profiles, posts): its API for the other, its tool handlers, its background work. */
export interface Domain<Api> {
  api: Api;
  handlers: Record<string, ToolHandler>;
  /** Finishes the domain's background work that has ended by now. */
  settle(): void;
  /** The instants still ahead at which its background work changes what a view shows (any order, repeats). */
  endInstants(): number[];
  /** Serves a non-MCP request (connect links, pictures); returns false when the path is not its own. */
  serveHttp(req: http.IncomingMessage, res: http.ServerResponse, url: URL): boolean;
}
