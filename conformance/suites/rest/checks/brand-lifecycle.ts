// Brand lifecycle: created reading with nothing filled in that was not supplied; reading → ready with the
// read's findings filled in, or → failed when the site cannot be read; terminal states stay; supplied values
// are kept; PATCH changes only what is sent, replaces lists, and a new website starts a new read.
import type { RuleId } from "../../../../generated/rules.js";
import { isDeepStrictEqual } from "node:util";
import type { CheckContext, RestCheck } from "../check.js";
import { openapi, pathOf } from "../contract.js";
import { expectSuccess } from "../expect.js";
import type { Settling, Track } from "../fixtures.js";
import type { ApiResponse } from "../../../core/http.js";
import { memberOf, valueAt, type Answered } from "../../../core/answered.js";
import type { Brand } from "../../../../generated/rest/types.js";
import { documented, sameArchetype, sameCountry, sameLanguage, sameRules, sameUrl } from "../kept.js";
import { brandRules, followWhile, lookAgain, patchRules } from "./common.js";

const group = "brand-lifecycle";
const needs = ["stateful"] as const;

const show = (v: unknown) => JSON.stringify(v);

/** Every answer while waiting was `reading` (nothing in between, nothing before), the create answer included. */
function expectOnlyReading(ctx: CheckContext, track: Track, rule: RuleId): void {
  const states = [...(track.created ? [track.created] : []), ...track.history.slice(0, -1)].map((r) => r.body?.status);
  ctx.expect(
    states.every((s) => s === "reading"),
    rule,
    `brand ${track.id} went through ${show(states)} before ${track.last?.status}; only reading comes before a terminal state`,
  );
}

async function requireSettled(ctx: CheckContext, track: Track, want: "ready" | "failed", rule: RuleId): Promise<void> {
  if (!track.created) await ctx.fixtures.missing(ctx, track, `a brand that was created`);
  if (track.outcome === "timeout") ctx.fail(rule, `${track.problem}; expected ${want}`);
  if (track.outcome !== "settled") ctx.fail(rule, `brand ${track.id ?? "?"} could not be followed: ${track.problem}`);
  ctx.expect(track.last?.status === want, rule, `brand ${track.id} settled as ${show(track.last?.status)}, expected ${want}`);
}

const nonEmptyString = (v: unknown) => typeof v === "string" && v.trim() !== "";

/** A field of a brand compared as the seed means it (kept.ts): URLs normalised, any ISO 3166-1 form, a language in any case, documented members. */
function sameField(field: string, a: unknown, b: unknown): boolean {
  if (field === "website") return sameUrl(a, b);
  if (field === "country") return sameCountry(a, b);
  if (field === "language") return sameLanguage(a, b);
  if (field === "rules") return sameRules(a, b);
  if (field === "archetype") return sameArchetype(a, b);
  return isDeepStrictEqual(a, b);
}

/** The answer to a PATCH, whose body the seed does not show: a brand only when it says it is one. */
const brandIn = (res: ApiResponse): Answered<Brand> | undefined => (res.body?.object === "brand" ? res.body : undefined);

