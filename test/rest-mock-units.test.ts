// Parts of the REST reference server on their own: the holiday and season calendar, the bounded stores, the
// website reading, the idea writer's rules, and serving over HTTPS (plain HTTP refused on the same port).
import https from "node:https";
import { X509Certificate } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createClock } from "../mock/clock.js";
import { readWebsite, hostWords } from "../mock/rest/business.js";
import { easter, formatDay, holidaysOf, readHolidayRules, readSouthern, seasonOf, upcomingHoliday } from "../mock/rest/calendar.js";
import { readBusinessData } from "../mock/rest/business.js";
import businessData from "../mock/rest/business.json" with { type: "json" };
import holidayData from "../mock/rest/holidays.json" with { type: "json" };
import { quotableParts, writeIdeas, type BrandSnapshot } from "../mock/rest/idea-writer.js";
import { promptLanguages, readPromptFrames, writePrompt } from "../mock/rest/language.js";
import promptFrames from "../mock/rest/prompt-frames.json" with { type: "json" };
import { startRestMock } from "../mock/rest/server.js";
import { TeamStore } from "../mock/rest/store.js";
import { restTestTokens } from "../mock/rest/tokens.js";
import { client, ideaTexts, readTime, suiteStart } from "./support/rest-client.js";
import type { Brand } from "../generated/rest/types.js";
import { deleteAt, listAt, setAt } from "./support/json.js";

describe("calendar", () => {
  it("knows movable feasts", () => {
    expect(formatDay(easter(2026))).toBe("2026-04-05");
    expect(formatDay(easter(2027))).toBe("2027-03-28");
    const us = Object.fromEntries(holidaysOf("US", 2026).map((h) => [h.name, h.date]));
    expect(us).toMatchObject({ Thanksgiving: "2026-11-26", "Memorial Day": "2026-05-25", "Labor Day": "2026-09-07" });
    const no = Object.fromEntries(holidaysOf("NO", 2026).map((h) => [h.name, h.date]));
    expect(no["Constitution Day (17. mai)"]).toBe("2026-05-17");
    expect(no["Ascension Day (Kristi himmelfartsdag)"]).toBe("2026-05-14");
    const ca = Object.fromEntries(holidaysOf("CA", 2026).map((h) => [h.name, h.date]));
    expect(ca).toMatchObject({ Thanksgiving: "2026-10-12", "Victoria Day": "2026-05-18" });
  });

  it("finds the first holiday within three weeks, across the new year, for the seven countries only", () => {
    expect(upcomingHoliday("US", "2026-11-10")).toMatchObject({ name: "Thanksgiving", daysAway: 16 });
    expect(upcomingHoliday("US", "2026-11-26")).toMatchObject({ name: "Thanksgiving", daysAway: 0 });
    expect(upcomingHoliday("NZ", "2026-12-28")).toMatchObject({ name: "New Year's Day", date: "2027-01-01" });
    expect(upcomingHoliday("UK", "2026-12-20")).toMatchObject({ name: "Christmas Day" });
    expect(upcomingHoliday("IE", "2026-11-10")).toBeNull();
    expect(upcomingHoliday("DE", "2026-12-20")).toBeNull();
    expect(upcomingHoliday(null, "2026-12-20")).toBeNull();
  });

  it("gives the season by hemisphere", () => {
    expect(seasonOf("DE", "2026-01-15")).toEqual({ season: "winter", part: "mid" });
    expect(seasonOf("AU", "2026-01-15")).toEqual({ season: "summer", part: "mid" });
    expect(seasonOf("NO", "2026-03-01")).toEqual({ season: "spring", part: "early" });
    expect(seasonOf("AR", "2026-09-30")).toEqual({ season: "spring", part: "early" });
    expect(seasonOf(null, "2026-11-30")).toEqual({ season: "autumn", part: "late" });
  });
});

