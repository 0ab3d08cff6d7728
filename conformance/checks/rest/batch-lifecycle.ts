// Batch lifecycle: accepted (202) thinking with nothing in it; thinking → done with ideas ranked 1..n, count and
// formats respected, sources and outlines within their limits, done_at set and not before created_at; or →
// failed with an error; terminal states stay exactly as they were.
import { isDeepStrictEqual } from "node:util";
import type { Check, CheckContext } from "../../check.js";
import { pathOf } from "../../contract.js";
import { expectSuccess } from "../../expect.js";
import type { Track } from "../../fixtures.js";
import { addDays } from "../../negative-inputs.js";
import { batchRules, dayOf } from "./common.js";

const group = "batch-lifecycle";
const needs = ["stateful"] as const;
const show = (v: unknown) => JSON.stringify(v);
const allFormats = ["image", "carousel", "video", "text"];

/** The batch's ideas once done; skips (or fails for `rule`) when the batch did not get there. */
async function doneIdeas(ctx: CheckContext, key: "main" | "plain"): Promise<{ track: Track; ideas: any[] }> {
  const track = await ctx.fixtures.doneBatch(ctx, key);
  const ideas = Array.isArray(track.last?.data) ? track.last.data : [];
  return { track, ideas };
}

function requireSettled(ctx: CheckContext, track: Track, want: "done" | "failed", rule: string): void {
  if (!track.created) ctx.skip(track.problem ?? "no batch was asked for");
  if (track.outcome === "timeout") ctx.fail(rule, `${track.problem}; expected ${want}`);
  if (track.outcome !== "settled") ctx.fail(rule, `batch ${track.id ?? "?"} could not be followed: ${track.problem}`);
  ctx.expect(track.last?.status === want, rule, `batch ${track.id} settled as ${show(track.last?.status)}, expected ${want}${track.last?.error ? ` (error: ${track.last.error})` : ""}`);
}

