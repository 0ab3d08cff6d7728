// What the judges' cheaper ways of doing things rest on: jsonDepth's skipping of strings counts exactly what a
// character-by-character walk counts, and a body the contract's validator takes is taken by the seed's (so it is
// validated once) only where that is proven.
import { describe, expect, it } from "vitest";
import { jsonDepth } from "../proxy/client-faults.js";
import { seedImpliedByContract, seedValidator } from "../conformance/suites/rest/seed-schema.js";
import { validators } from "../conformance/suites/rest/contract.js";

/** The plain walk: one character at a time, a backslash in a string skipping the next one. */
function walkedDepth(text: string, cap: number): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "[" || c === "{") {
      if (++depth > max && (max = depth) > cap) return max;
    } else if (c === "]" || c === "}") depth--;
  }
  return max;
}

describe("jsonDepth", () => {
  it("counts what the character-by-character walk counts, escapes, unterminated strings and all", () => {
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const alphabet = ['"', "\\", "[", "]", "{", "}", "a", ",", ":"];
    for (let n = 0; n < 50_000; n++) {
      let text = "";
      for (let i = Math.floor(next() * 30); i > 0; i--) text += alphabet[Math.floor(next() * alphabet.length)];
      for (const cap of [1, 3, 128]) expect(jsonDepth(text, cap), JSON.stringify(text)).toBe(walkedDepth(text, cap));
    }
    expect(jsonDepth(`${"[".repeat(200)}${"]".repeat(200)}`)).toBe(129);
    expect(jsonDepth(`{"a":"[[[\\"[[","b":[{}]}`)).toBe(3);
  });
});

describe("one validation of a body the contract takes", () => {
  it("is relied on for the contract's schemas (its one seed pattern widens its pattern), and the seed indeed takes what the contract takes", () => {
    expect(seedImpliedByContract("Brand")).toBe(true);
    expect(seedImpliedByContract("NoSuchSchema")).toBe(false);
    const brand = { id: "brand_7Hq2LmX9c", object: "brand", status: "ready", name: "A", website: "https://a.example", language: "en", country: "IE", description: "d", offerings: [], archetype: null, rules: {}, created_at: "2026-01-01T00:00:00Z" };
    expect(validators.Brand!(brand), JSON.stringify(validators.Brand!.errors)).toBe(true);
    expect(seedValidator("Brand")!(brand)).toBe(true);
    // The seed takes more (a language in capitals), never less.
    expect(validators.Brand!({ ...brand, language: "EN" })).toBe(false);
    expect(seedValidator("Brand")!({ ...brand, language: "EN" })).toBe(true);
  });
});
