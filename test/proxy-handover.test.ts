// What keeps the proxy's per-exchange work small without changing what it remembers or judges: an LRU whose
// reads of a hot key do not reorder it (yet never forget what is in use), a batch handed to the judge worker with
// every body in one buffer (each exchange gets its own bytes back), and an exchange whose hidden headers and
// decoded bodies are made only when read (and then the same as before).
import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { exchangeOf, judgeExchange, newJudgeStates, type ExchangeData } from "../proxy/judge-exchange.js";
import { JudgeQueue } from "../proxy/judge-queue.js";
import { packJobs, packVerdicts, ParsedVerdicts, unpackJobs, unpackVerdicts } from "../proxy/judge-worker.js";
import { Lru } from "../proxy/lru.js";
import { Recorder } from "../proxy/recorder.js";
import { SecretHeaders } from "../proxy/secrets.js";
import type { Exchange, Verdict } from "../proxy/types.js";

describe("Lru with refreshAfter", () => {
  it("never forgets an entry touched within the last cap - refreshAfter operations, whatever their order", () => {
    // A seeded walk of reads and additions, against the promise: an entry is forgotten only after more than
    // cap - refreshAfter operations on other keys since it was last read or set (exact LRU: more than cap - 1).
    for (const [cap, refreshAfter] of [
      [8, 4],
      [10, 5],
      [5, 1],
      [6, 6],
    ] as const) {
      const lru = new Lru<number, number>(cap, { refreshAfter });
      let seed = cap * 31 + refreshAfter;
      const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % 1000;
      /** What the LRU holds (it names every key it forgets), with how many operations on other keys since each was touched. */
      const age = new Map<number, number>();
      const touch = (key: number) => {
        for (const [k, a] of age) age.set(k, a + 1);
        age.set(key, 0);
      };
      let keyCount = 0;
      let forgottenCount = 0;
      for (let step = 0; step < 5_000; step++) {
        if (next() < 600 && age.size) {
          const keys = [...age.keys()];
          const key = keys[next() % keys.length]!;
          expect(lru.get(key)).toBe(key);
          touch(key);
        } else {
          const key = ++keyCount;
          const forgotten = lru.set(key, key);
          touch(key);
          if (forgotten !== undefined) {
            forgottenCount++;
            expect(age.get(forgotten)).toBeGreaterThan(cap - refreshAfter);
            age.delete(forgotten);
          }
        }
        expect(lru.size).toBe(age.size);
        expect(lru.size).toBeLessThanOrEqual(cap);
      }
      expect(forgottenCount).toBeGreaterThan(100);
    }
  });

  it("reads of a hot key leave the order alone until refreshAfter others came, then move it", () => {
    const lru = new Lru<string, number>(4, { refreshAfter: 2 });
    lru.set("a", 1);
    lru.set("b", 2);
    expect(lru.get("a")).toBe(1); // one addition since a moved: not moved
    expect(lru.keys()).toEqual(["a", "b"]);
    lru.set("c", 3);
    expect(lru.get("a")).toBe(1); // two additions since: moved to the newest end
    expect(lru.keys()).toEqual(["b", "c", "a"]);
  });

  // Exact LRU by default: test/proxy-report.test.ts.
  it("refuses a refreshAfter outside 1..cap", () => {
    expect(() => new Lru(4, { refreshAfter: 0 })).toThrow(/refreshAfter/);
    expect(() => new Lru(4, { refreshAfter: 5 })).toThrow(/refreshAfter/);
  });
});

const data = (seq: number, request: string, response: string, over: Partial<ExchangeData> = {}): ExchangeData => ({
  protocol: "rest",
  seq,
  method: "POST",
  path: "/v1/brands",
  requestHeaders: { authorization: "Bearer tok_secret_123456", "content-type": "application/json" },
  request: Buffer.from(request),
  requestTruncated: false,
  status: 201,
  responseHeaders: { "set-cookie": ["sid=abc123456789"], "content-type": "application/json" },
  response: Buffer.from(response),
  responseTruncated: false,
  ms: 3,
  serviceMs: 2,
  ...over,
});

