// The conformance suite for the Ideas REST API and the Partner Tool Gateway (MCP), for programmatic use:
//
//   const result = await runConformance({ restUrl: "https://…", mcpUrl: "https://…/mcp", env: process.env });
//   result.exitCode // 0 when nothing unexpected failed and every gate held; 3 when the suite itself broke
//
// A run reads: choose the suites (conformance/core/suite.ts: one shape per protocol) → resolve their targets, or start
// the embedded references on ephemeral ports with a fast clock (with no target at all) → probe each target → run
// the checks → the ledger per catalogue → verdicts (seed vs inferred: drift) and gates → the result the reports
// render. This file assembles the suites (their registry); the core it runs on names no protocol.
import path from "node:path";
import type { AnyCheck, CheckResult, RunContext } from "./core/check.js";
import { selectChecks, suiteOf } from "./select.js";
import { mcpSuite } from "./suites/mcp/suite.js";
import { mcpCostOf, mcpTriggersOf, type McpOverrides } from "./suites/mcp/target.js";
import type { SpendInput } from "./suites/mcp/cost.js";
import { referenceTargetPath, repoRoot } from "./core/paths.js";
import { Redactor } from "./core/redact.js";
import { buildLedger, enforcement, ledgerCounts, type Enforcement, type LedgerEntry, type LedgerStatus } from "./core/report/ledger.js";
import { failsRun, loadBaseline, verdictOf, type Verdict } from "./core/report/baseline.js";
import { expandRuleRef, loadRules, type RuleCatalogue } from "./core/rules.js";
import { runChecks, type RunEvent } from "./core/runner.js";
import { rateLimiterFor, type RateLimitReport } from "./core/pacing.js";
import { restSuite } from "./suites/rest/suite.js";
import { isTimingProblem, starvedNote, watchHost, type HostLoad } from "./core/host-load.js";
import { SharedTime } from "../lib/shared-time.js";
import { drivenClock, wallClock, type RunClock } from "./core/run-clock.js";
import type { ConformanceSuite, SuiteOverrides } from "./core/suite.js";
import type { RunTarget } from "./core/run-target.js";
import { type TargetOverrides } from "./suites/rest/target.js";
import { loadTargetFile, type TargetFile } from "./target-file.js";
import { newSeed } from "./core/walks/prng.js";
import type { WalkOptions } from "./core/walks/engine.js";
import type { WalkReplay } from "./replay.js";

export type { AnyCheck, Check, CheckResult } from "./core/check.js";
export type { RunEvent } from "./core/runner.js";
export type { LedgerEntry } from "./core/report/ledger.js";
export type { ReportedCheck, RunResult, WalksRun } from "./core/result.js";
import type { ReportedCheck, RunResult, WalksRun } from "./core/result.js";
export { TargetUnusable } from "./core/probe.js";
export { mcpChecks } from "./suites/mcp/checks/index.js";
export { restChecks } from "./suites/rest/checks/index.js";

/** The suites, in run and report order: the REST API and the MCP gateway. */
const suiteList = [restSuite, mcpSuite] as const;
export type Suite = (typeof suiteList)[number]["id"];
const registry: readonly ConformanceSuite<RunContext, RunTarget, string, unknown, Suite>[] = suiteList;
export const suites: readonly Suite[] = registry.map((s) => s.id);
const suiteById = (id: Suite) => registry.find((s) => s.id === id)!;

/** The time scale of the embedded reference: polls of 10–15 ms, a batch done well under a second. */
export const embeddedTimeScale = 0.001;

