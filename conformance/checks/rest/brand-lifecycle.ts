// Brand lifecycle: created reading with nothing filled in that was not supplied; reading → ready with the
// read's findings filled in, or → failed when the site cannot be read; terminal states stay; supplied values
// are kept; PATCH changes only what is sent, replaces lists, and a new website starts a new read.
import { isDeepStrictEqual } from "node:util";
import type { Check, CheckContext } from "../../check.js";
import { pathOf } from "../../contract.js";
import { expectSuccess } from "../../expect.js";
import type { Track } from "../../fixtures.js";
import { brandRules, followWhile, lookAgain } from "./common.js";

const group = "brand-lifecycle";
const needs = ["stateful"] as const;

const show = (v: unknown) => JSON.stringify(v);

/** Every answer while waiting was `reading` (nothing in between, nothing before). */
function expectOnlyReading(ctx: CheckContext, track: Track, rule: string): void {
  const states = track.history.slice(0, -1).map((r) => r.body?.status);
  ctx.expect(
    states.every((s) => s === "reading"),
    rule,
    `brand ${track.id} went through ${show(states)} before ${track.last?.status}; only reading comes before a terminal state`,
  );
}

function requireSettled(ctx: CheckContext, track: Track, want: "ready" | "failed", rule: string): void {
  if (!track.created) ctx.skip(`the brand was not created: ${track.problem}`);
  if (track.outcome === "timeout") ctx.fail(rule, `${track.problem}; expected ${want}`);
  if (track.outcome !== "settled") ctx.fail(rule, `brand ${track.id ?? "?"} could not be followed: ${track.problem}`);
  ctx.expect(track.last?.status === want, rule, `brand ${track.id} settled as ${show(track.last?.status)}, expected ${want}`);
}

const nonEmptyString = (v: unknown) => typeof v === "string" && v.trim() !== "";

