// Judging off the forwarding path: the proxy hands each forwarded exchange to a judge worker (a worker thread,
// judge-worker.ts) and goes on forwarding; the verdicts come back in order and are recorded then. The backlog of
// exchanges waiting for a verdict is bounded (count and bytes): when it is full, an exchange is not judged and is
// recorded as unjudged ("judge backlog full"), never as passed. Without a worker (asked so, none can start, or
// one died), the same judge runs in this thread, deferred (in batches after the exchanges end), with the same
// bounds. Either way verdicts are recorded in the order the exchanges ended.
import type { Worker } from "node:worker_threads";
import { siblingModule, startModuleWorker } from "../lib/module-worker.js";
import { exchangeOf, judgeExchangeText, newJudgeStates, type ExchangeData, type JudgeStates } from "./judge-exchange.js";
import { judgeWorkerKind, packJobs, ParsedVerdicts, unpackVerdicts, type FromJudge, type JudgeWorkerData } from "./judge-worker.js";
import type { SecretHeaders } from "./secrets.js";
import type { Exchange, Verdict } from "./types.js";

/** Default bounds of the backlog: exchanges waiting for a verdict, and the bytes of their bodies. */
export const defaultJudgeBacklog = { exchanges: 2_000, bytes: 64 * 2 ** 20 };

/** A batch handed over at once; otherwise what came within this many milliseconds. */
const handOverBatch = 256;
const handOverMs = 25;

export interface JudgeQueueOptions {
  secrets: SecretHeaders;
  /** At most this many exchanges wait for a verdict (0: judge none); more are recorded unjudged. */
  maxBacklog?: number;
  maxBacklogBytes?: number;
  /** Judge in this thread (deferred) instead of a worker. */
  inline?: boolean;
  /** Each exchange with its verdict, in the order they were handed over. */
  onVerdict: (exchange: Exchange, verdict: Verdict) => void;
}

/** The judge worker (judge-worker.ts, or its build), started as lib/module-worker.ts starts a module. */
function startWorker(secretHeaders: string[]): Worker | undefined {
  const data: JudgeWorkerData = { kind: judgeWorkerKind, secretHeaders };
  return startModuleWorker(siblingModule(import.meta.url, "judge-worker"), data);
}

interface Entry {
  d: ExchangeData;
  verdict?: Verdict;
}

export class JudgeQueue {
  readonly #options: JudgeQueueOptions;
  readonly #maxBacklog: number;
  readonly #maxBytes: number;
  /** Handed over to be judged, no verdict yet. */
  readonly #pending = new Map<number, Entry>();
  #bytes = 0;
  /** Every exchange not yet recorded, in the order they were handed over (verdicts are recorded in this order). */
  #order: (Entry | undefined)[] = [];
  #head = 0;
  /** Handed over, not yet sent to the judge. */
  #outbox: ExchangeData[] = [];
  #flushing = false;
  #worker: Worker | undefined;
  #inline: JudgeStates | undefined;
  #waiters: (() => void)[] = [];
  /** Verdict texts parsed, each once while recent (shared, frozen verdicts). */
  readonly #parsed = new ParsedVerdicts();
  /** Why judging moved into this thread, when a worker failed. */
  workerFailure: string | undefined;

