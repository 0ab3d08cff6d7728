// Which short windows the texts a report keeps hold, as bits of a hash: a secret learnt after a text was kept can be
// in that text only if every window of it is here, so a new secret (the proxy learns one with about every request)
// costs a hash of its own length, and the kept texts are scanned again only for one that may be in them.
//
// A secret appears in output as sent, URL-encoded or JSON-escaped, in any ASCII case when long (redact.ts); its
// longest run of the characters none of those encodings changes is in every form, so that run's windows (ASCII
// letters folded, as the Redactor compares long secrets) decide. A secret without such a run of a window's width
// may be anywhere: it always counts as held.
const width = 8;
const B = 0x01000193;
/** B^(width-1) mod 2^32: drops a window's first unit. */
const drop = Array.from({ length: width - 1 }).reduce<number>((h) => Math.imul(h, B), 1);
const bitsLog2 = 21; // 256 KiB
const fold = (c: number) => (c >= 65 && c <= 90 ? c + 32 : c);
const bitOf = (h: number) => Math.imul(h ^ (h >>> 15), 0x2c1b3c6d) >>> (32 - bitsLog2);
/** Characters that encodeURIComponent and JSON.stringify both keep as they are. */
const unchanged = /[A-Za-z0-9\-_.!~*'()]+/g;

export class TextWindows {
  #bits: Int32Array | undefined;
  /** Windows added since the bits were last cleared (a text let go leaves its bits set). */
  #added = 0;
  /** Windows the texts kept held when the bits were last rebuilt. */
  #kept = 0;

  /**
   * Whether so many windows were added since the last rebuild (texts let go and others kept: the last violations
   * turn over) that the bits should be rebuilt from the texts still kept; at most once per as many windows as kept.
   */
  get crowded(): boolean {
    return this.#added > Math.max(1 << (bitsLog2 - 1), 2 * this.#kept);
  }

  clear(): void {
    this.#bits?.fill(0);
    this.#added = 0;
  }

  /** Marks the bits as rebuilt from every text kept (after clear and add). */
  rebuilt(): void {
    this.#kept = this.#added;
  }

  #each(s: string, visit: (bit: number) => boolean): boolean {
    let h = 0;
    for (let i = 0; i < s.length; i++) {
      h = (Math.imul(h, B) + fold(s.charCodeAt(i))) | 0;
      if (i < width - 1) continue;
      if (!visit(bitOf(h))) return false;
      h = (h - Math.imul(fold(s.charCodeAt(i - width + 1)), drop)) | 0;
    }
    return true;
  }

  add(s: string): void {
    if (s.length < width) return;
    const bits = (this.#bits ??= new Int32Array(1 << (bitsLog2 - 5)));
    this.#added += s.length - width + 1;
    this.#each(s, (b) => ((bits[b >>> 5]! |= 1 << (b & 31)), true));
  }

  /** Whether the secret may be in a text added (false: in none of them, in any form the Redactor replaces). */
  mayHold(secret: string): boolean {
    const bits = this.#bits;
    if (!bits) return false;
    let run = "";
    for (const m of secret.matchAll(unchanged)) if (m[0].length > run.length) run = m[0];
    return run.length < width || this.#each(run, (b) => (bits[b >>> 5]! & (1 << (b & 31))) !== 0);
  }
}
