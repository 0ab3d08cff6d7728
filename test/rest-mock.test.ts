// The stateful REST reference server (mock/rest): brand and batch lifecycles on the virtual clock, the content
// rules of ideas, feedback and predictions, determinism and the magic inputs. Every answer is checked against
// the generated contract by the client helper.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClock } from "../mock/clock.js";
import { isPrivateHost } from "../mock/private-address.js";
import { focusFailsBatch, focusServerError, magicInputs, websiteFailsToRead, websiteHasNoBacking } from "../mock/rest/magic.js";
import { restTestTokens } from "../mock/rest/tokens.js";
import { startRestMock, type RestMock } from "../mock/rest/server.js";
import type { Brand, Idea, IdeaBatch } from "../generated/rest/types.js";
import { batchTime, bodyOf, client, ideaTexts, readTime, suiteStart, type Call } from "./support/rest-client.js";

let mock: RestMock;
let call: Call;

beforeAll(async () => {
  mock = await startRestMock({ clock: createClock({ timeScale: 1, start: suiteStart }), seed: "suite" });
  call = client(mock);
});
afterAll(() => mock.stop());

/** Creates a brand and lets its read finish; returns the ready brand. */
async function readyBrand(body: Record<string, unknown>, token = "test_team_a") {
  const created = await call("POST", "/v1/brands", { body, token });
  expect(created.status).toBe(201);
  mock.clock.advance(readTime);
  const got = await call("GET", `/v1/brands/${created.body.id}`, { token });
  expect(got.body.status).toBe("ready");
  return bodyOf(got, "Brand");
}

/** Asks for a batch and lets it finish; returns the settled batch. */
async function settledBatch(body: Record<string, unknown>, token = "test_team_a") {
  const created = await call("POST", "/v1/ideas", { body, token });
  expect(created.status, JSON.stringify(created.body)).toBe(202);
  mock.clock.advance(batchTime);
  return bodyOf(await call("GET", `/v1/ideas/${created.body.id}`, { token }), "IdeaBatch");
}

describe("startRestMock", () => {
  it("answers on an origin URL with a trailing slash and exposes its clock", () => {
    expect(mock.url.href).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(mock.clock.now()).toBeGreaterThanOrEqual(suiteStart);
  });

  it("stops, and stop() can be called twice", async () => {
    const other = await startRestMock({ timeScale: 0.001 });
    await other.stop();
    await other.stop();
    await expect(fetch(new URL("v1/brands", other.url))).rejects.toThrow();
  });
});

