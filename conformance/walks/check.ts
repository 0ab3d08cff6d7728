// The `rest-walks` check: N seeded random walks of up to K steps over the REST API (steps.ts), each judged
// after every step by the model (rest-model.ts) and the scripted checks' assertions. A failing walk is cut to
// its first failing step and shrunk (shrink.ts) by replaying candidates against fresh resources, then replayed
// once more for the report: its failure carries that step's exchanges and curl line (the runner's evidence),
// the shrunk sequence, and two ways to run it again (a replay file, or the run's seed).
import type { Check, CheckContext } from "../check.js";
import { ExchangeLog, withExchangeLog } from "../evidence.js";
import { answerRulesOf, errorRulesOf } from "../expect.js";
import { collecting, runWalk, type WalkResult } from "./rest-walk.js";
import { replayText } from "./replay.js";
import { shrinkList } from "./shrink.js";
import { describeStep, planWalk, type Step } from "./steps.js";

import { restWalksId } from "../checks/rest/walks.js";

export { restWalksId };

export interface WalkOptions {
  /** How many walks (0: the check is skipped). */
  walks: number;
  /** Steps per walk, at most. */
  steps: number;
  /** The run's walk seed: walk i follows planWalk(seed, i, steps). */
  seed: string;
  /** One walk given step by step (`--replay FILE`) instead of the seeded ones. */
  replay?: Step[];
}

export { defaultWalks } from "./defaults.js";

/** Rules every walk judges (each starts by creating a brand). */
const always = [...answerRulesOf("Brand"), "create-brand-201", "brand-create-reading/status"];
/** Rules a walk judges when it comes to them: counted in the ledger when it did, never a skipped case when not. */
const reached = [
  ...answerRulesOf("IdeaBatch", { ideas: true }),
  ...answerRulesOf("Feedback"),
  ...answerRulesOf("Prediction"),
  ...errorRulesOf(403),
  ...errorRulesOf(404),
  ...errorRulesOf(409),
  "get-brand-200",
  "update-brand-200",
  "get-batch-200",
  "create-feedback-201",
  "create-prediction-200",
  "brand-readable-after-create",
  "batch-readable-after-create",
  "brand-create-website-or-name-description",
  "brand-create-reading",
  "brand-supplied-values-kept",
  "brand-archetype-set-rationale-null",
  "brand-without-website-null",
  "brand-terminal-stays",
  "brand-failed-stays",
  "brand-reading-to-ready/status",
  "brand-patch-partial",
  "brand-patch-lists-replaced",
  "brand-patch-website-kept",
  "ideas-accepted-202",
  "ideas-brand-not-ready-409",
  "batch-brand-matches-request",
  "batch-only-done-has-ideas",
  "batch-thinking-to-done/status",
  "batch-terminal-stays",
  "batch-failed-stays",
  "feedback-recorded",
  "feedback-outcome-recorded",
  "feedback-rejection-reason",
  "predictions-rank-drafts",
  "predictions-brand-echoed",
  "predictions-brand-not-ready-409",
  "unknown-id-404",
  "error-param-path-id",
  "error-param-names-field/idea",
  "team-isolation-403/getBrand",
  "team-isolation-403/updateBrand",
  "team-isolation-403/getIdeaBatch",
].filter((r) => !always.includes(r));

/** How to run a walk again: from a replay file, or the whole run from its seed. */
function replayLines(o: WalkOptions, steps: readonly Step[], from: string): string[] {
  const lines = [`replay: save ${replayText(steps, from)} as walk.json, then: ideas-contract conformance --only ${restWalksId} --replay walk.json`];
  if (!o.replay) lines.push(`or the whole run: ideas-contract conformance --only ${restWalksId} --walk-seed ${o.seed} --walks ${o.walks} --walk-steps ${o.steps}`);
  return lines;
}

