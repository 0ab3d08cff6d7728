// Keeps secrets out of every output: each token of the run is replaced wherever it appears (as sent, and
// URL-encoded), in messages, reports and errors alike.
export const redactedMark = "[redacted]";

/** Secrets at least this long are replaced wherever they appear; shorter ones only where they stand alone. */
const anywhereFrom = 8;
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

export class Redactor {
  #secrets: string[] = [];
  #short: RegExp | undefined;

  constructor(secrets: readonly string[]) {
    for (const s of secrets) this.add(s);
  }

  add(secret: string): void {
    if (!secret) return;
    for (const form of [secret, encodeURIComponent(secret)]) if (!this.#secrets.includes(form)) this.#secrets.push(form);
    // Longest first, so a secret containing another is replaced whole.
    this.#secrets.sort((a, b) => b.length - a.length);
    const short = this.#secrets.filter((s) => s.length < anywhereFrom);
    // A short secret (a test token, say) is replaced only where no letter, digit, _ or - touches it, so that
    // a token "t" does not eat every t of every message.
    this.#short = short.length ? new RegExp(`(?<![A-Za-z0-9_-])(?:${short.map(escape).join("|")})(?![A-Za-z0-9_-])`, "g") : undefined;
  }

  /** The text with every secret replaced. */
  text(value: string): string {
    let out = value;
    for (const s of this.#secrets) if (s.length >= anywhereFrom && out.includes(s)) out = out.split(s).join(redactedMark);
    if (this.#short) out = out.replace(this.#short, redactedMark);
    return out;
  }

  /** A deep copy of a JSON-like value with every string redacted. */
  value<T>(value: T): T {
    if (typeof value === "string") return this.text(value) as T;
    if (Array.isArray(value)) return value.map((v) => this.value(v)) as T;
    if (value && typeof value === "object") {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) out[this.text(k)] = this.value(v);
      return out as T;
    }
    return value;
  }
}
