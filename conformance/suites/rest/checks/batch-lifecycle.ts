// Batch lifecycle: accepted (202) thinking with nothing in it; thinking → done with ideas ranked 1..n, count and
// formats respected, sources and outlines within their limits, done_at set and not before created_at; or →
// failed with an error; terminal states stay exactly as they were.
import type { RuleId } from "../../../../generated/rules.js";
import { isDeepStrictEqual } from "node:util";
import type { CheckContext, RestCheck } from "../check.js";
import { isIsoDateTime, openapi, pathOf } from "../contract.js";
import { expectSuccess } from "../expect.js";
import type { Track } from "../fixtures.js";
import { documented } from "../kept.js";
import { addDays } from "../negative-inputs.js";
import type { Answered } from "../../../core/answered.js";
import type { Idea } from "../../../../generated/rest/types.js";
import { batchRules, brandRules, dayOf, doneBatchRules, lookAgain, predictionRules } from "./common.js";

const group = "batch-lifecycle";
const needs = ["stateful"] as const;
const show = (v: unknown) => JSON.stringify(v);
const allFormats = ["image", "carousel", "video", "text"];

/** The batch's ideas once done; skips (or fails for `rule`) when the batch did not get there. */
async function doneIdeas(ctx: CheckContext, key: "main" | "plain"): Promise<{ track: Track; ideas: Answered<Idea>[] }> {
  const track = await ctx.fixtures.doneBatch(ctx, key);
  const ideas = Array.isArray(track.last?.data) ? track.last.data : [];
  return { track, ideas };
}

async function requireSettled(ctx: CheckContext, track: Track, want: "done" | "failed", rule: RuleId): Promise<void> {
  if (!track.created) await ctx.fixtures.missing(ctx, track, `a batch that was created`);
  if (track.outcome === "timeout") ctx.fail(rule, `${track.problem}; expected ${want}`);
  if (track.outcome !== "settled") ctx.fail(rule, `batch ${track.id ?? "?"} could not be followed: ${track.problem}`);
  ctx.expect(track.last?.status === want, rule, `batch ${track.id} settled as ${show(track.last?.status)}, expected ${want}${track.last?.error ? ` (error: ${track.last.error})` : ""}`);
}

/**
 * While thinking: only thinking before the end, and nothing in data or done_at. The create answer counts too, so
 * a batch done by its first poll is still judged.
 */
function expectThinkingEmpty(ctx: CheckContext, track: Track): void {
  for (const res of [...(track.created ? [track.created] : []), ...track.history.slice(0, -1)]) {
    const b = res.body;
    ctx.expect(b?.status === "thinking", "batch-only-done-has-ideas", `batch ${track.id} went through ${show(b?.status)} before ${track.last?.status}; only thinking comes first`);
    if (b?.status === "thinking")
      ctx.expect(
        isDeepStrictEqual(b.data, []) && b.done_at === null,
        "batch-only-done-has-ideas",
        `batch ${track.id} while thinking: data ${show(b.data)}, done_at ${show(b.done_at)}; expected [] and null`,
      );
  }
}

