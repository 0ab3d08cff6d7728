// Who may use /__control/ (reset wipes every mock sharing the control, so a web page the developer visits must
// not reach it): a caller with the run's control token (X-Control-Token), or a request from this machine that a
// browser page cannot forge — the mock's own Host (a DNS-rebinding page sends its own name), no foreign Origin
// and no cross-site Sec-Fetch-Site. In both cases the path must be the canonical /__control/<name>: a path that
// only normalizes to it (/v1/../__control/reset, //__control/…, %2e%2e, an absolute-form target) is refused.
import { randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { isLoopbackHostname } from "./browser-access.js";

export const controlPrefix = "/__control/";
export const controlTokenHeader = "x-control-token";

export interface ControlRefusal {
  status: number;
  code: string;
  message: string;
}

/** A fresh per-run control token (unguessable; printed by the CLI, returned by startRestMock/startMcpMock). */
export const newControlToken = (): string => `ctl_${randomBytes(18).toString("base64url")}`;

/** Percent-decodes what can be decoded, for spotting an encoded `__control`. */
function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text.replace(/%5f/gi, "_").replace(/%2e/gi, ".").replace(/%2f/gi, "/");
  }
}

/**
 * Whether a request target is about the control surface: "canonical" when it is exactly /__control/<name>
 * (with an optional query), "trick" when it only resolves to or mentions it, null when it has nothing to do with it.
 */
export function controlTarget(target: string | undefined): "canonical" | "trick" | null {
  const raw = target ?? "/";
  const path = raw.split(/[?#]/)[0]!;
  let normalized = "";
  try {
    normalized = new URL(raw, "http://mock").pathname;
  } catch {
    /* unparsable: judged by the raw text below */
  }
  // The path only: a query may mention anything.
  const mentions = normalized.startsWith(controlPrefix) || decoded(decoded(path)).toLowerCase().includes("__control");
  if (!mentions) return null;
  return /^\/__control\/[\w-]*$/.test(path) && !raw.includes("#") ? "canonical" : "trick";
}

const sameText = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

const isLoopbackAddress = (address: string | undefined) =>
  address !== undefined && (address === "::1" || /^(::ffff:)?127\./.test(address));

/** Whether `host` (a Host header) names this very server: a loopback name or the address it was reached on, and its port. */
function ownHost(host: string | undefined, req: IncomingMessage): boolean {
  if (host === undefined) return false;
  let u: URL;
  try {
    u = new URL(`http://${host}`);
  } catch {
    return false;
  }
  if (u.username || u.password || u.pathname !== "/" || u.search || u.hash) return false;
  const name = u.hostname.replace(/^\[|\]$/g, "");
  const local = (req.socket.localAddress ?? "").replace(/^::ffff:/, "");
  return (isLoopbackHostname(name) || name === local) && Number(u.port || 80) === req.socket.localPort;
}

/** Whether an Origin header is this server's own origin (scheme, a name for it, its port). */
function ownOrigin(origin: string, req: IncomingMessage): boolean {
  let u: URL;
  try {
    u = new URL(origin);
  } catch {
    return false; // "null" (a sandboxed frame, a file: page) and anything unparsable
  }
  const scheme = (req.socket as { encrypted?: boolean }).encrypted ? "https:" : "http:";
  if (u.protocol !== scheme || u.pathname !== "/" || u.username) return false;
  return ownHost(u.port ? u.host : `${u.host}:${scheme === "https:" ? 443 : 80}`, req);
}

/** Why a control request must not be acted on, or null when it may; `token` is the run's control token. */
export function controlRefusal(req: IncomingMessage, token: string): ControlRefusal | null {
  if (controlTarget(req.url) !== "canonical")
    return { status: 400, code: "non_canonical_path", message: "Control paths are exactly /__control/<name>; this path only resolves to one." };
  const origin = req.headersDistinct.origin;
  if (origin && (origin.length > 1 || !ownOrigin(origin[0]!, req)))
    return { status: 403, code: "foreign_origin", message: "Control requests are not taken from web pages of other origins." };
  const sent = req.headersDistinct[controlTokenHeader];
  if (sent) {
    if (sent.length === 1 && sameText(sent[0]!, token)) return null;
    return { status: 403, code: "invalid_control_token", message: "The control token is not this run's." };
  }
  const site = req.headers["sec-fetch-site"];
  if (site !== undefined && site !== "same-origin" && site !== "none")
    return { status: 403, code: "cross_site", message: "Control requests are not taken from other sites' pages." };
  if (!isLoopbackAddress(req.socket.remoteAddress))
    return { status: 403, code: "control_token_required", message: `From another machine, send the run's control token in ${controlTokenHeader}.` };
  if ((req.headersDistinct.host?.length ?? 0) !== 1 || !ownHost(req.headers.host, req))
    return { status: 403, code: "foreign_host", message: "The Host is not this mock's own address; send the run's control token to use another name." };
  return null;
}
