// Errors of the REST reference server: every status the contract lists (401 for each kind of bad token, 403,
// 404, 405, 409, 400 per field with `param` naming it, malformed JSON, wrong content type, 413, 429 with
// Retry-After, 500) in the contract's envelope, and no 500 or crash on bad input.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createClock } from "../mock/clock.js";
import { maxBodyBytes } from "../mock/rest/http.js";
import { createRequestListener, startRestMock, type RestMock } from "../mock/rest/server.js";
import { createState } from "../mock/rest/state.js";
import { restTestTokens, tinyRateLimitPerMinute } from "../mock/rest/tokens.js";
import type { Brand, IdeaBatch } from "../generated/rest/types.js";
import { bodyOf, client, readTime, batchTime, suiteStart, type Call } from "./support/rest-client.js";

let mock: RestMock;
let call: Call;
let brandA: Brand; // team A, ready
let batchA: IdeaBatch; // team A, done

beforeAll(async () => {
  mock = await startRestMock({ clock: createClock({ timeScale: 1, start: suiteStart }), seed: "errors" });
  call = client(mock);
  brandA = bodyOf(await call("POST", "/v1/brands", { body: { website: "https://www.alpha-bakery.com" } }), "Brand");
  mock.clock.advance(readTime);
  batchA = bodyOf(await call("POST", "/v1/ideas", { body: { brand: brandA.id } }), "IdeaBatch");
  mock.clock.advance(batchTime);
});
afterAll(() => mock.stop());

/** Stands for team A's ready brand in bodies written before it exists. */
const A = "$brandA";
const withBrand = (body: unknown): unknown =>
  body === undefined ? undefined : JSON.parse(JSON.stringify(body).replaceAll(JSON.stringify(A), JSON.stringify(brandA.id)));

describe("401 authentication_error", () => {
  const token = (kind: string) => restTestTokens.find((t) => t.kind === kind)!.token;
  it.each([
    { label: "missing token", token: null, code: "missing_token" },
    { label: "expired token", token: token("expired"), code: "token_expired" },
    { label: "unknown token", token: token("unknown"), code: "invalid_token" },
    { label: "unlisted token", token: "not-a-token", code: "invalid_token" },
  ])("$label", async ({ token, code }) => {
    for (const [method, path] of [
      ["GET", `/v1/brands/${brandA.id}`],
      ["POST", "/v1/ideas"],
    ] as const) {
      const answer = await call(method, path, { token, body: method === "POST" ? { brand: brandA.id } : undefined });
      expect(answer.status).toBe(401);
      expect(answer.body.error).toMatchObject({ type: "authentication_error", code, param: null });
    }
  });

  it("a header that is not Bearer", async () => {
    const answer = await call("GET", `/v1/brands/${brandA.id}`, { token: null, headers: { authorization: "Basic dGVzdDp0ZXN0" } });
    expect(answer.status).toBe(401);
  });
});

describe("403 permission_error: another team's resources", () => {
  it.each([
    { method: "GET", path: () => `/v1/brands/${brandA.id}`, body: () => undefined, param: "brand_id" },
    { method: "PATCH", path: () => `/v1/brands/${brandA.id}`, body: () => ({ name: "Mine now" }), param: "brand_id" },
    { method: "POST", path: () => "/v1/ideas", body: () => ({ brand: brandA.id }), param: "brand" },
    { method: "GET", path: () => `/v1/ideas/${batchA.id}`, body: () => undefined, param: "batch_id" },
    { method: "POST", path: () => "/v1/predictions", body: () => ({ brand: brandA.id, drafts: [{ text: "x" }] }), param: "brand" },
  ])("$method $param", async ({ method, path, body, param }) => {
    const answer = await call(method, path(), { token: "test_team_b", body: body() });
    expect(answer.status).toBe(403);
    expect(answer.body.error.param).toBe(param);
  });

  it("the rate-limited token of team A reaches team A's brand", async () => {
    mock.clock.advance(60_000); // a fresh rate window
    expect((await call("GET", `/v1/brands/${brandA.id}`, { token: "test_rate_limited" })).status).toBe(200);
  });
});

