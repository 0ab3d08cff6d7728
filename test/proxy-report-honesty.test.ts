// What the proxy's reports say must hold for the whole session, not for the moment a text was kept or for the
// first few examples: a secret learnt late is hidden in every format, notes count by kind whatever ids they carry,
// and whether a rule failed comes from its counts by side.
import { describe, expect, it } from "vitest";
import { proxyJunitReport } from "../proxy/junit.js";
import { jsonReport, markdownReport, serviceFailures } from "../proxy/output.js";
import { Recorder, recorderCaps } from "../proxy/recorder.js";
import { judgeRest } from "../proxy/rest-judge.js";
import { RestState } from "../proxy/rest-state.js";
import type { Verdict, ViolationSide } from "../proxy/types.js";
import { brand, restExchange as exchange } from "./support/judge-fixtures.js";

const violating = (rule: "brand-fields-complete" | "auth-required-401", reason: string, side: ViolationSide = "service", notes: string[] = []): Verdict => ({
  label: "GET /v1/brands/brand_1",
  outcome: "200",
  violations: [{ rules: [rule], reason, side }],
  notes,
});
/** Every format a session's report comes out in, and the recent violations. */
const rendered = (r: Recorder) => {
  const report = r.report();
  return { json: jsonReport(report), markdown: markdownReport(report), junit: proxyJunitReport(report), violations: JSON.stringify(r.violations()) };
};

describe("a secret learnt after the text that shows it was kept", () => {
  const echoed = "sk_live_Q7wE9rT2yU4iO6pA";
  const apiKey = "k3y-F00dBabe-9e8d7c6b5a";

  function session(): Recorder {
    const r = new Recorder();
    // The service echoes values in an answer, a reason and a note; the proxy knows no secret yet.
    r.record(
      exchange(1, { responseText: JSON.stringify({ object: "brand", key: echoed, other: apiKey }), responseHeaders: { "content-type": "application/json", "x-echo": echoed } }),
      violating("brand-fields-complete", `the brand echoes ${echoed} and ${apiKey}`, "service", [`an answer carried ${echoed}`]),
    );
    r.setAside("unjudged", exchange(2), `GET /v1/x/${apiKey}`, `odd ${echoed} thing: the judge gave up on ${apiKey}`);
    return r;
  }

  it("is hidden in every format produced after it was learnt (Authorization and X-Api-Key)", () => {
    const r = session();
    // Before, the values are shown: they were no secrets yet.
    expect(rendered(r).json).toContain(echoed);
    // Later clients send them as credentials.
    r.learn({ authorization: `Bearer ${echoed}` });
    r.record(exchange(3, { requestHeaders: { authorization: `Bearer ${echoed}` } }), { label: "GET /v1/brands", outcome: "200", violations: [], notes: [] });
    r.learn({ "x-api-key": apiKey });
    // Set aside with the secret known: the same kind as the first, once that is redacted too.
    r.setAside("unjudged", exchange(4), "GET /v1/x", `odd ${echoed} thing: again`);
    for (const [format, text] of Object.entries(rendered(r))) {
      expect(text.includes(echoed), `${format} shows the bearer token`).toBe(false);
      expect(text.includes(apiKey), `${format} shows the API key`).toBe(false);
    }
    const report = r.report();
    expect(report.byRule[0]!.examples[0]!.exchange.responseBody).toContain("[redacted]");
    expect(report.byRule[0]!.examples[0]!.exchange.responseHeaders["x-echo"]).toBe("[redacted]");
    expect(report.notes).toEqual([{ text: "an answer carried [redacted]", count: 1 }]);
    expect(report.unjudged.byKind.map((k) => [k.kind, k.count, k.examples.length])).toEqual([["odd [redacted] thing", 2, 2]]);
  });

  it("costs a scan of the kept texts only when a secret learnt since may be in them", () => {
    const r = session();
    r.report();
    const scanned = () => r.redaction.scanned;
    const before = scanned();
    // A thousand new tokens that no kept text holds: the next report scans nothing again.
    for (let i = 0; i < 1000; i++) r.learnSecret(`tok_unrelated_${String(i).padStart(8, "0")}`);
    r.report();
    r.violations();
    expect(scanned() - before).toBe(0);
    // One that a kept text holds: the kept texts are scanned once, then not again.
    r.learnSecret(echoed);
    const json = rendered(r).json;
    expect(json).not.toContain(echoed);
    const after = scanned();
    expect(after).toBeGreaterThan(before);
    r.report();
    expect(scanned()).toBe(after);
  });

  it("is found in the forms the Redactor replaces: URL-encoded, JSON-escaped, another ASCII case", () => {
    const secret = 'p@ss "w0rd"/Secret-Value-Long';
    const r = new Recorder();
    r.record(
      exchange(1, { path: `/v1/brands?q=${encodeURIComponent(secret)}`, responseText: JSON.stringify({ echo: secret }) }),
      violating("brand-fields-complete", `upper ${secret.toUpperCase()}`),
    );
    r.learnSecret(secret);
    const x = r.report().byRule[0]!.examples[0]!;
    expect([x.exchange.path, x.exchange.responseBody, x.reason]).toEqual(["/v1/brands?q=[redacted]", '{"echo":"[redacted]"}', "upper [redacted]"]);
  });

  it("a body is redacted whole before it is cut, and never cut inside a token", () => {
    const known = "tok_known_ABCDEFGHIJ0123456789";
    const late = "tok_late_KLMNOPQRST9876543210";
    const at = recorderCaps.shownBodyChars - 10;
    const r = new Recorder();
    r.learnSecret(known);
    const body = (s: string) => `${"x ".repeat(at / 2)}${s} and more`;
    r.record(exchange(1, { requestText: body(known), responseText: body(late) }), violating("brand-fields-complete", "cut"));
    r.learnSecret(late);
    const x = r.report().byRule[0]!.examples[0]!.exchange;
    expect(x.requestBody).not.toContain(known.slice(0, 8));
    expect(x.responseBody).not.toContain(late.slice(0, 8));
  });

  it("a long token (a JWT) across the cut shows no part of it, once learnt", () => {
    const jwt = `eyJhbGciOiJSUzI1NiJ9.${"eyJzdWIiOiJ1c2VyIn0".repeat(30)}.${"c2lnbmF0dXJl".repeat(20)}`;
    const r = new Recorder();
    r.record(exchange(1, { responseText: `${"x ".repeat((recorderCaps.shownBodyChars - 500) / 2)}${jwt} tail` }), violating("brand-fields-complete", "cut"));
    r.learnSecret(jwt);
    const shown = r.report().byRule[0]!.examples[0]!.exchange.responseBody;
    expect(shown).not.toContain(jwt.slice(0, 12));
    expect(shown).toMatch(/more characters\)$/);
  });
});

