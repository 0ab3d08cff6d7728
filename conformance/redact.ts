// Keeps secrets out of every output: each token of the run is replaced wherever it appears (as sent,
// URL-encoded or JSON-escaped, and, when long, in any case), in messages, reports and errors alike.
export const redactedMark = "[redacted]";

/** Secrets at least this long are replaced wherever they appear; shorter ones only where they stand alone. */
const anywhereFrom = 8;
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

export class Redactor {
  #secrets: string[] = [];
  #long: RegExp | undefined;
  #short: RegExp | undefined;

  constructor(secrets: readonly string[]) {
    for (const s of secrets) this.add(s);
  }

  add(secret: string): void {
    if (!secret) return;
    for (const form of [secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1)])
      if (!this.#secrets.includes(form)) this.#secrets.push(form);
    // Longest first, so a secret containing another is replaced whole.
    this.#secrets.sort((a, b) => b.length - a.length);
    // A long secret is replaced in any case too: an echo may change it (a host name comes out lower-cased).
    const long = this.#secrets.filter((s) => s.length >= anywhereFrom);
    this.#long = long.length ? new RegExp(long.map(escape).join("|"), "gi") : undefined;
    const short = this.#secrets.filter((s) => s.length < anywhereFrom);
    // A short secret (a test token, say) is replaced only where no letter, digit, _ or - touches it, so that
    // a token "t" does not eat every t of every message.
    this.#short = short.length ? new RegExp(`(?<![A-Za-z0-9_-])(?:${short.map(escape).join("|")})(?![A-Za-z0-9_-])`, "g") : undefined;
  }

  /** The text with every secret replaced. */
  text(value: string): string {
    let out = value;
    if (this.#long) out = out.replace(this.#long, redactedMark);
    if (this.#short) out = out.replace(this.#short, redactedMark);
    return out;
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
