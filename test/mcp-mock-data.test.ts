// The MCP mock's data files (issue 19): each is checked when its module loads, and a value outside what the code
// handles fails at load, naming the file and the place, instead of misbehaving later.
import { describe, expect, it } from "vitest";
import fixturesData from "../mock/mcp/profiles/fixtures.json" with { type: "json" };
import { fixtureIds, readFixtures, seedFixtures } from "../mock/mcp/profiles/fixtures.js";
import { ProfilesStore } from "../mock/mcp/profiles/store.js";
import copyData from "../mock/mcp/posts/copy.json" with { type: "json" };
import { readCopy, rewriteCaption } from "../mock/mcp/posts/copy.js";
import postsMagicData from "../mock/mcp/posts/magic.json" with { type: "json" };
import { postsMagicInputs, readPostsMagicInputs } from "../mock/mcp/posts/magic.js";
import profilesMagicData from "../mock/mcp/profiles/magic.json" with { type: "json" };
import { buildFailureFor, logoMagic, publicFonts, readMagicTables, websiteRefusal } from "../mock/mcp/profiles/magic.js";
import limitsData from "../mock/mcp/posts/limits.json" with { type: "json" };
import { destinationRules, readDestinationRules, redditTitleLimit, rules } from "../mock/mcp/posts/limits.js";

/** A copy of the data with one change made by `edit`. */
function edited<T>(data: T, edit: (copy: T) => void): T {
  const copy = structuredClone(data);
  edit(copy);
  return copy;
}

/** Each case's change to the file's data is refused when read, naming the file and then the message. */
function refusesAtLoad<T>(file: string, read: (data: unknown) => unknown, data: T, cases: [string, (copy: T) => void, RegExp][]): void {
  it.each(cases)("refuses %s at load", (_, edit, message) => {
    expect(() => read(data)).not.toThrow();
    const bad = edited(data, edit);
    expect(() => read(bad)).toThrow(message);
    expect(() => read(bad)).toThrow(new RegExp(`^${file.replaceAll(".", "\\.")}: `));
  });
}