describe("notes count by kind", () => {
  it("10,000 drift notes with distinct ids are one entry; a later, different note is still recorded", () => {
    const r = new Recorder();
    const judged = (id: string) =>
      judgeRest(
        exchange(1, { method: "PATCH", path: `/v1/brands/${id}`, requestHeaders: { authorization: "Bearer t", "content-type": "application/json" }, requestText: JSON.stringify({ country: "IRL" }), responseText: JSON.stringify({ ...brand("ready"), id }) }),
        new RestState(),
      );
    const first = judged("br_Zx81Qa");
    expect(first.notes.join()).toMatch(/^drift: PATCH \/v1\/brands\/br_Zx81Qa → 200: accepted a request only/);
    r.record(exchange(1), first);
    // Ids as a service makes them: random letters and digits, some without a digit at all.
    const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    let state = 7;
    const random = (n: number, alphabet: string) => Array.from({ length: n }, () => alphabet[(state = (Math.imul(state, 1103515245) + 12345) >>> 0) % alphabet.length]).join("");
    const template = first.notes[0]!;
    for (let i = 2; i <= 10_000; i++) {
      const id = i % 10 === 0 ? `br_${random(20, letters.slice(0, 52))}` : i % 10 === 1 ? `br_${random(12, letters.slice(0, 26))}` : `br_${random(16, letters)}`;
      r.record(exchange(i), { label: "PATCH /v1/brands/x", outcome: "200", violations: [], notes: [template.replace("br_Zx81Qa", id), `no answer: socket hang up after ${i} ms on #${i}`] });
    }
    r.record(exchange(10_001), { label: "tools/list", outcome: "200", violations: [], notes: ['drift: tools/list has "brand_new_tool", which the contract does not list'] });
    const notes = r.report().notes;
    expect(notes).toEqual([
      { text: template, count: 10_000 },
      { text: "no answer: socket hang up after 2 ms on #2", count: 9_999 },
      { text: 'drift: tools/list has "brand_new_tool", which the contract does not list', count: 1 },
    ]);
  });

});

it("a scanner's paths, letters only, are one kind of note: the contract's notes still have room", () => {
  const r = new Recorder();
  const words = ["wp-admin", "phpmyadmin", "env", "git", "config", "backup", "login", "admin", "console", "actuator"];
  for (let i = 0; i < 1_000; i++) {
    const path = `/${words[i % 10]}/${words[(i * 7) % 10]}${"x".repeat(i % 13)}/${words[(i * 3) % 10]}`;
    r.record(exchange(i), judgeRest(exchange(i, { path, status: 404 }), new RestState()));
  }
  const notes = r.report().notes;
  expect(notes).toHaveLength(1);
  expect(notes[0]).toMatchObject({ count: 1_000, text: expect.stringMatching(/^"GET \/wp-admin\/wp-admin\/wp-admin" is not an operation of the contract/) });
});

describe("a rule fails by its counts by side, not by its first examples", () => {
  it("three drift and client examples, then the service's violation: a JUnit failure, counted by --fail-on-violation", () => {
    const r = new Recorder();
    r.record(exchange(1), violating("brand-fields-complete", "drift one", "drift"));
    r.record(exchange(2), violating("brand-fields-complete", "the client's", "client"));
    r.record(exchange(3), violating("brand-fields-complete", "drift two", "drift"));
    const before = proxyJunitReport(r.report());
    expect(before).toMatch(/failures="0"/);
    r.record(exchange(4), violating("brand-fields-complete", "the service broke it", "service"));
    const report = r.report();
    const junit = proxyJunitReport(report);
    expect(junit).toMatch(/failures="1"/);
    const tally = report.byRule[0]!;
    expect(tally.bySide).toEqual({ service: 1, client: 1, drift: 2 });
    expect(tally.examples).toHaveLength(recorderCaps.examplesPerRule);
    expect(tally.examples.map((e) => e.side)).toContain("service");
    expect(junit).toMatch(/<failure message="4 violations \(1 by the service, 1 by the client, 2 drift\), e\.g\. #4: the service broke it"/);
    expect(serviceFailures(report)).toBe(1);
    expect(markdownReport(report)).toContain("| brand-fields-complete | 4 | 1 | 1 | 2 |");
    expect(before).toMatch(/<skipped message="broken by the client's requests and as drift from a rule the contract inferred/);
    // Later service violations leave the examples as they are.
    r.record(exchange(5), violating("brand-fields-complete", "again", "service"));
    expect(r.report().byRule[0]!.examples.map((e) => e.seq)).toEqual([1, 2, 4]);
  });
});