export interface ConformanceOptions extends TargetOverrides, McpOverrides {
  /** Target file (YAML); see conformance/targets/reference.yaml. */
  config?: string;
  /** A parsed target file (instead of `config`). */
  targetFile?: TargetFile;
  env?: NodeJS.ProcessEnv;
  /** Serve the embedded REST reference over HTTPS (self-signed, trusted for this run only). */
  embeddedHttps?: boolean;
  /** The suites to run (default: both against the embedded reference, else those with a URL). */
  suites?: readonly Suite[];
  /** Check id patterns (`*` wildcard); all checks when empty. */
  only?: string[];
  /** The checks to choose from (default: every check of the suites run). */
  checks?: readonly AnyCheck[];
  /** Expected failures: a YAML file of check ids, or the ids. */
  expectedFailures?: string | readonly string[];
  /**
   * Fail on inferred rules too. By default, against a target other than the embedded reference, a check whose
   * failures concern only inferred rules (our design where the seeds are silent) is reported as contract drift
   * and does not fail the run; against the embedded reference everything is strict.
   */
  strict?: boolean;
  /** Fail the run when any check was skipped. */
  failOnSkip?: boolean;
  /** Fail the run when fewer than this percentage of the testable seed rules were enforced. */
  minCoverage?: number;
  /**
   * The embedded references' time (default "driven"): driven by the run (it moves only when every request has
   * been answered and every check waits, so the verdict does not depend on the host's speed), or "wall": the
   * wall clock, as a real target's.
   */
  embeddedClock?: "driven" | "wall";
  /**
   * Where the embedded references run (default "worker": a worker thread, so they answer on one core while the
   * suite judges on the other; "this": this thread, as when no worker can start, e.g. the sources without tsx).
   */
  embeddedThread?: "worker" | "this";
  /**
   * The run's clock for a target given by URL (default the wall clock): a caller that runs the target itself on
   * the same time (a test's mock reading a SharedTime this clock moves) passes a drivenClock, so the verdict does
   * not depend on the host's speed there either.
   */
  clock?: RunClock;
  /** Probe each target before any check and stop with TargetUnusable when it cannot be used (default true). */
  probe?: boolean;
  onEvent?: (event: RunEvent) => void;
  /** Stateful walks (checks rest-walks and mcp-walks): how many per protocol (default defaultWalks.walks for REST, defaultMcpWalks.walks for MCP; 0 skips them). */
  walks?: number;
  /** Steps per walk, at most (default defaultWalks.steps, defaultMcpWalks.steps). */
  walkSteps?: number;
  /** The walks' seed (default: a new one, printed with the result): the same seed gives the same walks. */
  walkSeed?: string;
  /** One walk to run instead of the seeded ones (a replay file, conformance/replay.ts): its protocol's walks check runs it, the other one is skipped. */
  walkReplay?: WalkReplay;
}

/**
 * The suites a run covers: as asked, else both for the embedded reference, else those with a URL. URLs given as
 * options (flags) name the suites by themselves; the target file's URLs count only when no URL option is given
 * (so `--rest-url` with the reference target file runs the REST suite alone).
 */
function chooseSuites(options: ConformanceOptions, file: TargetFile | undefined): { suites: Suite[]; embedded: boolean } {
  const overrides = options as SuiteOverrides;
  const flagged = registry.some((s) => s.urls(overrides, file).flag);
  const has = (s: ConformanceSuite) => {
    const urls = s.urls(overrides, file);
    return !!(urls.flag || (!flagged && urls.file));
  };
  const embedded = !registry.some(has);
  if (options.suites?.length) {
    const asked = registry.filter((s) => options.suites!.includes(s.id));
    if (!embedded)
      for (const s of asked) if (!has(s)) throw new Error(`the ${s.id} suite was asked for but has no target: give --${s.id}-url or ${s.id}.url in the target file`);
    return { suites: asked.map((s) => s.id), embedded };
  }
  return { suites: registry.filter((s) => embedded || has(s)).map((s) => s.id), embedded };
}

/** What one suite's run needs: its target, the checks chosen and all of the suite's checks, and its rule catalogue. */
interface SuitePlan {
  suite: Suite;
  def: ConformanceSuite;
  target: RunTarget;
  rules: RuleCatalogue;
  checks: AnyCheck[];
  all: readonly AnyCheck[];
}

/** Where a suite's target is, as reports show it. */
function redactedSummary(plan: SuitePlan, redactor: Redactor): { url: string; profile?: string } {
  const { url, profile } = plan.def.summary(plan.target);
  return { url: redactor.text(url), ...(profile !== undefined ? { profile } : {}) };
}

/**
 * What an MCP run with these options would spend is judged from (the target file's triggers and mcp.cost; the
 * reference's file for the embedded reference), without starting anything.
 */
export function spendInputFor(options: ConformanceOptions = {}): SpendInput {
  const env = options.env ?? process.env;
  const file = options.targetFile ?? (options.config ? loadTargetFile(options.config, env) : undefined);
  const { embedded } = chooseSuites({ ...options, suites: [] }, file);
  const mcp = embedded ? (file ?? loadTargetFile(referenceTargetPath, env)).mcp : file?.mcp;
  return { triggers: mcpTriggersOf(mcp), cost: mcpCostOf(mcp) };
}