export const brandLifecycleChecks: Check[] = [
  {
    id: "brand-create-reading",
    description: "A new brand answers at once with status reading and name, language, description, archetype null and offerings empty",
    rules: [...brandRules, "brand-create-reading"],
    group,
    needs,
    async run(ctx: CheckContext) {
      const track = await ctx.fixtures.brand("main");
      if (!track.created) ctx.fail("brand-create-reading", `POST /v1/brands failed: ${track.problem}`);
      if (!expectSuccess(ctx, track.created, "createBrand", 201, "brand-create-reading")) return;
      const b = track.created.body;
      ctx.expect(b.status === "reading", "brand-create-reading", `status is ${show(b.status)}, expected reading`);
      for (const field of ["name", "language", "description", "archetype"])
        ctx.expect(b[field] === null, "brand-create-reading", `${field} is ${show(b[field])} before the site was read, expected null`);
      ctx.expect(Array.isArray(b.offerings) && b.offerings.length === 0, "brand-create-reading", `offerings is ${show(b.offerings)} before the site was read, expected []`);
      ctx.expect(b.website === track.request.website, "brand-create-reading", `website is ${show(b.website)}, expected ${show(track.request.website)}`);
    },
  },
  {
    id: "brand-reading-to-ready",
    description: "A brand's read completes: reading → ready with name, language, description, offerings and a suggested archetype with rationale",
    rules: [...brandRules, "brand-reading-to-ready"],
    group,
    needs,
    async run(ctx: CheckContext) {
      const track = await ctx.fixtures.brand("main");
      requireSettled(ctx, track, "ready", "brand-reading-to-ready");
      expectOnlyReading(ctx, track, "brand-reading-to-ready");
      for (const res of track.history) expectSuccess(ctx, res, "getBrand", 200, "brand-reading-to-ready");
      const b = track.last;
      if (b?.status !== "ready") return;
      for (const field of ["name", "language", "description"])
        ctx.expect(nonEmptyString(b[field]), "brand-reading-to-ready", `ready brand ${b.id}: ${field} is ${show(b[field])}, expected it filled in`);
      ctx.expect(Array.isArray(b.offerings) && b.offerings.length > 0, "brand-reading-to-ready", `ready brand ${b.id}: offerings is ${show(b.offerings)}, expected what the business sells`);
      ctx.expect(
        nonEmptyString(b.archetype?.value) && nonEmptyString(b.archetype?.rationale),
        "brand-reading-to-ready",
        `ready brand ${b.id}: archetype is ${show(b.archetype)}, expected a suggested value with a rationale`,
      );
    },
  },
  {
    id: "brand-ready-stays-ready",
    description: "A ready brand is still ready when looked at again",
    rules: [...brandRules, "brand-terminal-stays"],
    group,
    needs,
    async run(ctx: CheckContext) {
      const track = await ctx.fixtures.brand("main");
      if (track.last?.status !== "ready" || !track.again) ctx.skip(`needs a ready brand: ${track.problem ?? `it is ${track.last?.status}`}`);
      if (!expectSuccess(ctx, track.again, "getBrand", 200, "brand-terminal-stays")) return;
      ctx.expect(track.again.body?.status === "ready", "brand-terminal-stays", `brand ${track.id} was ready, then ${show(track.again.body?.status)}`);
      const { status: _a, ...before } = track.last;
      const { status: _b, ...after } = track.again.body ?? {};
      ctx.expect(isDeepStrictEqual(before, after), "brand-terminal-stays", `ready brand ${track.id} changed on its own: ${show(before)} → ${show(after)}`);
    },
  },
  {
    id: "brand-reading-to-failed",
    description: "A brand whose website cannot be read goes reading → failed",
    rules: [...brandRules, "brand-reading-to-failed"],
    group,
    needs: [...needs, "trigger:website-fails-read"],
    async run(ctx: CheckContext) {
      const track = await ctx.fixtures.brand("fails");
      if (track.created) expectSuccess(ctx, track.created, "createBrand", 201, "brand-reading-to-failed");
      requireSettled(ctx, track, "failed", "brand-reading-to-failed");
      expectOnlyReading(ctx, track, "brand-reading-to-failed");
      for (const res of track.history) expectSuccess(ctx, res, "getBrand", 200, "brand-reading-to-failed");
    },
  },
  {
    id: "brand-failed-stays-failed",
    description: "A failed brand is still failed when looked at again",
    rules: [...brandRules, "brand-terminal-stays"],
    group,
    needs: [...needs, "trigger:website-fails-read"],
    async run(ctx: CheckContext) {
      const track = await ctx.fixtures.brand("fails");
      if (track.last?.status !== "failed" || !track.again) ctx.skip(`needs a failed brand: ${track.problem ?? `it is ${track.last?.status}`}`);
      if (!expectSuccess(ctx, track.again, "getBrand", 200, "brand-terminal-stays")) return;
      ctx.expect(track.again.body?.status === "failed", "brand-terminal-stays", `brand ${track.id} was failed, then ${show(track.again.body?.status)}`);
    },
  },
  {
    id: "brand-supplied-values-kept",
    description: "Values the caller supplied (name, description, language, country, archetype, rules) are kept through the read",
    rules: [...brandRules, "brand-supplied-values-kept", "brand-create-reading"],
    group,
    needs,
    async run(ctx: CheckContext) {
      const track = await ctx.fixtures.brand("supplied");
      const sent = track.request;
      const compare = (b: any, when: string, rule: string) => {
        for (const field of ["name", "description", "language", "country", "website"])
          ctx.expect(b?.[field] === sent[field], rule, `${when}: ${field} is ${show(b?.[field])}, expected the supplied ${show(sent[field])}`);
        ctx.expect(
          b?.archetype?.value === sent.archetype && b?.archetype?.rationale === null,
          rule,
          `${when}: archetype is ${show(b?.archetype)}, expected {"value":${show(sent.archetype)},"rationale":null} (set by the caller)`,
        );
        ctx.expect(isDeepStrictEqual(b?.rules, sent.rules), rule, `${when}: rules are ${show(b?.rules)}, expected ${show(sent.rules)}`);
      };
      if (!track.created) ctx.fail("brand-supplied-values-kept", `POST /v1/brands failed: ${track.problem}`);
      if (expectSuccess(ctx, track.created, "createBrand", 201, "brand-supplied-values-kept")) {
        ctx.expect(track.created.body?.status === "reading", "brand-create-reading", `status is ${show(track.created.body?.status)}, expected reading`);
        compare(track.created.body, "when created", "brand-create-reading");
      }
      requireSettled(ctx, track, "ready", "brand-supplied-values-kept");
      compare(track.last, "once ready", "brand-supplied-values-kept");
    },
  },
  {
    id: "brand-patch-partial",
    description: "PATCH of one field changes that field and nothing else",
    rules: [...brandRules, "brand-patch-partial"],
    group,
    needs,
    async run(ctx: CheckContext) {
      const id = await ctx.fixtures.readyBrandId(ctx, "patchPartial");
      const path = pathOf("updateBrand", { brand_id: id });
      const before = (await ctx.api.get(pathOf("getBrand", { brand_id: id }))).body;
      const res = await ctx.api.patch(path, { country: "NO" });
      if (!expectSuccess(ctx, res, "updateBrand", 200, "brand-patch-partial")) return;
      const after = (await ctx.api.get(pathOf("getBrand", { brand_id: id }))).body;
      for (const [when, b] of [["PATCH answer", res.body], ["GET after PATCH", after]] as const) {
        ctx.expect(b?.country === "NO", "brand-patch-partial", `${when}: country is ${show(b?.country)}, expected "NO"`);
        for (const field of ["name", "description", "language", "website", "archetype", "rules", "offerings", "created_at"])
          ctx.expect(isDeepStrictEqual(b?.[field], before?.[field]), "brand-patch-partial", `${when}: ${field} changed from ${show(before?.[field])} to ${show(b?.[field])}, though only country was sent`);
      }
    },
  },
  {
    id: "brand-patch-lists-replaced",
    description: "PATCH of rules.never replaces the list instead of merging it",
    rules: [...brandRules, "brand-patch-lists-replaced"],
    group,
    needs,
    async run(ctx: CheckContext) {
      const id = await ctx.fixtures.readyBrandId(ctx, "patchLists");
      const never = ["Mention competitors."];
      const res = await ctx.api.patch(pathOf("updateBrand", { brand_id: id }), { rules: { never } });
      if (!expectSuccess(ctx, res, "updateBrand", 200, "brand-patch-lists-replaced")) return;
      const after = (await ctx.api.get(pathOf("getBrand", { brand_id: id }))).body;
      for (const [when, b] of [["PATCH answer", res.body], ["GET after PATCH", after]] as const)
        ctx.expect(isDeepStrictEqual(b?.rules?.never, never), "brand-patch-lists-replaced", `${when}: rules.never is ${show(b?.rules?.never)}, expected exactly ${show(never)} (lists are replaced, not merged)`);
    },
  },
  {
    id: "brand-patch-new-website",
    description: "PATCH with another website shows the new website, and the brand settles ready again",
    rules: [...brandRules, "brand-patch-partial"],
    group,
    needs,
    async run(ctx: CheckContext) {
      const id = await ctx.fixtures.readyBrandId(ctx, "patchWebsite");
      const website = ctx.target.inputs.otherWebsite;
      const res = await ctx.api.patch(pathOf("updateBrand", { brand_id: id }), { website });
      if (!expectSuccess(ctx, res, "updateBrand", 200, "brand-patch-partial")) return;
      ctx.expect(res.body?.website === website, "brand-patch-partial", `PATCH answer: website is ${show(res.body?.website)}, expected ${show(website)}`);
      const followed = await followWhile(ctx, "brand", id, "reading", "re-reading the new website");
      if (followed.broken) ctx.fail("brand-patch-partial", `GET answered ${followed.broken.status} while the brand re-read its website`);
      if (followed.timedOut) ctx.fail("brand-patch-partial", `brand ${id} was still reading its new website at the deadline`);
      ctx.expect(followed.last?.status === "ready", "brand-patch-partial", `brand ${id} settled as ${show(followed.last?.status)} after the new website, expected ready`);
      ctx.expect(followed.last?.website === website, "brand-patch-partial", `website is ${show(followed.last?.website)} after the re-read, expected ${show(website)}`);
    },
  },
  {
    id: "brand-patch-website-rereads",
    description: "PATCH with a website the target cannot read starts a new read, which fails (ready → failed)",
    rules: [...brandRules, "brand-patch-website-rereads", "brand-reading-to-failed", "brand-terminal-stays"],
    group,
    needs: [...needs, "trigger:website-fails-read"],
    async run(ctx: CheckContext) {
      const id = await ctx.fixtures.readyBrandId(ctx, "rereadFails");
      const website = ctx.target.triggers.websiteFailsRead!;
      const res = await ctx.api.patch(pathOf("updateBrand", { brand_id: id }), { website });
      if (!expectSuccess(ctx, res, "updateBrand", 200, "brand-patch-website-rereads")) return;
      let last = res.body;
      if (last?.status !== "failed") {
        const followed = await followWhile(ctx, "brand", id, ["ready", "reading"], "re-reading a website that cannot be read");
        if (followed.broken) ctx.fail("brand-patch-website-rereads", `GET answered ${followed.broken.status} during the re-read`);
        last = followed.last;
        if (followed.timedOut) ctx.fail("brand-patch-website-rereads", `brand ${id} is still ${show(last?.status)} at the deadline: the new website was never read`);
      }
      ctx.expect(last?.status === "failed", "brand-patch-website-rereads", `brand ${id} settled as ${show(last?.status)}, expected failed after a new website that cannot be read`);
      const again = await lookAgain(ctx, "brand", id);
      ctx.expect(again.body?.status === "failed", "brand-terminal-stays", `brand ${id} was failed, then ${show(again.body?.status)}`);
    },
  },
];