describe("brands", () => {
  it("reading → ready: created at once with nulls, then filled from the website", async () => {
    const created = await call("POST", "/v1/brands", { body: { website: "https://www.bluefjord-bakery.no" } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      object: "brand",
      status: "reading",
      name: null,
      website: "https://www.bluefjord-bakery.no",
      language: null,
      country: null,
      description: null,
      offerings: [],
      archetype: null,
      rules: {},
    });
    expect(created.body.id).toMatch(/^brand_[A-Za-z0-9]+$/);
    expect(Date.parse(created.body.created_at)).toBeLessThanOrEqual(mock.clock.now());
    expect(Date.parse(created.body.created_at)).toBeGreaterThanOrEqual(suiteStart);

    mock.clock.advance(19_000); // reads take 20–40 s
    expect((await call("GET", `/v1/brands/${created.body.id}`)).body.status).toBe("reading");
    mock.clock.advance(21_000);
    const ready = (await call("GET", `/v1/brands/${created.body.id}`)).body;
    expect(ready).toMatchObject({ status: "ready", name: "Bluefjord Bakery", language: "nb", country: "NO" });
    expect(ready.description).toContain("Bluefjord Bakery");
    expect(ready.offerings.length).toBeGreaterThan(0);
    expect(ready.archetype.value).toBe("caregiver");
    expect(typeof ready.archetype.rationale).toBe("string");
    expect(ready.created_at).toBe(created.body.created_at);
  });

  it("keeps what the caller sent and derives the rest", async () => {
    const brand = await readyBrand({
      website: "https://harbourloafbakery.ie",
      name: "Harbour Loaf",
      language: "ga",
      archetype: "sage",
      rules: { always: ["Say it is baked that morning."] },
    });
    expect(brand).toMatchObject({ name: "Harbour Loaf", language: "ga", country: "IE", archetype: { value: "sage", rationale: null } });
    expect(brand.rules).toEqual({ always: ["Say it is baked that morning."] });
  });

  it("is created from a name and description without a website", async () => {
    const created = await call("POST", "/v1/brands", {
      body: { name: "Nordlys Yoga", description: "Morning yoga classes, beginner courses and weekend retreats in Tromsø.", country: "NO" },
    });
    expect(created.body).toMatchObject({ status: "reading", name: "Nordlys Yoga", website: null, offerings: [], archetype: null });
    mock.clock.advance(readTime);
    const ready = (await call("GET", `/v1/brands/${created.body.id}`)).body;
    expect(ready).toMatchObject({ status: "ready", language: "nb", country: "NO", archetype: { value: "sage" } });
    for (const offering of ready.offerings) expect(ready.description.toLowerCase()).toContain(offering.toLowerCase());
  });

  it("invents nothing for a brand from a name and description: its own words only, no page cited", async () => {
    // Seed 000: quotes are the exact words a claim relies on; an idea nothing backs goes to left_out.
    const plain = await readyBrand({ name: "Quiet Studio", description: "A small studio by the sea where people come to slow down after work." });
    expect(plain.offerings).toEqual([]);
    const listing = await readyBrand({ name: "Nordlys Yoga", description: "Morning yoga classes, beginner courses and weekend retreats in Tromsø." });
    expect(listing.offerings.length).toBeGreaterThan(0);
    for (const offering of listing.offerings) expect(listing.description).toContain(offering); // as written, case and all
    for (const brand of [plain, listing]) {
      const batch = await settledBatch({ brand: brand.id, count: 6 });
      expect(batch.status).toBe("done");
      expect(batch.data.length + batch.left_out.length).toBe(6);
      for (const idea of batch.data)
        for (const source of idea.sources) {
          expect(source.type, JSON.stringify(source)).not.toBe("website"); // no page to cite, so no url-less "website"
          if (source.type === "product") expect(brand.offerings).toContain(source.quote);
          expect([brand.name, brand.description].some((w) => w!.includes(source.quote!)), `${source.quote} is not the brand's own words`).toBe(true);
        }
    }
    const plainBatch = await settledBatch({ brand: plain.id, count: 3 });
    expect(plainBatch.data).toEqual([]);
    expect(plainBatch.left_out).toHaveLength(3);
  });

  it("reading → failed for a site that cannot be read (magic .invalid host)", async () => {
    const created = await call("POST", "/v1/brands", { body: { website: "https://closed-bakery.invalid" } });
    expect(created.body.status).toBe("reading");
    mock.clock.advance(readTime);
    const failed = (await call("GET", `/v1/brands/${created.body.id}`)).body;
    expect(failed).toMatchObject({ status: "failed", name: null, description: null, offerings: [] });
    const ideas = await call("POST", "/v1/ideas", { body: { brand: created.body.id } });
    expect(ideas.status).toBe(409);
    expect(ideas.body.error).toMatchObject({ code: "brand_not_ready", param: "brand" });
  });

  it("PATCH changes only the fields sent and replaces lists", async () => {
    const brand = await readyBrand({
      website: "https://www.copperkettle-cafe.co.uk",
      rules: { always: ["Mention the window seats."], never: ["Talk about prices."] },
    });
    expect(brand).toMatchObject({ name: "Copperkettle Cafe", country: "GB", language: "en" });
    const patched = await call("PATCH", `/v1/brands/${brand.id}`, { body: { rules: { never: ["Use emojis.", "Say cheap."] } } });
    expect(patched.status).toBe(200);
    expect(patched.body).toEqual({ ...brand, rules: { always: ["Mention the window seats."], never: ["Use emojis.", "Say cheap."] } });

    const renamed = await call("PATCH", `/v1/brands/${brand.id}`, { body: { name: "The Copper Kettle", archetype: "jester" } });
    expect(renamed.body).toMatchObject({
      status: "ready",
      name: "The Copper Kettle",
      description: brand.description,
      archetype: { value: "jester", rationale: null },
      rules: { always: ["Mention the window seats."], never: ["Use emojis.", "Say cheap."] },
    });
    const same = await call("PATCH", `/v1/brands/${brand.id}`, { body: { website: brand.website } });
    expect(same.body.status).toBe("ready"); // the same website does not start a read
    const emptied = await call("PATCH", `/v1/brands/${brand.id}`, { body: {} });
    expect(emptied.body).toEqual(same.body);
  });

  it("PATCH with a new website → reading (ideas refused with 409) → ready with the new site", async () => {
    const brand = await readyBrand({ website: "https://www.tidewater-books.com" });
    expect(brand.name).toBe("Tidewater Books");
    const patched = await call("PATCH", `/v1/brands/${brand.id}`, { body: { website: "https://www.fjellsykkel.no" } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ status: "reading", website: "https://www.fjellsykkel.no", offerings: [] });
    const refused = await call("POST", "/v1/ideas", { body: { brand: brand.id } });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ type: "invalid_request", code: "brand_not_ready", param: "brand" });
    mock.clock.advance(readTime);
    const reread = (await call("GET", `/v1/brands/${brand.id}`)).body;
    expect(reread).toMatchObject({ status: "ready", name: "Fjell Sykkel", country: "NO", language: "nb", archetype: { value: "explorer" } });
  });

  it("PATCH with an unreachable website → reading → failed", async () => {
    const brand = await readyBrand({ website: "https://www.sunny-florist.com.au" });
    expect(brand.country).toBe("AU");
    await call("PATCH", `/v1/brands/${brand.id}`, { body: { website: "https://gone.invalid" } });
    mock.clock.advance(readTime);
    expect((await call("GET", `/v1/brands/${brand.id}`)).body.status).toBe("failed");
  });
});