// Check ids are literal so that an id seen in a report can be found with grep.
const terminalStays = (id: string, key: "main" | "fails", want: "done" | "failed", rule: RuleId): RestCheck => ({
  id,
  description: `A ${want} batch is still ${want}, its documented fields the same, when looked at again`,
  rules: [...(want === "done" ? doneBatchRules : batchRules), rule, "batch-terminal-unchanged"],
  group,
  needs,
  async run(ctx: CheckContext) {
    const track = await (key === "fails" ? ctx.fixtures.failingBatch(ctx.slot("rest.triggers.focus_fails_batch")) : ctx.fixtures.batch(key));
    if (track.last?.status !== want || !track.again) return ctx.fixtures.missing(ctx, track, `a ${want} batch`);
    if (!expectSuccess(ctx, track.again, "getIdeaBatch", 200, rule, { ideas: want === "done" })) return;
    // Two more looks, an interval apart: a terminal state stays over several reads.
    const later = await lookAgain(ctx, "batch", track.id!);
    // The status is the seed's terminal state; the other documented fields staying put is our reading, and a
    // field the contract does not list may appear later (Conventions 5).
    const first = documented("IdeaBatch", track.last) as Record<string, unknown>;
    for (const [when, res] of [["second", track.again], ["third", later]] as const) {
      ctx.expect(res.body?.status === want, rule, `${want} batch ${track.id} by the ${when} look: status ${show(track.last?.status)} → ${show(res.body?.status)}`);
      const now = documented("IdeaBatch", res.body) as Record<string, unknown>;
      const changed = Object.keys({ ...first, ...now }).filter((f) => f !== "status" && !isDeepStrictEqual(first[f], now?.[f]));
      ctx.expect(changed.length === 0, "batch-terminal-unchanged", `${want} batch ${track.id} by the ${when} look: ${changed.join(", ")} changed`);
    }
  },
});

