// Keeps secrets out of every output: each token of the run is replaced wherever it appears (as sent,
// URL-encoded or JSON-escaped, and, when long, in any ASCII case), in messages, reports and errors alike.
//
// Matching costs about the same however many secrets are known (the proxy learns a token per client, thousands
// of them): known secrets are one compiled regular expression, and secrets added since it was compiled are found
// by a rolling hash per length (a hash and a table entry each) until `pendingMax` of them trigger a rebuild. A
// secret longer than `anchorMax` is hashed on its last `anchorMax` characters and then compared whole.
export const redactedMark = "[redacted]";

/** Secrets at least this long are replaced wherever they appear; shorter ones only where they stand alone. */
const anywhereFrom = 8;
/** The longest window hashed; longer secrets are anchored on their last characters. */
const anchorMax = 64;
/** A short secret is replaced only where none of these touches it, so that a token "t" does not eat every t. */
const wordChar = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 45;
/** Whether [start, end) of `text` touches no word unit on either side. */
const standsAlone = (text: string, start: number, end: number) =>
  !((start > 0 && wordChar(text.charCodeAt(start - 1))) || (end < text.length && wordChar(text.charCodeAt(end))));

const P = 2147483647; // 2^31 − 1: every product below stays an exact double
const B = 257;
/** ASCII letters folded to lower case; every other UTF-16 unit kept (so lengths and offsets never change). An
 * all-ASCII text (the usual JSON answer) is folded by toLowerCase, the same there and far cheaper than a callback
 * per run of capitals. */
const foldAscii = (s: string) => (nonAscii.test(s) ? s.replace(/[A-Z]+/g, (m) => m.toLowerCase()) : s.toLowerCase());
const nonAscii = /[^\x00-\x7f]/;

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

/** Secrets added since the last compile that are found by the rolling hash; past this many, the regex is rebuilt. */
const pendingMax = 32;
/** Texts the pending secrets may be hashed over before they join the regex anyway. */
const pendingScans = 16;
const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * The secrets of one kind. Most are found by one compiled regular expression (V8 scans literal alternatives far
 * faster than any hash loop in JS); the few added since it was compiled are found by the rolling hash, and the
 * regex is rebuilt once they reach `pendingMax` — so a new token costs a hash and a table entry, and a rebuild is
 * amortised over `pendingMax` tokens.
 */
class Matcher {
  /** The pending secrets' hash tables, by window length. */
  readonly #classes = new Map<number, LengthClass>();
  readonly #forms = new Set<string>();
  #pending = 0;
  /** Texts scanned by the hash since the last rebuild: past `pendingScans`, the pending secrets join the regex. */
  #hashScans = 0;
  #compiled: RegExp | undefined;
  /** A secret was forgotten: the regex still holds it (harmless) until the next rebuild. */
  #stale = false;

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
    if (++this.#pending > pendingMax) return this.#rebuild();
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
    this.#stale = true;
  }

  /** Every known secret into the regex (longest first, so a secret containing another is replaced whole). */
  #rebuild(): void {
    this.#classes.clear();
    this.#pending = 0;
    this.#hashScans = 0;
    this.#stale = false;
    const all = [...this.#forms].sort((a, b) => b.length - a.length);
    this.#compiled = all.length ? new RegExp(all.map(escapeRe).join("|"), "g") : undefined;
  }

  /** Pushes [start, end) of every occurrence in `text` (already folded when this matcher folds). */
  find(text: string, standalone: boolean, out: [number, number][]): void {
    // A forgotten secret leaves the regex at once; pending ones join it once they have cost enough scans.
    if (this.#stale || (this.#pending && ++this.#hashScans > pendingScans)) this.#rebuild();
    const keep = (start: number, end: number) => !standalone || standsAlone(text, start, end);
    if (this.#compiled) {
      this.stats.scanned += text.length;
      const re = this.#compiled;
      re.lastIndex = 0;
      for (let m = re.exec(text); m; m = re.exec(text)) {
        const start = m.index;
        const end = start + m[0].length;
        if (this.#forms.has(m[0]) && keep(start, end)) out.push([start, end]);
        // Overlapping occurrences: look again from the next unit.
        re.lastIndex = start + 1;
      }
    }
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
            if (start < 0 || !this.#forms.has(s) || !text.startsWith(s, start)) continue;
            if (keep(start, end)) out.push([start, end]);
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