describe("bounded store", () => {
  it("keeps at most the cap per team and evicts the team's oldest", () => {
    const store = new TeamStore<number>(2);
    store.set("a1", "A", 1);
    store.set("b1", "B", 1);
    store.set("a2", "A", 2);
    store.set("a3", "A", 3);
    expect(store.get("a1")).toBeUndefined();
    expect(store.get("a2")).toBe(2);
    expect(store.entry("b1")).toEqual({ owner: "B", value: 1 });
    expect(store.countFor("A")).toBe(2);
    expect(store.size).toBe(3);
  });

  it("keeps each owner within its byte budget too, measured when set and after a change in place", () => {
    const store = new TeamStore<{ text: string }>(100, undefined, { maxBytesPerOwner: 1000 });
    for (let i = 0; i < 5; i++) store.set(`a${i}`, "A", { text: "x".repeat(300) });
    store.set("b0", "B", { text: "y".repeat(900) });
    expect(store.bytesFor("A")).toBeLessThanOrEqual(1000);
    expect(store.countFor("A")).toBe(3); // the two oldest went
    expect(store.get("a0")).toBeUndefined();
    expect(store.get("a4")).toBeDefined();
    expect(store.countFor("B")).toBe(1); // another owner's budget is its own
    store.get("a4")!.text = "z".repeat(800);
    store.remeasure("a4");
    expect(store.bytesFor("A")).toBeLessThanOrEqual(1000);
    expect(store.get("a4")).toBeDefined(); // the newest change stays, older records make room
    const huge = new TeamStore<string>(100, undefined, { maxBytesPerOwner: 10 });
    huge.set("h1", "H", "a".repeat(50));
    expect(huge.get("h1")).toBeDefined(); // one record over the budget alone is kept
  });

  it("evicts in insertion order under churn (replaced ids become newest, deleted ones are skipped)", () => {
    // A plain model of the rule: an array of ids in insertion order, the oldest first.
    const store = new TeamStore<number>(5);
    const model: string[] = [];
    const set = (id: string) => {
      const at = model.indexOf(id);
      if (at >= 0) model.splice(at, 1);
      model.push(id);
      if (model.length > 5) model.shift();
      store.set(id, "A", 0);
    };
    for (let i = 0; i < 400; i++) {
      set(`n${i}`);
      if (i % 7 === 3) set(`n${i - 2}`); // replace a recent one (or re-add one already evicted)
      if (i % 11 === 5 && model.length > 1) {
        const gone = model.splice(1, 1)[0]!;
        expect(store.delete(gone)).toBe(true);
      }
      expect(store.ofOwner("A").length).toBe(model.length);
      for (const id of model) expect(store.get(id), `${id} after step ${i}`).toBe(0);
    }
    store.deleteOwner("A");
    for (let i = 0; i < 8; i++) store.set(`m${i}`, "A", i);
    expect(store.ofOwner("A")).toEqual([3, 4, 5, 6, 7]);
  });

  it("a record changed in place that is the oldest is kept, and can go later", () => {
    const store = new TeamStore<{ text: string }>(100, undefined, { maxBytesPerOwner: 100 });
    for (const id of ["a", "b", "c"]) store.set(id, "A", { text: "x".repeat(20) }); // 32 bytes each
    store.get("a")!.text = "y".repeat(40);
    store.remeasure("a"); // 116 bytes: b goes; a, being changed, stays and becomes the newest
    expect(store.ofOwner("A").map((v) => v.text.length)).toEqual([20, 40]);
    store.set("d", "A", { text: "x".repeat(20) }); // over again: c, now the oldest, goes
    expect(store.get("c")).toBeUndefined();
    expect(store.get("a")).toBeDefined();
    store.set("e", "A", { text: "x".repeat(20) }); // and then a
    expect(store.get("a")).toBeUndefined();
    expect(store.countFor("A")).toBe(2);
  });

  it("an evicted brand answers 404", async () => {
    const mock = await startRestMock({ clock: createClock({ timeScale: 1, start: suiteStart }), capPerTeam: 2 });
    try {
      const call = client(mock);
      const ids: string[] = [];
      for (const site of ["https://a-cafe.com", "https://b-cafe.com", "https://c-cafe.com"])
        ids.push((await call("POST", "/v1/brands", { body: { website: site } })).body.id);
      expect((await call("GET", `/v1/brands/${ids[0]}`)).status).toBe(404);
      expect((await call("GET", `/v1/brands/${ids[2]}`)).status).toBe(200);
      expect((await call("GET", `/v1/brands/${ids[0]}`, { token: "test_team_b" })).status).toBe(404);
    } finally {
      await mock.stop();
    }
  });
});