describe("a batch handed to the judge worker", () => {
  it("carries every body in one buffer, and each exchange gets exactly its own bytes back", () => {
    // Empty bodies, multi-byte text and bytes that are not UTF-8, next to each other in the one buffer.
    const jobs = [data(1, "", '{"id":"brand_1"}'), data(2, '{"name":"Café ☕"}', ""), { ...data(3, "x", "y"), request: new Uint8Array([0xff, 0xfe, 0x00]) }];
    const batch = packJobs(jobs);
    expect(batch.bodies.byteLength).toBe(jobs.reduce((n, d) => n + d.request.byteLength + d.response.byteLength, 0));
    // The message is what postMessage moves: its structured clone must give the same exchanges.
    const back = unpackJobs(structuredClone(batch, { transfer: [batch.bodies] }));
    expect(back.map((d) => [d.seq, Buffer.from(d.request).toString("hex"), Buffer.from(d.response).toString("hex")])).toEqual(
      jobs.map((d) => [d.seq, Buffer.from(d.request).toString("hex"), Buffer.from(d.response).toString("hex")]),
    );
    expect(back[1]).toMatchObject({ requestHeaders: jobs[1]!.requestHeaders, status: 201, ms: 3, serviceMs: 2, path: "/v1/brands" });
  });

  it("carries a header object shared by several exchanges once, and they share it (frozen) on the other side", () => {
    const answerHead = Object.freeze({ "content-type": "application/json", date: "Fri, 27 Nov 2026 05:21:32 GMT" });
    const jobs = [1, 2, 3].map((seq) => data(seq, "", `{"n":${seq}}`, { responseHeaders: answerHead, requestHeaders: { authorization: `Bearer tok_${seq}_abcdefgh`, "x-n": String(seq) } }));
    const batch = packJobs(jobs);
    expect(batch.jobs.split('"date"').length - 1).toBe(1);
    const back = unpackJobs(structuredClone(batch, { transfer: [batch.bodies] }));
    expect(back.map((d) => d.responseHeaders)).toEqual(jobs.map((d) => d.responseHeaders));
    expect(back[0]!.responseHeaders).toBe(back[2]!.responseHeaders);
    expect(Object.isFrozen(back[0]!.responseHeaders)).toBe(true);
    // Headers of their own stay their own.
    expect(back.map((d) => d.requestHeaders)).toEqual(jobs.map((d) => d.requestHeaders));
    expect(back[0]!.requestHeaders).not.toBe(back[1]!.requestHeaders);
    expect(back.map((d) => Buffer.from(d.response).toString())).toEqual(['{"n":1}', '{"n":2}', '{"n":3}']);
  });
});

describe("a batch's verdicts handed back", () => {
  const pass = JSON.stringify({ label: "GET /v1/brands/brand_1", outcome: "200", violations: [], notes: [] } satisfies Verdict);
  const failed = JSON.stringify({ label: "GET /v1/brands/brand_2", outcome: "200", violations: [{ rules: ["brand-fields-complete"], reason: "no name", side: "service" }], notes: ["a new field"] } satisfies Verdict);
  const received = (m: ReturnType<typeof packVerdicts>, parsed: ParsedVerdicts) => {
    const out: [number, Verdict][] = [];
    unpackVerdicts(structuredClone(m), parsed, (seq, v) => out.push([seq, v]));
    return out;
  };

  it("carries each distinct verdict text once, and each exchange's seq with its text's index", () => {
    const m = packVerdicts([4, 5, 7, 8], [pass, failed, pass, pass]);
    expect(m.texts).toEqual([pass, failed]);
    expect([...m.refs]).toEqual([4, 0, 5, 1, 7, 0, 8, 0]);
    const out = received(m, new ParsedVerdicts());
    expect(out.map(([seq, v]) => [seq, v])).toEqual([4, 5, 7, 8].map((seq, i) => [seq, JSON.parse(i === 1 ? failed : pass)]));
    // One parsed verdict for the three passes, frozen through and through: no one can change it for the others.
    expect(out[0]![1]).toBe(out[2]![1]);
    expect(out[0]![1]).toBe(out[3]![1]);
    const v = out[1]![1];
    expect(Object.isFrozen(v) && Object.isFrozen(v.violations) && Object.isFrozen(v.violations[0]) && Object.isFrozen(v.violations[0]!.rules) && Object.isFrozen(v.notes)).toBe(true);
    expect(() => (v.notes as string[]).push("x")).toThrow(TypeError);
  });

  it("parses a text seen in an earlier batch no more (while among the last `max` distinct texts)", () => {
    const parsed = new ParsedVerdicts(2);
    const first = received(packVerdicts([1], [pass]), parsed)[0]![1];
    // Another batch: the text arrives as a new string, its verdict is the one parsed before.
    expect(received(packVerdicts([2, 3], [failed, pass]), parsed).map(([, v]) => v)[1]).toBe(first);
    const third = JSON.stringify({ ...JSON.parse(pass), outcome: "304" });
    received(packVerdicts([4], [third]), parsed);
    expect(parsed.size).toBe(2);
    // The oldest let go: parsed again, equal but a new object.
    const again = received(packVerdicts([5], [pass]), parsed)[0]![1];
    expect(again).toEqual(first);
    expect(again).not.toBe(first);
  });

  it("records a frozen verdict shared by two exchanges as two exchanges, each with its violations", async () => {
    const recorder = new Recorder();
    const seen: [Exchange, Verdict][] = [];
    const queue = new JudgeQueue({ secrets: recorder.secretHeaders, inline: true, onVerdict: (ex, v) => (seen.push([ex, v]), recorder.record(ex, v)) });
    // The same exchange twice (a 201 without a body: the judge faults it), judged in the proxy's own thread.
    const body = '{"website":"https://www.harbourloaf.ie"}';
    for (const seq of [1, 2]) expect(queue.submit(data(seq, body, ""))).toBe(true);
    await queue.settled();
    await queue.close();
    expect(seen.map(([ex]) => ex.seq)).toEqual([1, 2]);
    const [[, a], [, b]] = seen as [[Exchange, Verdict], [Exchange, Verdict]];
    expect(a).toBe(b);
    expect(Object.isFrozen(a)).toBe(true);
    expect(a.violations.length).toBeGreaterThan(0);
    const report = recorder.report();
    expect(report.failedExchanges).toBe(2);
    expect(report.violations).toBe(2 * a.violations.length);
    expect(report.byRule.reduce((n, t) => n + t.count, 0)).toBe(2 * a.violations.reduce((n, v) => n + v.rules.length, 0));
    expect(recorder.violations().map((v) => v.seq)).toEqual(a.violations.flatMap(() => [1]).concat(a.violations.flatMap(() => [2])));
  });
});