export const batchLifecycleChecks: RestCheck[] = [
  {
    id: "ideas-accepted-thinking",
    description: "POST /v1/ideas answers 202 with a batch thinking: data and left_out empty, error and done_at null",
    rules: [...batchRules, "ideas-accepted-202"],
    group,
    async run(ctx: CheckContext) {
      ctx.fixtures.startBatches("main", "plain");
      const member = (m: string): RuleId => `ideas-accepted-202/${m}`;
      for (const key of ["main", "plain"] as const) {
        const track = await ctx.fixtures.batch(key);
        if (!track.created) return ctx.fixtures.missing(ctx, track, "a batch asked for");
        if (!expectSuccess(ctx, track.created, "createIdeas", 202, member("status-202"))) continue;
        const b = track.created.body;
        ctx.expect(b.status === "thinking", member("thinking"), `status is ${show(b.status)}, expected thinking`);
        ctx.expect(isDeepStrictEqual(b.data, []), member("data-empty"), `a new batch holds data ${show(b.data)}, expected []`);
        ctx.expect(isDeepStrictEqual(b.left_out, []), member("left-out-empty"), `a new batch holds left_out ${show(b.left_out)}, expected []`);
        ctx.expect(b.error === null, member("error-null"), `a new batch has error ${show(b.error)}, expected null`);
        ctx.expect(b.done_at === null, member("done-at-null"), `a new batch has done_at ${show(b.done_at)}, expected null`);
      }
    },
  },
  {
    id: "batch-thinking-to-done",
    description: "A batch's work completes: thinking → done with ideas and no error",
    rules: [...doneBatchRules, "get-batch-200", "batch-thinking-to-done", "batch-only-done-has-ideas", "batch-error-null-unless-failed", "batch-brand-matches-request", "batch-readable-after-create"],
    group,
    needs,
    async run(ctx: CheckContext) {
      ctx.fixtures.startBatches("main", "plain");
      for (const key of ["main", "plain"] as const) {
        const track = await ctx.fixtures.batch(key);
        await requireSettled(ctx, track, "done", "batch-thinking-to-done/status");
        expectThinkingEmpty(ctx, track);
        for (const res of track.history) {
          expectSuccess(ctx, res, "getIdeaBatch", 200, "get-batch-200", { ideas: true });
          ctx.expect(res.body?.error === null || res.body?.status === "failed", "batch-error-null-unless-failed", `batch ${track.id} is ${show(res.body?.status)} with error ${show(res.body?.error)}, expected null`);
          ctx.expect(res.body?.brand === track.request.brand, "batch-brand-matches-request", `batch ${track.id}: brand is ${show(res.body?.brand)}, expected ${show(track.request.brand)}`);
          ctx.expect(res.body?.id === track.id, "batch-readable-after-create", `GET of batch ${track.id} answered batch ${show(res.body?.id)}`);
        }
        const b = track.last;
        if (b?.status !== "done") continue;
        ctx.expect(Array.isArray(b.data) && b.data.length > 0, "batch-thinking-to-done/data", `done batch ${b.id} holds no ideas`);
        ctx.expect(isIsoDateTime(b.done_at), "batch-thinking-to-done/done_at", `done batch ${b.id}: done_at is ${show(b.done_at)}, expected the time it was done`);
      }
    },
  },
  {
    id: "batch-ranks-ordered",
    description: "A done batch's ideas are ranked 1, 2, … n in the order given",
    rules: ["batch-ranks-ordered"],
    group,
    needs,
    async run(ctx: CheckContext) {
      ctx.fixtures.startBatches("main", "plain");
      for (const key of ["main", "plain"] as const) {
        const { track, ideas } = await doneIdeas(ctx, key);
        const ranks = ideas.map((i) => i?.rank);
        ctx.expect(isDeepStrictEqual(ranks, ideas.map((_, i) => i + 1)), "batch-ranks-ordered", `batch ${track.id}: ranks ${show(ranks)}, expected 1..${ideas.length} in order`);
      }
    },
  },
  {
    id: "batch-count-respected",
    description: "A done batch holds at most count ideas (3 by default), the rest listed in left_out",
    rules: ["batch-count-respected", "batch-shortfall-in-left-out"],
    group,
    needs,
    async run(ctx: CheckContext) {
      ctx.fixtures.startBatches("main", "plain");
      for (const key of ["main", "plain"] as const) {
        const { track, ideas } = await doneIdeas(ctx, key);
        const count = (track.request.count as number | undefined) ?? 3;
        const leftOut = Array.isArray(track.last?.left_out) ? track.last.left_out.length : 0;
        const rule = track.request.count === undefined ? "batch-count-respected/default" : "batch-count-respected/given";
        ctx.expect(ideas.length <= count, rule, `batch ${track.id}: ${ideas.length} ideas for count ${count}${track.request.count ? "" : " (the default)"}`);
        ctx.expect(
          ideas.length + leftOut >= count,
          "batch-shortfall-in-left-out",
          `batch ${track.id}: ${ideas.length} ideas and ${leftOut} left out for count ${count}; the ideas not made must be listed in left_out`,
        );
      }
    },
  },
  {
    id: "batch-formats-respected",
    description: "Every idea's format is one of those asked for (any of the four when none are named)",
    rules: ["batch-formats-respected"],
    group,
    needs,
    async run(ctx: CheckContext) {
      ctx.fixtures.startBatches("main", "plain");
      for (const key of ["main", "plain"] as const) {
        const { track, ideas } = await doneIdeas(ctx, key);
        const asked: readonly unknown[] = (track.request.formats as string[] | undefined) ?? allFormats;
        const wrong = ideas.filter((i) => !asked.includes(i?.format)).map((i) => `rank ${i?.rank}: ${show(i?.format)}`);
        ctx.expect(wrong.length === 0, "batch-formats-respected", `batch ${track.id}: formats not asked for (${asked.join(", ")}): ${wrong.join("; ")}`);
      }
    },
  },
  {
    id: "idea-sources",
    description: "Every idea cites one to four sources with type, title, url and quote, at least one quoting words",
    rules: ["idea-sources-limit", "idea-source-quotes", "source-fields-complete"],
    group,
    needs,
    async run(ctx: CheckContext) {
      ctx.fixtures.startBatches("main", "plain");
      for (const key of ["main", "plain"] as const) {
        const { track, ideas } = await doneIdeas(ctx, key);
        for (const idea of ideas) {
          const where = `batch ${track.id} idea rank ${idea?.rank}`;
          const sources = Array.isArray(idea?.sources) ? idea.sources : [];
          ctx.expect(sources.length >= 1, "idea-sources-limit/min", `${where}: no sources, expected at least one`);
          ctx.expect(sources.length <= 4, "idea-sources-limit/max", `${where}: ${sources.length} sources, expected up to four`);
          for (const k of ["type", "title", "url", "quote"]) {
            const lacking = sources.map((s, i) => (s && typeof s === "object" && k in s ? -1 : i)).filter((i) => i >= 0);
            if (sources.length) ctx.expect(lacking.length === 0, `source-fields-complete/${k}`, `${where}: sources ${lacking.join(", ")} lack ${k}`);
          }
          ctx.expect(
            sources.some((s) => typeof s?.quote === "string" && s.quote.trim() !== ""),
            "idea-source-quotes",
            `${where}: no source quotes the words the idea relies on`,
          );
        }
      }
    },
  },
  {
    id: "idea-outline",
    description: "Every idea's outline has an opening, one to five key points, a call to action and a visual",
    rules: ["idea-outline-key-points", "outline-fields-complete"],
    group,
    needs,
    async run(ctx: CheckContext) {
      ctx.fixtures.startBatches("main", "plain");
      for (const key of ["main", "plain"] as const) {
        const { track, ideas } = await doneIdeas(ctx, key);
        for (const idea of ideas) {
          const o = idea?.outline;
          const where = `batch ${track.id} idea rank ${idea?.rank}`;
          const points = Array.isArray(o?.key_points) ? o.key_points.length : -1;
          ctx.expect(points >= 1, "idea-outline-key-points/min", `${where}: ${points < 0 ? "no key_points" : `${points} key points`}, expected at least one`);
          ctx.expect(points <= 5, "idea-outline-key-points/max", `${where}: ${points} key points, expected up to five`);
          ctx.expect(points >= 0, "outline-fields-complete/key_points", `${where}: outline.key_points is ${show(o?.key_points)}`);
          for (const f of ["opening", "call_to_action", "visual"] as const)
            ctx.expect(typeof o?.[f] === "string" && o[f].trim() !== "", `outline-fields-complete/${f}`, `${where}: outline.${f} is ${show(o?.[f])}`);
        }
      }
    },
  },
  {
    id: "batch-done-at",
    description: "A done batch has done_at set, not before created_at",
    rules: ["batch-done-at-after-created", "iso-8601-times/done_at", "batch-created-after-brand"],
    group,
    needs,
    async run(ctx: CheckContext) {
      ctx.fixtures.startBatches("main", "plain");
      for (const key of ["main", "plain"] as const) {
        const { track } = await doneIdeas(ctx, key);
        const b = track.last;
        if (!ctx.expect(typeof b?.done_at === "string", "batch-done-at-after-created", `done batch ${b?.id}: done_at is ${show(b?.done_at)}, expected a time`) || typeof b?.done_at !== "string") continue;
        const done = Date.parse(b.done_at);
        const created = Date.parse(String(b.created_at));
        ctx.expect(isIsoDateTime(b.done_at), "iso-8601-times/done_at", `done batch ${b.id}: done_at ${show(b.done_at)} is not an ISO 8601 date-time`);
        ctx.expect(done >= created, "batch-done-at-after-created", `done batch ${b.id}: done_at ${b.done_at} is before created_at ${b.created_at}`);
        const brand = await ctx.fixtures.brand("main");
        const brandCreated = Date.parse(brand.created?.body?.created_at);
        if (!Number.isNaN(brandCreated))
          ctx.expect(created >= brandCreated, "batch-created-after-brand", `batch ${b.id} created_at ${b.created_at} is before its brand's ${brand.created?.body?.created_at}`);
      }
    },
  },
  {
    id: "focus-cited-as-source",
    description: "With a focus, ideas built on it cite a focus source quoting it exactly; without one, none does",
    rules: ["focus-cited-as-source", "focus-quote-exact", "focus-not-cited-without-focus"],
    group,
    needs,
    async run(ctx: CheckContext) {
      ctx.fixtures.startBatches("main", "plain");
      const main = await doneIdeas(ctx, "main");
      const focus = String(main.track.request.focus);
      const cited = main.ideas.flatMap((i) => (Array.isArray(i?.sources) ? i.sources : [])).filter((s) => s?.type === "focus");
      ctx.expect(cited.length > 0, "focus-cited-as-source", `batch ${main.track.id} was asked with a focus, but no idea cites a source of type focus`);
      for (const s of cited)
        ctx.expect(typeof s.quote !== "string" || focus.includes(s.quote), "focus-quote-exact", `batch ${main.track.id}: a focus source quotes ${show(s.quote)}, which is not in the focus ${show(focus)}`);
      const plain = await doneIdeas(ctx, "plain");
      const stray = plain.ideas.filter((i) => (Array.isArray(i?.sources) ? i.sources : []).some((s) => s?.type === "focus"));
      ctx.expect(stray.length === 0, "focus-not-cited-without-focus", `batch ${plain.track.id} was asked without a focus, yet ideas ${stray.map((i) => i?.rank).join(", ")} cite a focus source`);
    },
  },
  terminalStays("batch-done-stays-done", "main", "done", "batch-terminal-stays"),
  {
    id: "batch-thinking-to-failed",
    description: "A batch whose work fails goes thinking → failed with an error and no ideas",
    rules: [...batchRules, "ideas-accepted-202/status-202", "get-batch-200", "batch-thinking-to-failed", "batch-only-done-has-ideas", "batch-failed-no-ideas"],
    group,
    needs,
    async run(ctx: CheckContext) {
      const track = await ctx.fixtures.failingBatch(ctx.slot("rest.triggers.focus_fails_batch"));
      if (track.created) expectSuccess(ctx, track.created, "createIdeas", 202, "ideas-accepted-202/status-202");
      await requireSettled(ctx, track, "failed", "batch-thinking-to-failed/status");
      expectThinkingEmpty(ctx, track);
      for (const res of track.history) expectSuccess(ctx, res, "getIdeaBatch", 200, "get-batch-200");
      const b = track.last;
      if (b?.status !== "failed") return;
      ctx.expect(typeof b.error === "string" && b.error.trim() !== "", "batch-thinking-to-failed/error", `failed batch ${b.id}: error is ${show(b.error)}, expected why`);
      ctx.expect(isDeepStrictEqual(b.data, []), "batch-failed-no-ideas", `failed batch ${b.id} holds ideas: ${show(b.data).slice(0, 200)}`);
    },
  },
  terminalStays("batch-failed-stays-failed", "fails", "failed", "batch-failed-stays"),
  {
    id: "ideas-each-format-accepted",
    description: "POST /v1/ideas asking for each of the four formats alone is accepted (202)",
    rules: [...batchRules, "formats-accepted"],
    group,
    needs,
    async run(ctx: CheckContext) {
      const brand = await ctx.fixtures.readyBrandId(ctx);
      for (const format of openapi.components.schemas.IdeaFormat!.enum as string[]) {
        const res = await ctx.api.post(pathOf("createIdeas"), { brand, count: 1, formats: [format] });
        expectSuccess(ctx, res, "createIdeas", 202, `formats-accepted/${format}`);
      }
    },
  },
  {
    id: "ideas-date-within-horizon",
    description: "POST /v1/ideas with a date 45 days ahead, the horizon itself, is accepted (202)",
    rules: [...batchRules, "limit-date-horizon"],
    group,
    needs,
    async run(ctx: CheckContext) {
      const brand = await ctx.fixtures.readyBrandId(ctx);
      const main = await ctx.fixtures.brand("main");
      const today = dayOf(main.history.at(-1)?.body?.created_at) ?? new Date().toISOString().slice(0, 10);
      // The target's today comes from its own clock, which can only have moved on since: 45 days from it is at
      // most 45 days from the target's today when the request arrives.
      const res = await ctx.api.post(pathOf("createIdeas"), { brand, count: 1, date: addDays(today, 45) });
      expectSuccess(ctx, res, "createIdeas", 202, "limit-date-horizon");
    },
  },
];
