// The proxy's record of a session, without servers: tokens learnt from requests are redacted wherever the
// target echoes them, the Markdown report escapes what the target sent, and what is kept stays within its caps.
import { describe, expect, it } from "vitest";
import { Lru } from "../proxy/lru.js";
import { proxyJunitReport } from "../proxy/junit.js";
import { markdownReport, mdBlock, mdText, serviceFailures, summaryLine } from "../proxy/output.js";
import { Redactor } from "../conformance/core/redact.js";
import { Recorder, recorderCaps } from "../proxy/recorder.js";
import { bodyCredentials, hideUrlCredentials, schemeOnly, SecretHeaders, secretsOf, secretsOfUrls } from "../proxy/secrets.js";
import type { Verdict } from "../proxy/types.js";
import { restExchange as exchange } from "./support/judge-fixtures.js";

const failing = (reason: string): Verdict => ({ label: "GET /v1/brands/brand_1", outcome: "200", violations: [{ rules: ["brand-fields-complete"], reason, side: "service" }], notes: [] });

describe("Recorder", () => {
  it("redacts every token it has seen, in reasons, headers and echoed bodies", () => {
    const r = new Recorder();
    r.learnToken("Bearer secret-token-abcdef");
    const [v] = r.record(exchange(1), failing("the body echoes secret-token-abcdef"));
    expect(v!.reason).toBe("the body echoes [redacted]");
    const text = JSON.stringify(r.report());
    expect(text).not.toContain("secret-token-abcdef");
    expect(r.report().byRule[0]!.examples[0]!.exchange.requestHeaders.authorization).toBe("Bearer [redacted]");
  });

  it("redacts the tokens it remembers, however they were learnt between outputs (added when a text is redacted)", () => {
    const r = new Recorder();
    const token = (i: number) => `learnt_token_${String(i).padStart(6, "0")}`;
    const cap = recorderCaps.tokens;
    // Learnt with no output between: the first ones are let go before the redactor ever held them.
    for (let i = 0; i < cap + 50; i++) r.learnSecret(token(i));
    const all = (from: number, to: number) => Array.from({ length: to - from }, (_, k) => token(from + k)).join(" ");
    expect(r.text(all(50, cap + 50))).not.toContain("learnt_token");
    expect(r.text(`${token(0)} ${token(49)}`)).toBe(`${token(0)} ${token(49)}`);
    // Learnt after a text: added at the next; those held by the redactor and then let go are forgotten there too.
    for (let i = cap + 50; i < cap + 120; i++) r.learnSecret(token(i));
    expect(r.text(all(120, cap + 120))).not.toContain("learnt_token");
    expect(r.text(token(60))).toBe(token(60));
    expect(r.redaction.tokens).toBe(cap);
  });

  it("keeps counts whole but examples, recent violations and notes within their caps", () => {
    const r = new Recorder();
    const n = recorderCaps.recentViolations + 50;
    // Notes count by kind (numbers and ids aside): these say different words.
    const word = (i: number) => i.toString(26).replace(/\d/g, (d) => "qrstuvwxyz"[Number(d)]!);
    for (let i = 1; i <= n; i++) r.record(exchange(i), { ...failing(`reason ${i}`), notes: [`note ${word(i % (recorderCaps.distinctNotes + 20))}`] });
    const report = r.report();
    expect(report.violations).toBe(n);
    expect(report.byRule[0]!.count).toBe(n);
    expect(report.byRule[0]!.examples).toHaveLength(recorderCaps.examplesPerRule);
    expect(r.violations()).toHaveLength(recorderCaps.recentViolations);
    expect(r.violations().at(-1)!.seq).toBe(n);
    expect(report.notes).toHaveLength(recorderCaps.distinctNotes);
  });
});

