// Keeps secrets out of every output: each token of the run is replaced wherever it appears (as sent,
// URL-encoded or JSON-escaped, and, when long, in any ASCII case), in messages, reports and errors alike.
//
// Matching costs the same however many secrets are known (the proxy learns a token per client, thousands of
// them, and a new one arrives with about every request): each secret is filed under a rolling hash of its last
// characters, over a window of a few fixed widths (8, 16, 32, 64 units; a short secret its own length), so a
// text is hashed once per width in use, a new secret costs a hash and a table entry, and a forgotten one leaves
// its entry at once. Nothing is ever recompiled (a regex of all secrets cost a rebuild per few new tokens: 3 ms
// a request at 10,000 tokens).
export const redactedMark = "[redacted]";

/** Headers whose values are secrets whatever they hold (the proxy hides them; the mocks keep them out of their log). */
export const defaultSecretHeaders = ["authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key"] as const;

/** Headers whose value is a scheme and a credential (`Bearer <token>`, `Basic <base64>`, or a bare token). */
export const credentialHeaders: ReadonlySet<string> = new Set(["authorization", "proxy-authorization"]);

/** The secrets one header value (its name in lower case) carries: the credentials after the scheme (decoded too for Basic), cookie values, or the whole value. */
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

/** Secrets at least this long are replaced wherever they appear; shorter ones only where they stand alone. */
const anywhereFrom = 8;
/** Window widths for long secrets: each is filed under the widest that fits it (so at most 4 widths scanned). */
const widths = [64, 32, 16, 8];
/** A short secret is replaced only where none of these touches it, so that a token "t" does not eat every t. */
const wordChar = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 45;

/** Polynomial hash modulo 2^32 (Math.imul wraps exactly), rolled one unit at a time. */
const B = 0x01000193;
/** ASCII letters folded to lower case; every other UTF-16 unit kept (so lengths and offsets never change). An
 * all-ASCII text (the usual JSON answer) is folded by toLowerCase, the same there and far cheaper than a callback
 * per run of capitals. */
const foldAscii = (s: string) => (nonAscii.test(s) ? s.replace(/[A-Z]+/g, (m) => m.toLowerCase()) : s.toLowerCase());
const nonAscii = /[^\x00-\x7f]/;

/** Buckets of a width class's prefilter: a window's hash is looked up in the map only when its bucket is used. */
const bucketBits = 14;
const bucketMask = (1 << bucketBits) - 1;
const bucketOf = (h: number) => (h ^ (h >>> bucketBits) ^ (h >>> 28)) & bucketMask;

/** The secrets of one window width: hash of the window → the secrets (as compared) ending in it. */
interface WidthClass {
  width: number;
  /** B^(width-1) mod 2^32, to drop a window's first unit. */
  drop: number;
  bySuffix: Map<number, string[]>;
  /**
   * How many hashes of `bySuffix` fall in each bucket: a text's window whose bucket holds none cannot end a secret,
   * so most windows cost an array read instead of a map lookup (a scan of a 500 KB answer: a few times faster).
   * A count that reached the top stays there (never wrongly zero: the map decides anyway).
   */
  used: Uint16Array;
}

function hashOf(s: string, from: number, to: number): number {
  let h = 0;
  for (let i = from; i < to; i++) h = (Math.imul(h, B) + s.charCodeAt(i)) | 0;
  return h;
}

/** Counters for tests and benches: how much work redaction did (independent of the machine's speed). */
export interface RedactionStats {
  /** Secret forms added. */
  added: number;
  /** Text units hashed (one per window position per width in use). */
  scanned: number;
}

/** The secrets of one kind, filed by the hash of their last `width` units. */
class Matcher {
  readonly #classes = new Map<number, WidthClass>();
  readonly #forms = new Set<string>();

  constructor(
    readonly fold: boolean,
    readonly short: boolean,
    readonly stats: RedactionStats,
  ) {}

  get size(): number {
    return this.#forms.size;
  }