export const brandLifecycleChecks: RestCheck[] = [
  {
    id: "brand-create-reading",
    description: "A new brand answers at once with status reading and name, language, description, archetype null and offerings empty",
    rules: [...brandRules, "create-brand-201", "brand-create-reading", "brand-supplied-values-kept/website"],
    group,
    needs,
    async run(ctx: CheckContext) {
      const track = await ctx.fixtures.brand("main");
      if (!track.created) ctx.fail("create-brand-201", `POST /v1/brands failed: ${track.problem}`);
      if (!expectSuccess(ctx, track.created, "createBrand", 201, "create-brand-201")) return;
      const b = track.created.body;
      ctx.expect(b.status === "reading", "brand-create-reading/status", `status is ${show(b.status)}, expected reading`);
      for (const field of ["name", "language", "description", "archetype"])
        ctx.expect(b[field] === null, `brand-create-reading/${field}`, `${field} is ${show(b[field])} before the site was read, expected null`);
      ctx.expect(Array.isArray(b.offerings) && b.offerings.length === 0, "brand-create-reading/offerings", `offerings is ${show(b.offerings)} before the site was read, expected []`);
      ctx.expect(sameUrl(b.website, track.request.website), "brand-supplied-values-kept/website", `website is ${show(b.website)}, expected ${show(track.request.website)}`);
    },
  },
  {
    id: "brand-reading-to-ready",
    description: "A brand's read completes: reading → ready with name, language, description, offerings and a suggested archetype with rationale",
    rules: [...brandRules, "get-brand-200", "brand-reading-to-ready", "brand-reading-until-settled", "brand-language-iso-639-1"],
    group,
    needs,
    async run(ctx: CheckContext) {
      const track = await ctx.fixtures.brand("main");
      await requireSettled(ctx, track, "ready", "brand-reading-to-ready/status");
      expectOnlyReading(ctx, track, "brand-reading-until-settled");
      for (const res of track.history) expectSuccess(ctx, res, "getBrand", 200, "get-brand-200");
      const b = track.last;
      if (b?.status !== "ready") return;
      for (const field of ["name", "language", "description"] as const)
        ctx.expect(nonEmptyString(b[field]), `brand-reading-to-ready/${field}`, `ready brand ${b.id}: ${field} is ${show(b[field])}, expected it filled in`);
      // Two letters in either case (the seed does not fix the case; lowercase is inferred-output-forms).
      ctx.expect(typeof b.language === "string" && /^[a-z]{2}$/i.test(b.language), "brand-language-iso-639-1", `ready brand ${b.id}: language ${show(b.language)} is not an ISO 639-1 code`);
      ctx.expect(Array.isArray(b.offerings) && b.offerings.length > 0, "brand-reading-to-ready/offerings", `ready brand ${b.id}: offerings is ${show(b.offerings)}, expected what the business sells`);
      ctx.expect(
        nonEmptyString(b.archetype?.value) && nonEmptyString(b.archetype?.rationale),
        "brand-reading-to-ready/archetype",
        `ready brand ${b.id}: archetype is ${show(b.archetype)}, expected a suggested value with a rationale`,
      );
    },
  },
  {
    id: "brand-ready-stays-ready",
    description: "A ready brand is still ready when looked at again",
    rules: [...brandRules, "get-brand-200", "brand-terminal-stays", "brand-ready-unchanged"],
    group,
    needs,
    async run(ctx: CheckContext) {
      const track = await ctx.fixtures.brand("main");
      if (track.last?.status !== "ready" || !track.again) return ctx.fixtures.missing(ctx, track, "a ready brand");
      if (!expectSuccess(ctx, track.again, "getBrand", 200, ["get-brand-200", "brand-terminal-stays"])) return;
      ctx.expect(track.again.body?.status === "ready", "brand-terminal-stays", `brand ${track.id} was ready, then ${show(track.again.body?.status)}`);
      // Only the documented fields: new ones may appear at any time (Conventions 5).
      const before = documented("Brand", track.last);
      const after = documented("Brand", track.again.body);
      ctx.expect(isDeepStrictEqual(before, after), "brand-ready-unchanged", `ready brand ${track.id} changed on its own: ${show(before)} → ${show(after)}`);
      // One more look, an interval later: a terminal state stays over several reads.
      const later = await lookAgain(ctx, "brand", track.id!);
      ctx.expect(later.body?.status === "ready", "brand-terminal-stays", `brand ${track.id} was ready twice, then ${show(later.body?.status)}`);
    },
  },
  {
    id: "brand-reading-to-failed",
    description: "A brand whose website cannot be read goes reading → failed",
    rules: [...brandRules, "create-brand-201", "get-brand-200", "brand-reading-to-failed", "brand-reading-until-settled"],
    group,
    needs,
    async run(ctx: CheckContext) {
      const track = await ctx.fixtures.failingBrand(ctx.slot("rest.triggers.website_fails_read"));
      if (track.created) expectSuccess(ctx, track.created, "createBrand", 201, "create-brand-201");
      await requireSettled(ctx, track, "failed", "brand-reading-to-failed");
      expectOnlyReading(ctx, track, "brand-reading-until-settled");
      for (const res of track.history) expectSuccess(ctx, res, "getBrand", 200, "get-brand-200");
    },
  },
  {
    id: "brand-failed-stays-failed",
    description: "A failed brand is still failed when looked at again",
    rules: [...brandRules, "brand-failed-stays"],
    group,
    needs,
    async run(ctx: CheckContext) {
      const track = await ctx.fixtures.failingBrand(ctx.slot("rest.triggers.website_fails_read"));
      if (track.last?.status !== "failed" || !track.again) ctx.skip(`needs a failed brand: ${track.problem ?? `it is ${track.last?.status}`}`);
      if (!expectSuccess(ctx, track.again, "getBrand", 200, "brand-failed-stays")) return;
      ctx.expect(track.again.body?.status === "failed", "brand-failed-stays", `brand ${track.id} was failed, then ${show(track.again.body?.status)}`);
    },
  },
  {
    id: "brand-supplied-values-kept",
    description: "Values the caller supplied (name, description, language, country, archetype, rules) are kept through the read",
    rules: [...brandRules, "create-brand-201", "brand-supplied-values-kept", "brand-archetype-set-rationale-null", "brand-create-reading/status", "brand-reading-to-ready/status", "input-country-iso-3166-1/alpha-2"],
    group,
    needs,
    async run(ctx: CheckContext) {
      const track = await ctx.fixtures.brand("supplied");
      const sent = track.request;
      const kept = (field: string): RuleId => `brand-supplied-values-kept/${field}`;
      const compare = (b: Settling | undefined, when: string) => {
        for (const field of ["name", "description", "language", "country", "website"] as const)
          ctx.expect(sameField(field, sent[field], b?.[field]), kept(field), `${when}: ${field} is ${show(b?.[field])}, expected the supplied ${show(sent[field])}`);
        ctx.expect(b?.archetype?.value === sent.archetype, kept("archetype"), `${when}: archetype is ${show(b?.archetype)}, expected the value ${show(sent.archetype)}`);
        ctx.expect(
          b?.archetype?.rationale === null,
          "brand-archetype-set-rationale-null",
          `${when}: archetype is ${show(b?.archetype)}, expected rationale null (set by the caller)`,
        );
        ctx.expect(sameRules(sent.rules, b?.rules), kept("rules"), `${when}: rules are ${show(b?.rules)}, expected ${show(sent.rules)}`);
      };
      if (!track.created) ctx.fail("create-brand-201", `POST /v1/brands failed: ${track.problem}`);
      // The fixture's country is a valid alpha-2 code: the other side of the refusals in negative-inputs.ts.
      ctx.expect(
        track.created.status >= 200 && track.created.status <= 299 && sameCountry(sent.country, track.created.body?.country),
        "input-country-iso-3166-1/alpha-2",
        `country ${show(sent.country)} answered ${track.created.status} with country ${show(track.created.body?.country)}, expected a success with that country`,
      );
      if (expectSuccess(ctx, track.created, "createBrand", 201, "create-brand-201")) {
        ctx.expect(track.created.body?.status === "reading", "brand-create-reading/status", `status is ${show(track.created.body?.status)}, expected reading`);
        compare(track.created.body, "when created");
      }
      await requireSettled(ctx, track, "ready", "brand-reading-to-ready/status");
      compare(track.last, "once ready");
    },
  },
  {
    id: "brand-read-back",
    description: "GET of a brand just created answers that brand; one created from a name and a description has no website",
    rules: [...brandRules, "get-brand-200", "brand-readable-after-create", "brand-without-website-null"],
    group,
    needs,
    async run(ctx: CheckContext) {
      for (const key of ["main", "patchLists"] as const) {
        const track = await ctx.fixtures.brand(key);
        const first = track.history[0];
        if (!track.id || !first) return ctx.fixtures.missing(ctx, track, "a brand to read");
        if (!expectSuccess(ctx, first, "getBrand", 200, ["get-brand-200", "brand-readable-after-create"])) continue;
        ctx.expect(first.body?.id === track.id, "brand-readable-after-create", `GET of brand ${track.id} answered brand ${show(first.body?.id)}`);
        if (key === "patchLists")
          for (const [when, b] of [["create answer", track.created?.body], ["GET", first.body]] as const)
            ctx.expect(b?.website === null, "brand-without-website-null", `${when}: a brand created without a website has website ${show(b?.website)}, expected null`);
      }
    },
  },
  {
    id: "brand-archetype-each-value",
    description: "A brand created with each of the twelve archetypes reports that archetype with a null rationale at once",
    rules: [...brandRules, "create-brand-201", "brand-archetype-echoed"],
    group,
    needs,
    async run(ctx: CheckContext) {
      for (const value of openapi.components.schemas.Archetype!.enum as string[]) {
        const rule: RuleId = `brand-archetype-echoed/${value}`;
        const body = { name: `Conformance ${value} ${ctx.fixtures.run}`, description: `A shop whose voice is the ${value}.`, archetype: value };
        const res = await ctx.api.post(pathOf("createBrand"), body);
        if (!expectSuccess(ctx, res, "createBrand", 201, ["create-brand-201", rule])) continue;
        ctx.expect(sameArchetype(res.body?.archetype, { value, rationale: null }), rule, `archetype is ${show(res.body?.archetype)}, expected ${show({ value, rationale: null })}`);
      }
    },
  },
  {
    id: "brand-patch-partial",
    description: "PATCH of each create field alone changes that field and nothing else",
    rules: [...patchRules, "update-brand-200", "brand-patch-partial"],
    group,
    needs,
    async run(ctx: CheckContext) {
      const id = await ctx.fixtures.readyBrandId(ctx, "patchPartial");
      const path = pathOf("updateBrand", { brand_id: id });
      // Values unlike those the brand was made with, so that each change is seen.
      const changes: Record<string, unknown> = {
        name: `Conformance Florist Renamed ${ctx.fixtures.run}`,
        description: "A florist that now also runs flower-arranging classes on Saturdays.",
        language: "nb",
        country: "NO",
        archetype: "jester",
        rules: { always: ["Name the season."], never: ["Mention prices."] },
      };
      const shown = (b: unknown, field: string) => (field === "archetype" ? valueAt(b, ["archetype", "value"]) : memberOf(b, field));
      const fields = ["name", "description", "language", "country", "website", "archetype", "rules", "offerings", "created_at"];
      for (const [field, value] of Object.entries(changes)) {
        const rule: RuleId = `brand-patch-partial/${field}`;
        const before = (await ctx.api.get(pathOf("getBrand", { brand_id: id }))).body;
        const res = await ctx.api.patch(path, { [field]: value });
        if (!expectSuccess(ctx, res, "updateBrand", 200, ["update-brand-200", rule])) continue;
        const after = (await ctx.api.get(pathOf("getBrand", { brand_id: id }))).body;
        // The PATCH answer is not shown by the seed: what it holds is our design (update-brand-200).
        const judged: [string, unknown, RuleId][] = [["GET after PATCH", after, rule]];
        if (brandIn(res)) judged.unshift(["PATCH answer", res.body, "update-brand-200"]);
        for (const [when, b, about] of judged) {
          ctx.expect(sameField(field, value, shown(b, field)), about, `${when}: ${field} is ${show(memberOf(b, field))}, expected ${show(value)}`);
          const changed = fields.filter((f) => f !== field && !sameField(f, before?.[f], memberOf(b, f)));
          ctx.expect(changed.length === 0, about, `${when}: ${changed.map((f) => `${f} changed from ${show(before?.[f])} to ${show(memberOf(b, f))}`).join("; ")}, though only ${field} was sent`);
        }
      }
    },
  },
  {
    id: "brand-patch-lists-replaced",
    description: "PATCH of rules.always or rules.never replaces that list instead of merging it",
    rules: [...patchRules, "update-brand-200", "brand-patch-lists-replaced"],
    group,
    needs,
    async run(ctx: CheckContext) {
      const id = await ctx.fixtures.readyBrandId(ctx, "patchLists");
      const lists = { always: ["Mention the roastery by name."], never: ["Mention competitors."] };
      for (const [list, value] of Object.entries(lists)) {
        const rule: RuleId = `brand-patch-lists-replaced/${list}`;
        const res = await ctx.api.patch(pathOf("updateBrand", { brand_id: id }), { rules: { [list]: value } });
        if (!expectSuccess(ctx, res, "updateBrand", 200, ["update-brand-200", rule])) continue;
        const after = (await ctx.api.get(pathOf("getBrand", { brand_id: id }))).body;
        const judged: [string, unknown, RuleId][] = [["GET after PATCH", after, rule]];
        if (brandIn(res)) judged.unshift(["PATCH answer", res.body, "update-brand-200"]);
        for (const [when, b, about] of judged)
          ctx.expect(isDeepStrictEqual(valueAt(b, ["rules", list]), value), about, `${when}: rules.${list} is ${show(valueAt(b, ["rules", list]))}, expected exactly ${show(value)} (lists are replaced, not merged)`);
      }
    },
  },
  {
    id: "brand-patch-new-website",
    description: "PATCH with another website shows the new website, and the brand settles ready again",
    rules: [...patchRules, "update-brand-200", "brand-patch-website-kept"],
    group,
    needs,
    async run(ctx: CheckContext) {
      const rule = "brand-patch-website-kept";
      const id = await ctx.fixtures.readyBrandId(ctx, "patchWebsite");
      const website = ctx.slot("rest.inputs.other_website");
      const res = await ctx.api.patch(pathOf("updateBrand", { brand_id: id }), { website });
      if (!expectSuccess(ctx, res, "updateBrand", 200, ["update-brand-200", rule])) return;
      if (brandIn(res)) ctx.expect(sameUrl(res.body.website, website), "update-brand-200", `PATCH answer: website is ${show(res.body.website)}, expected ${show(website)}`);
      const followed = await followWhile(ctx, "brand", id, "reading", "re-reading the new website");
      if (followed.broken) ctx.fail(rule, `GET answered ${followed.broken.status} while the brand re-read its website`);
      if (followed.timedOut) ctx.fail(rule, `brand ${id} was still reading its new website at the deadline`);
      ctx.expect(followed.last?.status === "ready", rule, `brand ${id} settled as ${show(followed.last?.status)} after the new website, expected ready`);
      ctx.expect(sameUrl(followed.last?.website, website), rule, `website is ${show(followed.last?.website)} after the re-read, expected ${show(website)}`);
    },
  },
  {
    id: "brand-patch-website-rereads",
    description: "PATCH with a website the target cannot read starts a new read, which fails (ready → failed)",
    rules: [...patchRules, "update-brand-200", "brand-patch-website-rereads", "brand-failed-stays"],
    group,
    needs,
    async run(ctx: CheckContext) {
      const id = await ctx.fixtures.readyBrandId(ctx, "rereadFails");
      const website = ctx.slot("rest.triggers.website_fails_read");
      const res = await ctx.api.patch(pathOf("updateBrand", { brand_id: id }), { website });
      if (!expectSuccess(ctx, res, "updateBrand", 200, ["update-brand-200", "brand-patch-website-rereads"])) return;
      let last: Settling | undefined = brandIn(res);
      if (last?.status !== "failed") {
        const followed = await followWhile(ctx, "brand", id, ["ready", "reading"], "re-reading a website that cannot be read");
        if (followed.broken) ctx.fail("brand-patch-website-rereads", `GET answered ${followed.broken.status} during the re-read`);
        last = followed.last;
        if (followed.timedOut) ctx.fail("brand-patch-website-rereads", `brand ${id} is still ${show(last?.status)} at the deadline: the new website was never read`);
      }
      ctx.expect(last?.status === "failed", "brand-patch-website-rereads", `brand ${id} settled as ${show(last?.status)}, expected failed after a new website that cannot be read`);
      const again = await lookAgain(ctx, "brand", id);
      ctx.expect(again.body?.status === "failed", "brand-failed-stays", `brand ${id} was failed, then ${show(again.body?.status)}`);
    },
  },
];
