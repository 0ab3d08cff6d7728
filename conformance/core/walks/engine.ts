// What every protocol's walks share: a walk's steps are planned from a seed (a kind's `plan`), run one by one
// with the expectations collected (a kind's `walker`), stopped at the first step that fails something, shrunk by
// replaying candidates against fresh resources (shrink.ts), and reported with the shrunk sequence, that step's
// exchanges and curl line (the runner's evidence), and two ways to run it again (a replay file, or the seed).
// The REST walks (suites/rest/walks/walk.ts) and the MCP walks (suites/mcp/walks/walk.ts) are two kinds of the same engine.
import { extendContext, type RunContext } from "../check.js";
import { currentExchangeLog, ExchangeLog, withExchangeLog, type Exchange } from "../evidence.js";
import { ruleList, type RuleRef } from "../judge.js";
import { replayText } from "./replay-file.js";
import { shrinkList } from "./shrink.js";

/** A failure a walk saw. */
export interface WalkFailure {
  rules: string[];
  message: string;
  /** The latest exchanges of the walk when it was seen (each walk runs in an exchange log of its own). */
  evidence?: Exchange[];
}

export interface WalkResult {
  /** The step (0-based) that failed, when one did. */
  failedAt?: number;
  /** The failures of that step. */
  failures: WalkFailure[];
  /** Rule → whether every case of it passed (cases up to and including the failing step). */
  cases: Map<string, boolean>;
  /** Steps left out because what they name was not made (cut by shrinking) or the target lacks what they need. */
  skipped: number;
}

/** What a walk's expectations are collected in: the cases and failures, on top of the check's own context. */
export interface Collected {
  failures: WalkFailure[];
  cases: Map<string, boolean>;
}
export type Collecting<C extends RunContext> = C & Collected;

/**
 * A context whose expectations are collected instead of recorded in the check: walks and their shrinking
 * replays are judged here, and only what the report needs reaches the check (the engine decides). Everything
 * else (the target, its API, the MCP session) is the check's own.
 */
export function collecting<C extends RunContext>(base: C): Collecting<C> {
  const failures: WalkFailure[] = [];
  const cases = new Map<string, boolean>();
  const own = {
    failures,
    cases,
    expect(ok: boolean, r: RuleRef, message: string) {
      for (const id of ruleList(r)) cases.set(id, ok && cases.get(id) !== false);
      if (!ok) failures.push({ rules: ruleList(r), message, evidence: currentExchangeLog()?.latest() ?? [] });
      return ok;
    },
    fail(r: RuleRef, message: string): never {
      own.expect(false, r, message);
      throw new Error(message);
    },
    get failed() {
      return failures.length > 0;
    },
  };
  return extendContext(base, own) as unknown as Collecting<C>;
}

/** One walk being run: its steps one at a time, then `close` (what the walk made is cleaned up, failing or not). */
export interface Walker<S> {
  /** Runs one step; false when it was left out (what it names does not exist in this walk, or cannot be done here). */
  step(step: S, where: string): Promise<boolean>;
  close?(): Promise<void>;
}

/** A protocol's walks, run with its checks' context `C`. */
export interface WalkKind<S, C extends RunContext> {
  /** The check that runs them. */
  checkId: string;
  /** The replay file format (replay.ts). */
  format: string;
  /** The steps of walk `walk` of a run seeded `seed`: a pure function of them (and of what the target allows). */
  plan(seed: string, walk: number, length: number, ctx: C): S[];
  /** What walk `walk` (0-based) of a run dwells on (focus.ts): named in the run's note and in a failing walk's report. */
  focus?(walk: number, ctx: C): string | undefined;
  describe(step: S): string;
  /** Whether the step waits for the target's background work to end. */
  waits(step: S): boolean;
  /** Whether the step starts background work (a wait after it then matters, see report()). */
  startsWork(step: S): boolean;
  walker(ctx: Collecting<C>): Walker<S>;
  /** How many walks may run at once: the run's --concurrency (the target file's), so N walks do not flood a target. */
  concurrency(ctx: C): number;
  /** Runs a walk inside what judges its replies as they come back (REST: every reply by the rules of its operation). */
  judging?(ctx: Collecting<C>, run: () => Promise<WalkResult>): Promise<WalkResult>;
}

export interface WalkOptions<S = unknown> {
  /** How many walks (0: the check is skipped). */
  walks: number;
  /** Steps per walk, at most. */
  steps: number;
  /** The run's walk seed: walk i follows kind.plan(seed, i, steps). */
  seed: string;
  /** One walk given step by step (`--replay FILE`) instead of the seeded ones. */
  replay?: S[] | undefined;
  /** Why the check runs no walk (a replay file of the other protocol). */
  skip?: string;
}