describe("idea batches", () => {
  let bakery: Brand;
  beforeAll(async () => {
    bakery = await readyBrand({
      website: "https://www.harbour-bakery.com",
      country: "US",
      rules: { always: ["Mention the 6 a.m. bake."], never: ["discount", "Cinnamon"] },
    });
  });

  it("thinking → done: 202 at once, then ideas best first", async () => {
    const created = await call("POST", "/v1/ideas", { body: { brand: bakery.id } });
    expect(created.status).toBe(202);
    expect(created.body).toMatchObject({
      object: "idea_batch",
      status: "thinking",
      brand: bakery.id,
      data: [],
      left_out: [],
      error: null,
      done_at: null,
    });
    expect(created.body.id).toMatch(/^batch_[A-Za-z0-9]+$/);
    mock.clock.advance(119_000); // batches take 2–6 minutes
    expect((await call("GET", `/v1/ideas/${created.body.id}`)).body.status).toBe("thinking");
    mock.clock.advance(241_000);
    const done = (await call("GET", `/v1/ideas/${created.body.id}`)).body;
    expect(done.status).toBe("done");
    expect(done.data).toHaveLength(3); // default count
    expect(done.left_out).toEqual([]);
    const took = Date.parse(done.done_at) - Date.parse(done.created_at);
    expect(took).toBeGreaterThanOrEqual(120_000);
    expect(took).toBeLessThanOrEqual(360_000);
    expect(done.model).toBe(created.body.model);
  });

  it("thinking → failed with an error (magic [fail] focus)", async () => {
    const created = await call("POST", "/v1/ideas", { body: { brand: bakery.id, focus: "Anything [fail]" } });
    expect(created.body.status).toBe("thinking");
    mock.clock.advance(batchTime);
    const failed = (await call("GET", `/v1/ideas/${created.body.id}`)).body;
    expect(failed).toMatchObject({ status: "failed", data: [], left_out: [], done_at: null });
    expect(failed.error).toEqual(expect.any(String));
  });

  it("keeps the content rules: ranks, count, formats, sources, focus, never-rules, key points", async () => {
    const focus = "Push the Thanksgiving pie orders. Pick-up is on Wednesday.";
    const batch = await settledBatch({ brand: bakery.id, count: 10, formats: ["video", "image", "video"], focus, date: "2026-11-10" });
    expect(batch.status).toBe("done");
    expect(batch.data.length + batch.left_out.length).toBe(10);
    expect(batch.data.map((i) => i.rank)).toEqual(batch.data.map((_, n) => n + 1));
    const ownWords = [bakery.name, bakery.description, ...bakery.offerings];
    for (const idea of batch.data) {
      expect(idea.id).toMatch(/^idea_[A-Za-z0-9]+$/);
      expect(["video", "image"]).toContain(idea.format);
      expect(idea.sources.length).toBeGreaterThanOrEqual(1);
      expect(idea.sources.length).toBeLessThanOrEqual(4);
      for (const source of idea.sources) {
        expect(source.quote, JSON.stringify(source)).not.toBeNull();
        if (source.type === "focus") expect(focus).toContain(source.quote);
        else expect(ownWords.some((w) => w!.includes(source.quote!)), `${source.quote} is not the brand's words`).toBe(true);
      }
      expect(idea.sources.filter((s) => s.type === "focus")).toHaveLength(1);
      expect(idea.outline.key_points.length).toBeGreaterThanOrEqual(1);
      expect(idea.outline.key_points.length).toBeLessThanOrEqual(5);
      for (const text of ideaTexts(idea)) {
        expect(text.toLowerCase()).not.toContain("discount");
        expect(text.toLowerCase()).not.toContain("cinnamon");
      }
      expect(idea.prompt).toContain("in English");
    }
    expect(new Set(batch.data.map((i) => i.id)).size).toBe(batch.data.length);
    expect(new Set(batch.data.map((i) => i.format))).toEqual(new Set(["video", "image"]));
  });

  it("gives exactly count ideas for each count from 1 to 10", async () => {
    for (const count of [1, 2, 5, 10]) {
      const batch = await settledBatch({ brand: bakery.id, count });
      expect(batch.data).toHaveLength(count);
    }
  });

  it("drops unbacked ideas into left_out (magic no-backing website)", async () => {
    const thin = await readyBrand({ website: "https://www.no-backing-bakery.com" });
    expect(thin.offerings).toEqual([]);
    const batch = await settledBatch({ brand: thin.id, count: 5 });
    expect(batch.status).toBe("done");
    expect(batch.left_out.length).toBeGreaterThan(0);
    expect(batch.data.length).toBe(5 - batch.left_out.length);
    expect(batch.data.map((i) => i.rank)).toEqual(batch.data.map((_, n) => n + 1));
    for (const idea of batch.data) for (const s of idea.sources) expect(thin.description!.includes(s.quote!) || thin.name!.includes(s.quote!)).toBe(true);
  });

  it("answers 500 server_error for the [server-error] focus and keeps serving", async () => {
    const broken = await call("POST", "/v1/ideas", { body: { brand: bakery.id, focus: "[server-error]" } });
    expect(broken.status).toBe(500);
    expect((await call("GET", `/v1/brands/${bakery.id}`)).status).toBe(200);
  });

  it("writes the prompt in the brand's language", async () => {
    const cases = [
      { website: "https://www.bergen-bakeri.no", marker: "på norsk" },
      { website: "https://www.muenchner-baeckerei.de", marker: "auf Deutsch" },
      { website: "https://www.boulangerie-lumiere.fr", marker: "en français" },
      { website: "https://www.panaderia-sol.es", marker: "en español" },
    ];
    for (const { website, marker } of cases) {
      const brand = await readyBrand({ website });
      const batch = await settledBatch({ brand: brand.id, count: 2 });
      for (const idea of batch.data) expect(idea.prompt).toContain(marker);
    }
  });

  describe("why_now for the requested date", () => {
    const cases = [
      { country: "US", date: "2026-11-10", expect: "Thanksgiving" },
      { country: "CA", date: "2026-11-10", expect: "Remembrance Day" },
      { country: "UK", date: "2026-12-10", expect: "Christmas Day" },
      { country: "GB", date: "2026-12-20", expect: "Christmas Day" },
      { country: "NO", date: "2026-12-05", expect: "Christmas Eve (julaften)" },
      { country: "NZ", date: "2026-12-10", expect: "Christmas Day" },
      { country: "AU", date: "2026-11-12", expect: "late spring" }, // no holiday within 3 weeks; southern hemisphere
      { country: "IE", date: "2026-11-10", expect: "late autumn" }, // no Irish holiday within 3 weeks
      { country: "DE", date: "2026-12-20", expect: "early winter" }, // no calendar: the season
      { country: "BR", date: "2026-12-20", expect: "early summer" },
    ];
    it.each(cases)("$country on $date → $expect", async ({ country, date, expect: wanted }) => {
      const brand = await readyBrand({ website: "https://www.corner-shop.com", description: "A corner shop selling bread and flowers.", country });
      const batch = await settledBatch({ brand: brand.id, count: 3, date });
      const [first, second] = batch.data;
      expect(first?.why_now).toContain(wanted);
      expect(first?.why_now).toContain(String(Number(date.slice(8, 10)))); // written for that day
      expect(second?.why_now).toBe("Evergreen");
    });

    it("defaults date to today on the virtual clock", async () => {
      const batch = await settledBatch({ brand: bakery.id, count: 1 });
      expect(batch.data[0]?.why_now).toContain("10 November 2026");
    });
  });

  it("is deterministic: the same brand and request give the same ideas; the seed changes ids", async () => {
    const body = { website: "https://www.salt-and-rye.ie", rules: { never: ["sugar"] } };
    const a = await readyBrand(body);
    const b = await readyBrand(body);
    const request = { count: 4, focus: "Lean on the winter menu.", date: "2026-12-01" };
    const one = await settledBatch({ brand: a.id, ...request });
    const two = await settledBatch({ brand: b.id, ...request });
    const strip = (batch: IdeaBatch) => batch.data.map(({ id: _id, ...rest }) => rest);
    expect(strip(two)).toEqual(strip(one));
    expect(two.left_out).toEqual(one.left_out);

    // A fresh server with the same seed and the same requests answers the very same ids and content.
    const run = async (seed: string) => {
      const other = await startRestMock({ clock: createClock({ timeScale: 1, start: suiteStart }), seed });
      const c = client(other);
      const brand = (await c("POST", "/v1/brands", { body })).body;
      other.clock.advance(readTime);
      const batch = (await c("POST", "/v1/ideas", { body: { brand: brand.id, ...request } })).body;
      other.clock.advance(batchTime);
      const done = bodyOf(await c("GET", `/v1/ideas/${batch.id}`), "IdeaBatch");
      await other.stop();
      return { brand: brand.id, batch: batch.id, ideas: done.data };
    };
    const first = await run("same");
    const again = await run("same");
    const changed = await run("different");
    expect(again).toEqual(first);
    expect(changed.brand).not.toBe(first.brand);
    expect(changed.ideas.map((i) => i.title)).toEqual(first.ideas.map((i) => i.title));
  });

  it("progresses on its own with a tiny time scale (no clock.advance)", async () => {
    const fast = await startRestMock({ timeScale: 0.0005 });
    try {
      const c = client(fast);
      const brand = (await c("POST", "/v1/brands", { body: { website: "https://www.quick-cafe.com" } })).body;
      // Polled until the status moves, however slowly the host runs: a mock that never progresses on its own
      // hangs here and fails by the test's timeout; a count of polls would be a wall-clock budget in disguise.
      const pause = () => new Promise((r) => setTimeout(r, 10));
      let status = brand.status;
      while (status === "reading") {
        await pause();
        status = (await c("GET", `/v1/brands/${brand.id}`)).body.status;
      }
      expect(status).toBe("ready");
      const batch = (await c("POST", "/v1/ideas", { body: { brand: brand.id } })).body;
      let got = batch;
      while (got.status === "thinking") {
        await pause();
        got = (await c("GET", `/v1/ideas/${batch.id}`)).body;
      }
      expect(got.status).toBe("done");
    } finally {
      await fast.stop();
    }
  });
});

