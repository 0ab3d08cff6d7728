// What the proxy's reports say must hold for the whole session, not for the first few examples: notes count by
// kind whatever ids they carry, and whether a rule failed comes from its counts by side.
import { describe, expect, it } from "vitest";
import { proxyJunitReport } from "../proxy/junit.js";
import { markdownReport, serviceFailures } from "../proxy/output.js";
import { Recorder, recorderCaps } from "../proxy/recorder.js";
import { judgeRest } from "../proxy/rest-judge.js";
import { RestState } from "../proxy/rest-state.js";
import type { Exchange, Verdict, ViolationSide } from "../proxy/types.js";
import { brand } from "./support/judge-fixtures.js";

const exchange = (seq: number, over: Partial<Exchange> = {}): Exchange => ({
  protocol: "rest",
  seq,
  method: "GET",
  path: "/v1/brands/brand_1",
  requestHeaders: { authorization: "Bearer known-token-000001" },
  requestText: "",
  requestTruncated: false,
  status: 200,
  responseHeaders: { "content-type": "application/json" },
  responseText: "{}",
  responseTruncated: false,
  ms: 3,
  ...over,
});
const violating = (rule: "brand-fields-complete" | "auth-required-401", reason: string, side: ViolationSide = "service", notes: string[] = []): Verdict => ({
  label: "GET /v1/brands/brand_1",
  outcome: "200",
  violations: [{ rules: [rule], reason, side }],
  notes,
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
    r.record(exchange(10_001), { label: "tools/list", outcome: "200", violations: [], notes: ["drift: tools/list has brand_new_tool, which the contract does not list"] });
    const notes = r.report().notes;
    expect(notes).toEqual([
      { text: template, count: 10_000 },
      { text: "no answer: socket hang up after 2 ms on #2", count: 9_999 },
      { text: "drift: tools/list has brand_new_tool, which the contract does not list", count: 1 },
    ]);
  });

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
