// MCP authorization discovery (RFC 9728, OAuth 2.0 Protected Resource Metadata): the MCP authorization spec has a
// server that takes bearer tokens publish where its tokens come from, and name that document in the 401
// challenge's `resource_metadata`. Without it, SDK clients and the Inspector guess and fall into an interactive
// OAuth flow instead of using the token they were given.
//
// Inferred: seed 001 leaves the token request "not shown", so the authorization server named here is a
// placeholder on the mock's own loopback origin (it serves no OAuth endpoints); the scopes are the seed's.
import type http from "node:http";

export const metadataPath = "/.well-known/oauth-protected-resource";
/** The scopes seed 001 lists: mcp:read for every tool, mcp:write as well for tools that change data. */
export const scopesSupported = ["mcp:read", "mcp:write"];

/** The origin the client reached the mock under (its Host passed the DNS-rebinding check), else the bound one. */
export function originOf(req: http.IncomingMessage, bound: URL): string {
  const host = req.headers.host;
  return host && URL.canParse(`http://${host}`) ? new URL(`http://${host}`).origin : bound.origin;
}

/** RFC 9728 §3.1: the metadata URL of a resource with a path inserts the well-known part before the path. */
export const metadataUrl = (origin: string): string => `${origin}${metadataPath}/mcp`;

/** The RFC 9728 document for the resource at `origin` + `path` (the path the well-known URL was built from). */
export function resourceMetadata(origin: string, path: "" | "/mcp") {
  return {
    resource: `${origin}${path}`,
    authorization_servers: [origin], // placeholder, see above
    scopes_supported: scopesSupported,
    bearer_methods_supported: ["header"],
    resource_name: "Partner Tool Gateway (ideas-contract mock)",
  };
}

/** The 401/403 challenge: Bearer, the realm, `resource_metadata` (RFC 9728 §5.1) and any error parameters. */
export function challenge(origin: string, params: Record<string, string> = {}): string {
  const all = { realm: "mcp", resource_metadata: metadataUrl(origin), ...params };
  return `Bearer ${Object.entries(all).map(([k, v]) => `${k}="${v.replace(/["\\]/g, "")}"`).join(", ")}`;
}

/**
 * Answers GET (or HEAD) of the metadata at `/.well-known/oauth-protected-resource` (the origin as resource) and
 * `…/mcp` (the MCP endpoint); returns whether the path was one of them.
 */
export function serveResourceMetadata(
  req: http.IncomingMessage,
  url: URL,
  origin: string,
  send: (status: number, body: unknown, headers?: Record<string, string>) => void,
): boolean {
  const path = url.pathname === metadataPath ? "" : url.pathname === `${metadataPath}/mcp` ? "/mcp" : null;
  if (path === null) return false;
  req.resume();
  if (req.method !== "GET" && req.method !== "HEAD")
    send(405, { error: "method_not_allowed", error_description: "The resource metadata is read with GET." }, { allow: "GET, HEAD" });
  else send(200, resourceMetadata(origin, path), { "cache-control": "max-age=3600" });
  return true;
}
