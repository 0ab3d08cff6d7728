// The conformance suite for the Ideas REST API, for programmatic use:
//
//   const result = await runConformance({ restUrl: "https://…", env: process.env });
//   result.exitCode // 0 when nothing unexpected failed
//
// With no target (no restUrl, no rest.url in the target file) it starts the embedded reference server on an
// ephemeral port with a fast clock, runs everything against it with the reference's target file
// (conformance/targets/reference.yaml), and stops it.
import type { Check, CheckResult } from "./check.js";
import { restChecks, selectChecks } from "./checks/index.js";
import { referenceTargetPath } from "./paths.js";
import { Redactor } from "./redact.js";
import { buildLedger, ledgerCounts, type LedgerEntry, type LedgerStatus } from "./report/ledger.js";
import { failsRun, loadBaseline, verdictOf, type Verdict } from "./report/baseline.js";
import { loadRules } from "./rules.js";
import { runChecks, type RunEvent } from "./runner.js";
import { loadTargetFile, resolveTarget, type TargetFile, type TargetOverrides } from "./target.js";

export type { Check, CheckResult } from "./check.js";
export type { RunEvent } from "./runner.js";
export type { LedgerEntry } from "./report/ledger.js";
export { restChecks } from "./checks/index.js";

/** The time scale of the embedded reference: polls of 10–15 ms, a batch done well under a second. */
export const embeddedTimeScale = 0.001;

export interface ConformanceOptions extends TargetOverrides {
  /** Target file (YAML); see conformance/targets/reference.yaml. */
  config?: string;
  /** A parsed target file (instead of `config`). */
  targetFile?: TargetFile;
  env?: NodeJS.ProcessEnv;
  /** Serve the embedded reference over HTTPS (self-signed, trusted for this run only). */
  embeddedHttps?: boolean;
  /** Check id patterns (`*` wildcard); all checks when empty. */
  only?: string[];
  /** The checks to choose from (default: every REST check). */
  checks?: readonly Check[];
  /** Expected failures: a YAML file of check ids, or the ids. */
  expectedFailures?: string | readonly string[];
  onEvent?: (event: RunEvent) => void;
}

export interface ReportedCheck extends CheckResult {
  verdict: Verdict;
}

export interface RunResult {
  target: { url: string; embedded: boolean; stateful?: boolean; statefulReason?: string; timeScale: number };
  startedAt: string;
  durationMs: number;
  requests: number;
  checks: ReportedCheck[];
  ledger: LedgerEntry[];
  summary: {
    checks: number;
    passed: number;
    failed: number;
    skipped: number;
    expectedFailures: number;
    /** Listed as expected failures but passing now. */
    fixed: number;
    unexpectedFailures: number;
    rules: Record<LedgerStatus, number>;
  };
  /** Baseline ids that name no check of the run. */
  unknownBaselineIds: string[];
  /** Every secret of the run, for writers that must redact (never serialised). */
  readonly redactor: Redactor;
  /** 0 when nothing unexpected failed (and no expected failure passes), else 1. */
  exitCode: 0 | 1;
}

export async function runConformance(options: ConformanceOptions = {}): Promise<RunResult> {
  const env = options.env ?? process.env;
  const rules = loadRules();
  const checks = selectChecks(options.checks ?? restChecks, options.only ?? []);
  if (!checks.length) throw new Error(`no check matches ${options.only?.join(", ")}`);
  const listed =
    options.expectedFailures === undefined ? [] : typeof options.expectedFailures === "string" ? loadBaseline(options.expectedFailures) : [...options.expectedFailures];

  const file = options.targetFile ?? (options.config ? loadTargetFile(options.config, env) : undefined);
  const embedded = !options.restUrl && !file?.url;
  let stop: (() => Promise<void>) | undefined;
  const startedAt = new Date();
  const started = performance.now();
  try {
    let target;
    if (embedded) {
      const { startRestMock } = await import("../mock/rest/server.js");
      const timeScale = options.timeScale ?? embeddedTimeScale;
      const server = await startRestMock({ port: 0, timeScale, https: options.embeddedHttps ?? false });
      stop = () => server.stop();
      const reference = file ?? loadTargetFile(referenceTargetPath, env);
      target = resolveTarget({
        file: reference,
        overrides: { ...options, timeScale, insecure: options.embeddedHttps ? true : options.insecure },
        env,
        embeddedUrl: server.url,
      });
    } else target = resolveTarget({ ...(file ? { file } : {}), overrides: options, env });

    const redactor = new Redactor(target.secrets);
    const run = await runChecks({ target, checks, rules, redactor, ...(options.onEvent ? { onEvent: options.onEvent } : {}) });
    const set = new Set(listed);
    const reported: ReportedCheck[] = run.results.map((r) => ({ ...r, verdict: verdictOf(r, set) }));
    const selected = new Set(checks.map((c) => c.id));
    const unselected = new Set((options.checks ?? restChecks).filter((c) => !selected.has(c.id)).flatMap((c) => c.rules));
    const ledger = buildLedger(rules, run.results, unselected);
    const count = (v: Verdict) => reported.filter((r) => r.verdict === v).length;
    const ids = new Set(checks.map((c) => c.id));
    const result: RunResult = {
      target: {
        url: redactor.text(target.url.href),
        embedded,
        ...(run.stateful !== undefined ? { stateful: run.stateful, statefulReason: run.statefulReason! } : {}),
        timeScale: target.timing.timeScale,
      },
      startedAt: startedAt.toISOString(),
      durationMs: Math.round(performance.now() - started),
      requests: run.requests,
      checks: reported,
      ledger,
      summary: {
        checks: reported.length,
        passed: reported.filter((r) => r.status === "pass").length,
        failed: reported.filter((r) => r.status === "fail").length,
        skipped: reported.filter((r) => r.status === "skip").length,
        expectedFailures: count("expected-failure"),
        fixed: count("fixed"),
        unexpectedFailures: count("fail"),
        rules: ledgerCounts(ledger),
      },
      unknownBaselineIds: listed.filter((id) => !ids.has(id)),
      redactor,
      exitCode: reported.some((r) => failsRun(r.verdict)) ? 1 : 0,
    };
    Object.defineProperty(result, "redactor", { enumerable: false });
    return result;
  } finally {
    await stop?.();
  }
}
