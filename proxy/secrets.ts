// What in a request or an answer is a secret: headers by name (every credential header, whatever its scheme,
// and any the user names), the credentials of URLs in any header's value and of a target's query, and body
// members whose name says so (hidden where a report shows the body); the values are learnt so that an echo of one
// anywhere (a body, a message, another header) is redacted too.
import { credentialHeaders, defaultSecretHeaders, redactedMark, secretsOf } from "../conformance/core/redact.js";
import { detached } from "./detached.js";

export { defaultSecretHeaders, secretsOf };

/** Query parameters that carry a token whatever it looks like (RFC 6750 §2.3's access_token, the usual API key names). */
const secretParams = new Set(["access_token", "api_key", "apikey"]);

/**
 * Whether a header's or a query parameter's name says it carries a credential, beyond the names listed: any name
 * with a credential word in it (X-Auth-Token, X-Access-Token, Api-Key, X-Session-Token, Authentication, token,
 * client_secret, password, X-Amz-Security-Token, a signed URL's sig, …). Hiding a value that was not a secret costs
 * a report a detail; printing one that was costs the credential. Standard headers that only name credentials
 * (challenges, CORS) and the MCP session id, which the judges read, are not secrets.
 */
const credentialName = /auth|token|secret|passw|pwd|credential|cookie|session|signature|jwt|bearer|csrf|xsrf|key|^(sig|code)$/i;
const notCredentials = /^(www-authenticate|proxy-authenticate|authentication-info|proxy-authentication-info|access-control-.*|mcp-session-id|sec-websocket-.*)$/i;
/** Names seen, and whether each names a credential: every exchange's headers are asked, most of them the same. */
const asked = new Map<string, boolean>();
/** Names kept in `asked` at most: a client inventing names costs a test each, never memory. */
const askedCap = 1024;
export function namesACredential(name: string): boolean {
  let yes = asked.get(name);
  if (yes === undefined) {
    yes = credentialName.test(name) && !notCredentials.test(name);
    // A copy of its own: a name sliced from a head would keep the head (detached.ts).
    if (asked.size < askedCap) asked.set(detached(name), yes);
  }
  return yes;
}

/**
 * A value under a name that only looks like a credential's is hidden wherever its header is shown, but learnt (and so
 * redacted wherever else it appears) only when it is as long as a credential, never a "true" or a "3600" that would
 * then vanish from every body. 8: the length from which a learnt secret is replaced anywhere.
 */
const learntFrom = 8;
const likelySecret = (value: string) => value.length >= learntFrom;

/** Authentication schemes shown in reports ("Basic [redacted]"); any other first word may be the secret itself. */
const schemes = new Set(["bearer", "basic", "digest", "token", "apikey", "api-key", "dpop", "negotiate", "ntlm", "hoba", "mutual", "hawk", "vapid", "aws4-hmac-sha256", "scram-sha-1", "scram-sha-256", "privatetoken", "gnap"]);

/** A credential header's value with only a known scheme left: `Bearer [redacted]`, else `[redacted]`. */
export function schemeOnly(value: unknown): string {
  const scheme = /^\s*(\S+)\s+\S/.exec(String(value))?.[1];
  return scheme && schemes.has(scheme.toLowerCase()) ? `${scheme} ${redactedMark}` : redactedMark;
}


/**
 * schemeOnly of the credential values met, at most `shownCap` (the oldest let go first): a client sends the same
 * credential on every request, and every exchange's headers are hidden. Held in memory only, as the headers are.
 */
