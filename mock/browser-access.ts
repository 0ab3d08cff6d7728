// Which web pages may talk to a mock, decided once for CORS and for the MCP transport's DNS-rebinding rule.
// One allow-list of origins serves both: an allowed origin gets CORS headers (so a front-end on another port
// can call the mock with fetch), and the MCP endpoint answers any other Origin 403 (the MCP spec's MUST; a
// browser would block the answer anyway, but a rebinding page must not even reach the tools). By default every
// loopback origin is allowed, like Prism's permissive CORS on 127.0.0.1. Requests without Origin (curl, SDK
// clients, tests) are not browser requests and pass untouched.
import type { IncomingMessage, ServerResponse } from "node:http";

export interface BrowserAccessOptions {
  /**
   * Origins a page may call the mock from besides every loopback origin (localhost, *.localhost, 127.0.0.0/8,
   * [::1], on any port and scheme, always allowed), exactly as a browser sends them (`https://dev.example.com`),
   * or `*` for any.
   */
  allowedOrigins?: readonly string[];
  /**
   * Host header names (any port) the MCP endpoint answers; default the loopback names plus the host it listens on.
   * A rebinding page reaches the mock under its own domain name, which is not on this list.
   */
  allowedHosts?: readonly string[];
}

/** Request headers a page may send: the APIs' own plus what fetch adds for JSON and SSE. */
export const corsAllowedHeaders = ["authorization", "content-type", "accept", "mcp-session-id", "mcp-protocol-version", "last-event-id", "prefer"];
/** Response headers a page may read: waits, the MCP session and the auth challenge. */
export const corsExposedHeaders = ["Retry-After", "Mcp-Session-Id", "Mcp-Protocol-Version", "WWW-Authenticate", "Allow"];
const corsMethods = "GET, POST, PATCH, DELETE, OPTIONS";

export function isLoopbackHostname(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, "");
  return h === "localhost" || h.endsWith(".localhost") || h === "::1" || /^127(\.\d{1,3}){3}$/.test(h);
}

/**
 * A Host header's grammar (RFC 9110 §7.2: uri-host [":" port]): a registered name or IP literal, nothing more. A URL
 * parser would take user info (`user:pw@127.0.0.1`), a path or a query and name the host after them.
 */
const hostHeader = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._~%!$&'()*+,;=-]+)(:\d{0,5})?$/;

/** The hostname of a Host header (`name:port`, `[v6]:port`), lowercased; null when it is malformed. */
function hostnameOf(host: string): string | null {
  if (!hostHeader.test(host)) return null;
  try {
    return new URL(`http://${host}`).hostname.toLowerCase().replace(/^\[|\]$/g, "");
  } catch {
    return null;
  }
}

export type AccessVerdict =
  /** A preflight, answered here. */
  | "answered"
  /** A preflight from an origin not on the list: the caller refuses it with preflightRefusal(). */
  | "refused-preflight"
  /** A browser request from an origin not on the list (no CORS headers were set). */
  | "foreign-origin"
  | "pass";

export interface BrowserAccess {
  originAllowed(origin: string): boolean;
  hostAllowed(host: string | undefined): boolean;
  /**
   * Sets CORS headers on `res` for an allowed Origin and answers its preflight (204). Reports a foreign origin
   * to the caller, which decides (the REST mock serves it without CORS headers; the MCP endpoint refuses it).
   */
  check(req: IncomingMessage, res: ServerResponse): AccessVerdict;
}

const isPreflight = (req: IncomingMessage) => req.method === "OPTIONS" && req.headers["access-control-request-method"] !== undefined;

/**
 * What a refused preflight's body says: a CORS matter (the page's origin), and how to allow it — not the API's
 * method rules, which a developer debugging a blocked fetch would otherwise chase. The origin is quoted as JSON.
 */
export function preflightRefusal(origin: string): string {
  return `CORS: pages from the origin ${JSON.stringify(origin)} may not call this mock. Loopback origins (http://localhost:5173, http://127.0.0.1:3000, …) are allowed; start the mock with --allow-origin ${JSON.stringify(origin)} to allow this one too.`;
}

export function createBrowserAccess(options: BrowserAccessOptions = {}, listenHost = "127.0.0.1"): BrowserAccess {
  const anyOrigin = options.allowedOrigins?.includes("*") ?? false;
  const origins = options.allowedOrigins ? new Set(options.allowedOrigins.map((o) => o.replace(/\/$/, "").toLowerCase())) : null;
  const hosts = options.allowedHosts ? new Set(options.allowedHosts.map((h) => h.toLowerCase().replace(/^\[|\]$/g, ""))) : null;
  const bound = listenHost.toLowerCase().replace(/^\[|\]$/g, "");

  const originAllowed = (origin: string): boolean => {
    if (anyOrigin || origins?.has(origin.toLowerCase())) return true;
    try {
      const u = new URL(origin);
      return (u.protocol === "http:" || u.protocol === "https:") && isLoopbackHostname(u.hostname);
    } catch {
      return false; // "null" (a file:// page or a sandboxed frame) and anything unparsable
    }
  };
  const hostAllowed = (host: string | undefined): boolean => {
    if (host === undefined) return true; // HTTP/1.0 without Host: not a browser
    const name = hostnameOf(host);
    if (name === null) return false;
    if (hosts) return hosts.has(name);
    return isLoopbackHostname(name) || name === bound;
  };

  return {
    originAllowed,
    hostAllowed,
    check(req, res) {
      const origin = req.headers.origin;
      if (origin === undefined) return "pass";
      if (!originAllowed(origin)) return isPreflight(req) ? "refused-preflight" : "foreign-origin";
      res.setHeader("Access-Control-Allow-Origin", origin);
      res.setHeader("Vary", "Origin");
      res.setHeader("Access-Control-Expose-Headers", corsExposedHeaders.join(", "));
      if (isPreflight(req)) {
        res.writeHead(204, {
          "Access-Control-Allow-Methods": corsMethods,
          "Access-Control-Allow-Headers": corsAllowedHeaders.join(", "),
          "Access-Control-Max-Age": "600",
          "Content-Length": "0",
        });
        res.end();
        req.resume();
        return "answered";
      }
      return "pass";
    },
  };
}
