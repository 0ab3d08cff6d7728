// The judges' verdict cache (proxy/verdict-cache.ts): the same recorded exchanges judged with and without it give
// the same verdicts and leave the same remembered state, including where a cached verdict must not apply (the
// state it was judged on has changed, the times or the request's bytes differ where the key cannot see them).
import { describe, expect, it, vi } from "vitest";
import { exchangeOf, judgeExchange, judgeExchangeText, newJudgeStates, type ExchangeData, type JudgeStates } from "../proxy/judge-exchange.js";
import { schemeOnly, SecretHeaders } from "../proxy/secrets.js";
import { VerdictCache } from "../proxy/verdict-cache.js";
import { Lru } from "../proxy/lru.js";
import { contractTools } from "../conformance/suites/mcp/contract.js";
import type { Verdict } from "../proxy/types.js";
import { answer, batchStatus, brand, call } from "./support/judge-fixtures.js";

const secrets = new SecretHeaders(["x-api-key"]);
let seq = 0;
const bytes = (v: unknown) => (v === undefined ? new Uint8Array() : v instanceof Uint8Array ? v : new Uint8Array(Buffer.from(typeof v === "string" ? v : JSON.stringify(v))));
const data = (protocol: "rest" | "mcp", method: string, path: string, request: unknown, status: number, response: unknown, over: Partial<ExchangeData> = {}): ExchangeData => ({
  protocol,
  seq: ++seq,
  method,
  path,
  requestHeaders: { host: "127.0.0.1", authorization: "Bearer test_team_a", "content-type": "application/json" },
  request: bytes(request),
  requestTruncated: false,
  status,
  responseHeaders: { "content-type": "application/json" },
  response: bytes(response),
  responseTruncated: false,
  ms: 2,
  serviceMs: 2,
  ...over,
});

const getBrand = (b: unknown, over: Partial<ExchangeData> = {}) => data("rest", "GET", "/v1/brands/brand_7Hq2LmX9c", undefined, 200, b, over);
const batchCall = (d: unknown) => data("mcp", "POST", "/mcp", call("get_post_batch_status", { batchId: "b5e3d2c1-7a90-4f18-b6e2-0d4c9a8f1e77" }), 200, answer(d));
const unsettled = batchStatus({ status: "generating", settled: false, createdCount: 0, pendingCount: 1, items: [{ index: 0, status: "generating", postId: null, title: null, platforms: [], error: null }] });

/** The exchanges, in order: repeats (hits), and repeats whose verdict the state or what the key leaves out changes. */
const recorded = (): ExchangeData[] => [
  getBrand(brand("reading")),
  getBrand(brand("reading")),
  // Another token (hidden the same) and headers no judge reads: the same verdict (a hit).
  getBrand(brand("reading"), { requestHeaders: { host: "127.0.0.1", authorization: "Bearer test_team_b", "content-type": "application/json", "x-api-key": "k_1" }, responseHeaders: { "content-type": "application/json", "x-request-id": "req_2" } }),
  getBrand(brand("ready")),
  getBrand(brand("ready")),
  // The same bytes as the first three, but the brand was ready: the cached verdict must not apply.
  getBrand(brand("reading")),
  getBrand(brand("reading")),
  // Slow: the times decide (never cached).
  getBrand(brand("ready"), { ms: 20_000, serviceMs: 20_000 }),
  getBrand(brand("ready")),
  // A request body that is not UTF-8, and one whose text is the same once decoded: different verdicts.
  data("rest", "POST", "/v1/brands", new Uint8Array([0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]), 400, { error: { type: "invalid_request", code: "x", message: "m", param: "name" } }),
  data("rest", "POST", "/v1/brands", '{"n":"\ufffd"}', 400, { error: { type: "invalid_request", code: "x", message: "m", param: "name" } }),
  data("rest", "POST", "/v1/brands", '{"n":"\ufffd"}', 400, { error: { type: "invalid_request", code: "x", message: "m", param: "name" } }),
  batchCall(batchStatus({})),
  batchCall(batchStatus({})),
  batchCall(unsettled),
  batchCall(unsettled),
  batchCall(batchStatus({})),
  batchCall(unsettled),
  // A failure: never cached.
  getBrand(undefined, { status: 0, failure: "the upstream closed the connection", failureBy: "service" }),
];

