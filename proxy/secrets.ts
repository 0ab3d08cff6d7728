// What in a request or an answer is a secret: headers by name (every credential header, whatever its scheme,
// and any the user names), and the values they carry, learnt so that an echo of one anywhere (a body, a
// message, another header) is redacted too.
import { redactedMark } from "../conformance/core/redact.js";

/** Headers whose values are secrets whatever they hold. */
export const defaultSecretHeaders = ["authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key"] as const;

/** Query parameters that carry a token (RFC 6750 §2.3's access_token, and the usual API key names). */
const secretParams = ["access_token", "api_key", "apikey"];

/** Authentication schemes shown in reports ("Basic [redacted]"); any other first word may be the secret itself. */
const schemes = new Set(["bearer", "basic", "digest", "token", "apikey", "api-key", "dpop", "negotiate", "ntlm", "hoba", "mutual", "hawk", "vapid", "aws4-hmac-sha256", "scram-sha-1", "scram-sha-256", "privatetoken", "gnap"]);

/** A credential header's value with only a known scheme left: `Bearer [redacted]`, else `[redacted]`. */
export function schemeOnly(value: unknown): string {
  const scheme = /^\s*(\S+)\s+\S/.exec(String(value))?.[1];
  return scheme && schemes.has(scheme.toLowerCase()) ? `${scheme} ${redactedMark}` : redactedMark;
}

const credentialHeaders = new Set(["authorization", "proxy-authorization"]);

/** The secrets one header value carries: the credentials after the scheme (decoded too for Basic), cookie values, or the whole value. */
export function secretsOf(name: string, value: string): string[] {
  const v = value.trim();
  if (!v) return [];
  if (credentialHeaders.has(name)) {
    const m = /^(\S+)\s+(.+)$/s.exec(v);
    if (!m) return [v];
    const out = [m[2]!.trim()];
    if (m[1]!.toLowerCase() === "basic") {
      const decoded = Buffer.from(m[2]!.trim(), "base64").toString("utf8");
      const colon = decoded.indexOf(":");
      if (colon >= 0 && !decoded.includes("\ufffd")) out.push(decoded, decoded.slice(colon + 1));
    }
    return out.filter(Boolean);
  }
  if (name === "cookie") return v.split(";").map((pair) => pair.slice(pair.indexOf("=") + 1).trim()).filter(Boolean);
  if (name === "set-cookie") {
    const pair = v.split(";")[0]!;
    return [pair.slice(pair.indexOf("=") + 1).trim()].filter(Boolean);
  }
  return [v];
}

/** The credentials of an absolute-form target's user info (`http://user:password@host/…`), as sent and decoded. */
function userInfoOf(target: string): string[] {
  const info = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)@/i.exec(target)?.[1];
  if (!info) return [];
  const out: string[] = [];
  for (const part of [info, ...info.split(":")]) {
    out.push(part);
    try {
      out.push(decodeURIComponent(part));
    } catch {
      /* not percent-encoded text: kept as sent */
    }
  }
  return out.filter(Boolean);
}

/** The tokens a request target carries: in its query (access_token, …) and in an absolute form's user info. */
export function secretsOfTarget(target: string): string[] {
  const info = userInfoOf(target);
  const q = target.indexOf("?");
  if (q < 0) return info;
  try {
    const params = new URLSearchParams(target.slice(q + 1));
    return [...info, ...secretParams.flatMap((p) => params.getAll(p)).filter(Boolean)];
  } catch {
    return info;
  }
}

type Headers = Record<string, string | string[] | undefined>;

/** Finds and hides the secrets of headers: by name, with the names given. */
export class SecretHeaders {
  readonly names: ReadonlySet<string>;
  constructor(extra: readonly string[] = []) {
    this.names = new Set([...defaultSecretHeaders, ...extra.map((n) => n.toLowerCase())]);
  }

  /** Every secret the headers carry. */
  secrets(headers: Headers): string[] {
    const out: string[] = [];
    // for…in, not Object.entries: this runs for every exchange, and most headers are not secret.
    for (const k in headers) {
      const x = headers[k];
      const name = k.toLowerCase();
      if (x === undefined || !this.names.has(name)) continue;
      for (const v of Array.isArray(x) ? x : [x]) out.push(...secretsOf(name, String(v)));
    }
    return out;
  }

  /** Every secret of raw headers (name, value, name, value, … as received: every copy of a repeated header). */
  secretsOfRaw(raw: readonly string[]): string[] {
    const out: string[] = [];
    for (let i = 0; i + 1 < raw.length; i += 2) {
      const name = raw[i]!.toLowerCase();
      if (this.names.has(name)) out.push(...secretsOf(name, raw[i + 1]!));
    }
    return out;
  }

  /** A copy of the headers with every secret header's value hidden (credential headers keep a known scheme). */
  hide<H extends Headers>(headers: H): H {
    const out: Headers = {};
    // for…in, as in secrets(): every exchange's headers pass here, twice.
    for (const k in headers) {
      const x = headers[k];
      const name = k.toLowerCase();
      if (x === undefined || !this.names.has(name)) out[k] = x;
      else {
        const hidden = (v: string) => (credentialHeaders.has(name) ? schemeOnly(v) : redactedMark);
        out[k] = Array.isArray(x) ? x.map(hidden) : hidden(String(x));
      }
    }
    return out as H;
  }
}