describe("404 not_found", () => {
  it.each([
    { method: "GET", path: "/v1/brands/brand_0000000000", param: "brand_id" },
    { method: "GET", path: "/v1/brands/not-an-id", param: "brand_id" },
    { method: "GET", path: "/v1/brands/%zz", param: "brand_id" },
    { method: "PATCH", path: "/v1/brands/brand_0000000000", param: "brand_id", body: { name: "x" } },
    { method: "GET", path: "/v1/ideas/batch_0000000000", param: "batch_id" },
    { method: "GET", path: "/v1/ideas/brand_0000000000", param: "batch_id" },
    { method: "POST", path: "/v1/ideas", param: "brand", body: { brand: "brand_0000000000" } },
    { method: "POST", path: "/v1/predictions", param: "brand", body: { brand: "brand_0000000000", drafts: [{ text: "x" }] } },
    { method: "POST", path: "/v1/feedback", param: "idea", body: { idea: "idea_0000000000", outcome: "posted" } },
  ])("$method $path", async ({ method, path, param, body }) => {
    const answer = await call(method, path, { body });
    expect(answer.status).toBe(404);
    expect(answer.body.error.param).toBe(param);
  });

  it.each(["/", "/v1", "/v2/brands", "/v1/brands/", "/v1/brands/x/y", "/v1/nothing"])("unknown route %s", async (path) => {
    const answer = await call("GET", path);
    expect(answer.status).toBe(404);
    expect(answer.body.error).toMatchObject({ type: "not_found", param: null });
  });
});

describe("405 with Allow", () => {
  it.each([
    { method: "GET", path: "/v1/brands", allow: "POST" },
    { method: "DELETE", path: "/v1/brands/brand_0000000000", allow: "GET, PATCH" },
    { method: "PUT", path: "/v1/brands/brand_0000000000", allow: "GET, PATCH" },
    { method: "GET", path: "/v1/ideas", allow: "POST" },
    { method: "POST", path: "/v1/ideas/batch_0000000000", allow: "GET" },
    { method: "GET", path: "/v1/feedback", allow: "POST" },
    { method: "DELETE", path: "/v1/predictions", allow: "POST" },
  ])("$method $path", async ({ method, path, allow }) => {
    const answer = await call(method, path);
    expect(answer.status).toBe(405);
    expect(answer.headers.get("allow")).toBe(allow);
    expect(answer.body.error.type).toBe("invalid_request");
  });
});

describe("409 brand_not_ready", () => {
  it("on POST /v1/ideas while the brand is reading", async () => {
    const reading = (await call("POST", "/v1/brands", { body: { website: "https://www.later-cafe.com" } })).body;
    const answer = await call("POST", "/v1/ideas", { body: { brand: reading.id } });
    expect(answer.status).toBe(409);
    expect(answer.body.error).toMatchObject({ type: "invalid_request", code: "brand_not_ready", param: "brand" });
  });
});

