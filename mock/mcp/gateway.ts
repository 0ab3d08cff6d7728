// Wires the gateway mock's two state domains (profiles & workspaces; posts & publishing) into one handler table.
import type http from "node:http";
import type { Clock } from "../clock.js";
import type { PostsApi, ProfilesApi, ToolHandler } from "./context.js";
import { createProfilesDomain } from "./profiles/domain.js";
import { createPostsDomain } from "./posts/domain.js";

/** One state domain: its API for the other domain, its tool handlers, and the plain HTTP pages it serves. */
export interface Domain<Api> {
  api: Api;
  handlers: Record<string, ToolHandler>;
  /** Serves a non-MCP request (connect links, pictures); returns false when the path is not its own. */
  serveHttp(req: http.IncomingMessage, res: http.ServerResponse, url: URL): boolean;
}

export interface Gateway {
  handlers: Record<string, ToolHandler>;
  profiles: ProfilesApi;
  posts: PostsApi;
  serveHttp(req: http.IncomingMessage, res: http.ServerResponse, url: URL): boolean;
}

export function createGateway(clock: Clock, origin: () => URL): Gateway {
  const profiles: Domain<ProfilesApi> = createProfilesDomain(clock, origin);
  const posts: Domain<PostsApi> = createPostsDomain(clock, origin);
  const overlap = Object.keys(profiles.handlers).filter((name) => name in posts.handlers);
  if (overlap.length) throw new Error(`tools handled twice: ${overlap.join(", ")}`);
  return {
    handlers: { ...profiles.handlers, ...posts.handlers },
    profiles: profiles.api,
    posts: posts.api,
    serveHttp: (req, res, url) => profiles.serveHttp(req, res, url) || posts.serveHttp(req, res, url),
  };
}