describe("feedback", () => {
  let idea: Idea;
  let brandId: string;
  beforeAll(async () => {
    const brand = await readyBrand({ website: "https://www.lighthouse-coffee.com" });
    brandId = brand.id;
    idea = (await settledBatch({ brand: brand.id })).data[0]!;
  });

  it("records posted, saved and rejected (wrong_language) feedback with the idea's brand", async () => {
    const posted = await call("POST", "/v1/feedback", { body: { idea: idea.id, outcome: "posted" } });
    expect(posted.status).toBe(201);
    expect(posted.body).toMatchObject({ object: "feedback", idea: idea.id, brand: brandId, outcome: "posted", reason: null, comment: null });
    expect(posted.body.id).toMatch(/^fb_[A-Za-z0-9]+$/);
    const saved = await call("POST", "/v1/feedback", { body: { idea: idea.id, outcome: "saved", comment: "Later." } });
    expect(saved.body).toMatchObject({ outcome: "saved", comment: "Later." });
    const rejected = await call("POST", "/v1/feedback", {
      body: { idea: idea.id, outcome: "rejected", reason: "wrong_language", comment: "Came back in German." },
    });
    expect(rejected.status).toBe(201);
    expect(rejected.body).toMatchObject({ outcome: "rejected", reason: "wrong_language", comment: "Came back in German." });
    expect(new Set([posted.body.id, saved.body.id, rejected.body.id]).size).toBe(3);
  });

  it("403 for another team's idea, 404 for an unknown one", async () => {
    const other = await call("POST", "/v1/feedback", { body: { idea: idea.id, outcome: "posted" }, token: "test_team_b" });
    expect(other.status).toBe(403);
    expect(other.body.error.param).toBe("idea");
    const unknown = await call("POST", "/v1/feedback", { body: { idea: "idea_0000000000", outcome: "saved" } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.param).toBe("idea");
    const beyond = await call("POST", "/v1/feedback", { body: { idea: idea.id.slice(0, -2) + "09", outcome: "saved" } });
    expect(beyond.status).toBe(404);
  });

  it("404 for an idea of a batch still thinking", async () => {
    const batch = (await call("POST", "/v1/ideas", { body: { brand: brandId } })).body;
    const early = await call("POST", "/v1/feedback", { body: { idea: `idea_${batch.id.slice(6)}01`, outcome: "saved" } });
    expect(early.status).toBe(404);
  });
});

describe("predictions", () => {
  it("ranks every draft best first, pointing back by index and id", async () => {
    const brand = await readyBrand({ website: "https://www.riverside-bakery.com", rules: { never: ["cheap"] } });
    const drafts = [
      { id: "d1", text: "Cheap bread, come now!" },
      { text: `${brand.offerings[0]} from ${brand.name}, baked this morning.`, format: "image" },
      { id: "d3", text: "Something unrelated about cars." },
    ];
    const answer = await call("POST", "/v1/predictions", { body: { brand: brand.id, drafts } });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ object: "prediction", brand: brand.id });
    const ranked = bodyOf(answer, "Prediction").data;
    expect(ranked.map((d) => d.rank)).toEqual([1, 2, 3]);
    expect(ranked.map((d) => d.index).sort()).toEqual([0, 1, 2]);
    expect(answer.body.data[0]).toMatchObject({ index: 1, id: null });
    expect(answer.body.data[2]).toMatchObject({ index: 0, id: "d1" }); // breaks a never-rule
    const again = await call("POST", "/v1/predictions", { body: { brand: brand.id, drafts } });
    expect(again.body.data).toEqual(answer.body.data);
  });

  it("409 while the brand is reading, 403 for another team's brand", async () => {
    const reading = (await call("POST", "/v1/brands", { body: { website: "https://www.slow-site.com" } })).body;
    const body = { brand: reading.id, drafts: [{ text: "Hello" }] };
    const early = await call("POST", "/v1/predictions", { body });
    expect(early.status).toBe(409);
    expect(early.body.error).toMatchObject({ code: "brand_not_ready", param: "brand" });
    expect((await call("POST", "/v1/predictions", { body, token: "test_team_b" })).status).toBe(403);
  });
});