describe("drift", () => {
  it("is counted apart, marked, skipped in JUnit and never counted by --fail-on-violation", () => {
    const r = new Recorder();
    const drift: Verdict = { label: "POST /v1/feedback", outcome: "201", violations: [{ rules: ["feedback-fields-complete/idea"], reason: "no idea field", side: "drift" }], notes: [] };
    r.record(exchange(1), drift);
    const report = r.report();
    expect(report.bySide).toEqual({ client: 0, service: 0, drift: 1 });
    expect(serviceFailures(report)).toBe(0);
    expect(summaryLine(report)).toMatch(/0 by the service, 0 by the client, 1 drift from inferred rules/);
    expect(markdownReport(report)).toMatch(/\(drift\): no idea field/);
    expect(proxyJunitReport(report)).toMatch(/<skipped message="drift from a rule the contract inferred/);
    expect(proxyJunitReport(report)).toMatch(/failures="0"/);
    r.record(exchange(2), failing("a brand without its name"));
    expect(serviceFailures(r.report())).toBe(1);
  });
});

describe("secrets by header name and by value", () => {
  it("hide every credential header whatever its scheme, and learn what each carries", () => {
    expect(schemeOnly("Bearer abc")).toBe("Bearer [redacted]");
    expect(schemeOnly("Basic dXNlcjpwYXNz")).toBe("Basic [redacted]");
    // No known scheme: the first word may be the secret itself.
    expect(schemeOnly("tok_abcdef123")).toBe("[redacted]");
    expect(schemeOnly("tok_abc def")).toBe("[redacted]");
    expect(secretsOf("authorization", "Token abc123")).toEqual(["abc123"]);
    expect(secretsOf("authorization", `Basic ${Buffer.from("partner:pa55word").toString("base64")}`)).toContain("pa55word");
    expect(secretsOf("cookie", "theme=dark; session=s3cr3t")).toEqual(["dark", "s3cr3t"]);
    expect(secretsOf("set-cookie", "session=s3cr3t; HttpOnly")).toEqual(["s3cr3t"]);
    const r = new Recorder({ secretHeaders: ["X-Partner-Secret"] });
    r.learn({ "proxy-authorization": "Bearer proxy-token-1", "x-api-key": "api-key-12345", "x-partner-secret": "partner-secret-9" }, "/v1/x?access_token=query-token-77");
    for (const s of ["proxy-token-1", "api-key-12345", "partner-secret-9", "query-token-77"]) expect(r.text(`echo ${s} end`)).toBe("echo [redacted] end");
    expect(r.hide({ "x-partner-secret": "partner-secret-9", "proxy-authorization": "Bearer x", accept: "*/*" })).toEqual({ "x-partner-secret": "[redacted]", "proxy-authorization": "Bearer [redacted]", accept: "*/*" });
  });

  it("credentials in URLs inside other headers' values are learnt and hidden, the rest of the value kept", () => {
    const referer = "https://app.example/cb?state=abc&access_token=ref-token-4242&page=2";
    expect(secretsOfUrls(referer)).toEqual(["ref-token-4242"]);
    expect(hideUrlCredentials(referer)).toBe("https://app.example/cb?state=abc&access_token=[redacted]&page=2");
    // User info (the whole, each part, decoded), in a Link with several URLs, and a relative Location's query.
    expect(secretsOfUrls("https://partner:pa%24%24word-99@host.example/x")).toEqual(expect.arrayContaining(["pa%24%24word-99", "pa$$word-99"]));
    expect(hideUrlCredentials("<https://u:p4ssw0rd-long@a.example/>; rel=a, </v1/x?client_secret=cs-1234567890>; rel=b")).toBe("<https://[redacted]@a.example/>; rel=a, </v1/x?client_secret=[redacted]>; rel=b");
    // A URL after other text in its word, and a fragment after the query: both kept.
    expect(hideUrlCredentials("url=https://a.example/cb?token=tok-123456789#top")).toBe("url=https://a.example/cb?token=[redacted]#top");
    // What carries none is the very string given: most headers pass here on every exchange.
    for (const v of ["application/json", "https://app.example/cb?page=2&state=abc", "mailto:someone@example.com", "/v1/brands?cursor=c1"]) {
      expect(secretsOfUrls(v)).toEqual([]);
      expect(hideUrlCredentials(v)).toBe(v);
    }
    // Through the recorder: learnt from any header (request or answer), hidden where the header shows, redacted in any text.
    const r = new Recorder();
    r.learn({ referer, location: "/v1/next?api_key=loc-key-77777" });
    for (const s of ["ref-token-4242", "loc-key-77777"]) expect(r.text(`echo ${s}`)).toBe("echo [redacted]");
    expect(r.hide({ referer, "x-original-url": ["/a?token=tok-123456789", "/b"] })).toEqual({ referer: hideUrlCredentials(referer), "x-original-url": ["/a?token=[redacted]", "/b"] });
    expect(new SecretHeaders().hideShared({ referer })).toEqual({ referer: hideUrlCredentials(referer) });
  });

  it("body members and form fields that hold a credential are hidden in shown bodies whatever their length, and long ones learnt", () => {
    const body = JSON.stringify({ website: 5, password: "hunter2", nested: { client_secret: "cs-long-secret-1", apiKey: 12345678901, accessToken: "at-escaped-999" }, tokenExpiresAt: "2026-01-01T00:00:00Z", code: "invalid_value", author: "Ann", key_points: ["a"] })
      // A member name written with a JSON escape is read as JSON reads it.
      .replace('"accessToken"', '"access\\u0054oken"');
    expect(body).toContain("access\\u0054oken");
    const { hidden, secrets } = bodyCredentials(body);
    const shown = JSON.parse(hidden);
    expect(shown).toMatchObject({ website: 5, password: "[redacted]", nested: { client_secret: "[redacted]", apiKey: "[redacted]" }, tokenExpiresAt: "2026-01-01T00:00:00Z", code: "invalid_value", author: "Ann", key_points: ["a"] });
    // "hunter2" is hidden where it stands but not learnt: 7 characters would vanish from every text.
    expect(secrets).toEqual(["cs-long-secret-1", "12345678901", "at-escaped-999"]);
    expect(Object.values(shown.nested)).not.toContain("at-escaped-999");
    expect(bodyCredentials("grant_type=client_credentials&client_id=abc&client_secret=form-secret-55&x=1")).toEqual({ hidden: "grant_type=client_credentials&client_id=abc&client_secret=[redacted]&x=1", secrets: ["form-secret-55"] });
    for (const plain of ["", "not json, not a form", '{"id":"brand_1","name":"Loaf"}']) expect(bodyCredentials(plain)).toEqual({ hidden: plain, secrets: [] });
    // Recorded with a violation: the shown bodies hide them, and no output of the record shows a long one.
    const r = new Recorder();
    const ex = { ...exchange(1), requestText: body, responseText: '{"connectToken":"ct-answer-token-1","url":"https://x.example/c"}' };
    const [v] = r.record(ex, failing("the body echoes cs-long-secret-1 and ct-answer-token-1"));
    expect(v!.reason).toBe("the body echoes [redacted] and [redacted]");
    const shownEx = r.report().byRule[0]!.examples[0]!.exchange;
    expect(JSON.parse(shownEx.requestBody).password).toBe("[redacted]");
    expect(JSON.parse(shownEx.responseBody)).toEqual({ connectToken: "[redacted]", url: "https://x.example/c" });
    const text = JSON.stringify(r.report());
    for (const s of ["hunter2", "cs-long-secret-1", "12345678901", "at-escaped-999", "ct-answer-token-1"]) expect(text).not.toContain(s);
  });

  it("hideShared gives exactly what hide gives, and the same object for headers that differ only in secrets hidden alike", () => {
    const secrets = new SecretHeaders(["x-partner-secret"]);
    // Headers drawn from a few names and values, secret and not, repeated headers and orders included (seeded).
    let seed = 7;
    const pick = <T,>(xs: readonly T[]): T => xs[(seed = (seed * 1103515245 + 12345) % 2 ** 31) % xs.length]!;
    const values: Record<string, readonly (string | string[])[]> = {
      authorization: ["Bearer tok_a_12345678", "Bearer tok_b_87654321", "Basic dXNlcjpwYXNz", "tok_no_scheme_1", ["Bearer x_1234567", "Bearer y_7654321"]],
      "x-api-key": ["key_one_12345", "key_two_54321", ["key_1_aaaaaaa", "key_2_bbbbbbb"]],
      "x-partner-secret": ["partner_1_abcdef", "partner_2_fedcba"],
      cookie: ["session=s_1; theme=dark", "session=s_2; theme=dark"],
      accept: ["application/json", "*/*", ["application/json", "text/plain"]],
      "content-type": ["application/json", "text/plain"],
      "x-request-id": ["r1", "r2"],
    };
    const names = Object.keys(values);
    for (let i = 0; i < 3_000; i++) {
      const h: Record<string, string | string[]> = {};
      // Mostly one shape, as a client repeats itself; sometimes another order or set of headers.
      const shape = pick([0, 0, 0, 0, 1, 2]);
      const chosen = shape === 0 ? ["accept", "authorization", "x-api-key", "content-type"] : names.filter(() => pick([true, false]));
      for (const n of shape === 2 ? [...chosen].reverse() : chosen) h[n] = pick(values[n]!);
      const hidden = secrets.hideShared(h);
      expect(hidden).toEqual(secrets.hide(h));
      expect(Object.keys(hidden)).toEqual(Object.keys(h));
      expect(Object.isFrozen(hidden)).toBe(true);
    }
    // A client repeating its headers with a new token each time (the proxy's token storm) gets one object.
    const storm = new Set(Array.from({ length: 100 }, (_, i) => secrets.hideShared({ accept: "application/json", authorization: `Bearer tok_${i}_abcdefgh`, "x-api-key": `key_${i}_abcdefgh`, cookie: `session=s_${i}` })));
    expect(storm.size).toBe(1);
    // Secrets are never in what is shared.
    const one = secrets.hideShared({ authorization: "Bearer tok_zzz_99999999", "x-api-key": "key_zzz_99999", accept: "*/*" });
    expect(JSON.stringify(one)).not.toMatch(/zzz/);
    expect(secrets.hideShared({ authorization: "Bearer tok_yyy_99999999", "x-api-key": "key_yyy_99999", accept: "*/*" })).toBe(one);
    expect(secrets.hideShared({ authorization: "Basic tok_yyy_99999999", "x-api-key": "key_yyy_99999", accept: "*/*" })).not.toBe(one);
    expect(secrets.hideShared({ authorization: "Bearer tok_yyy_99999999", "x-api-key": "key_yyy_99999", accept: "text/plain" })).not.toBe(one);
    // Fewer headers, the first ones the same: not alike.
    expect(secrets.hideShared({ authorization: "Bearer tok_xxx_99999999", "x-api-key": "key_xxx_99999" })).toEqual({ authorization: "Bearer [redacted]", "x-api-key": "[redacted]" });
  });

  it("the Redactor replaces overlapping secrets whole, any ASCII case, forgets on request, and scans once per length", () => {
    const r = new Redactor(["abcdefgh", "efghijkl", "t"]);
    expect(r.text("xABCDEFGHIJKLx t at")).toBe("x[redacted]x [redacted] at");
    r.delete("efghijkl");
    expect(r.text("abcdefghijkl")).toBe("[redacted]ijkl");
    const many = new Redactor([]);
    for (let i = 0; i < 1000; i++) many.add(`secret-${String(i).padStart(6, "0")}`);
    const before = many.stats.scanned;
    expect(many.text("a secret-000999 b")).toBe("a [redacted] b");
    // 1,000 secrets of one length: the text is hashed once (one window width), never once per secret.
    expect(many.stats.scanned - before).toBe("a secret-000999 b".length);
    // Secrets of many lengths share the few window widths: 56 lengths from 8 to 63 cost at most 3 passes.
    const lengths = new Redactor(Array.from({ length: 56 }, (_, i) => `k${"x".repeat(i + 7)}`));
    const at = lengths.stats.scanned;
    expect(lengths.text(`a k${"x".repeat(40)} b`)).toBe("a [redacted] b");
    expect(lengths.stats.scanned - at).toBeLessThanOrEqual(3 * `a k${"x".repeat(40)} b`.length);
  });
});

describe("Markdown report", () => {
  it("escapes what the target sent, so it cannot add headings, links, HTML or close its code block", () => {
    const r = new Recorder();
    const hostile = "</details><script>x</script> | [link](http://evil) # ```";
    r.record(exchange(1, { responseText: "```\n# not a heading\n````" }), failing(hostile));
    const md = markdownReport(r.report());
    expect(md).not.toContain("<script>");
    expect(md).toContain(mdText(hostile));
    expect(mdText("a|b")).toBe("a\\|b");
    // The fence is longer than any run of backticks inside it.
    const block = mdBlock("x ```` y");
    expect(block.startsWith("`````text\n")).toBe(true);
    expect(md).toContain("`````text\n");
  });
});

describe("Lru", () => {
  it("forgets the least recently used entry beyond its cap", () => {
    const lru = new Lru<string, number>(2);
    lru.set("a", 1);
    lru.set("b", 2);
    lru.get("a");
    lru.set("c", 3);
    expect(lru.keys()).toEqual(["a", "c"]);
    expect(lru.get("b")).toBeUndefined();
    expect(() => new Lru(0)).toThrow(/cap/);
  });

  it("setting a key it holds replaces the value and makes it the newest; forgetting follows the order through many evictions", () => {
    const lru = new Lru<string, number>(3);
    for (const k of ["a", "b", "c"]) lru.set(k, 0);
    expect(lru.set("a", 1)).toBeUndefined();
    expect(lru.keys()).toEqual(["b", "c", "a"]);
    expect(lru.set("d", 2)).toBe("b");
    expect(lru.peek("a")).toBe(1);
    // Far past the cap, with reads in between: always the least recently used goes.
    const big = new Lru<number, number>(100);
    const model: number[] = [];
    for (let i = 0; i < 5_000; i++) {
      if (i % 3 === 0 && model.length) {
        const k = model[(i * 7) % model.length]!;
        expect(big.get(k)).toBe(k);
        model.splice(model.indexOf(k), 1);
        model.push(k);
      }
      const forgotten = big.set(i + 100_000, i + 100_000);
      model.push(i + 100_000);
      expect(forgotten).toBe(model.length > 100 ? model.shift() : undefined);
    }
    expect(big.keys()).toEqual(model);
  });
});