  constructor(options: JudgeQueueOptions) {
    this.#options = options;
    this.#maxBacklog = options.maxBacklog ?? defaultJudgeBacklog.exchanges;
    this.#maxBytes = options.maxBacklogBytes ?? defaultJudgeBacklog.bytes;
    if (!Number.isInteger(this.#maxBacklog) || this.#maxBacklog < 0) throw new Error(`the judge backlog must be a whole number ≥ 0, got ${this.#maxBacklog}`);
    if (!options.inline) {
      try {
        this.#worker = startWorker([...options.secrets.names]);
      } catch (err) {
        this.workerFailure = (err as Error).message;
      }
    }
    if (this.#worker) this.#listen(this.#worker);
    else this.#inline = newJudgeStates();
  }

  /** Where judging runs. */
  get mode(): "worker" | "inline" {
    return this.#worker ? "worker" : "inline";
  }

  /** Exchanges waiting for a verdict. */
  get backlog(): number {
    return this.#pending.size;
  }

  /** Hands an exchange over to be judged; false (not taken) when the backlog is full. */
  submit(d: ExchangeData): boolean {
    const size = d.request.byteLength + d.response.byteLength;
    if (this.#pending.size >= this.#maxBacklog || (this.#pending.size > 0 && this.#bytes + size > this.#maxBytes)) return false;
    const entry: Entry = { d };
    this.#pending.set(d.seq, entry);
    this.#order.push(entry);
    this.#bytes += size;
    this.#outbox.push(d);
    // Exchanges are handed over in batches: a message wakes the worker (and its answer this thread), which on a
    // busy machine costs more than judging a small exchange. What came within 25 ms, or a full batch at once;
    // verdicts are never on the forwarding path, so the wait delays only the record.
    if (this.#outbox.length >= handOverBatch) this.#flush();
    else if (!this.#flushing) {
      this.#flushing = true;
      setTimeout(() => {
        this.#flushing = false;
        this.#flush();
      }, handOverMs);
    }
    return true;
  }

  /**
   * Records an exchange whose verdict needs no judge (a failed forward, a full backlog) in its place: after the
   * exchanges handed over before it. Only while few wait: beyond twice the backlog it is recorded at once.
   */
  record(d: ExchangeData, verdict: Verdict): void {
    const waiting = this.#order.length - this.#head;
    if (!waiting || waiting >= 2 * this.#maxBacklog) return this.#options.onVerdict(exchangeOf(d, this.#options.secrets), verdict);
    this.#order.push({ d, verdict });
  }

  /** Resolves once every exchange handed over so far has its verdict recorded. */
  settled(): Promise<void> {
    return this.#order.length > this.#head ? new Promise((resolve) => this.#waiters.push(resolve)) : Promise.resolve();
  }

  /** Judges what is waiting, then stops the worker; what is handed over afterwards is judged in this thread. */
  async close(): Promise<void> {
    await this.settled();
    const w = this.#worker;
    if (!w) return;
    this.#worker = undefined;
    this.#inline = newJudgeStates();
    await w.terminate();
  }

  #flush(): void {
    const jobs = this.#outbox;
    this.#outbox = [];
    if (!jobs.length) return;
    if (this.#worker) {
      // The bodies copied into one buffer, moved (not copied again) to the worker; the originals stay here for the record.
      const batch = packJobs(jobs);
      this.#worker.postMessage(batch, [batch.bodies]);
    } else {
      // As the worker answers: a verdict's text, parsed (once while recent) into a shared, frozen verdict. The same
      // verdicts whichever thread judged, down to the frozen objects the recorder is handed.
      for (const d of jobs) this.#deliver(d.seq, this.#parsed.of(judgeExchangeText(d, this.#options.secrets, this.#inline!)));
    }
  }

  #deliver(seq: number, verdict: Verdict): void {
    const entry = this.#pending.get(seq);
    if (!entry) return;
    this.#pending.delete(seq);
    this.#bytes -= entry.d.request.byteLength + entry.d.response.byteLength;
    entry.verdict = verdict;
    // Record from the oldest while it has its verdict: the record follows the order of forwarding.
    while (this.#head < this.#order.length && this.#order[this.#head]!.verdict) {
      const { d, verdict: v } = this.#order[this.#head]!;
      this.#order[this.#head++] = undefined;
      this.#options.onVerdict(exchangeOf(d, this.#options.secrets), v!);
    }
    if (this.#head === this.#order.length) {
      this.#order = [];
      this.#head = 0;
      for (const w of this.#waiters.splice(0)) w();
    } else if (this.#head > 1024 && this.#head * 2 > this.#order.length) {
      this.#order = this.#order.slice(this.#head);
      this.#head = 0;
    }
  }

  #listen(w: Worker): void {
    w.on("message", (m: FromJudge) => {
      if ("texts" in m) unpackVerdicts(m, this.#parsed, (seq, v) => this.#deliver(seq, v));
    });
    const lost = (why: string) => {
      if (this.#worker !== w) return;
      // The worker is gone with what it was judging: judging moves into this thread, from what it had not answered.
      this.#worker = undefined;
      this.workerFailure = why;
      this.#inline = newJudgeStates();
      this.#outbox = [...this.#pending.values()].map((e) => e.d);
      setImmediate(() => this.#flush());
    };
    w.on("error", (err) => lost(err.message));
    w.on("exit", (code) => lost(`the judge worker exited with ${code}`));
  }
}
