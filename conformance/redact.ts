// Keeps secrets out of every output: each token of the run is replaced wherever it appears (as sent,
// URL-encoded or JSON-escaped, and, when long, in any ASCII case), in messages, reports and errors alike.
//
// Matching costs the same however many secrets are known (the proxy learns a token per client, thousands of
// them): secrets are grouped by length, and each text is scanned once per length with a rolling hash, each
// window looked up in that length's table. Adding a secret is a hash and a table entry; nothing is rebuilt.
// A secret longer than `anchorMax` is found by its last `anchorMax` characters and then compared whole, so
// there are at most `anchorMax` lengths, and in practice one or two (every token of a system has one shape).
export const redactedMark = "[redacted]";

/** Secrets at least this long are replaced wherever they appear; shorter ones only where they stand alone. */
const anywhereFrom = 8;
/** The longest window hashed; longer secrets are anchored on their last characters. */
const anchorMax = 64;
/** A short secret is replaced only where none of these touches it, so that a token "t" does not eat every t. */
const wordChar = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 45;

const P = 2147483647; // 2^31 − 1: every product below stays an exact double
const B = 257;
/** ASCII letters folded to lower case; every other UTF-16 unit kept (so lengths and offsets never change). */
const foldAscii = (s: string) => s.replace(/[A-Z]+/g, (m) => m.toLowerCase());

/** The secrets of one window length: hash of the window → the secrets (as compared) ending in it. */
interface LengthClass {
  length: number;
  /** B^(length-1) mod P, to drop a window's first unit. */
  drop: number;
  bySuffix: Map<number, string[]>;
}

function hashOf(s: string, from: number, to: number): number {
  let h = 0;
  for (let i = from; i < to; i++) h = (h * B + s.charCodeAt(i)) % P;
  return h;
}

/** Counters for tests and benches: how much work redaction did (independent of the machine's speed). */
export interface RedactionStats {
  /** Secret forms added. */
  added: number;
  /** Text units hashed (one per window position per length class). */
  scanned: number;
}

class Matcher {
  readonly #classes = new Map<number, LengthClass>();
  readonly #forms = new Set<string>();

  constructor(
    readonly fold: boolean,
    readonly stats: RedactionStats,
  ) {}

  get size(): number {
    return this.#forms.size;
  }

  add(form: string): void {
    const f = this.fold ? foldAscii(form) : form;
    if (this.#forms.has(f)) return;
    this.#forms.add(f);
    this.stats.added++;
    const length = Math.min(f.length, anchorMax);
    let c = this.#classes.get(length);
    if (!c) {
      let drop = 1;
      for (let i = 1; i < length; i++) drop = (drop * B) % P;
      this.#classes.set(length, (c = { length, drop, bySuffix: new Map() }));
    }
    const h = hashOf(f, f.length - length, f.length);
    const list = c.bySuffix.get(h);
    if (list) list.push(f);
    else c.bySuffix.set(h, [f]);
  }

  delete(form: string): void {
    const f = this.fold ? foldAscii(form) : form;
    if (!this.#forms.delete(f)) return;
    const length = Math.min(f.length, anchorMax);
    const c = this.#classes.get(length)!;
    const h = hashOf(f, f.length - length, f.length);
    const list = c.bySuffix.get(h)!.filter((x) => x !== f);
    if (list.length) c.bySuffix.set(h, list);
    else c.bySuffix.delete(h);
    if (!c.bySuffix.size) this.#classes.delete(length);
  }

  /** Pushes [start, end) of every occurrence in `text` (already folded when this matcher folds). */
  find(text: string, standalone: boolean, out: [number, number][]): void {
    for (const c of this.#classes.values()) {
      const n = c.length;
      if (text.length < n) continue;
      this.stats.scanned += text.length;
      let h = hashOf(text, 0, n - 1);
      for (let end = n; end <= text.length; end++) {
        h = (h * B + text.charCodeAt(end - 1)) % P;
        const hit = c.bySuffix.get(h);
        if (hit)
          for (const s of hit) {
            const start = end - s.length;
            if (start < 0 || !text.startsWith(s, start)) continue;
            if (standalone && ((start > 0 && wordChar(text.charCodeAt(start - 1))) || (end < text.length && wordChar(text.charCodeAt(end))))) continue;
            out.push([start, end]);
          }
        // Drop the window's first unit (the next round adds one at the end).
        h = (h - ((text.charCodeAt(end - n) * c.drop) % P) + P) % P;
      }
    }
  }
}

export class Redactor {
  readonly stats: RedactionStats = { added: 0, scanned: 0 };
  readonly #long = new Matcher(true, this.stats);
  readonly #short = new Matcher(false, this.stats);

  constructor(secrets: readonly string[]) {
    for (const s of secrets) this.add(s);
  }

  /** The forms a secret may take in output: as sent, URL-encoded, JSON-escaped. */
  static #forms(secret: string): string[] {
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
    if (this.#long.size) this.#long.find(foldAscii(value), false, found);
    if (this.#short.size) this.#short.find(value, true, found);
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

  /** A deep copy of a JSON-like value with every string redacted. */
  value<T>(value: T): T {
    if (typeof value === "string") return this.text(value) as T;
    if (Array.isArray(value)) return value.map((v) => this.value(v)) as T;
    // fromEntries defines own properties: a "__proto__" key (JSON.parse keeps it as data) stays data.
    if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [this.text(k), this.value(v)])) as T;
    return value;
  }
}