describe("400 invalid_request naming the field", () => {
  const long = "x".repeat(2001);
  const cases: { label: string; method: string; path: () => string; body: unknown; param: string }[] = [
    // POST /v1/brands
    { label: "empty body", method: "POST", path: () => "/v1/brands", body: {}, param: "website" },
    { label: "name without description", method: "POST", path: () => "/v1/brands", body: { name: "A" }, param: "description" },
    { label: "description without name", method: "POST", path: () => "/v1/brands", body: { description: "A shop." }, param: "name" },
    { label: "http website", method: "POST", path: () => "/v1/brands", body: { website: "http://www.a.com" }, param: "website" },
    { label: "website not a string", method: "POST", path: () => "/v1/brands", body: { website: 42 }, param: "website" },
    { label: "description too long", method: "POST", path: () => "/v1/brands", body: { name: "A", description: long }, param: "description" },
    { label: "language not ISO 639-1", method: "POST", path: () => "/v1/brands", body: { website: "https://a.com", language: "EN" }, param: "language" },
    { label: "unknown archetype", method: "POST", path: () => "/v1/brands", body: { website: "https://a.com", archetype: "wizard" }, param: "archetype" },
    { label: "21 never rules", method: "POST", path: () => "/v1/brands", body: { website: "https://a.com", rules: { never: Array(21).fill("x") } }, param: "rules.never" },
    { label: "always rule not a string", method: "POST", path: () => "/v1/brands", body: { website: "https://a.com", rules: { always: [1] } }, param: "rules.always" },
    { label: "rules not an object", method: "POST", path: () => "/v1/brands", body: { website: "https://a.com", rules: "none" }, param: "rules" },
    { label: "empty name", method: "POST", path: () => "/v1/brands", body: { name: " ", description: "A shop." }, param: "name" },
    // PATCH /v1/brands/{id}
    { label: "PATCH description too long", method: "PATCH", path: () => `/v1/brands/${brandA.id}`, body: { description: long }, param: "description" },
    { label: "PATCH website ftp", method: "PATCH", path: () => `/v1/brands/${brandA.id}`, body: { website: "ftp://a.com" }, param: "website" },
    { label: "PATCH never not a list", method: "PATCH", path: () => `/v1/brands/${brandA.id}`, body: { rules: { never: "x" } }, param: "rules.never" },
    { label: "PATCH name null", method: "PATCH", path: () => `/v1/brands/${brandA.id}`, body: { name: null }, param: "name" },
    // POST /v1/ideas
    { label: "brand missing", method: "POST", path: () => "/v1/ideas", body: {}, param: "brand" },
    { label: "brand malformed", method: "POST", path: () => "/v1/ideas", body: { brand: "nope" }, param: "brand" },
    { label: "count 0", method: "POST", path: () => "/v1/ideas", body: { brand: A, count: 0 }, param: "count" },
    { label: "count 11", method: "POST", path: () => "/v1/ideas", body: { brand: A, count: 11 }, param: "count" },
    { label: "count 2.5", method: "POST", path: () => "/v1/ideas", body: { brand: A, count: 2.5 }, param: "count" },
    { label: "count a string", method: "POST", path: () => "/v1/ideas", body: { brand: A, count: "3" }, param: "count" },
    { label: "unknown format", method: "POST", path: () => "/v1/ideas", body: { brand: A, formats: ["image", "gif"] }, param: "formats" },
    { label: "no formats", method: "POST", path: () => "/v1/ideas", body: { brand: A, formats: [] }, param: "formats" },
    { label: "focus too long", method: "POST", path: () => "/v1/ideas", body: { brand: A, focus: long }, param: "focus" },
    { label: "date not a day", method: "POST", path: () => "/v1/ideas", body: { brand: A, date: "2026-13-01" }, param: "date" },
    { label: "date 31 February", method: "POST", path: () => "/v1/ideas", body: { brand: A, date: "2027-02-31" }, param: "date" },
    { label: "date in the past", method: "POST", path: () => "/v1/ideas", body: { brand: A, date: "2026-11-09" }, param: "date" },
    { label: "date 46 days ahead", method: "POST", path: () => "/v1/ideas", body: { brand: A, date: "2026-12-26" }, param: "date" },
    // POST /v1/feedback
    { label: "outcome missing", method: "POST", path: () => "/v1/feedback", body: { idea: "idea_0000000000" }, param: "outcome" },
    { label: "unknown outcome", method: "POST", path: () => "/v1/feedback", body: { idea: "idea_0000000000", outcome: "liked" }, param: "outcome" },
    { label: "idea missing", method: "POST", path: () => "/v1/feedback", body: { outcome: "saved" }, param: "idea" },
    { label: "reason with posted", method: "POST", path: () => "/v1/feedback", body: { idea: "idea_0000000000", outcome: "posted", reason: "other" }, param: "reason" },
    { label: "unknown reason", method: "POST", path: () => "/v1/feedback", body: { idea: "idea_0000000000", outcome: "rejected", reason: "boring" }, param: "reason" },
    { label: "comment too long", method: "POST", path: () => "/v1/feedback", body: { idea: "idea_0000000000", outcome: "saved", comment: long }, param: "comment" },
    // POST /v1/predictions
    { label: "no drafts", method: "POST", path: () => "/v1/predictions", body: { brand: A, drafts: [] }, param: "drafts" },
    { label: "21 drafts", method: "POST", path: () => "/v1/predictions", body: { brand: A, drafts: Array(21).fill({ text: "x" }) }, param: "drafts" },
    { label: "empty draft text", method: "POST", path: () => "/v1/predictions", body: { brand: A, drafts: [{ text: "" }] }, param: "drafts.text" },
    { label: "predictions brand missing", method: "POST", path: () => "/v1/predictions", body: { drafts: [{ text: "x" }] }, param: "brand" },
  ];
  it.each(cases)("$label → param $param", async ({ method, path, body, param }) => {
    const answer = await call(method, path(), { body: withBrand(body) });
    expect(answer.status, JSON.stringify(answer.body)).toBe(400);
    expect(answer.body.error).toMatchObject({ type: "invalid_request", param });
    expect(answer.body.error.message.length).toBeGreaterThan(0);
  });

  it("accepts date 45 days ahead", async () => {
    expect((await call("POST", "/v1/ideas", { body: { brand: brandA.id, date: "2026-12-25" } })).status).toBe(202);
  });

  it.each([
    { label: "malformed JSON", raw: '{"website": ', contentType: "application/json", code: "malformed_json" },
    { label: "JSON that is not an object", raw: '["https://a.com"]', contentType: "application/json", code: "malformed_json" },
    { label: "an empty body", raw: "", contentType: "application/json", code: "malformed_json" },
    { label: "text/plain", raw: '{"website":"https://a.com"}', contentType: "text/plain", code: "unsupported_content_type" },
    { label: "form data", raw: "website=https://a.com", contentType: "application/x-www-form-urlencoded", code: "unsupported_content_type" },
    { label: "no Content-Type", raw: new TextEncoder().encode('{"website":"https://a.com"}'), contentType: null, code: "unsupported_content_type" },
    { label: "a charset other than UTF-8", raw: '{"website":"https://a.com"}', contentType: "application/json; charset=latin1", code: "unsupported_content_type" },
  ])("$label", async ({ raw, contentType, code }) => {
    const answer = await call("POST", "/v1/brands", { raw, contentType });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ type: "invalid_request", code, param: null });
  });

  it("accepts application/json with charset=utf-8", async () => {
    const answer = await call("POST", "/v1/brands", { raw: '{"website":"https://www.ok-cafe.com"}', contentType: "application/json; charset=UTF-8" });
    expect(answer.status).toBe(201);
  });
});