/** What the run's report says of its walks: those of the walks checks that ran (a skipped one, for a replay of the other protocol, says nothing). */
function walksRun(plans: ReadonlyMap<Suite, WalkOptions>, selected: readonly AnyCheck[], suites: readonly Suite[]): { walks?: WalksRun } {
  const ran = suites.filter((s) => {
    const plan = plans.get(s);
    return plan && !plan.skip && selected.some((c) => c.id === suiteById(s).walks?.checkId);
  });
  const shape = (w: WalkOptions) => ({ walks: w.replay ? 1 : w.walks, steps: w.replay?.length ?? w.steps });
  const [first, second] = ran.map((s) => plans.get(s)!);
  if (!first) return {};
  // The second suite's (MCP's) own counts, when they differ from the first's.
  const extra = second && (shape(second).walks !== shape(first).walks || shape(second).steps !== shape(first).steps) ? { [ran[1]!]: shape(second) } : {};
  return { walks: { seed: first.seed, ...shape(first), replay: !!first.replay, ...extra } };
}

export async function runConformance(options: ConformanceOptions = {}): Promise<RunResult> {
  const env = options.env ?? process.env;
  const listed =
    options.expectedFailures === undefined ? [] : typeof options.expectedFailures === "string" ? loadBaseline(options.expectedFailures) : [...options.expectedFailures];
  const file = options.targetFile ?? (options.config ? loadTargetFile(options.config, env) : undefined);
  const { suites: chosen, embedded } = chooseSuites(options, file);
  const seed = options.walkSeed ?? newSeed();
  // Each suite's walks for this run. A replay file is a walk of one protocol: that suite's walks check runs it, the
  // other's is skipped.
  const walks = new Map<Suite, WalkOptions>();
  for (const s of registry) {
    if (!s.walks) continue;
    const r = options.walkReplay;
    const o = { walks: options.walks ?? s.walks.defaults.walks, steps: options.walkSteps ?? s.walks.defaults.steps, seed };
    walks.set(s.id, r ? (r.format === s.walks.replayFormat ? { ...o, replay: r.steps } : { ...o, skip: `the replay file is a walk of the other protocol (${r.format})` }) : o);
  }
  // The listed walks check of a suite stands in for the one made for this run's plan.
  const forThisRun = (c: AnyCheck) => {
    const w = suiteById(suiteOf(c)).walks;
    return w && c.id === w.checkId ? w.check(walks.get(suiteOf(c))!) : c;
  };
  const pool = (options.checks ?? registry.flatMap((s) => s.checks)).filter((c) => chosen.includes(suiteOf(c))).map(forThisRun);
  const selected = selectChecks(pool, options.only ?? []);
  if (!selected.length) throw new Error(`no check matches ${options.only?.length ? options.only.join(", ") : `the suites ${chosen.join(", ")}`}`);

  const stops: (() => Promise<void>)[] = [];
  // Against a real target the run keeps the wall clock, so a starved host shows as a slow target: watch for it.
  const host = embedded ? undefined : watchHost();
  let hostLoad: HostLoad | undefined;
  const startedAt = new Date();
  const started = performance.now();
  try {
    const reference = embedded ? (file ?? loadTargetFile(referenceTargetPath, env)) : undefined;
    const timeScale = embedded ? (options.timeScale ?? embeddedTimeScale) : undefined;
    // One clock for the whole run: both embedded references and both suites' checks share its time.
    const time = embedded && options.embeddedClock !== "wall" ? new SharedTime() : undefined;
    const clock: RunClock = time ? drivenClock({ onMove: (date) => time.set(date) }) : (options.clock ?? wallClock);
    const plans: SuitePlan[] = [];
    for (const suite of chosen) {
      const def = suiteById(suite);
      const all = pool.filter((c) => suiteOf(c) === suite);
      const checks = selected.filter((c) => suiteOf(c) === suite);
      if (!checks.length) continue;
      let target: RunTarget;
      if (embedded) {
        const server = await def.startEmbedded({ timeScale: timeScale!, https: options.embeddedHttps ?? false, inThread: options.embeddedThread === "this", ...(time ? { time } : {}) });
        stops.push(() => server.stop());
        // The embedded REST reference over HTTPS has a self-signed certificate, trusted for this run only.
        const overrides = { ...options, timeScale, insecure: options.embeddedHttps ? true : options.insecure } as SuiteOverrides;
        target = { ...def.resolveTarget({ file: reference!, overrides, env, embeddedUrl: server.url }), clock };
      } else target = { ...def.resolveTarget({ ...(file ? { file } : {}), overrides: options as SuiteOverrides, env }), clock };
      plans.push({ suite, def, target, checks, all, rules: loadRules(def.rulesPath) });
    }

    // One redactor for the whole run: a token of either suite never appears in any output.
    const redactor = new Redactor(plans.flatMap((p) => p.target.secrets));
    if (options.probe !== false) {
      const probing = new AbortController();
      await Promise.all(plans.map((p) => p.def.probe(p.target, redactor, probing.signal)));
    }
    const runs = await Promise.all(
      plans.map((p) =>
        runChecks({
          target: p.target,
          checks: p.checks,
          rules: p.rules,
          redactor,
          unmetNeed: p.def.unmetNeed,
          slots: p.def.slots,
          open: p.def.open,
          ...(options.onEvent ? { onEvent: options.onEvent } : {}),
        }),
      ),
    );
    hostLoad = host?.stop();
    if (hostLoad?.starved) for (const r of runs.flatMap((run) => run.results)) if (isTimingProblem(r)) r.notes.push(starvedNote(hostLoad));
    const set = new Set(listed);
    const results = runs.flatMap((r) => r.results);
    const lenient = !embedded && !options.strict;
    const inferredOnly = (r: CheckResult) => {
      const catalogue = plans.find((p) => p.checks.some((c) => c.id === r.id))!.rules;
      const ids = r.failures.flatMap((f) => f.rules.flatMap((ref) => expandRuleRef(catalogue, ref) ?? [ref]));
      return ids.length > 0 && ids.every((id) => catalogue.byId.get(id)?.provenance === "inferred");
    };
    const reported: ReportedCheck[] = results.map((r) => ({ ...r, verdict: verdictOf(r, set, lenient && r.status === "fail" && inferredOnly(r)) }));
    const ledger = plans.flatMap((p, i) => {
      const chosenIds = new Set(p.checks.map((c) => c.id));
      const unselected = new Set(p.all.filter((c) => !chosenIds.has(c.id)).flatMap((c) => c.rules));
      return buildLedger(p.rules, runs[i]!.results, unselected, p.suite);
    });
    const count = (v: Verdict) => reported.filter((r) => r.verdict === v).length;
    const ids = new Set(selected.map((c) => c.id));
    const restRun = plans.findIndex((p) => p.suite === "rest");
    const mcpPlan = plans.find((p) => p.suite === "mcp");
    const first = plans[0]!.target;
    const stateful = restRun >= 0 ? runs[restRun]! : undefined;
    const limited = plans.map((p) => [p.suite, rateLimiterFor(p.target).report()] as const).filter(([, r]) => r.limited > 0);
    const result: RunResult = {
      target: {
        url: redactor.text(first.url.href),
        embedded,
        ...(stateful?.stateful !== undefined ? { stateful: stateful.stateful, statefulReason: stateful.statefulReason! } : {}),
        timeScale: first.timing.timeScale,
        ...(mcpPlan ? { mcp: redactedSummary(mcpPlan, redactor) } : {}),
      },
      ...walksRun(walks, selected, plans.map((p) => p.suite)),
      suites: plans.map((p) => p.suite),
      targets: plans.map((p) => ({ suite: p.suite, title: p.def.title, rules: path.relative(repoRoot, p.def.rulesPath), ...redactedSummary(p, redactor) })),
      startedAt: startedAt.toISOString(),
      durationMs: Math.round(performance.now() - started),
      requests: runs.reduce((n, r) => n + r.requests, 0),
      ...(limited.length ? { rateLimits: Object.fromEntries(limited) } : {}),
      checks: reported,
      ledger,
      summary: {
        checks: reported.length,
        passed: reported.filter((r) => r.status === "pass").length,
        failed: reported.filter((r) => r.status === "fail").length,
        skipped: reported.filter((r) => r.status === "skip").length,
        errors: reported.filter((r) => r.status === "error").length,
        expectedFailures: count("expected-failure"),
        fixed: count("fixed"),
        unexpectedFailures: count("fail"),
        drift: count("drift"),
        rules: ledgerCounts(ledger),
        enforcement: { seed: enforcement(ledger, "seed"), inferred: enforcement(ledger, "inferred") },
        gates: [],
      },
      ...(hostLoad ? { host: hostLoad } : {}),
      unknownBaselineIds: listed.filter((id) => !ids.has(id)),
      redactor,
      exitCode: 0,
    };
    const gates = result.summary.gates;
    const skipped = result.summary.skipped;
    if (options.failOnSkip && skipped) gates.push(`${skipped} check${skipped === 1 ? " was" : "s were"} skipped (--fail-on-skip)`);
    const seed = result.summary.enforcement.seed;
    if (options.minCoverage !== undefined && seed.percent < options.minCoverage)
      gates.push(`${seed.enforced} of ${seed.testable} testable seed rules enforced (${seed.percent}%), below --min-coverage ${options.minCoverage}%`);
    result.exitCode = reported.some((r) => failsRun(r.verdict)) || gates.length ? 1 : result.summary.errors ? 3 : 0;
    Object.defineProperty(result, "redactor", { enumerable: false });
    return result;
  } finally {
    if (!hostLoad) host?.stop();
    for (const stop of stops.reverse()) await stop();
  }
}