describe("fixtures.json", () => {
  type Fixtures = typeof fixturesData & { workspaces: Record<string, unknown>[] };
  const data = fixturesData as Fixtures;
  const harbourBrand = (d: Fixtures) => (d.workspaces[0]!.brands as Record<string, unknown>[])[0]!;
  const harbourChannel = (d: Fixtures) => (harbourBrand(d).channels as Record<string, unknown>[])[0]!;

  it("seeds every fixture id, each workspace with its brands", () => {
    const store = new ProfilesStore();
    seedFixtures(store, Date.UTC(2026, 0, 1));
    for (const fixtureId of Object.values(fixtureIds)) expect(store.workspaces.has(fixtureId) || store.brands.has(fixtureId)).toBe(true);
    expect(store.workspaces.get(fixtureIds.northsideWorkspace)!.brandIds).toEqual([fixtureIds.northsidePhysio, fixtureIds.northsideFitness, fixtureIds.northsideMarket]);
    expect(store.workspaces.get(fixtureIds.blakeWorkspace)!.ai.allowance).toBe(3);
    expect(store.workspaces.get(fixtureIds.harbourWorkspace)!.ai.allowance).toBe(100_000);
  });

  it("turns days into times from the clock at start, and logo numbers into ids", () => {
    const now = Date.UTC(2026, 0, 1);
    const store = new ProfilesStore();
    seedFixtures(store, now);
    const harbour = store.brands.get(fixtureIds.harbourBrand)!;
    expect(harbour.channels.map((c) => [c.platform, (now - c.connectedAt!) / 86_400_000, c.tokenExpiresAt === null ? null : (c.tokenExpiresAt - now) / 86_400_000])).toEqual([
      ["instagram", 60, 41],
      ["facebook", 51, 9],
    ]);
    expect(harbour.style.currentLogoId).toBe(harbour.style.logos[1]!.id);
    expect(store.brands.get(fixtureIds.blakeShop)!.hasBrandProfile).toBe(false);
  });

  it("gives every seeding its own copy (a reset starts from the file, whatever a handler changed in place)", () => {
    const first = new ProfilesStore();
    seedFixtures(first, 0);
    const brand = first.brands.get(fixtureIds.harbourBrand)!;
    brand.style.palette.push("#000000");
    brand.style.designStyle!.colorRoles.accent = "#000000";
    brand.channels[0]!.scopes.push("extra");
    const second = new ProfilesStore();
    seedFixtures(second, 0);
    const fresh = second.brands.get(fixtureIds.harbourBrand)!;
    expect(fresh.style.palette).toEqual(["#0B3D91", "#F2A900", "#FFFFFF", "#1B1B1B"]);
    expect(fresh.style.designStyle!.colorRoles.accent).toBeNull();
    expect(fresh.channels[0]!.scopes).not.toContain("extra");
  });

  refusesAtLoad<Fixtures>("mock/mcp/profiles/fixtures.json", readFixtures, data, [
    ["a channel state outside the union", (d) => (harbourChannel(d).state = "paused"), /workspaces\[0\]\.brands\[0\]\.channels\[0\]\.state "paused" is not one of connected, needs_reauth, disconnected/],
    ["a platform no destination publishes through", (d) => (harbourChannel(d).platform = "myspace"), /channels\[0\]\.platform "myspace" is not one of/],
    ["a default platform that is not a destination", (d) => (harbourBrand(d).defaultPlatform = "instagram"), /defaultPlatform "instagram" is not one of INSTAGRAM/],
    ["a misspelt key", (d) => (harbourChannel(d).tokenExpiresInDay = 3), /channels\[0\]\.tokenExpiresInDay is not a known key/],
    ["a missing required key", (d) => delete harbourChannel(d).connectedDaysAgo, /channels\[0\]\.connectedDaysAgo is missing/],
    ["a negative day count", (d) => (harbourChannel(d).connectedDaysAgo = -1), /connectedDaysAgo must be a whole number ≥ 0/],
    ["a current logo past the list", (d) => ((harbourBrand(d).style as Record<string, unknown>).currentLogo = 3), /currentLogo names logo 3 of 2/],
    ["a colour that is not #RRGGBB", (d) => ((harbourBrand(d).style as { palette: string[] }).palette[0] = "navy"), /palette\[0\] must be a colour/],
    ["a fixture id's brand gone", (d) => (harbourBrand(d).slug = "harbour-bakery-2"), /lack the workspace or brand of fixtureIds\.harbourBrand/],
    ["a repeated slug", (d) => d.workspaces[1]!.brands.push(structuredClone(harbourBrand(d)) as never), /repeat a workspace or brand slug/],
  ]);
});

describe("limits.json", () => {
  type Limits = { destinations: Record<string, unknown>[] };
  const data = limitsData as Limits;
  const row = (d: Limits, platform: string) => d.destinations.find((r) => r.platform === platform)!;

  it("is the table the posts domain reads, defaults filled in", () => {
    expect(destinationRules.map((r) => r.platform)).toEqual(data.destinations.map((r) => r.platform));
    expect(rules("INSTAGRAM_STORIES")).toMatchObject({ story: true, aspectBand: null, reddit: false, captionLimit: 0 });
    expect(rules("INSTAGRAM").aspectBand).toEqual([0.75, 1.91]);
    expect(redditTitleLimit).toBe(300);
  });

  refusesAtLoad<Limits>("mock/mcp/posts/limits.json", readDestinationRules, data, [
    ["a video kind outside the union", (d) => (row(d, "X").video = "sometimes"), /destinations\[6\]\.video "sometimes" is not one of none, optional, required/],
    ["a lowercase platform", (d) => (row(d, "X").platform = "x"), /destinations\[6\]\.platform must be uppercase/],
    ["a repeated platform", (d) => (row(d, "THREADS").platform = "X"), /destinations repeat X/],
    ["a story with a caption", (d) => (row(d, "FACEBOOK_STORIES").captionLimit = 100), /destinations\[3\] is a story/],
    ["pictures on a video-only destination", (d) => (row(d, "TIKTOK").imageLimit = 1), /destinations\[9\] requires a video/],
    ["an upside-down aspect band", (d) => (row(d, "INSTAGRAM").aspectBand = [1.91, 0.75]), /aspectBand must be \[low, high\]/],
    ["a missing caption limit", (d) => delete row(d, "LINKEDIN").captionLimit, /destinations\[5\]\.captionLimit is missing/],
    ["no reddit title limit", (d) => (row(d, "REDDIT").titleLimit = null), /lack a reddit destination with a titleLimit/],
  ]);
});