describe("413 for a body over 1 MB", () => {
  it("answers in the envelope and keeps serving", async () => {
    const big = JSON.stringify({ name: "A", description: "x".repeat(maxBodyBytes) });
    const answer = await call("POST", "/v1/brands", { raw: big, contentType: "application/json" });
    expect(answer.status).toBe(413);
    expect(answer.body.error).toMatchObject({ type: "invalid_request", code: "body_too_large" });
    expect((await call("GET", `/v1/brands/${brandA.id}`)).status).toBe(200);
  });
});

describe("429 rate_limit", () => {
  it(`the rate-limited token gets 429 with Retry-After after ${tinyRateLimitPerMinute} requests per virtual minute`, async () => {
    mock.clock.advance(60_000 - (mock.clock.now() % 60_000)); // start of a virtual minute
    for (let i = 0; i < tinyRateLimitPerMinute; i++)
      expect((await call("GET", `/v1/brands/${brandA.id}`, { token: "test_rate_limited" })).status).toBe(200);
    const limited = await call("GET", `/v1/brands/${brandA.id}`, { token: "test_rate_limited" });
    expect(limited.status).toBe(429);
    expect(limited.body.error).toMatchObject({ type: "rate_limit", param: null });
    const retry = Number(limited.headers.get("retry-after"));
    expect(retry).toBeGreaterThanOrEqual(55);
    expect(retry).toBeLessThanOrEqual(60);
    // Other clients are not limited; the limited one is again after Retry-After.
    expect((await call("GET", `/v1/brands/${brandA.id}`)).status).toBe(200);
    mock.clock.advance(retry * 1000);
    expect((await call("GET", `/v1/brands/${brandA.id}`, { token: "test_rate_limited" })).status).toBe(200);
  });

  it("Retry-After counts real seconds under a time scale (at least 1)", async () => {
    const fast = await startRestMock({ clock: createClock({ timeScale: 0.01, start: suiteStart }) });
    try {
      const c = client(fast);
      // The window is a minute × the scale (600 ms here). Time is held at the window's start, so every request
      // lands in it however slowly the machine runs them (no wall-clock race).
      fast.clock.advance(60_000 - (fast.clock.now() % 60_000));
      fast.clock.freeze();
      let answer;
      for (let i = 0; i <= tinyRateLimitPerMinute; i++) answer = await c("GET", "/v1/brands/brand_0000000000", { token: "test_rate_limited" });
      expect(answer!.status).toBe(429);
      expect(Number(answer!.headers.get("retry-after"))).toBe(1);
    } finally {
      await fast.stop();
    }
  });
});