/** Runs `steps` with expectations collected on `ctx`; stops after the first step that failed something. */
export function runWalk<S, C extends RunContext>(kind: WalkKind<S, C>, ctx: Collecting<C>, steps: readonly S[], name: string): Promise<WalkResult> {
  const run = () => walkSteps(kind, ctx, steps, name);
  return kind.judging ? kind.judging(ctx, run) : run();
}

async function walkSteps<S, C extends RunContext>(kind: WalkKind<S, C>, ctx: Collecting<C>, steps: readonly S[], name: string): Promise<WalkResult> {
  const walker = kind.walker(ctx);
  let skipped = 0;
  try {
    for (const [i, step] of steps.entries()) {
      const before = ctx.failures.length;
      if (!(await walker.step(step, `${name} step ${i + 1} (${kind.describe(step)})`))) skipped++;
      if (ctx.failures.length > before) return { failedAt: i, failures: ctx.failures.slice(before), cases: ctx.cases, skipped };
    }
    return { failures: [], cases: ctx.cases, skipped };
  } finally {
    await walker.close?.();
  }
}

/** How to run a walk again: from a replay file, or the whole run from its seed. */
function replayLines<S, C extends RunContext>(kind: WalkKind<S, C>, o: WalkOptions<S>, steps: readonly S[], from: string): string[] {
  const lines = [`replay: save ${replayText(kind.format, steps, from)} as walk.json, then: ideas-contract conformance --only ${kind.checkId} --replay walk.json`];
  if (!o.replay) lines.push(`or the whole run: ideas-contract conformance --only ${kind.checkId} --walk-seed ${o.seed} --walks ${o.walks} --walk-steps ${o.steps}`);
  return lines;
}

/** "shrunk to N steps": the phrase the report uses, which tests read back. */
export const shrunkPhrase = (n: number) => `shrunk to ${n} step${n === 1 ? "" : "s"}`;

/** Shrinks a failing walk, replays the result for the report, and records its failure in the check. */
async function report<S, C extends RunContext>(kind: WalkKind<S, C>, ctx: C, o: WalkOptions<S>, walkNumber: number, name: string, steps: readonly S[], result: WalkResult): Promise<void> {
  const broken = new Set(result.failures.flatMap((f) => f.rules));
  const reproduces = (r: WalkResult) => r.failures.some((f) => f.rules.some((x) => broken.has(x)));
  const replay = (candidate: readonly S[], label: string) => withExchangeLog(new ExchangeLog(), () => runWalk(kind, collecting(ctx), candidate, label));
  // A wait that follows work started since the previous wait is never cut: without it, whether the rest fails
  // depends on how fast the target finishes that work (a shrunk walk that fails here and passes on the next
  // machine). A wait with nothing to wait for can go. A cut is kept only when the rest fails twice.
  // (What a wait follows is read in what is kept so far: once the work before it is cut, so can it be.)
  let kept: readonly S[] = steps.slice(0, result.failedAt! + 1);
  const stillFails = async (candidate: S[]) => {
    const left = new Set(candidate);
    if (neededWaits(kind, kept).some((w) => !left.has(w))) return false;
    for (let i = 2; i > 0; i--) if (!reproduces(await replay(candidate, `${name} (shrinking)`))) return false;
    kept = candidate;
    return true;
  };
  const prefix = kept;
  ctx.waiting(`shrinking ${name} (${prefix.length} steps)`);
  // Replays are cheap next to a failure nobody can read: a generous bound (a cut costs two or three).
  const shrunk = await shrinkList(prefix, stillFails, 150);
  ctx.waiting(null);
  const sequence = (list: readonly S[], failingAt: number | undefined) => list.map((s, i) => `  ${i === failingAt ? "→" : " "} ${i + 1}. ${kind.describe(s)}`).join("\n");
  // The report's own replay: its cases and failures are the check's, with this replay's exchanges as evidence.
  let again = await runWalk(kind, collecting(ctx), shrunk, name);
  for (let tries = 1; tries < 3 && !reproduces(again); tries++) again = await runWalk(kind, collecting(ctx), shrunk, name);
  for (const [rule, ok] of again.cases) if (ok) ctx.expect(true, rule, "");
  const focus = o.replay ? undefined : kind.focus?.(walkNumber, ctx);
  const head = `${name}${focus ? ` (focus: ${focus})` : ""} failed at step ${result.failedAt! + 1} of ${steps.length}; ${shrunkPhrase(shrunk.length)}, each replayed against fresh resources`;
  const reproduced = again.failures.filter((f) => f.rules.some((x) => broken.has(x)));
  if (reproduced.length) {
    const tail = replayLines(kind, o, shrunk, name).join("\n");
    reproduced.forEach((f, i) => ctx.expect(false, f.rules, i === 0 ? `${f.message}\n${head}:\n${sequence(shrunk, again.failedAt)}\n${tail}` : `${f.message} (same walk)`));
    return;
  }
  // Timing can make a failure come and go; the walk's own failure is still the target's.
  const tail = replayLines(kind, o, prefix, name).join("\n");
  result.failures.forEach((f, i) =>
    ctx.expect(
      false,
      f.rules,
      i === 0 ? `${f.message}\n${name} failed at step ${result.failedAt! + 1} of ${steps.length}; the shrunk sequence did not fail again when replayed (timing?):\n${sequence(shrunk, undefined)}\n${tail}` : `${f.message} (same walk)`,
    ),
  );
}

