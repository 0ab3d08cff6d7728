// Redactor.parseJson is value(JSON.parse(raw)) without the copy when nothing is to be redacted: the same value for
// every answer, secrets hidden behind JSON escapes, in keys, touching quotes, or only across two strings included.
import { describe, expect, it } from "vitest";
import { Redactor } from "../conformance/core/redact.js";

const secrets = ["s3cr3t-Token-Value-0042", "a/b c", "tok", "Zeta-long-secret"];

/** Both ways, given `raw` redacted as the HTTP client does first. */
function both(r: Redactor, raw: string): { fast: unknown; slow: unknown } {
  return { fast: r.parseJson(raw, r.text(raw)), slow: r.value(JSON.parse(raw)) };
}

/** Every unit of `s` that is a letter written as a \u escape (as a target may send it). */
const escapeLetters = (s: string) => s.replace(/[a-z]/gi, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);

describe("Redactor.parseJson", () => {
  const r = new Redactor(secrets);

  const cases: [string, string][] = [
    ["no secret, no escape", JSON.stringify({ a: "plain", b: [1, "two", { c: null }] })],
    ["no secret, escapes", JSON.stringify({ a: 'say "hi"\n', pattern: "^\\d+$" })],
    ["a secret as it is", JSON.stringify({ echo: "you sent s3cr3t-Token-Value-0042" })],
    ["a secret in another case", JSON.stringify({ echo: "S3CR3T-TOKEN-VALUE-0042" })],
    ["a secret in a key", JSON.stringify({ "s3cr3t-Token-Value-0042": 1 })],
    ["a secret behind \\u escapes", `{"echo":"${escapeLetters("s3cr3t-Token-Value-0042")}"}`],
    ["a secret behind an escaped slash", `{"echo":"x a\\/b c y"}`],
    ["a short secret alone in a key", `{"tok":"tok","xtok":"tokx"}`],
    ["a short secret behind escapes", `{"v":"${escapeLetters("tok")}"}`],
    ["a secret only across two strings", JSON.stringify(["Zeta-long", "secret"])],
    ["non-ASCII around a secret", JSON.stringify({ é: "ÉTÉ Zeta-long-secret İ" })],
    ["a __proto__ key", `{"__proto__":{"x":"tok"},"y":"Zeta-long-secret"}`],
  ];

  for (const [name, raw] of cases)
    it(`gives what value(JSON.parse(raw)) gives: ${name}`, () => {
      const { fast, slow } = both(r, raw);
      expect(fast).toStrictEqual(slow);
      for (const s of secrets.filter((x) => x.length >= 8)) expect(JSON.stringify(fast).toLowerCase()).not.toContain(s.toLowerCase());
    });

  it("gives the parsed value itself when nothing is to be redacted", () => {
    const raw = JSON.stringify({ a: "plain\n", b: ["x", { c: "y" }] });
    expect(r.parseJson(raw, r.text(raw))).toStrictEqual(JSON.parse(raw));
    expect(new Redactor([]).parseJson(raw)).toStrictEqual(JSON.parse(raw));
  });

  it("agrees with value() on random answers with secrets escaped at random", () => {
    let seed = 7;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    const words = ["x", "tok", "a/b c", "s3cr3t-Token-Value-0042", "Zeta-long-secret", "é", "\"q\"", "\n", "TOK", "zeta-LONG-secret"];
    const escape = (s: string) => {
      const j = JSON.stringify(s).slice(1, -1);
      const pick = rand(3);
      return pick === 0 ? j : pick === 1 ? escapeLetters(j) : j.replace(/\//g, "\\/");
    };
    const str = () => `"${escape(Array.from({ length: 1 + rand(3) }, () => words[rand(words.length)]).join(rand(2) ? " " : ""))}"`;
    const val = (depth: number): string => {
      const k = rand(depth > 2 ? 2 : 4);
      if (k === 0) return str();
      if (k === 1) return String(rand(100));
      if (k === 2) return `[${Array.from({ length: rand(4) }, () => val(depth + 1)).join(",")}]`;
      return `{${Array.from({ length: rand(4) }, () => `${str()}:${val(depth + 1)}`).join(",")}}`;
    };
    for (let i = 0; i < 500; i++) {
      const raw = val(0);
      const { fast, slow } = both(r, raw);
      expect(fast, raw).toStrictEqual(slow);
    }
  });
});