describe("reading a website", () => {
  it.each([
    { url: "https://www.bluefjord-bakery.no", name: "Bluefjord Bakery", country: "NO", language: "nb" },
    { url: "https://harbourloafbakery.ie/", name: "Harbourloaf Bakery", country: "IE", language: "en" },
    { url: "https://shop.copper-kettle.co.uk/menu", name: "Copper Kettle", country: "GB", language: "en" },
    { url: "https://www.kaffebar-nord.se", name: "Kaffebar Nord", country: "SE", language: "sv" },
    { url: "https://brightsmile-dental.com", name: "Brightsmile Dental", country: null, language: "en" },
  ])("$url → $name", ({ url, name, country, language }) => {
    const read = readWebsite(url, {}, "s");
    expect(read.ok).toBe(true);
    if (read.ok) expect(read.findings).toMatchObject({ name, country, language });
  });

  it("fails for .invalid hosts and unusable addresses", () => {
    expect(readWebsite("https://shop.invalid", {}, "s").ok).toBe(false);
    expect(readWebsite("https://localhost", {}, "s").ok).toBe(false);
    expect(readWebsite("https://[zz", {}, "s").ok).toBe(false);
  });

  it("splits a glued business word off a host label", () => {
    expect(hostWords("harbourloafbakery")).toEqual(["harbourloaf", "bakery"]);
    expect(hostWords("tidewater-books2")).toEqual(["tidewater", "books"]);
  });
});

describe("idea writer", () => {
  const brand: BrandSnapshot = {
    name: "Harbour Loaf",
    website: "https://harbourloaf.ie",
    description: "A sourdough bakery in Galway. We bake bread and cinnamon buns every morning! Prices are fair.",
    offerings: ["Sourdough bread", "Cinnamon buns", "Seasonal cakes"],
    language: "en",
    country: "IE",
    archetype: "caregiver",
    rules: { always: ["Mention the morning bake."], never: ["Prices", "cinnamon buns"] },
  };

  it("quotes exact substrings", () => {
    for (const part of quotableParts(brand.description)) expect(brand.description).toContain(part);
    const long = "word ".repeat(100);
    for (const part of quotableParts(long)) expect(part.length).toBeLessThanOrEqual(200);
  });

  it("keeps every rule for every count and format set", () => {
    const formatSets = [["image"], ["carousel", "text"], []] as const;
    for (let count = 1; count <= 10; count++)
      for (const formats of formatSets) {
        const focus = "Winter bread boxes for offices.";
        const { ideas, leftOut } = writeIdeas(brand, { count, formats: [...formats], focus, date: "2026-12-01" }, "seed");
        expect(ideas.length + leftOut.length).toBe(count);
        for (const idea of ideas) {
          if (formats.length) expect(formats).toContain(idea.format as never);
          expect(idea.sources.length).toBeLessThanOrEqual(4);
          for (const s of idea.sources)
            expect(s.type === "focus" ? focus.includes(s.quote!) : [brand.name, brand.description, ...brand.offerings].some((w) => w.includes(s.quote!))).toBe(true);
          for (const text of ideaTexts(idea)) {
            expect(text.toLowerCase()).not.toContain("prices");
            expect(text.toLowerCase()).not.toContain("cinnamon buns");
          }
          expect(idea.outline.key_points.length).toBeGreaterThanOrEqual(1);
          expect(idea.outline.key_points.length).toBeLessThanOrEqual(5);
        }
      }
  });

  it("is a pure function of brand, request and seed", () => {
    const request = { count: 5, formats: [], focus: null, date: "2026-12-01" };
    expect(writeIdeas(brand, request, "x")).toEqual(writeIdeas(structuredClone(brand), { ...request }, "x"));
  });

  it("writes for languages without a frame with an explicit language instruction", () => {
    const { ideas } = writeIdeas({ ...brand, language: "ja" }, { count: 1, formats: [], focus: null, date: "2026-12-01" }, "x");
    expect(ideas[0]!.prompt).toContain('"ja"');
  });
});

