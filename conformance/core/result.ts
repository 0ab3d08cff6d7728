// What a run comes to, as the reports render it (console, JSON, JUnit, Markdown) and runConformance returns it.
import type { CheckResult } from "./check.js";
import type { HostLoad } from "./host-load.js";
import type { RateLimitReport } from "./pacing.js";
import type { Redactor } from "./redact.js";
import type { Enforcement, LedgerEntry, LedgerStatus } from "./report/ledger.js";
import type { Verdict } from "./report/baseline.js";
import type { SuiteId } from "./suite.js";

type Suite = SuiteId;

/** One suite's target as reports show it, in run order (its secrets redacted). */
export interface SuiteTarget {
  suite: Suite;
  /** For people: "Ideas REST API", "Partner Tool Gateway (MCP)". */
  title: string;
  /** The suite's rule catalogue, relative to the package (spec/rules/<suite>.yaml). */
  rules: string;
  url: string;
  profile?: string;
}

/** "REST target", "MCP target": how reports name a suite's target. */
export const targetLabel = (t: SuiteTarget): string => `${t.suite.toUpperCase()} target`;
/** ", profile preview" for a suite whose target has a profile; else nothing. */
export const profileOf = (t: SuiteTarget): string => (t.profile !== undefined ? `, profile ${t.profile}` : "");

export interface ReportedCheck extends CheckResult {
  verdict: Verdict;
}

export interface RunResult {
  /** What holds for the whole run; each suite's own target is in `targets`. */
  target: {
    /**
     * The REST target (the MCP endpoint when only the MCP suite ran).
     * @deprecated Read `targets` (each suite's target, its URL and profile). Still written in this release; removed in the next one.
     */
    url: string;
    embedded: boolean;
    stateful?: boolean;
    statefulReason?: string;
    timeScale: number;
    /**
     * The MCP target, when it ran.
     * @deprecated Read the entry of `targets` whose `suite` is "mcp". Still written in this release; removed in the next one.
     */
    mcp?: { url: string; profile?: string };
  };
  /** The stateful walks of the run, when check rest-walks or mcp-walks ran: its seed reproduces them (--walk-seed). */
  walks?: WalksRun;
  /** The suites that ran. */
  suites: Suite[];
  /** Each suite's target, in run order (what reports name; the deprecated `target.url` and `target.mcp` say the same, for readers of earlier reports). */
  targets: SuiteTarget[];
  startedAt: string;
  durationMs: number;
  requests: number;
  /** Per suite whose target answered 429: how often, how long the run waited for it, the pace it kept. */
  rateLimits?: Partial<Record<Suite, RateLimitReport>>;
  checks: ReportedCheck[];
  ledger: LedgerEntry[];
  summary: {
    checks: number;
    passed: number;
    failed: number;
    skipped: number;
    /** Checks that ended in `error`: the suite broke or the budget ran out (not failures of the target). */
    errors: number;
    expectedFailures: number;
    /** Listed as expected failures but passing now. */
    fixed: number;
    unexpectedFailures: number;
    /** Checks whose failures concern only inferred rules, against a non-reference target without --strict. */
    drift: number;
    rules: Record<LedgerStatus, number>;
    /** Of the testable rules the seeds state (`seed`) and those we inferred, how many this run enforced. */
    enforcement: { seed: Enforcement; inferred: Enforcement };
    /** The run gates (--fail-on-skip, --min-coverage) that failed, each as one sentence. */
    gates: string[];
  };
  /** Against a real target: the event-loop delay the suite's host went through (starved: timing failures may be its own). */
  host?: HostLoad;
  /** Baseline ids that name no check of the run. */
  unknownBaselineIds: string[];
  /** Every secret of the run, for writers that must redact (never serialised). */
  readonly redactor: Redactor;
  /**
   * 1 when something unexpected failed, an expected failure passes or a gate failed; else 3 when a check ended in
   * `error` (the suite broke or ran out of budget: no verdict on the target); else 0.
   */
  exitCode: 0 | 1 | 3;
}

export interface WalksRun {
  seed: string;
  /** Walks per protocol (the REST walks' when both ran), and steps per walk at most. */
  walks: number;
  steps: number;
  /** One walk replayed from a file. */
  replay: boolean;
  /** The MCP walks, when they ran beside the REST walks with other counts. */
  mcp?: { walks: number; steps: number };
}