const judgeAll = (states: JudgeStates, exchanges: ExchangeData[]): Verdict[] => exchanges.map((d) => judgeExchange(d, secrets, states));
/** What the judges remember, entry by entry in LRU order. */
const stateOf = (s: JudgeStates) => JSON.stringify([s.rest.brands, s.rest.batches, s.mcp.tools, s.mcp.batches, s.mcp.deleted, s.mcp.deactivations, s.mcp.externalIds].map((l) => l.keys().map((k) => [k, l.peek(k)])));
const rulesOf = (v: Verdict) => v.violations.flatMap((x) => x.rules);

describe("verdict cache", () => {
  it("gives the verdicts and the state judging every exchange gives, and hits on repeats", () => {
    const exchanges = recorded();
    const plain = newJudgeStates({ cache: false });
    const cached = newJudgeStates();
    const uncachedVerdicts = judgeAll(plain, exchanges);
    const cachedVerdicts = judgeAll(cached, exchanges);
    expect(cachedVerdicts).toEqual(uncachedVerdicts);
    expect(stateOf(cached)).toEqual(stateOf(plain));
    // A repeat hits once the state it reads is what it was when judged: from the third of a kind here.
    expect(cached.cache!.hits).toBeGreaterThanOrEqual(2);
    // The state-dependent repeats are judged on the state, not taken from the cache.
    expect(rulesOf(cachedVerdicts[0]!)).not.toContain("brand-terminal-stays");
    expect(rulesOf(cachedVerdicts[5]!)).toContain("brand-terminal-stays");
    expect(rulesOf(cachedVerdicts[14]!)).toContain("batch-stays-settled");
    expect(rulesOf(cachedVerdicts[17]!)).toContain("batch-stays-settled");
    // The bytes the key must see: undecodable is the client's, the same text in UTF-8 is judged.
    expect(cachedVerdicts[9]!.clientFault).toMatch(/not valid UTF-8/);
    expect(cachedVerdicts[10]!.clientFault).toBeUndefined();
    // The slow answer breaks the timing rule; the same exchange in time does not.
    const timing = (v: Verdict) => rulesOf(v).filter((r) => !rulesOf(cachedVerdicts[4]!).includes(r));
    expect(timing(cachedVerdicts[7]!)).not.toEqual([]);
    expect(timing(cachedVerdicts[8]!)).toEqual([]);
  });

  it("judges again the same way after every prefix (a hit leaves the state judging leaves)", () => {
    const exchanges = recorded();
    for (let cut = 1; cut < exchanges.length; cut++) {
      const plain = newJudgeStates({ cache: false });
      const cached = newJudgeStates();
      // Warm the cache on the whole run, then judge a prefix and the rest on fresh state with that warm cache.
      judgeAll({ ...newJudgeStates({ cache: false }), cache: cached.cache! }, exchanges);
      expect(judgeAll(cached, exchanges.slice(0, cut))).toEqual(judgeAll(plain, exchanges.slice(0, cut)));
      expect(judgeAll(cached, exchanges.slice(cut))).toEqual(judgeAll(plain, exchanges.slice(cut)));
      expect(stateOf(cached)).toEqual(stateOf(plain));
    }
  });

  it("hits on a repeated MCP call as on a REST read, once the state it reads is the same", () => {
    for (const d of [batchCall(batchStatus({})), getBrand(brand("ready"))]) {
      const states = newJudgeStates();
      judgeAll(states, [d, d, d, d]);
      expect(states.cache!.hits, d.path).toBe(2);
    }
  });

  it("answers a hit with the verdict text kept for it, parsing and making no verdict", () => {
    const states = newJudgeStates();
    const d = getBrand(brand("ready"));
    const texts = [d, d, d, d].map((x) => judgeExchangeText(x, secrets, states));
    expect(states.cache!.hits).toBe(2);
    expect(new Set(texts).size).toBe(1);
    expect(JSON.parse(texts[0]!)).toEqual(judgeExchange(d, secrets, newJudgeStates({ cache: false })));
    const parse = vi.spyOn(JSON, "parse");
    const stringify = vi.spyOn(JSON, "stringify");
    try {
      const hit = judgeExchangeText(d, secrets, states);
      expect(states.cache!.hits).toBe(3);
      expect(hit).toBe(texts[0]);
      // The text kept is the text answered: never parsed into a verdict, nor a verdict stringified again.
      expect(parse.mock.calls.filter(([text]) => text === hit)).toEqual([]);
      expect(stringify.mock.results.filter((r) => r.value === hit)).toEqual([]);
    } finally {
      parse.mockRestore();
      stringify.mockRestore();
    }
  });

  it("keys an exchange by its keyed headers as the judges see them (hidden), whatever the secret headers", () => {
    const cache = new VerdictCache({ answerWithinMs: 1000, sendWithinMs: 1000 });
    const base = getBrand(brand("ready"));
    const withHeaders = (requestHeaders: ExchangeData["requestHeaders"], responseHeaders: ExchangeData["responseHeaders"] = base.responseHeaders) => ({ ...base, requestHeaders, responseHeaders });
    const variants: ExchangeData["requestHeaders"][] = [
      { authorization: "Bearer test_team_a", accept: "application/json", "content-type": "application/json" },
      { authorization: "Bearer test_team_b", accept: "application/json" },
      { authorization: "Basic dXNlcjpwYXNzd29yZA==", accept: "text/plain", "mcp-protocol-version": ["2025-06-18", "2025-03-26"] },
      { authorization: "tok_without_a_scheme", "mcp-protocol-version": "2025-06-18" },
      { accept: "text/event-stream", "x-api-key": "k_1" },
      {},
    ];
    // Plain, and with keyed headers made secret (accept, mcp-protocol-version): one with two values.
    for (const secrets of [new SecretHeaders(), new SecretHeaders(["accept", "MCP-Protocol-Version"])]) {
      for (const h of variants) {
        const d = withHeaders(h, { ...base.responseHeaders, "www-authenticate": 'Bearer realm="x"' });
        const key = cache.keyOf(d, secrets);
        // The same key as the headers already hidden give: the key holds the values as hidden, nothing more.
        expect(cache.keyOf(withHeaders(secrets.hide(h), secrets.hide(d.responseHeaders)), secrets)).toBe(key);
        expect(cache.keyOf(d, secrets), "the same again (memoised)").toBe(key);
      }
      // A keyed header's value changes the key unless it is hidden.
      const a = cache.keyOf(withHeaders({ accept: "application/json" }), secrets);
      const b = cache.keyOf(withHeaders({ accept: "text/html" }), secrets);
      expect(a === b).toBe(secrets.has("accept"));
      // Credential headers keep their scheme: Bearer and Basic differ, two Bearer tokens do not.
      expect(cache.keyOf(withHeaders({ authorization: "Bearer one_token" }), secrets)).toBe(cache.keyOf(withHeaders({ authorization: "Bearer two_token" }), secrets));
      expect(cache.keyOf(withHeaders({ authorization: "Bearer one_token" }), secrets)).not.toBe(cache.keyOf(withHeaders({ authorization: "Basic one_token" }), secrets));
    }
    // The hidden credential is the same however many distinct values came before (the memo is bounded).
    const secrets = new SecretHeaders();
    for (let round = 0; round < 2; round++)
      for (let i = 0; i < 600; i++) {
        const v = i % 3 ? `Bearer tok_${i}` : i % 2 ? `Basic ${i}` : `opaque_${i}`;
        expect(secrets.hideValue("authorization", v)).toBe(schemeOnly(v));
        expect(secrets.hide({ authorization: [v, "Digest x"] }).authorization).toEqual([schemeOnly(v), schemeOnly("Digest x")]);
      }
  });

  it("gives a repeated exchange its last key again, and any change one field or byte makes, a key of its own", () => {
    const cache = new VerdictCache({ answerWithinMs: 1000, sendWithinMs: 1000 });
    const fresh = (d: ExchangeData) => new VerdictCache({ answerWithinMs: 1000, sendWithinMs: 1000 }).keyOf(d, secrets);
    const base = getBrand(brand("ready"));
    const requestHeaders = Object.freeze({ ...base.requestHeaders });
    const responseHeaders = Object.freeze({ ...base.responseHeaders });
    const d: ExchangeData = { ...base, requestHeaders, responseHeaders, request: Buffer.from("{}"), response: Buffer.from(base.response) };
    const flipped = (b: Uint8Array) => {
      const c = Buffer.from(b);
      c[c.length - 1]! ^= 1;
      return c;
    };
    // Each a repeat of the exchange before it but for one thing (bytes equal but not the same object are a repeat).
    const sequence: ExchangeData[] = [
      d,
      { ...d },
      { ...d, request: Buffer.from(d.request) },
      { ...d, request: flipped(d.request) },
      d,
      { ...d, response: flipped(d.response) },
      d,
      { ...d, response: d.response.subarray(0, d.response.byteLength - 1) },
      d,
      { ...d, status: 201 },
      d,
      { ...d, path: `${d.path}x` },
      d,
      { ...d, method: "HEAD" },
      d,
      { ...d, protocol: "mcp" },
      d,
      { ...d, requestTruncated: true },
      d,
      { ...d, responseTruncated: true },
      d,
      { ...d, requestHeaders: Object.freeze({ ...requestHeaders, accept: "text/html" }) },
      d,
      { ...d, responseHeaders: Object.freeze({ ...responseHeaders, "content-type": "text/html" }) },
      d,
    ];
    for (const [i, x] of sequence.entries()) expect(cache.keyOf(x, secrets), `exchange ${i}`).toBe(fresh(x));
    // A repeat costs a comparison: nothing is made anew.
    const expected = fresh(d);
    const stringify = vi.spyOn(JSON, "stringify");
    let repeated: string | undefined;
    try {
      repeated = cache.keyOf({ ...d, request: Buffer.from(d.request), response: Buffer.from(d.response) }, secrets);
      expect(stringify).not.toHaveBeenCalled();
    } finally {
      stringify.mockRestore();
    }
    expect(repeated).toBe(expected);
    // Headers not frozen may change in place between two exchanges: never taken as the same.
    const open: ExchangeData = { ...d, requestHeaders: { ...requestHeaders } };
    const before = cache.keyOf(open, secrets);
    open.requestHeaders.accept = "text/html";
    expect(cache.keyOf(open, secrets)).not.toBe(before);
    expect(cache.keyOf(open, secrets)).toBe(fresh(open));
  });

  it("knows a live tool unchanged by its identity: no tool is made into text by a hit or a miss, and a changed tool is judged again", () => {
    // The live tools as a gateway lists them (the contract's), then one whose output schema asks for a member the
    // answers lack, then the first list again, twice (new objects, the same content: the second changes nothing).
    const list = (tools: unknown[]) => data("mcp", "POST", "/mcp", { jsonrpc: "2.0", id: 1, method: "tools/list" }, 200, { jsonrpc: "2.0", id: 1, result: { tools } });
    const listed = () => JSON.parse(JSON.stringify(contractTools)) as Array<{ name: string; outputSchema: { required?: string[]; properties?: Record<string, unknown> } }>;
    const stricter = listed();
    const status = stricter.find((t) => t.name === "get_post_batch_status")!.outputSchema;
    status.required = [...(status.required ?? []), "auditTrail"];
    status.properties = { ...status.properties, auditTrail: { type: "string" } };
    const d = batchCall(batchStatus({}));
    const run = [list(listed()), d, d, d, d, list(stricter), d, d, d, list(listed()), d, d, d, d, list(listed()), d, d];
    // Calls not seen before (misses, as most of a real client's are).
    const batchId = (i: number) => `b5e3d2c1-7a90-4f18-b6e2-0d4c9a8f1e7${i}`;
    const distinct = Array.from({ length: 5 }, (_, i) => data("mcp", "POST", "/mcp", call("get_post_batch_status", { batchId: batchId(i) }), 200, answer(batchStatus({ batchId: batchId(i) }))));
    const plain = newJudgeStates({ cache: false });
    const cached = newJudgeStates();
    const verdicts = judgeAll(cached, run);
    const stringify = vi.spyOn(JSON, "stringify");
    const toolsJson = () => stringify.mock.calls.filter(([v]) => typeof v === "object" && v !== null && "inputSchema" in v && "outputSchema" in v);
    let later: Verdict[];
    try {
      // Hits compare the live tool they read by identity (a tool found the same by its text is kept for that), and
      // misses keep the tool they read as it is: no tool is made into JSON text.
      const { hits, misses } = cached.cache!;
      later = judgeAll(cached, [d, d, d, ...distinct]);
      expect(cached.cache!.hits - hits).toBe(3);
      expect(cached.cache!.misses - misses).toBe(distinct.length);
      expect(toolsJson()).toEqual([]);
    } finally {
      stringify.mockRestore();
    }
    expect([...verdicts, ...later]).toEqual(judgeAll(plain, [...run, d, d, d, ...distinct]));
    expect(stateOf(cached)).toEqual(stateOf(plain));
    // The stricter tool is judged, not taken from the cache; the list as before is the first verdict again.
    expect(verdicts[6]).not.toEqual(verdicts[4]);
    expect(verdicts[12]).toEqual(verdicts[4]);
    expect(verdicts[16]).toEqual(verdicts[4]);
    expect(cached.cache!.hits).toBeGreaterThanOrEqual(11);
    // What the judges remember is frozen throughout: it changes only by a set.
    const tool = cached.mcp.tools.peek("get_post_batch_status")!;
    expect(Object.isFrozen(tool) && Object.isFrozen(tool.outputSchema) && Object.isFrozen((tool.outputSchema as { properties: object }).properties)).toBe(true);
  });

  it("takes only LRUs whose values are frozen throughout, however they came", () => {
    const cache = new VerdictCache({ answerWithinMs: 1000, sendWithinMs: 1000 });
    const d = getBrand(brand("ready"));
    const verdict: Verdict = { label: "GET", outcome: "200", violations: [], notes: [] };
    expect(() => cache.judge(cache.keyOf(d, secrets)!, exchangeOf(d, secrets), [new Lru<string, object>(4)], () => verdict)).toThrow(/frozen/);
    const lru = new Lru<string, { outer: { inner: string[] } }>(4, { frozen: true });
    // An object frozen by someone else may hold one that is not: everything in a value set is frozen.
    const value = Object.freeze({ outer: { inner: ["a"] } });
    lru.set("k", value);
    expect(Object.isFrozen(value.outer) && Object.isFrozen(value.outer.inner)).toBe(true);
    expect(() => value.outer.inner.push("b")).toThrow(TypeError);
    expect(cache.judge(cache.keyOf(d, secrets)!, exchangeOf(d, secrets), [lru], () => (lru.get("k"), verdict))).toBe(JSON.stringify(verdict));
  });

  it("keeps no verdict whose judge read after writing, or wrote an entry out", () => {
    const d = getBrand(brand("ready"));
    const verdict: Verdict = { label: "GET", outcome: "200", violations: [], notes: [] };
    for (const [cap, judge, kept] of [
      [1, (l: Lru<string, number>) => (l.get("a"), l.set("a", 2)), true],
      // The read could see the judge's own write: a hit replaying the reads first would not.
      [2, (l: Lru<string, number>) => (l.set("b", 2), l.get("a")), false],
      // The write evicts "a" (cap 1): a hit could not know what it evicted.
      [1, (l: Lru<string, number>) => l.set("b", 2), false],
    ] as const) {
      const cache = new VerdictCache({ answerWithinMs: 1000, sendWithinMs: 1000 });
      const lru = new Lru<string, number>(cap, { frozen: true });
      lru.set("a", 1);
      cache.judge(cache.keyOf(d, secrets)!, exchangeOf(d, secrets), [lru as Lru<unknown, unknown>], () => (judge(lru), verdict));
      expect(cache.size, String(judge)).toBe(kept ? 1 : 0);
    }
  });

  it("hits when every request carries a new token in a header the key does not hold, and the same credential", () => {
    const states = newJudgeStates();
    const d = getBrand(brand("ready"));
    for (let i = 0; i < 10; i++) judgeExchangeText({ ...d, requestHeaders: { ...d.requestHeaders, "x-api-key": `key_${i}_${"x".repeat(20)}` } }, secrets, states);
    expect(states.cache!.hits).toBe(8);
    // A new bearer token on every request, hidden the same: hits too.
    for (let i = 0; i < 10; i++) judgeExchangeText({ ...d, requestHeaders: { ...d.requestHeaders, authorization: `Bearer team_${i}_${"y".repeat(20)}` } }, secrets, states);
    expect(states.cache!.hits).toBe(18);
  });

  it("keeps no verdict whose judging read a header the key does not hold, or listed the headers", () => {
    const d = getBrand(brand("ready"));
    const ex = exchangeOf(d, secrets);
    const verdict: Verdict = { label: "GET /v1/brands/brand_7Hq2LmX9c", outcome: "200", violations: [], notes: [] };
    const states = newJudgeStates({ cache: false });
    for (const [read, kept] of [
      [(e: typeof ex) => e.requestHeaders.authorization, true],
      [(e: typeof ex) => e.responseHeaders["x-request-id"], false],
      [(e: typeof ex) => Object.keys(e.requestHeaders), false],
      [(e: typeof ex) => "host" in e.requestHeaders, false],
    ] as const) {
      const cache = new VerdictCache({ answerWithinMs: 1000, sendWithinMs: 1000 });
      cache.judge(cache.keyOf(d, secrets)!, ex, [states.rest.brands], (watched) => (read(watched), verdict));
      expect(cache.size, String(read)).toBe(kept ? 1 : 0);
    }
  });
});