/** The waits of `steps` that follow work started since the previous wait (or the walk's start). */
export function neededWaits<S, C extends RunContext>(kind: WalkKind<S, C>, steps: readonly S[]): S[] {
  const needed: S[] = [];
  let working = false;
  for (const step of steps) {
    if (kind.waits(step)) {
      if (working) needed.push(step);
      working = false;
    } else if (kind.startsWork(step)) working = true;
  }
  return needed;
}

/** The body of a walks check: the run's walks (or the replayed one), the ledger's cases, one report per rule broken. */
export async function runWalks<S, C extends RunContext>(kind: WalkKind<S, C>, ctx: C, o: WalkOptions<S>): Promise<void> {
  if (o.skip) ctx.skip(o.skip);
  const plans = o.replay ? [o.replay] : Array.from({ length: o.walks }, (_, i) => kind.plan(o.seed, i, o.steps, ctx));
  if (!plans.length) ctx.skip("no walks asked for (--walks 0)");
  const names = plans.map((_, i) => (o.replay ? "the replayed walk" : `walk ${i + 1} of seed ${o.seed}`));
  // Each walk keeps its own exchanges, so a failure's evidence is its walk's, not a neighbour's.
  const results = await inTurn(plans, kind.concurrency(ctx), (steps, i) => withExchangeLog(new ExchangeLog(), () => runWalk(kind, collecting(ctx), steps, names[i]!)));
  // Passing cases count in the ledger; a failing walk's are recorded by its report's replay.
  for (const r of results) if (r.failedAt === undefined) for (const [rule, ok] of r.cases) if (ok) ctx.expect(true, rule, "");
  const failing = results.flatMap((r, i) => (r.failedAt === undefined ? [] : [i]));
  const skipped = results.reduce((n, r) => n + r.skipped, 0);
  const focuses = o.replay ? [] : plans.map((_, i) => kind.focus?.(i, ctx)).filter((f) => f !== undefined);
  ctx.note(
    `${plans.length} walk${plans.length === 1 ? "" : "s"} of up to ${o.replay ? o.replay.length : o.steps} steps${o.replay ? " (replayed from a file)" : `, walk seed ${o.seed}`}${focuses.length ? ` (focus of each: ${focuses.join(", ")})` : ""}: ${plans.length - failing.length} passed${failing.length ? `, ${failing.length} failed` : ""}${skipped ? ` (${skipped} step${skipped === 1 ? "" : "s"} left out: what they name was not made, or the target lacks what they need)` : ""}`,
  );
  // One report per set of rules broken: walks failing the same way would shrink to the same story.
  const told = new Set<string>();
  for (const i of failing) {
    const r = results[i]!;
    const key = [...new Set(r.failures.flatMap((f) => f.rules))].sort().join(",");
    if (told.has(key)) continue;
    told.add(key);
    await report(kind, ctx, o, i, names[i]!, plans[i]!, r);
  }
}

/** `run` for every item, at most `limit` at a time; the results in the items' order. */
export async function inTurn<T, R>(items: readonly T[], limit: number, run: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) results[i] = await run(items[i]!, i);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return results;
}

/** The line a report prints about the run's walks: the seed that reproduces them. */
export const walksLine = (w: { seed: string; walks: number; steps: number; replay: boolean; mcp?: { walks: number; steps: number } }): string =>
  w.replay
    ? `Stateful walks: one walk of ${w.steps} steps replayed from a file`
    : `Stateful walks: ${w.walks} of up to ${w.steps} steps${w.mcp ? ` (MCP: ${w.mcp.walks} of up to ${w.mcp.steps})` : ""}, walk seed ${w.seed} (the same walks again: --walk-seed ${w.seed}${w.mcp ? "" : ` --walks ${w.walks} --walk-steps ${w.steps}`})`;