describe("500 server_error", () => {
  it("an unexpected exception answers 500 in the envelope and the server keeps serving", async () => {
    const state = createState(createClock({ timeScale: 1, start: suiteStart }), "boom");
    let fail = true;
    const original = state.brands.set.bind(state.brands);
    state.brands.set = (...args) => {
      if (fail) throw new Error("disk on fire");
      original(...args);
    };
    const server = http.createServer(createRequestListener(state));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    const quiet = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const c = client({ url });
      const broken = await c("POST", "/v1/brands", { body: { website: "https://a.com" } });
      expect(broken.status).toBe(500);
      expect(broken.body.error).toMatchObject({ type: "server_error", code: null, param: null });
      fail = false;
      expect((await c("POST", "/v1/brands", { body: { website: "https://a.com" } })).status).toBe(201);
    } finally {
      quiet.mockRestore();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});

describe("never a 500 on bad input", () => {
  const weird: unknown[] = [
    { website: "https://" + "a".repeat(5000) + ".com" },
    { website: "https://[::1" },
    { website: "https://x" },
    { website: "https://a.com", name: "\u0000\ud800", description: "😀".repeat(2000) },
    { __proto__: { website: "https://a.com" } },
    { constructor: { prototype: { polluted: true } }, name: "A", description: "B" },
    { brand: A, count: 1e308 },
    { brand: "brand_" + "a".repeat(10_000) },
    { idea: "idea_a", outcome: "posted" },
    { idea: "idea_" + "9".repeat(30), outcome: "rejected", reason: "wrong_language" },
    { brand: "brand_x", drafts: [{ text: "x", format: "gif" }] },
    { rules: { never: [""], always: [""] }, website: "https://a.com" },
    { a: { b: { c: { d: { e: [[[[[]]]]] } } } } },
  ];
  it.each(["/v1/brands", "/v1/ideas", "/v1/feedback", "/v1/predictions"])("POST %s", async (path) => {
    for (const body of weird) {
      const answer = await call("POST", path, { body: withBrand(body) });
      expect(answer.status, JSON.stringify(body).slice(0, 100)).toBeLessThan(500);
    }
    expect(({} as any).polluted).toBeUndefined();
  });

  it("PATCH with odd bodies", async () => {
    for (const body of weird) {
      const answer = await call("PATCH", `/v1/brands/${brandA.id}`, { body: withBrand(body) });
      expect(answer.status).toBeLessThan(500);
    }
  });

  it("a brand whose never-rules are single letters still gets valid ideas", async () => {
    const brand = (await call("POST", "/v1/brands", { body: { name: "Ee", description: "e e e.", rules: { never: ["e", "a", "o"] } } })).body;
    mock.clock.advance(readTime);
    const batch = (await call("POST", "/v1/ideas", { body: { brand: brand.id, count: 10, focus: "eeee" } })).body;
    mock.clock.advance(batchTime);
    const done = await call("GET", `/v1/ideas/${batch.id}`);
    expect(done.status).toBe(200);
    expect(done.body.data.length + done.body.left_out.length).toBe(10);
  });
});
