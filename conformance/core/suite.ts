// One shape for a suite: what runConformance needs to run one protocol's checks — its rule catalogue, its checks,
// how it finds its target (flags, target file, environment), its embedded reference, its probe and the needs it
// decides. runConformance (conformance/index.ts, the registry) runs each through this shape; a third protocol (or a
// second version of one) is one more Suite.
import type { RuleId } from "../../generated/rules.js";
import type { SharedTime } from "../../lib/shared-time.js";
import type { Check, Need, RunContext, RunEvent } from "./check.js";
import type { Redactor } from "./redact.js";
import type { RunTarget } from "./run-target.js";
import type { SlotTable } from "./slots.js";
import type { WalkOptions } from "./walks/engine.js";

/** A suite's id (`rest`, `mcp`): the registry (conformance/index.ts) knows which there are; the core does not. */
export type SuiteId = string;

/** What a caller gives runConformance that a suite reads (flags and programmatic options of both suites). */
export type SuiteOverrides = Record<string, unknown> & { timeScale?: number; insecure?: boolean };

export interface EmbeddedOptions {
  timeScale: number;
  https: boolean;
  /** The run's time when the run drives it (the reference reads it as its wall clock). */
  time?: SharedTime;
  /** Start it in this thread rather than a worker. */
  inThread?: boolean;
}

export interface EmbeddedServer {
  url: URL;
  stop(): Promise<void>;
}

/** What a suite's session of a run is opened with: the target, the run's redactor, its budget's signal, its events. */
export interface SuiteEnv<T extends RunTarget = RunTarget> {
  target: T;
  redactor: Redactor;
  /** Aborts when the run's budget ends. */
  signal: AbortSignal;
  /** Shows (or, with null, clears) what a background job waits on. */
  onWaiting(key: string, text: string | null): void;
  emit(event: RunEvent): void;
}

/** A suite's part of one run: the clients and shared jobs its checks use, made once, closed at the end. */
export interface SuiteSession<Ctx extends RunContext, N extends string = Need> {
  /** The context a check runs with (the runner's part, `base`, plus the suite's), the requests made for it, its cleanup. */
  context(check: Check<Ctx, N>, base: RunContext): { ctx: Ctx; requests(): number; close?(): Promise<void> | void };
  /**
   * Why the check cannot run, decided by asking the target (whether it keeps state); undefined when it can. A
   * `rule` says the target's own answer broke it on the way (its create refused): the check fails it, never skips.
   */
  unready?(check: Check<Ctx, N>): Promise<string | { rule: RuleId; why: string } | undefined>;
  /** Every request of the session (the checks' and the shared jobs'). */
  requests(): number;
  /** Whether the target keeps what it is sent, when the session found out. */
  stateful?(): { stateful: boolean; reason: string } | undefined;
  close(): Promise<void> | void;
}

/** A suite's stateful walks (core/walks/engine.ts): the check that runs them, made for each run's plan. */
export interface SuiteWalks<Ctx extends RunContext, N extends string = Need> {
  /** The id of the walks check: its listed instance (`checks`) stands for it in `--list` and selection. */
  checkId: string;
  /** How many walks of how many steps a run makes unless told (`--walks`, `--walk-steps`). */
  defaults: { readonly walks: number; readonly steps: number };
  /** The `format` of this suite's replay files (conformance/replay.ts); a replay of another format skips the walks. */
  replayFormat: string;
  /** The walks check for this run's plan, wired as the suite's listed checks are. */
  check(plan: WalkOptions): Check<Ctx, N>;
}

/**
 * One protocol's suite. `Ctx` is what its checks run with; the registry holds suites as ConformanceSuite (their
 * checks' `run` is a method, so a suite of a narrower context stands in for the generic one).
 */
export interface ConformanceSuite<Ctx extends RunContext = RunContext, T extends RunTarget = RunTarget, N extends string = Need, F = unknown, Id extends SuiteId = SuiteId> {
  id: Id;
  /** For people: "Ideas REST API", "Partner Tool Gateway (MCP)". */
  title: string;
  /** The rule catalogue (spec/rules/<id>.yaml). */
  rulesPath: string;
  checks: readonly Check<Ctx, N>[];
  /** The URL flag's value, when given (it names the suite by itself), and the target file's URL for it. */
  urls(overrides: SuiteOverrides, file: F | undefined): { flag?: string; file?: string };
  /** The suite's target from the target file, the environment and the overrides (`embeddedUrl` for the reference). */
  resolveTarget(input: { file?: F; overrides: SuiteOverrides; env: NodeJS.ProcessEnv; embeddedUrl?: URL }): T;
  /** Starts the embedded reference on an ephemeral port; its clock reads `time` (the run's driven time) as its wall clock. */
  startEmbedded(options: EmbeddedOptions): Promise<EmbeddedServer>;
  /** Where the target is, for reports (its secrets are redacted by the caller). */
  summary(target: T): { url: string; profile?: string };
  /** Throws TargetUnusable (one line) when the target cannot be used at all. */
  probe(target: T, redactor: Redactor, signal: AbortSignal): Promise<void>;
  /** Why a need is unmet by the target (a sentence), or undefined when it is met or not this suite's. */
  unmetNeed(need: N | "token", target: T): string | undefined;
  /** Its catalogue's target-file slots, each with its value in the target and how to give it (suites/<id>/slots.ts). */
  slots: Partial<SlotTable<T>>;
  /** Its stateful walks, when it has them. */
  walks?: SuiteWalks<Ctx, N>;
  /** Opens the suite's session of a run: its clients, shared fixtures and jobs. */
  open(env: SuiteEnv<T>): SuiteSession<Ctx, N>;
}