describe("copy.json", () => {
  type Copy = { angles: Record<string, unknown>[]; openers: string[] };
  const data = copyData as Copy;

  it("fills {brand} in a rewritten caption's opener", () => {
    const openers = readCopy(data).openers.map((o) => o.replaceAll("{brand}", "Harbour Bakery"));
    const rewritten = Array.from({ length: 40 }, (_, i) => rewriteCaption("INSTAGRAM", `caption ${i}`, "Quick tip: bread", "Harbour Bakery", undefined));
    for (const text of rewritten) expect(openers.some((o) => text.startsWith(`${o} `))).toBe(true);
    expect(rewritten.some((t) => t.startsWith("From all of us at Harbour Bakery:"))).toBe(true);
    expect(rewritten.join("")).not.toContain("{brand}");
  });

  refusesAtLoad<Copy>("mock/mcp/posts/copy.json", readCopy, data, [
    ["fewer angles than a batch has posts", (d) => d.angles.pop(), /angles has 19; a batch of 20 posts needs 20/],
    ["a repeated label", (d) => (d.angles[1]!.label = d.angles[0]!.label), /angles repeat a label/],
    ["an angle without a call to action", (d) => delete d.angles[2]!.cta, /angles\[2\]\.cta is missing/],
    ["a blank hook", (d) => (d.angles[3]!.hook = " "), /angles\[3\]\.hook must be a non-blank string/],
    ["an unknown placeholder", (d) => (d.openers[0] = "Hi {name}:"), /openers\[0\] has a placeholder other than \{brand\}/],
  ]);
});

describe("profiles/magic.json", () => {
  type Tables = { [K in "socialHosts" | "publicFonts"]: string[] } & { [K in "buildMagic" | "logoMagic" | "accountMagic"]: Record<string, unknown>[] };
  const data = profilesMagicData as Tables;

  it("is what the handlers consult", () => {
    expect(buildFailureFor("shop.fail-analysis.example.com")).toBe("analysis_failed");
    expect(websiteRefusal("shop.linktr.ee")).toBe("BLOCKED_DOMAIN");
    expect(logoMagic.map((m) => m.code)).toEqual(["design_style_busy", "logo_unreadable", "logo_unreadable", "logo_unreadable"]);
    expect(publicFonts).toContain("Playfair Display");
  });

  refusesAtLoad<Tables>("mock/mcp/profiles/magic.json", readMagicTables, data, [
    ["a build failure outside the catalogue", (d) => (d.buildMagic[0]!.failure = "website_on_fire"), /buildMagic\[0\]\.failure "website_on_fire" is not one of website_unreachable/],
    ["a logo code the handler does not answer", (d) => (d.logoMagic[1]!.code = "source_not_public"), /logoMagic\[1\]\.code "source_not_public" is not one of design_style_busy, logo_unreadable/],
    ["a connect error outside the catalogue", (d) => (d.accountMagic[0]!.error = "denied"), /accountMagic\[0\]\.error "denied" is not one of oauth_denied/],
    ["a capitalised match (hosts are compared lowercased)", (d) => (d.buildMagic[1]!.hostContains = "Fail-Unreachable"), /buildMagic\[1\]\.hostContains must be lowercase/],
    ["a social host without a dot", (d) => (d.socialHosts[0] = "instagram"), /socialHosts\[0\] must be a host name with a dot/],
    ["a missing table", (d) => delete (d as Partial<Tables>).publicFonts, /publicFonts is missing/],
  ]);
});

describe("posts/magic.json", () => {
  type Inputs = { magicInputs: Record<string, unknown>[] };
  const data = postsMagicData as Inputs;

  it("is the table the README and docs show", () => {
    expect(postsMagicInputs).toEqual(data.magicInputs);
  });

  refusesAtLoad<Inputs>("mock/mcp/posts/magic.json", readPostsMagicInputs, data, [
    ["a row without an effect", (d) => delete d.magicInputs[0]!.effect, /magicInputs\[0\]\.effect is missing/],
    ["a blank where", (d) => (d.magicInputs[1]!.where = ""), /magicInputs\[1\]\.where must be a non-blank string/],
    ["a misspelt key", (d) => (d.magicInputs[2]!.efect = "x"), /magicInputs\[2\]\.efect is not a known key/],
  ]);
});