/** While thinking: only thinking before the end, and nothing in data, left_out, error or done_at. */
function expectThinkingEmpty(ctx: CheckContext, track: Track): void {
  for (const res of track.history.slice(0, -1)) {
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

const terminalStays = (key: "main" | "fails", want: "done" | "failed"): Check => ({
  id: `batch-${want}-stays-${want}`,
  description: `A ${want} batch is exactly the same when looked at again`,
  rules: [...batchRules, "batch-terminal-stays"],
  group,
  needs: key === "fails" ? [...needs, "trigger:focus-fails-batch"] : needs,
  async run(ctx: CheckContext) {
    const track = await ctx.fixtures.batch(key);
    if (track.last?.status !== want || !track.again) ctx.skip(`needs a ${want} batch: ${track.problem ?? `it is ${track.last?.status}`}`);
    if (!expectSuccess(ctx, track.again, "getIdeaBatch", 200, "batch-terminal-stays")) return;
    ctx.expect(
      isDeepStrictEqual(track.again.body, track.last),
      "batch-terminal-stays",
      `${want} batch ${track.id} changed: status ${show(track.last?.status)} → ${show(track.again.body?.status)}${isDeepStrictEqual(track.again.body?.data, track.last?.data) ? "" : ", data changed"}`,
    );
  },
});

export const batchLifecycleChecks: Check[] = [
  {
    id: "ideas-accepted-thinking",
    description: "POST /v1/ideas answers 202 with a batch thinking: data and left_out empty, error and done_at null",
    rules: [...batchRules, "ideas-accepted-202", "batch-only-done-has-ideas"],
    group,
    async run(ctx: CheckContext) {
      const { stateful } = await ctx.fixtures.statefulness();
      ctx.fixtures.startBatches("main", "plain");
      for (const key of ["main", "plain"] as const) {
        const track = await ctx.fixtures.batch(key);
        if (!track.created) ctx.skip(track.problem ?? "no batch was asked for");
        if (!expectSuccess(ctx, track.created, "createIdeas", 202, "ideas-accepted-202")) continue;
        const b = track.created.body;
        ctx.expect(b.status === "thinking", "ideas-accepted-202", `status is ${show(b.status)}, expected thinking`);
        ctx.expect(isDeepStrictEqual(b.data, []) && isDeepStrictEqual(b.left_out, []), "batch-only-done-has-ideas", `a new batch holds data ${show(b.data)} and left_out ${show(b.left_out)}, expected both empty`);
        ctx.expect(b.error === null && b.done_at === null, "ideas-accepted-202", `a new batch has error ${show(b.error)} and done_at ${show(b.done_at)}, expected null`);
        if (stateful) ctx.expect(b.brand === track.request.brand, "ideas-accepted-202", `brand is ${show(b.brand)}, expected ${show(track.request.brand)}`);
      }
    },
  },
  {
    id: "batch-thinking-to-done",
    description: "A batch's work completes: thinking → done with ideas and no error",
    rules: [...batchRules, "batch-thinking-to-done", "batch-only-done-has-ideas"],
    group,
    needs,
    async run(ctx: CheckContext) {
      ctx.fixtures.startBatches("main", "plain");
      for (const key of ["main", "plain"] as const) {
        const track = await ctx.fixtures.batch(key);
        requireSettled(ctx, track, "done", "batch-thinking-to-done");
        expectThinkingEmpty(ctx, track);
        for (const res of track.history) expectSuccess(ctx, res, "getIdeaBatch", 200, "batch-thinking-to-done");
        const b = track.last;
        if (b?.status !== "done") continue;
        ctx.expect(Array.isArray(b.data) && b.data.length > 0, "batch-thinking-to-done", `done batch ${b.id} holds no ideas`);
        ctx.expect(b.error === null, "batch-thinking-to-done", `done batch ${b.id} has error ${show(b.error)}, expected null`);
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
    rules: ["batch-count-respected"],
    group,
    needs,
    async run(ctx: CheckContext) {
      ctx.fixtures.startBatches("main", "plain");
      for (const key of ["main", "plain"] as const) {
        const { track, ideas } = await doneIdeas(ctx, key);
        const count = (track.request.count as number | undefined) ?? 3;
        const leftOut = Array.isArray(track.last?.left_out) ? track.last.left_out.length : 0;
        ctx.expect(ideas.length <= count, "batch-count-respected", `batch ${track.id}: ${ideas.length} ideas for count ${count}${track.request.count ? "" : " (the default)"}`);
        ctx.expect(
          ideas.length + leftOut >= count,
          "batch-count-respected",
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
        const asked = (track.request.formats as string[] | undefined) ?? allFormats;
        const wrong = ideas.filter((i) => !asked.includes(i?.format)).map((i) => `rank ${i?.rank}: ${show(i?.format)}`);
        ctx.expect(wrong.length === 0, "batch-formats-respected", `batch ${track.id}: formats not asked for (${asked.join(", ")}): ${wrong.join("; ")}`);
      }
    },
  },
  {
    id: "idea-sources",
    description: "Every idea cites one to four sources with type, title, url and quote, at least one quoting words",
    rules: ["idea-sources-limit"],
    group,
    needs,
    async run(ctx: CheckContext) {
      ctx.fixtures.startBatches("main", "plain");
      for (const key of ["main", "plain"] as const) {
        const { track, ideas } = await doneIdeas(ctx, key);
        for (const idea of ideas) {
          const where = `batch ${track.id} idea rank ${idea?.rank}`;
          const sources = Array.isArray(idea?.sources) ? idea.sources : [];
          ctx.expect(sources.length >= 1 && sources.length <= 4, "idea-sources-limit", `${where}: ${sources.length} sources, expected one to four`);
          sources.forEach((s: any, i: number) =>
            ctx.expect(
              s && ["type", "title", "url", "quote"].every((k) => k in s),
              "idea-sources-limit",
              `${where}: source ${i} lacks ${["type", "title", "url", "quote"].filter((k) => !(s && k in s)).join(", ")}`,
            ),
          );
          ctx.expect(
            sources.some((s: any) => typeof s?.quote === "string" && s.quote.trim() !== ""),
            "idea-sources-limit",
            `${where}: no source quotes the words the idea relies on`,
          );
        }
      }
    },
  },
  {
    id: "idea-outline",
    description: "Every idea's outline has an opening, one to five key points, a call to action and a visual",
    rules: ["idea-outline-key-points"],
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
          ctx.expect(points >= 1 && points <= 5, "idea-outline-key-points", `${where}: ${points < 0 ? "no key_points" : `${points} key points`}, expected one to five`);
          for (const f of ["opening", "call_to_action", "visual"])
            ctx.expect(typeof o?.[f] === "string" && o[f].trim() !== "", "idea-outline-key-points", `${where}: outline.${f} is ${show(o?.[f])}`);
        }
      }
    },
  },
  {
    id: "batch-done-at",
    description: "A done batch has done_at set, not before created_at",
    rules: ["batch-done-at-after-created", "iso-8601-times"],
    group,
    needs,
    async run(ctx: CheckContext) {
      ctx.fixtures.startBatches("main", "plain");
      for (const key of ["main", "plain"] as const) {
        const { track } = await doneIdeas(ctx, key);
        const b = track.last;
        if (!ctx.expect(typeof b?.done_at === "string", "batch-done-at-after-created", `done batch ${b?.id}: done_at is ${show(b?.done_at)}, expected a time`)) continue;
        const done = Date.parse(b.done_at);
        const created = Date.parse(b.created_at);
        ctx.expect(!Number.isNaN(done), "iso-8601-times", `done batch ${b.id}: done_at ${show(b.done_at)} is not a time`);
        ctx.expect(done >= created, "batch-done-at-after-created", `done batch ${b.id}: done_at ${b.done_at} is before created_at ${b.created_at}`);
      }
    },
  },
  {
    id: "focus-cited-as-source",
    description: "With a focus, ideas built on it cite a focus source quoting it exactly; without one, none does",
    rules: ["focus-cited-as-source"],
    group,
    needs,
    async run(ctx: CheckContext) {
      ctx.fixtures.startBatches("main", "plain");
      const main = await doneIdeas(ctx, "main");
      const focus = String(main.track.request.focus);
      const cited = main.ideas.flatMap((i) => (Array.isArray(i?.sources) ? i.sources : [])).filter((s: any) => s?.type === "focus");
      ctx.expect(cited.length > 0, "focus-cited-as-source", `batch ${main.track.id} was asked with a focus, but no idea cites a source of type focus`);
      for (const s of cited)
        ctx.expect(typeof s.quote !== "string" || focus.includes(s.quote), "focus-cited-as-source", `batch ${main.track.id}: a focus source quotes ${show(s.quote)}, which is not in the focus ${show(focus)}`);
      const plain = await doneIdeas(ctx, "plain");
      const stray = plain.ideas.filter((i) => (Array.isArray(i?.sources) ? i.sources : []).some((s: any) => s?.type === "focus"));
      ctx.expect(stray.length === 0, "focus-cited-as-source", `batch ${plain.track.id} was asked without a focus, yet ideas ${stray.map((i) => i?.rank).join(", ")} cite a focus source`);
    },
  },
  terminalStays("main", "done"),
  {
    id: "batch-thinking-to-failed",
    description: "A batch whose work fails goes thinking → failed with an error and no ideas",
    rules: [...batchRules, "batch-thinking-to-failed", "batch-only-done-has-ideas"],
    group,
    needs: [...needs, "trigger:focus-fails-batch"],
    async run(ctx: CheckContext) {
      const track = await ctx.fixtures.batch("fails");
      if (track.created) expectSuccess(ctx, track.created, "createIdeas", 202, "batch-thinking-to-failed");
      requireSettled(ctx, track, "failed", "batch-thinking-to-failed");
      expectThinkingEmpty(ctx, track);
      for (const res of track.history) expectSuccess(ctx, res, "getIdeaBatch", 200, "batch-thinking-to-failed");
      const b = track.last;
      if (b?.status !== "failed") return;
      ctx.expect(typeof b.error === "string" && b.error.trim() !== "", "batch-thinking-to-failed", `failed batch ${b.id}: error is ${show(b.error)}, expected why`);
      ctx.expect(isDeepStrictEqual(b.data, []), "batch-only-done-has-ideas", `failed batch ${b.id} holds ideas: ${show(b.data).slice(0, 200)}`);
    },
  },
  terminalStays("fails", "failed"),
  {
    id: "ideas-date-within-horizon",
    description: "POST /v1/ideas with a date 44 days ahead is accepted (202)",
    rules: [...batchRules, "limit-date-horizon", "ideas-accepted-202"],
    group,
    needs,
    async run(ctx: CheckContext) {
      const brand = await ctx.fixtures.readyBrandId(ctx);
      const main = await ctx.fixtures.brand("main");
      const today = dayOf(main.history.at(-1)?.body?.created_at) ?? new Date().toISOString().slice(0, 10);
      const res = await ctx.api.post(pathOf("createIdeas"), { brand, count: 1, date: addDays(today, 44) });
      expectSuccess(ctx, res, "createIdeas", 202, "limit-date-horizon");
    },
  },
];