const shown = new Map<string, string>();
const shownCap = 256;
function schemeOnlyMemo(value: string): string {
  let out = shown.get(value);
  if (out === undefined) {
    out = schemeOnly(value);
    if (shown.size >= shownCap) shown.delete(shown.keys().next().value!);
    shown.set(detached(value), out);
  }
  return out;
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

/** Whether a query parameter (or form field) carries a credential: by its name, as the headers' (decoded name and value). */
const secretParam = (name: string, value: string) => value !== "" && (secretParams.has(name.toLowerCase()) || (namesACredential(name) && likelySecret(value)));

/**
 * The tokens a request target carries: in its query (RFC 6750 §2.3's access_token, api_key, any parameter whose name
 * says it is a credential) and in an absolute form's user info.
 */
export function secretsOfTarget(target: string): readonly string[] {
  // A path without a query (most requests) carries none.
  if (target.charCodeAt(0) === 47 && !target.includes("?")) return none;
  const out = userInfoOf(target);
  const q = target.indexOf("?");
  if (q < 0) return out;
  try {
    for (const [name, value] of new URLSearchParams(target.slice(q + 1))) if (secretParam(name, value)) out.push(value);
  } catch {
    /* a query URLSearchParams cannot read: its user info only */
  }
  return out;
}

const none: readonly string[] = Object.freeze([]);

/**
 * URLs inside a header's value (Referer, Location, Link, X-Original-URL, …): absolute ones, and paths with a query.
 * Their credentials are the target's (a query parameter whose name says so, user info): learnt and hidden as those.
 * The value is cut into words at what no URL holds, and each word read once: a regex that looked for URLs anywhere
 * would read a long value once per position (a 16 KiB header of letters: half a second).
 */
const wordBreaks = /([\s<>"',]+)/;
/** Most header values hold neither a query nor user info: one test each. */
const mayHoldUrlCredentials = (v: string) => v.includes("?") || v.includes("@");
const isLetter = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const inScheme = (c: number) => isLetter(c) || (c >= 48 && c <= 57) || c === 43 || c === 45 || c === 46;
/** Where the URL in a word starts (its scheme, at most 32 characters before "://"; or a path with a query), or -1. */
function urlStart(word: string): number {
  const sep = word.indexOf("://");
  if (sep < 0) return word.charCodeAt(0) === 47 && word.includes("?") ? 0 : -1;
  let i = sep;
  while (i > 0 && sep - i < 32 && inScheme(word.charCodeAt(i - 1))) i--;
  while (i < sep && !isLetter(word.charCodeAt(i))) i++;
  return i < sep ? i : -1;
}

/** The credentials the URLs in a header's value carry. */
export function secretsOfUrls(value: string): readonly string[] {
  if (!mayHoldUrlCredentials(value)) return none;
  const out: string[] = [];
  const words = value.split(wordBreaks);
  for (let i = 0; i < words.length; i += 2) {
    const at = urlStart(words[i]!);
    if (at >= 0) pushAll(out, secretsOfTarget(words[i]!.slice(at)));
  }
  return out;
}

/** Percent- and plus-decoded, as URLSearchParams reads a query; as it is when it is no percent-encoding. */
function formDecoded(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, " "));
  } catch {
    return s;
  }
}

/** A query or form body (a fragment after it kept) with the value of every field that carries a credential (secretParam) hidden. */
function hideFields(query: string): string {
  const hash = query.indexOf("#");
  const fields = hash < 0 ? query : query.slice(0, hash);
  const hidden = fields.split("&").map((field) => {
    const eq = field.indexOf("=");
    if (eq <= 0) return field;
    const name = field.slice(0, eq);
    return secretParam(formDecoded(name), formDecoded(field.slice(eq + 1))) ? `${name}=${redactedMark}` : field;
  });
  return hidden.join("&") + (hash < 0 ? "" : query.slice(hash));
}

/** A URL with its user info and its credential query parameters hidden. */
function hideUrl(url: string): string {
  const out = url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#@]*@/i, `$1${redactedMark}@`);
  const q = out.indexOf("?");
  return q < 0 ? out : out.slice(0, q + 1) + hideFields(out.slice(q + 1));
}

/** A header value with the credentials of the URLs in it hidden (the rest as it is). */
export function hideUrlCredentials(value: string): string {
  if (!mayHoldUrlCredentials(value)) return value;
  const words = value.split(wordBreaks);
  for (let i = 0; i < words.length; i += 2) {
    const at = urlStart(words[i]!);
    if (at >= 0) words[i] = words[i]!.slice(0, at) + hideUrl(words[i]!.slice(at));
  }
  return words.join("");
}

/**
 * Body members that hold a credential, by the last word of their name: accessToken, refresh_token, client_secret,
 * password, apiKey, connectToken, … (not tokenExpiresAt, not an error's code). Bodies shown in reports have these
 * values hidden, whatever their length, and long ones are learnt as secrets like any token.
 */