describe("magic inputs", () => {
  it("are documented as data, and each documented example is one the mock acts on", () => {
    expect(magicInputs.length).toBeGreaterThanOrEqual(5);
    // Every `code` value in a row's input is an example of it: the table names inputs the mock really recognises.
    const recognised = (example: string) =>
      restTestTokens.some((t) => t.token === example) ||
      (/^https?:\/\//.test(example) && (websiteFailsToRead(new URL(example).hostname) || websiteHasNoBacking(example))) ||
      websiteFailsToRead(example.replace(/^\./, "x.")) ||
      websiteHasNoBacking(example) ||
      (URL.canParse(`https://${example}`) && isPrivateHost(new URL(`https://${example}`).hostname)) ||
      focusFailsBatch(example) ||
      focusServerError(example);
    for (const m of magicInputs) {
      const examples = [...m.input.matchAll(/`([^`]+)`/g)].map((x) => x[1]!);
      expect(examples.length, `${m.input}: no example`).toBeGreaterThan(0);
      for (const example of examples) expect(recognised(example), `${m.input}: ${example} is not an input the mock acts on`).toBe(true);
      expect(m.where.length && m.effect.length).toBeGreaterThan(0);
    }
    expect(recognised("https://www.example.com") || recognised("plain focus") || recognised("test_team_nobody")).toBe(false);
  });
});
