// What every MCP check of one run shares: the run's letters (for names and external ids), a session for the
// shared scenarios, the target's clock as the target writes it, polling at a pace, and `once`, which makes each
// shared scenario (the brand under test, the batches, the builds: conformance/suites/mcp/checks/*-scenario.ts) once per
// run for every check that awaits it. A scenario never fails a check itself: it records what happened and the
// checks judge it (or skip, with the reason, when what they need is not there).
import { randomBytes } from "node:crypto";
import { sleep } from "../../core/http.js";
import type { Redactor } from "../../core/redact.js";
import { McpSession, type CallOutcome, type McpConnections } from "./client.js";
import type { McpHttp } from "./http.js";
import type { McpRunTarget, McpTarget } from "./target.js";
import { TargetClock } from "./target-clock.js";

export interface McpRunEnv {
  target: McpRunTarget;
  http: McpHttp;
  /** The run's SDK clients, shared with the checks (without them, the scenarios' session connects on its own). */
  connections?: McpConnections;
  redactor: Redactor;
  signal: AbortSignal;
  onWaiting(key: string, text: string | null): void;
}

export interface PollResult<O extends CallOutcome = CallOutcome> {
  outcomes: O[];
  /** Ms on the run's clock from the start to each outcome. */
  times: number[];
  finished: boolean;
  elapsedMs: number;
}

export class McpRun {
  /** A few letters unique to the run, for names and external ids. */
  readonly id = randomBytes(3).toString("hex");
  /** The session the shared scenarios call with (their requests count for the run, not for a check). */
  readonly session: McpSession;
  /** The gateway without the target file's inputs and triggers (a check reads those through ctx.slot). */
  readonly mcp: Omit<McpTarget, "inputs" | "triggers">;
  readonly clock: TargetClock;
  /** Every reply the shared scenarios got, in order (judged once, by mcp-shared-replies). */
  readonly replies: CallOutcome[] = [];
  readonly #env: McpRunEnv;
  readonly #made = new Map<string, unknown>();

  constructor(env: McpRunEnv) {
    this.#env = env;
    this.mcp = env.target.mcp;
    this.session = new McpSession(env.http, env.target, {}, env.connections);
    this.session.observe((o) => this.replies.push(o));
    this.clock = new TargetClock(env.target.clock);
  }

  /** Resolves once every shared scenario made so far has ended, those made while waiting included. */
  async sharedEnded(): Promise<void> {
    for (let seen = -1; seen !== this.#made.size; ) {
      seen = this.#made.size;
      await Promise.allSettled([...this.#made.values()].filter((v): v is Promise<unknown> => v instanceof Promise));
    }
  }

  /** Requests in flight at most (--concurrency, mcp.concurrency); also how many walks run at once. */
  get concurrency(): number {
    return this.#env.target.concurrency;
  }

  get signal(): AbortSignal {
    return this.#env.signal;
  }

  get requests(): number {
    return this.session.requests;
  }

  close(): Promise<void> {
    return this.session.close();
  }

  /** The value `make` gives, made the first time `key` is asked for in this run and shared after. */
  once<T>(key: string, make: () => T): T {
    if (!this.#made.has(key)) {
      const made = make();
      // A shared job that fails (a budget cut short) rejects for every check awaiting it, never as an unhandled rejection.
      if (made instanceof Promise) made.catch(() => {});
      this.#made.set(key, made);
    }
    return this.#made.get(key) as T;
  }

  /** Shows (or, with null, clears) what a shared scenario waits on. */
  waiting(key: string, text: string | null): void {
    this.#env.onWaiting(key, text);
  }

  /** An error's message with every token taken out. */
  redact(message: string): string {
    return this.#env.redactor.text(message);
  }

  /**
   * Calls `read` every `interval(elapsedMs, polls)` until `done` says so or the deadline passes, showing what it
   * waits on. Returns every outcome and whether it finished.
   */
  async poll<O extends CallOutcome>(
    label: string,
    read: () => Promise<O>,
    done: (o: O) => boolean,
    interval: (elapsedMs: number, polls: number) => number,
    deadlineMs: number,
    onWaiting: (text: string | null) => void = (text) => this.waiting(label, text),
  ): Promise<PollResult<O>> {
    const clock = this.#env.target.clock;
    const started = clock.now();
    const outcomes: O[] = [];
    const times: number[] = [];
    try {
      for (let polls = 0; ; polls++) {
        const elapsed = clock.now() - started;
        const wait = interval(elapsed, polls);
        if (elapsed + wait > deadlineMs) return { outcomes, times, finished: false, elapsedMs: elapsed };
        onWaiting(`${label}, poll ${polls + 1}, ${(elapsed / 1000).toFixed(1)} s of ${(deadlineMs / 1000).toFixed(1)} s`);
        await sleep(wait, this.#env.signal, clock);
        const o = await read();
        outcomes.push(o);
        times.push(clock.now() - started);
        if (done(o)) return { outcomes, times, finished: true, elapsedMs: clock.now() - started };
      }
    } finally {
      onWaiting(null);
    }
  }
}