const credentialMember = /(?:token|secret|passw(?:or)?d|pwd|passphrase|credentials?|cookie|jwt|bearer|signature|auth|authorization|api[-_]?key|access[-_]?key|private[-_]?key|signing[-_]?key|session[-_]?key)$/i;
/** Member names longer than this are no credential's (and are not read). */
const memberNameMax = 256;
/** A form body (`a=1&b=2`): no JSON, no spaces. */
const formBody = /^[^\s{["=&]+=[^\s]*$/;

/** Where the JSON string starting at `q` ends (after its closing quote), or -1 when it does not end. */
function stringEnd(text: string, q: number): number {
  for (let k = q + 1; k < text.length; k++) {
    const c = text.charCodeAt(k);
    if (c === 92) k++;
    else if (c === 34) return k + 1;
  }
  return -1;
}
const isSpace = (c: number) => c === 32 || c === 9 || c === 10 || c === 13;
const inNumber = (c: number) => (c >= 48 && c <= 57) || c === 46 || c === 101 || c === 69 || c === 43 || c === 45;

/** The text of a JSON string as written (its escapes read); undefined when it is none. */
function jsonString(written: string): string | undefined {
  try {
    return JSON.parse(written) as string;
  } catch {
    return undefined;
  }
}

/**
 * The members of a JSON text (or of what reads like one) whose value is a string or a number: the ranges of
 * their name and value. One pass, each character read once, whatever the text (valid JSON or not).
 */
function eachMember(text: string, f: (nameFrom: number, nameTo: number, valueFrom: number, valueTo: number) => void): void {
  let i = 0;
  while (i < text.length) {
    const q = text.indexOf('"', i);
    if (q < 0) return;
    const nameTo = stringEnd(text, q);
    if (nameTo < 0) return;
    let j = nameTo;
    while (isSpace(text.charCodeAt(j))) j++;
    if (text.charCodeAt(j) !== 58) {
      i = nameTo;
      continue;
    }
    j++;
    while (isSpace(text.charCodeAt(j))) j++;
    let valueTo = j;
    if (text.charCodeAt(j) === 34) {
      valueTo = stringEnd(text, j);
      if (valueTo < 0) return;
    } else while (valueTo < text.length && inNumber(text.charCodeAt(valueTo))) valueTo++;
    if (valueTo > j) f(q, nameTo, j, valueTo);
    i = Math.max(valueTo, j);
  }
}

/**
 * A body's credentials: the values of JSON members whose name says so (credentialMember), or of form fields as
 * in a query. `hidden` is the body with those values replaced; `secrets` are the long ones, to learn.
 */
export function bodyCredentials(body: string): { hidden: string; secrets: string[] } {
  const secrets: string[] = [];
  if (formBody.test(body)) {
    for (const [name, value] of new URLSearchParams(body)) if (secretParam(name, value)) secrets.push(value);
    return { hidden: secrets.length ? hideFields(body) : body, secrets };
  }
  const kept: string[] = [];
  let from = 0;
  eachMember(body, (nameFrom, nameTo, valueFrom, valueTo) => {
    if (nameTo - nameFrom > memberNameMax + 2) return;
    const name = jsonString(body.slice(nameFrom, nameTo));
    if (name === undefined || !credentialMember.test(name)) return;
    const written = body.slice(valueFrom, valueTo);
    const value = written.charCodeAt(0) === 34 ? jsonString(written) : written;
    if (value !== undefined && likelySecret(value)) secrets.push(value);
    kept.push(body.slice(from, valueFrom), `"${redactedMark}"`);
    from = valueTo;
  });
  return { hidden: kept.length ? kept.join("") + body.slice(from) : body, secrets };
}

type Headers = Record<string, string | string[] | undefined>;

/** Headers hidden by hideShared: their names in order (and in lower case), and the frozen hidden copy. */
interface SharedHidden {
  /** The headers hidden, when frozen: the same object again hides the same (nothing can have changed it). */
  source: Headers | undefined;
  names: string[];
  lower: string[];
  hidden: Headers;
}
/** How many hidden headers hideShared keeps to share: a request's and an answer's, per protocol. */
const sharedKept = 4;

/** Appends `xs` to `out` (a spread allocates, and this runs for every exchange). */
function pushAll(out: string[], xs: readonly string[]): void {
  for (let i = 0; i < xs.length; i++) out.push(xs[i]!);
}

/** Whether two header values are the same (a repeated header's list element by element). */
function sameShown(x: string | string[] | undefined, y: string | string[] | undefined): boolean {
  if (x === y) return true;
  if (!Array.isArray(x) || !Array.isArray(y) || x.length !== y.length) return false;
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  return true;
}

/** Finds and hides the secrets of headers: by name (those listed, those given, and any a credential word names). */
export class SecretHeaders {
  readonly names: ReadonlySet<string>;
  constructor(extra: readonly string[] = []) {
    this.names = new Set([...defaultSecretHeaders, ...extra.map((n) => n.toLowerCase())]);
  }

  /** Whether a header (its name in lower case) holds a secret. */
  has(name: string): boolean {
    return this.names.has(name) || namesACredential(name);
  }

  #secretsOf(name: string, value: string): readonly string[] {
    if (!this.names.has(name)) {
      const v = value.trim();
      return likelySecret(v) ? [v] : none;
    }
    // A client sends the same credential with every request (often beside one that changes): the last value of
    // each header is read once.
    const last = this.#lastOf.get(name);
    if (last?.value === value) return last.secrets;
    const secrets = Object.freeze(secretsOf(name, value));
    // One entry per header named secret (the listed ones, those given): bounded by the names, not by the values.
    this.#lastOf.set(name, { value: detached(value), secrets });
    return secrets;
  }
  readonly #lastOf = new Map<string, { value: string; secrets: readonly string[] }>();

  /** Every secret the headers carry (in a header named secret, or in a URL in any other header's value). */
  secrets(headers: Headers): string[] {
    const out: string[] = [];
    // for…in, not Object.entries: this runs for every exchange, and most headers are not secret.
    for (const k in headers) {
      const x = headers[k];
      if (x === undefined) continue;
      const name = k.toLowerCase();
      const secret = this.has(name);
      if (Array.isArray(x)) for (const v of x) pushAll(out, secret ? this.#secretsOf(name, String(v)) : secretsOfUrls(String(v)));
      else pushAll(out, secret ? this.#secretsOf(name, String(x)) : secretsOfUrls(String(x)));
    }
    return out;
  }

  /** Every secret of raw headers (name, value, name, value, … as received: every copy of a repeated header). */
  secretsOfRaw(raw: readonly string[]): string[] {
    const out: string[] = [];
    for (let i = 0; i + 1 < raw.length; i += 2) {
      const name = raw[i]!.toLowerCase();
      pushAll(out, this.has(name) ? this.#secretsOf(name, raw[i + 1]!) : secretsOfUrls(raw[i + 1]!));
    }
    return out;
  }

  /**
   * The headers as `hide` hides them, frozen, and the very object made for the last headers that hid alike (a few
   * are kept: the requests and answers of both protocols alternate). A client sends the same headers again and
   * again, often with a new credential each time; handed over to the judge worker, each distinct header object is
   * sent once per batch (judge-worker.ts packJobs), and what the judges read is only ever the hidden headers
   * (judge-exchange.ts, verdict-cache.ts). So the worker gets no credential, and the same headers once.
   */
  hideShared<H extends Headers>(headers: H): H {
    // The fast path hands the same frozen headers for a head byte for byte the last one: an identity test.
    for (const kept of this.#shared) if (kept.source === headers) return kept.hidden as H;
    for (const kept of this.#shared) if (this.#hideAlike(kept, headers)) return kept.hidden as H;
    const names: string[] = [];
    for (const k in headers) names.push(k);
    const hidden = Object.freeze(this.hide(headers));
    this.#shared[this.#sharedNext] = { source: Object.isFrozen(headers) ? headers : undefined, names, lower: names.map((n) => n.toLowerCase()), hidden };
    this.#sharedNext = (this.#sharedNext + 1) % sharedKept;
    return hidden as H;
  }
  readonly #shared: SharedHidden[] = [];
  #sharedNext = 0;

  /**
   * Whether `headers` hide to what `kept` holds: the same names in the same order, each value hidden as `hide` hides
   * it the same as kept (compared with the hidden copy itself, not with headers kept from before).
   */
  #hideAlike(kept: SharedHidden, headers: Headers): boolean {
    let i = 0;
    for (const k in headers) {
      if (k !== kept.names[i]) return false;
      const name = kept.lower[i++]!;
      if (!sameShown(this.hideValue(name, headers[k]), kept.hidden[k])) return false;
    }
    return i === kept.names.length;
  }

  /** A copy of the headers with every secret header's value hidden (credential headers keep a known scheme). */
  hide<H extends Headers>(headers: H): H {
    const out: Headers = {};
    // for…in, as in secrets(): every exchange's headers pass here, twice.
    for (const k in headers) out[k] = this.hideValue(k.toLowerCase(), headers[k]);
    return out as H;
  }

  /**
   * One header's value as `hide` shows it (`name` in lower case): hidden if the header holds a secret, else as it is
   * but for the credentials of URLs in it (a Referer's access_token, a Location's user info).
   */
  hideValue(name: string, x: string | string[] | undefined): string | string[] | undefined {
    if (x === undefined) return x;
    if (!this.has(name)) return !Array.isArray(x) ? hideUrlCredentials(String(x)) : x.some(mayHoldUrlCredentials) ? x.map(hideUrlCredentials) : x;
    const credential = credentialHeaders.has(name);
    if (!Array.isArray(x)) return credential ? schemeOnlyMemo(String(x)) : redactedMark;
    return x.map((v) => (credential ? schemeOnly(v) : redactedMark));
  }
}
