// Wires the gateway mock's two state domains (profiles & workspaces; posts & publishing) into one handler table.
// The mock runs no timers: every tool call and page request first settles, in both domains, the background work
// that has ended by now, and runs at that one instant (a call that read now twice could straddle an end instant).
import type http from "node:http";
import { holdable, type Clock } from "../clock.js";
import type { Domain, PostsApi, ProfilesApi, ToolHandler } from "./context.js";

export type { Domain };
import { createProfilesDomain, type ProfilesToolName } from "./profiles/domain.js";
import { createPostsDomain, type PostsToolName } from "./posts/domain.js";
import type { ToolName } from "../../generated/mcp/types.js";

/** One state domain: its API for the other domain, its tool handlers, and the plain HTTP pages it serves. */

export interface Gateway {
  /** Each runs atOneInstant, with ctx.clock held at that instant. */
  handlers: Record<string, ToolHandler>;
  profiles: ProfilesApi;
  posts: PostsApi;
  /** Runs `fn` with now held at one instant, after both domains settled what had ended by it (nests). */
  atOneInstant<T>(fn: () => T): T;
  serveHttp(req: http.IncomingMessage, res: http.ServerResponse, url: URL): boolean;
  /**
   * The instants still ahead at which background work (of one domain, or both) changes a view, ascending: tests
   * step a frozen clock over them.
   */
  endInstants(only?: "posts" | "profiles"): number[];
}

// Every tool of the contract has a handler in one domain: a tool added to spec/mcp/tools/ without one is a compile
// error here, naming it (and a handler for a tool the contract lacks is one in its domain's table).
type Unhandled = Exclude<ToolName, PostsToolName | ProfilesToolName>;
const everyToolHandled: [Unhandled] extends [never] ? true : { unhandled: Unhandled } = true;
void everyToolHandled;

export function createGateway(clock: Clock, origin: () => URL): Gateway {
  const held = holdable(clock);
  const posts: Domain<PostsApi> = createPostsDomain(held, origin);
  const profiles: Domain<ProfilesApi> = createProfilesDomain(held, origin, posts.api);
  const overlap = Object.keys(profiles.handlers).filter((name) => name in posts.handlers);
  if (overlap.length) throw new Error(`tools handled twice: ${overlap.join(", ")}`);
  // Profiles first: a deletion that has ended erases its posts before they are played forward.
  const atOneInstant = <T>(fn: () => T): T =>
    held.hold(() => {
      profiles.settle();
      posts.settle();
      return fn();
    });
  const handlers: Record<string, ToolHandler> = {};
  for (const [name, handle] of Object.entries({ ...profiles.handlers, ...posts.handlers })) {
    handlers[name] = (args, ctx) => atOneInstant(() => handle(args, { ...ctx, clock: held }));
  }
  return {
    handlers,
    profiles: profiles.api,
    posts: posts.api,
    atOneInstant,
    endInstants(only) {
      const all = [...(only === "posts" ? [] : profiles.endInstants()), ...(only === "profiles" ? [] : posts.endInstants())];
      return [...new Set(all)].sort((a, b) => a - b);
    },
    serveHttp: (req, res, url) => atOneInstant(() => profiles.serveHttp(req, res, url) || posts.serveHttp(req, res, url)),
  };
}