describe("the exchange judges and records see", () => {
  it("hides secret headers and decodes bodies when read, the same every time, and spreads or serialises whole", () => {
    const secrets = new SecretHeaders();
    const ex = exchangeOf(data(7, '{"a":"é"}', '{"b":1}', { failure: "reset", failureBy: "service" }), secrets);
    expect(ex.requestHeaders.authorization).toBe("Bearer [redacted]");
    expect(ex.responseHeaders["set-cookie"]).toEqual(["[redacted]"]);
    expect(ex.requestText).toBe('{"a":"é"}');
    expect(ex.responseText).toBe('{"b":1}');
    expect(ex.requestHeaders).toBe(ex.requestHeaders); // made once
    const copy = { ...ex };
    expect(copy).toMatchObject({ seq: 7, requestText: '{"a":"é"}', responseText: '{"b":1}', failure: "reset", failureBy: "service" });
    expect(JSON.parse(JSON.stringify(ex)).requestHeaders.authorization).toBe("Bearer [redacted]");
    expect(JSON.stringify(ex)).not.toContain("tok_secret_123456");
  });

  it("has exactly the exchange's fields, in order, and shows nothing it is made from, even to an inspection", () => {
    const secrets = new SecretHeaders();
    const fields = ["protocol", "seq", "method", "path", "requestTruncated", "status", "responseTruncated", "ms", "serviceMs"];
    const lazy = ["requestHeaders", "requestText", "responseHeaders", "responseText"];
    const plain = exchangeOf(data(8, "{}", "{}"), secrets);
    expect(Object.keys(plain)).toEqual([...fields, ...lazy]);
    expect("failure" in plain).toBe(false);
    expect(Object.keys({ ...plain })).toEqual([...fields, ...lazy]);
    const failed = exchangeOf(data(9, "{}", "", { failure: "reset" }), secrets);
    expect(Object.keys(failed)).toEqual([...fields, "failure", "failureBy", ...lazy]);
    expect(failed.failureBy).toBe("service");
    // Hidden properties and symbols included: the headers as sent (the token) are nowhere to be seen.
    for (const ex of [plain, failed]) {
      expect(inspect(ex, { showHidden: true, depth: 10, getters: true })).not.toContain("tok_secret_123456");
      expect(Object.getOwnPropertySymbols(ex)).toEqual([]);
      expect(Object.getOwnPropertyNames(ex)).toEqual(Object.keys(ex));
    }
  });
});

describe("times-to-utc in the proxy's MCP judge", () => {
  // A tools/call answered with times nested in objects and lists: the rule names each offending time by its path.
  const call = (payload: unknown): ExchangeData => {
    const request = JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "get_post_batch_status", arguments: { batchId: "b_1" } } });
    const result = { content: [{ type: "text", text: JSON.stringify(payload) }], structuredContent: { data: payload } };
    return data(1, request, JSON.stringify({ jsonrpc: "2.0", id: 3, result }), { protocol: "mcp", path: "/mcp", status: 200, responseHeaders: { "content-type": "application/json" } });
  };
  const timeRule = (d: ExchangeData) =>
    judgeExchange(d, new SecretHeaders(), newJudgeStates()).violations.filter((v) => v.rules.includes("times-to-utc"));

  it("names every time with an offset other than Z by its path, and passes UTC ones", () => {
    const bad = timeRule(call({ createdAt: "2026-01-01T10:00:00Z", items: [{ postId: "p", updatedAt: "2026-01-01T10:00:00+00:00" }, { scheduledAt: "2026-01-01T10:00:00+02:00" }] }));
    expect(bad).toHaveLength(1);
    expect(bad[0]!.reason).toContain("items[1].scheduledAt 2026-01-01T10:00:00+02:00");
    expect(bad[0]!.reason).not.toContain("updatedAt");
    expect(timeRule(call({ createdAt: "2026-01-01T10:00:00Z", items: [{ updatedAt: "2026-01-01T10:00:00-00:00" }] }))).toEqual([]);
  });
});