  #widthOf(f: string): number {
    return this.short ? f.length : widths.find((w) => w <= f.length)!;
  }

  add(form: string): void {
    const f = this.fold ? foldAscii(form) : form;
    if (this.#forms.has(f)) return;
    this.#forms.add(f);
    this.stats.added++;
    const width = this.#widthOf(f);
    let c = this.#classes.get(width);
    if (!c) {
      let drop = 1;
      for (let i = 1; i < width; i++) drop = Math.imul(drop, B);
      this.#classes.set(width, (c = { width, drop, bySuffix: new Map(), used: new Uint16Array(1 << bucketBits) }));
    }
    const h = hashOf(f, f.length - width, f.length);
    const list = c.bySuffix.get(h);
    if (list) list.push(f);
    else {
      c.bySuffix.set(h, [f]);
      const b = bucketOf(h);
      if (c.used[b]! < 0xffff) c.used[b]!++;
    }
  }

  delete(form: string): void {
    const f = this.fold ? foldAscii(form) : form;
    if (!this.#forms.delete(f)) return;
    const width = this.#widthOf(f);
    const c = this.#classes.get(width)!;
    const h = hashOf(f, f.length - width, f.length);
    const rest = c.bySuffix.get(h)!.filter((s) => s !== f);
    if (rest.length) c.bySuffix.set(h, rest);
    else {
      c.bySuffix.delete(h);
      const b = bucketOf(h);
      if (c.used[b]! < 0xffff) c.used[b]!--;
    }
    if (!c.bySuffix.size) this.#classes.delete(width);
  }

  /** Pushes [start, end) of every occurrence in `text` (already folded when this matcher folds). */
  find(text: string, out: [number, number][]): void {
    const standalone = this.short;
    for (const c of this.#classes.values()) {
      const n = c.width;
      if (text.length < n) continue;
      const used = c.used;
      this.stats.scanned += text.length;
      let h = hashOf(text, 0, n - 1);
      for (let end = n; end <= text.length; end++) {
        h = (Math.imul(h, B) + text.charCodeAt(end - 1)) | 0;
        const hit = used[bucketOf(h)] ? c.bySuffix.get(h) : undefined;
        if (hit)
          for (const s of hit) {
            const start = end - s.length;
            if (start < 0 || !text.startsWith(s, start)) continue;
            if (standalone && ((start > 0 && wordChar(text.charCodeAt(start - 1))) || (end < text.length && wordChar(text.charCodeAt(end))))) continue;
            out.push([start, end]);
          }
        // Drop the window's first unit (the next round adds one at the end).
        h = (h - Math.imul(text.charCodeAt(end - n), c.drop)) | 0;
      }
    }
  }
}

/** Text that encodeURIComponent and JSON.stringify both leave as it is. */
const plainForm = /^[A-Za-z0-9\-_.!~*'()]*$/;

export class Redactor {
  readonly stats: RedactionStats = { added: 0, scanned: 0 };
  readonly #long = new Matcher(true, false, this.stats);
  readonly #short = new Matcher(false, true, this.stats);

  constructor(secrets: readonly string[]) {
    for (const s of secrets) this.add(s);
  }

  /** The forms a secret may take in output: as sent, URL-encoded, JSON-escaped. */
  static #forms(secret: string): string[] {
    // The usual token (letters, digits, - _ . ~ and the few others encodeURIComponent keeps, none that JSON
    // escapes) is its only form: no encoding, no set (a new one arrives with about every request).
    if (plainForm.test(secret)) return [secret];
    let encoded = secret;
    try {
      encoded = encodeURIComponent(secret);
    } catch {
      /* a lone surrogate: no URL-encoded form */
    }
    return [...new Set([secret, encoded, JSON.stringify(secret).slice(1, -1)])];
  }

  /** How many secret forms are known. */
  get size(): number {
    return this.#long.size + this.#short.size;
  }

  add(secret: string): void {
    if (!secret) return;
    // A long secret is replaced in any case too: an echo may change it (a host name comes out lower-cased).
    for (const form of Redactor.#forms(secret)) (form.length >= anywhereFrom ? this.#long : this.#short).add(form);
  }

  /** Forgets a secret (a bounded set of learnt tokens lets the oldest go). */
  delete(secret: string): void {
    for (const form of Redactor.#forms(secret)) (form.length >= anywhereFrom ? this.#long : this.#short).delete(form);
  }

  /** The text with every secret replaced; overlapping or touching occurrences become one mark. */
  text(value: string): string {
    if (!this.#long.size && !this.#short.size) return value;
    const found: [number, number][] = [];
    if (this.#long.size) this.#long.find(foldAscii(value), found);
    if (this.#short.size) this.#short.find(value, found);
    if (!found.length) return value;
    found.sort((a, b) => a[0] - b[0]);
    let out = "";
    let at = 0;
    let [start, end] = found[0]!;
    for (const [s, e] of found) {
      if (s <= end) end = Math.max(end, e);
      else {
        out += value.slice(at, start) + redactedMark;
        at = end;
        [start, end] = [s, e];
      }
    }
    out += value.slice(at, start) + redactedMark;
    at = end;
    return out + value.slice(at);
  }

  /**
   * JSON text parsed, with every string and key redacted: what value(JSON.parse(raw)) gives, without the copy when
   * no string holds a secret (the usual answer). `redactedRaw`, text(raw) when the caller has it: when that found
   * nothing and `raw` has no escape, every string and key of the value stands verbatim in `raw` between quotes (a
   * non-word unit), so none can hold a secret. Otherwise all of them are scanned as one text, joined by a non-word
   * unit: a secret there is in some string, or only across a joint, and either way the value is copied redacted.
   */
  parseJson(raw: string, redactedRaw?: string): unknown {
    const value: unknown = JSON.parse(raw);
    if (!this.size) return value;
    if (redactedRaw === raw && !raw.includes("\\")) return value;
    const strings: string[] = [];
    stringsOf(value, strings);
    const joined = strings.join("\n");
    return this.text(joined) === joined ? value : this.value(value);
  }

  /** A deep copy of a JSON-like value with every string redacted. */
  value<T>(value: T): T {
    if (typeof value === "string") return this.text(value) as T;
    if (Array.isArray(value)) return value.map((v) => this.value(v)) as T;
    // fromEntries defines own properties: a "__proto__" key (JSON.parse keeps it as data) stays data.
    if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [this.text(k), this.value(v)])) as T;
    return value;
  }
}

/** Every string and key of a JSON-like value, pushed onto `out`. */
function stringsOf(value: unknown, out: string[]): void {
  if (typeof value === "string") out.push(value);
  else if (Array.isArray(value)) for (const v of value) stringsOf(v, out);
  else if (value && typeof value === "object")
    for (const [k, v] of Object.entries(value)) {
      out.push(k);
      stringsOf(v, out);
    }
}