describe("prompt frames (prompt-frames.json)", () => {
  const prompt = { format: "image", name: "Bluefjord", archetype: "sage", task: "spotlight", subject: "rye {name}", quotes: ["fresh"], always: [] as string[] } as const;

  it("writes each language's prompt from the data file, aliases included, English with an instruction otherwise", () => {
    expect(promptLanguages).toEqual(["en", "nb", "no", "nn", "sv", "da", "de", "fr", "es", "nl", "pt", "it"]);
    const nb = writePrompt({ ...prompt, quotes: ["fresh"], language: "no", moment: { part: "late", season: "autumn" } });
    expect(nb).toBe("Skriv et bildeinnlegg med bildetekst på norsk for Bluefjord. Sett søkelyset på rye {name}. Knytt det til sent på høsten. Bruk merkevarens egne ord: «fresh». Tone: klok og forklarende. Avslutt med en tydelig oppfordring.");
    const fi = writePrompt({ ...prompt, quotes: ["fresh"], language: "fi", moment: null });
    expect(fi).toContain('Write it in the language with ISO 639-1 code "fi", not in English.');
    expect(fi.startsWith("Write an image post with a caption in English for Bluefjord.")).toBe(true);
  });

  it.each([
    ["a task without its placeholder", (d: unknown) => setAt(d, "frames.de.tasks.gift", "Verschenke es."), /de\.tasks\.gift lacks \{subject\}/],
    ["a missing archetype", (d: unknown) => deleteAt(d, "frames.fr.voice.sage"), /fr\.voice\.sage is missing/],
    ["an unknown season", (d: unknown) => setAt(d, "frames.sv.seasons.monsoon", "monsunen"), /sv\.seasons\.monsoon is not a known key/],
    ["one quote mark", (d: unknown) => setAt(d, "frames.it.quoteMarks", ["«"]), /it\.quoteMarks/],
    ["an alias of nothing", (d: unknown) => setAt(d, "aliases.se", "xx"), /aliases\.se names no frame/],
    ["a frame key no prompt uses", (d: unknown) => setAt(d, "frames.nl.closing", "Tot ziens."), /nl\.closing is not a known key/],
  ])("refuses data with %s, naming it", (_label, spoil, message) => {
    const data = structuredClone(promptFrames);
    spoil(data);
    expect(() => readPromptFrames(data as never)).toThrow(message);
  });
});

