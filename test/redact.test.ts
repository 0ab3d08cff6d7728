// The Redactor's matching (conformance/core/redact.ts: rolling hashes behind a bucket prefilter) finds exactly what a
// naive search finds, however many secrets were added and forgotten, so a prefilter bucket wrongly left empty (a
// forgotten secret sharing a bucket with a kept one) would show as a secret left in the text.
import { describe, expect, it } from "vitest";
import { Redactor, redactedMark } from "../conformance/core/redact.js";

/** A small deterministic generator (xorshift), so a failure reproduces. */
function random(seed: number) {
  let x = seed;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

const alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-/\" é";

/** What the Redactor promises, searched naively: long forms anywhere in any ASCII case, short ones standing alone. */
function naive(text: string, secrets: Iterable<string>): string {
  const lower = text.replace(/[A-Z]/g, (c) => c.toLowerCase());
  const word = (c: string | undefined) => c !== undefined && /[A-Za-z0-9_-]/.test(c);
  // Every unit some occurrence covers; each run of covered units (occurrences overlapping or touching) is one mark.
  const covered = new Array<boolean>(text.length).fill(false);
  for (const secret of secrets)
    for (const form of new Set([secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1)])) {
      const long = form.length >= 8;
      const [hay, needle] = long ? [lower, form.replace(/[A-Z]/g, (c) => c.toLowerCase())] : [text, form];
      for (let at = hay.indexOf(needle); at >= 0; at = hay.indexOf(needle, at + 1))
        if (long || (!word(text[at - 1]) && !word(text[at + form.length]))) covered.fill(true, at, at + form.length);
    }
  let out = "";
  for (let i = 0; i < text.length; i++) out += !covered[i] ? text[i] : i === 0 || !covered[i - 1] ? redactedMark : "";
  return out;
}

describe("Redactor.text", () => {
  it("agrees with a naive search over thousands of secrets added and forgotten at random", () => {
    const next = random(20261126);
    const pick = (n: number) => Array.from({ length: n }, () => alphabet[Math.floor(next() * alphabet.length)]).join("");
    const redactor = new Redactor([]);
    const kept = new Set<string>();
    const all: string[] = [];
    // Enough secrets that every prefilter bucket of the 8-unit class is shared many times over.
    for (let round = 0; round < 40; round++) {
      for (let i = 0; i < 600; i++) {
        const s = pick([3, 5, 8, 12, 20, 40, 70][Math.floor(next() * 7)]!);
        redactor.add(s);
        kept.add(s);
        all.push(s);
      }
      // Forget about half of what is known, secrets sharing buckets with kept ones among them.
      for (const s of [...kept])
        if (next() < 0.5) {
          redactor.delete(s);
          kept.delete(s);
        }
      for (let t = 0; t < 10; t++) {
        // Texts made of kept and forgotten secrets (in other cases too), between random units.
        const parts: string[] = [];
        for (let p = 0; p < 12; p++) {
          const s = all[Math.floor(next() * all.length)]!;
          parts.push(pick(Math.floor(next() * 4)), next() < 0.3 ? s.toUpperCase() : s);
        }
        const text = parts.join("");
        expect(redactor.text(text), text).toBe(naive(text, kept));
      }
    }
  });
});
