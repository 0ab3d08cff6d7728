// The REST reference server against hostile input: at least 500 requests per run, made deterministically from
// the OpenAPI request bodies (one constraint broken at a time) plus generic hostility (tokens, content types,
// malformed/truncated JSON, 10,000-level nesting, invalid UTF-8, duplicate keys, unknown fields, bad ids, wrong
// methods, oversized bodies, unparseable HTTP). Every answer must be a 4xx in the contract's error envelope,
// within a per-request timeout; nothing may be logged as an unexpected error, and the records made before the
// fuzz must read the same afterwards, with no record created by it (the next ids are the ones a fresh count
// gives).
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createClock } from "../mock/clock.js";
import { startRestMock, type RestMock } from "../mock/rest/server.js";
import { createState } from "../mock/rest/state.js";
import { batchTime, client, readTime, suiteStart, type Call } from "./support/rest-client.js";
import { countRequiredKinds, describeFailure, runCases, tally } from "./support/fuzz.js";
import { checkRestAnswer, restFuzzCases, type RestFixtures } from "./support/fuzz-rest.js";

const seed = "fuzz-rest";
const minimumCases = 600;

let mock: RestMock;
let call: Call;
let fixtures: RestFixtures;
/** Made before the fuzz: brand and batch ids with the token that owns each. */
const owned: { path: string; token: string }[] = [];
const made = { brand: 0, batch: 0, fb: 0 };

beforeAll(async () => {
  mock = await startRestMock({ clock: createClock({ timeScale: 1, start: suiteStart }), seed });
  call = client(mock);
  const brand = async (token: string, body: unknown) => {
    const answer = await call("POST", "/v1/brands", { token, body });
    expect(answer.status).toBe(201);
    made.brand++;
    owned.push({ path: `/v1/brands/${answer.body.id}`, token });
    return answer.body.id as string;
  };
  const brandA = await brand("test_team_a", { website: "https://www.bluefjord-bakery.no", rules: { never: ["Discounts."] } });
  const brandA2 = await brand("test_team_a", { name: "Harbour Loaf", description: "A sourdough bakery by the harbour. We bake every morning." });
  const brandFailed = await brand("test_team_a", { website: "https://closed.invalid" });
  const brandB = await brand("test_team_b", { website: "https://www.maple-coffee.ca" });
  mock.clock.advance(readTime);
  const batch = async (token: string, brandId: string) => {
    const answer = await call("POST", "/v1/ideas", { token, body: { brand: brandId, count: 3 } });
    expect(answer.status).toBe(202);
    made.batch++;
    owned.push({ path: `/v1/ideas/${answer.body.id}`, token });
    return answer.body.id as string;
  };
  const batchA = await batch("test_team_a", brandA);
  await batch("test_team_a", brandA2);
  const batchB = await batch("test_team_b", brandB);
  mock.clock.advance(batchTime);
  const ideaA = (await call("GET", `/v1/ideas/${batchA}`)).body.data[0].id as string;
  const ideaB = (await call("GET", `/v1/ideas/${batchB}`, { token: "test_team_b" })).body.data[0].id as string;
  expect((await call("POST", "/v1/feedback", { body: { idea: ideaA, outcome: "saved" } })).status).toBe(201);
  made.fb++;
  fixtures = { brandA, brandA2, brandFailed, brandB, batchA, batchB, ideaA, ideaB, today: mock.clock.iso().slice(0, 10) };
});
afterAll(() => mock.stop());

/** Every record made before the fuzz, read by its owner. */
async function snapshot(): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const { path, token } of owned) {
    const answer = await call("GET", path, { token });
    expect(answer.status).toBe(200);
    out[path] = answer.body;
  }
  return out;
}

describe("REST mock under hostile input", () => {
  it(`answers ${minimumCases}+ schema-derived invalid requests with a 4xx in the error envelope, and loses nothing`, async () => {
    const before = await snapshot();
    const cases = restFuzzCases(fixtures, seed, minimumCases);
    expect(cases.length).toBeGreaterThanOrEqual(minimumCases);
    // Every kind of invalid request the issue names is sent, several times.
    const kinds = countRequiredKinds(cases);
    for (const [kind, n] of Object.entries(kinds)) expect(n, `${kind}: ${JSON.stringify(kinds)}`).toBeGreaterThanOrEqual(3);
    // The same seed gives the same cases.
    expect(restFuzzCases(fixtures, seed, minimumCases).map((c) => c.label)).toEqual(cases.map((c) => c.label));

    const logged = vi.spyOn(console, "error");
    const started = performance.now();
    const outcomes = await runCases(mock.url, cases, checkRestAnswer, { concurrency: 8 });
    const seconds = (performance.now() - started) / 1000;
    const unexpected = logged.mock.calls.map((args) => args.map(String).join(" "));
    logged.mockRestore();

    const { byKind, byStatus, failures } = tally(outcomes);
    console.log(
      `REST fuzz: ${outcomes.length} requests in ${seconds.toFixed(1)} s, ${failures.length} failures\n  the issue's kinds: ${JSON.stringify(kinds)}\n  by kind: ${JSON.stringify(byKind)}\n  by status: ${JSON.stringify(byStatus)}`,
    );
    expect(failures.map(describeFailure).slice(0, 20), `${failures.length} of ${outcomes.length} answers broke the rule`).toEqual([]);
    expect(unexpected, "the mock logged unexpected errors").toEqual([]);

    // Nothing lost or changed, nothing created: the server still answers, and the next ids are the next ones.
    expect(await snapshot()).toEqual(before);
    const counter = createState(createClock(), seed);
    const next = (prefix: "brand" | "batch" | "fb", n: number) => {
      let id = "";
      for (let i = 0; i <= n; i++) id = counter.nextId(prefix);
      return id;
    };
    const brand = await call("POST", "/v1/brands", { body: { name: "After", description: "Made after the fuzz." } });
    expect(brand.body.id).toBe(next("brand", made.brand));
    const batch = await call("POST", "/v1/ideas", { body: { brand: fixtures.brandA } });
    expect(batch.body.id).toBe(next("batch", made.batch));
    const feedback = await call("POST", "/v1/feedback", { body: { idea: fixtures.ideaA, outcome: "posted" } });
    expect(feedback.body.id).toBe(next("fb", made.fb));
  });
});