describe("the other data files are checked when read", () => {
  const spoilt = <T>(data: T, spoil: (d: unknown) => void): T => {
    const copy = structuredClone(data);
    spoil(copy);
    return copy;
  };

  it.each([
    ["a kind with an unknown archetype", (d: unknown) => setAt(d, "kinds.2.archetype", "wizard"), /kinds\[2\]\.archetype "wizard"/],
    ["a kind word in capitals", (d: unknown) => setAt(d, "kinds.0.words", [...listAt(d, "kinds", 0, "words"), "Bakery"]), /kinds\[0\]\.words must be lowercase/],
    ["a kind without offerings", (d: unknown) => setAt(d, "kinds.1.offerings", []), /kinds\[1\]\.offerings/],
    ["a country code in lowercase", (d: unknown) => setAt(d, "tlds.no.country", "no"), /tlds\.no\.country/],
    ["a generic kind without a label", (d: unknown) => deleteAt(d, "generic.label"), /generic\.label/],
    ["a top-level domain with a stray key", (d: unknown) => setAt(d, "tlds.no.currency", "NOK"), /tlds\.no\.currency is not a known key/],
    ["a country name under a lowercase code", (d: unknown) => setAt(d, "countryNames.fr", "France"), /countryNames\.fr must be a two-letter country code/],
  ])("business.json with %s", (_label, spoil, message) => {
    expect(() => readBusinessData(spoilt(businessData, spoil))).toThrow(message);
  });

  it.each([
    ["a rule of two kinds", (d: unknown) => setAt(d, "US.0.easter", 1), /US\[0\] \(New Year's Day\) must have exactly one of/],
    ["a rule with a number too few", (d: unknown) => setAt(d, "NO.0.fixed", [5]), /NO\[0\].*fixed must be 2/],
    ["a country the calendar does not know", (d: unknown) => setAt(d, "SE", []), /the file\.SE is not a known key/],
    ["a holiday without a name", (d: unknown) => setAt(d, "IE.1.name", " "), /IE\[1\]\.name must be a non-blank string/],
    ["a weekday rule without its otherwise", (d: unknown) => deleteAt(d, "IE.1.otherwise"), /IE\[1\] \(St Brigid's Day\)\.otherwise is missing/],
    ["an otherwise on a fixed rule", (d: unknown) => setAt(d, "US.0.otherwise", { fixed: [1, 2] }), /US\[0\] \(New Year's Day\)\.otherwise belongs to fixedOnWeekday rules only/],
    ["an otherwise that is no rule", (d: unknown) => setAt(d, "IE.1.otherwise", { nth: [2, 1] }), /IE\[1\] \(St Brigid's Day\)\.otherwise nth must be 3/],
  ])("holidays.json with %s", (_label, spoil, message) => {
    expect(() => readHolidayRules(spoilt(holidayData, spoil))).toThrow(message);
  });

  it("seasons.json with a code that is not one", () => {
    expect(() => readSouthern({ southern: ["AU", "New Zealand"] })).toThrow(/southern\[1\] must be a two-letter country code/);
    expect(readSouthern({ southern: ["AU"] })).toEqual(["AU"]);
  });
});

describe("tokens", () => {
  it("lists two teams, an expired, an unknown and a rate-limited token", () => {
    const kinds = restTestTokens.map((t) => t.kind);
    expect(kinds.filter((k) => k === "valid")).toHaveLength(2);
    expect(new Set(restTestTokens.filter((t) => t.kind === "valid").map((t) => t.team)).size).toBe(2);
    for (const k of ["expired", "unknown", "rate_limited"] as const) expect(kinds).toContain(k);
  });
});

describe("https", () => {
  it("serves TLS with a self-signed certificate and refuses plain HTTP on the same port with 400", async () => {
    const mock = await startRestMock({ https: true, clock: createClock({ timeScale: 1, start: suiteStart }) });
    try {
      expect(mock.url.protocol).toBe("https:");
      expect(mock.certificate).toBeDefined();
      const cert = new X509Certificate(mock.certificate!);
      expect(cert.checkIP("127.0.0.1")).toBe("127.0.0.1");
      const get = (path: string, body?: string) =>
        new Promise<{ status: number; body: Brand }>((resolve, reject) => {
          const req = https.request(
            new URL(path, mock.url),
            {
              method: body ? "POST" : "GET",
              ca: mock.certificate,
              headers: { authorization: "Bearer test_team_a", ...(body ? { "content-type": "application/json" } : {}) },
            },
            (res) => {
              let text = "";
              res.on("data", (d) => (text += d));
              res.on("end", () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
            },
          );
          req.on("error", reject);
          req.end(body);
        });
      const created = await get("v1/brands", JSON.stringify({ website: "https://www.secure-bakery.com" }));
      expect(created.status).toBe(201);
      mock.clock.advance(readTime);
      expect((await get(`v1/brands/${created.body.id}`)).body.status).toBe("ready");

      const plain = await fetch(`http://127.0.0.1:${mock.url.port}/v1/brands/${created.body.id}`, {
        headers: { authorization: "Bearer test_team_a" },
      });
      expect(plain.status).toBe(400);
      expect((await plain.json()).error).toMatchObject({ type: "invalid_request", code: "https_required" });
    } finally {
      await mock.stop();
    }
  });
});

describe("README", () => {
  it("lists every magic input exactly as magic.ts has it", async () => {
    const { readFileSync } = await import("node:fs");
    const { magicInputs } = await import("../mock/rest/magic.js");
    const readme = readFileSync(new URL("../mock/rest/README.md", import.meta.url), "utf8");
    for (const m of magicInputs) expect(readme).toContain(`| ${m.input} | ${m.where} | ${m.effect} |`);
  });
});
