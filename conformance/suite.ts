// One shape for a suite: what runConformance needs to run one protocol's checks — its rule catalogue, its checks,
// how it finds its target (flags, target file, environment), its embedded reference, its probe and the needs it
// decides. runConformance names no protocol; a third protocol (or a second version of one) is one more Suite.
import type { Check, Need } from "./check.js";
import type { Redactor } from "./redact.js";
import type { RunnerExtension } from "./runner.js";
import type { FixtureEnv } from "./fixtures.js";
import type { Target, TargetFile } from "./target.js";

export type SuiteId = "rest" | "mcp";

/** What a caller gives runConformance that a suite reads (flags and programmatic options of both suites). */
export type SuiteOverrides = Record<string, unknown> & { timeScale?: number; insecure?: boolean };

export interface EmbeddedServer {
  url: URL;
  stop(): Promise<void>;
}

export interface ConformanceSuite {
  id: SuiteId;
  /** For people: "Ideas REST API", "Partner Tool Gateway (MCP)". */
  title: string;
  /** The rule catalogue (spec/rules/<id>.yaml). */
  rulesPath: string;
  checks: readonly Check[];
  /** The URL flag's value, when given (it names the suite by itself), and the target file's URL for it. */
  urls(overrides: SuiteOverrides, file: TargetFile | undefined): { flag?: string; file?: string };
  /** The suite's target from the target file, the environment and the overrides (`embeddedUrl` for the reference). */
  resolveTarget(input: { file?: TargetFile; overrides: SuiteOverrides; env: NodeJS.ProcessEnv; embeddedUrl?: URL }): Target;
  /** Starts the embedded reference on an ephemeral port; its clock reads `date` (the run's driven time) as its wall clock. */
  startEmbedded(options: { timeScale: number; https: boolean; date?: () => number }): Promise<EmbeddedServer>;
  /** Throws TargetUnusable (one line) when the target cannot be used at all. */
  probe(target: Target, redactor: Redactor, signal: AbortSignal): Promise<void>;
  /** Why a need is unmet by the target (a sentence), or undefined when it is met or not this suite's. */
  unmetNeed(need: Need, target: Target): string | undefined;
  /** What the suite adds to every check's context (an SDK session, shared jobs), once per run. */
  extension?: (env: FixtureEnv) => RunnerExtension;
}