/** Shrinks a failing walk, replays the result for the report, and records its failure in the check. */
async function report(ctx: CheckContext, o: WalkOptions, name: string, steps: readonly Step[], result: WalkResult): Promise<void> {
  const broken = new Set(result.failures.flatMap((f) => f.rules));
  const failsOnce = async (candidate: readonly Step[]) => {
    const r = await runWalk(collecting(ctx), candidate, `${name} (shrinking)`);
    return r.failures.some((f) => f.rules.some((x) => broken.has(x)));
  };
  // A cut is kept only when the rest fails twice, three times when it cuts a wait: a step cut out also takes its
  // time away, and a failure that needed that time (a read finishing meanwhile) would come and go.
  const waits = (steps: readonly Step[]) => steps.filter((s) => s.op === "wait").length;
  let kept: readonly Step[] = steps;
  const stillFails = async (candidate: Step[]) => {
    for (let i = waits(candidate) < waits(kept) ? 3 : 2; i > 0; i--) if (!(await failsOnce(candidate))) return false;
    kept = candidate;
    return true;
  };
  const prefix = steps.slice(0, result.failedAt! + 1);
  ctx.waiting(`shrinking ${name} (${prefix.length} steps)`);
  // Replays are cheap next to a failure nobody can read: a generous bound (a cut costs two or three).
  const shrunk = await shrinkList(prefix, stillFails, 150);
  ctx.waiting(null);
  const sequence = (failingAt: number | undefined) =>
    shrunk.map((s, i) => `  ${i === failingAt ? "→" : " "} ${i + 1}. ${describeStep(s)}`).join("\n");
  // The report's own replay: its cases and failures are the check's, with this replay's exchanges as evidence.
  let again = await runWalk(collecting(ctx), shrunk, name);
  for (let tries = 1; tries < 3 && !again.failures.some((f) => f.rules.some((x) => broken.has(x))); tries++) again = await runWalk(collecting(ctx), shrunk, name);
  for (const [rule, ok] of again.cases) if (ok) ctx.expect(true, rule, "");
  const head = `${name} failed at step ${result.failedAt! + 1} of ${steps.length}; shrunk to ${shrunk.length} step${shrunk.length === 1 ? "" : "s"}, each replayed against fresh resources`;
  const tail = replayLines(o, shrunk, name).join("\n");
  const reproduced = again.failures.filter((f) => f.rules.some((x) => broken.has(x)));
  if (reproduced.length) {
    reproduced.forEach((f, i) => ctx.expect(false, f.rules, i === 0 ? `${f.message}\n${head}:\n${sequence(again.failedAt)}\n${tail}` : `${f.message} (same walk)`));
    return;
  }
  // Timing can make a failure come and go; the walk's own failure is still the target's.
  result.failures.forEach((f, i) =>
    ctx.expect(false, f.rules, i === 0 ? `${f.message}\n${name} failed at step ${result.failedAt! + 1} of ${steps.length}; the shrunk sequence did not fail again when replayed (timing?):\n${sequence(undefined)}\n${replayLines(o, steps.slice(0, result.failedAt! + 1), name).join("\n")}` : `${f.message} (same walk)`),
  );
}

export function restWalksCheck(o: WalkOptions): Check {
  return {
    id: restWalksId,
    description: "Seeded random walks over brands, batches, feedback and predictions; every step's effects read back through every view (shrunk on failure)",
    rules: always,
    incidental: reached,
    group: "walks",
    needs: ["stateful"],
    async run(ctx: CheckContext) {
      const plans = o.replay ? [o.replay] : Array.from({ length: o.walks }, (_, i) => planWalk(o.seed, i, o.steps));
      if (!plans.length) ctx.skip("no walks asked for (--walks 0)");
      const names = plans.map((_, i) => (o.replay ? "the replayed walk" : `walk ${i + 1} of seed ${o.seed}`));
      // Each walk keeps its own exchanges, so a failure's evidence is its walk's, not a neighbour's.
      const results = await Promise.all(plans.map((steps, i) => withExchangeLog(new ExchangeLog(), () => runWalk(collecting(ctx), steps, names[i]!))));
      // Passing cases count in the ledger; a failing walk's are recorded by its report's replay.
      for (const r of results) if (r.failedAt === undefined) for (const [rule, ok] of r.cases) if (ok) ctx.expect(true, rule, "");
      const failing = results.flatMap((r, i) => (r.failedAt === undefined ? [] : [i]));
      ctx.note(
        `${plans.length} walk${plans.length === 1 ? "" : "s"} of up to ${o.replay ? o.replay.length : o.steps} steps${o.replay ? " (replayed from a file)" : `, walk seed ${o.seed}`}: ${plans.length - failing.length} passed${failing.length ? `, ${failing.length} failed` : ""}`,
      );
      // One report per rule broken: walks failing the same way would shrink to the same story.
      const told = new Set<string>();
      for (const i of failing) {
        const r = results[i]!;
        const key = [...new Set(r.failures.flatMap((f) => f.rules))].sort().join(",");
        if (told.has(key)) continue;
        told.add(key);
        await report(ctx, o, names[i]!, plans[i]!, r);
      }
    },
  };
}

/** The line a report prints about the run's walks: the seed that reproduces them. */
export const walksLine = (w: { seed: string; walks: number; steps: number; replay: boolean }): string =>
  w.replay
    ? `Stateful walks: one walk of ${w.steps} steps replayed from a file`
    : `Stateful walks: ${w.walks} of up to ${w.steps} steps, walk seed ${w.seed} (the same walks again: --walk-seed ${w.seed} --walks ${w.walks} --walk-steps ${w.steps})`;
