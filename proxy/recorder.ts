// What the proxy keeps of a session, bounded however long it runs: counts per protocol and per rule, the most
// recent violations, and for each rule the first few exchanges that broke it, redacted (every bearer token seen
// is replaced wherever it appears, with the conformance suite's Redactor).
import { redactedMark, Redactor } from "../conformance/redact.js";
import { Lru } from "./lru.js";
import type { Exchange, Protocol, Side, Verdict } from "./types.js";

/** One violation as the proxy reports it. */
export interface ViolationRecord {
  seq: number;
  protocol: Protocol;
  label: string;
  outcome: string;
  rules: string[];
  reason: string;
  side: Side;
}

/** An exchange as a report shows it: redacted, bodies cut to a few KB. */
export interface ShownExchange {
  method: string;
  path: string;
  status: number;
  ms: number;
  requestHeaders: Record<string, string>;
  requestBody: string;
  responseHeaders: Record<string, string>;
  responseBody: string;
}

export interface RuleTally {
  rule: string;
  count: number;
  /** The first few violations of the rule, each with its exchange. */
  examples: (ViolationRecord & { exchange: ShownExchange })[];
}

export interface ProxyReport {
  startedAt: string;
  endedAt: string;
  exchanges: { rest: number; mcp: number };
  /** Exchanges with at least one violation. */
  failedExchanges: number;
  violations: number;
  /** Violations by whose they are: the client's requests, the service's answers. */
  bySide: Record<Side, number>;
  byRule: RuleTally[];
  /** Distinct notes with how often each came (the first 200 distinct ones). */
  notes: { text: string; count: number }[];
}

/** Caps of what is kept (see the README's "Bounded memory"). */
export const recorderCaps = { recentViolations: 1_000, examplesPerRule: 3, shownBodyChars: 4_000, distinctNotes: 200, tokens: 256 };

/** An Authorization value with only its scheme left: `Bearer [redacted]`. */
export const schemeOnly = (authorization: unknown): string => String(authorization).replace(/^(\s*\S+\s+).*$/s, `$1${redactedMark}`);

const cut = (s: string, n: number) => (s.length > n ? `${s.slice(0, n)}… (${s.length - n} more characters)` : s);

export class Recorder {
  readonly startedAt = new Date();
  readonly exchanges = { rest: 0, mcp: 0 };
  failedExchanges = 0;
  violationCount = 0;
  readonly #bySide: Record<Side, number> = { client: 0, service: 0 };
  readonly #recent: ViolationRecord[] = [];
  readonly #byRule = new Map<string, RuleTally>();
  readonly #notes = new Map<string, number>();
  readonly #tokens = new Lru<string, true>(recorderCaps.tokens);
  #redactor = new Redactor([]);

  /** Learns the bearer token of a request, so that no output ever shows it. */
  learnToken(authorization: string | string[] | undefined): void {
    const token = /^\s*Bearer\s+(\S+)/i.exec(String(authorization ?? ""))?.[1];
    if (!token || this.#tokens.get(token)) return;
    this.#tokens.set(token, true);
    this.#redactor = new Redactor(this.#tokens.keys());
  }

  text(s: string): string {
    return this.#redactor.text(s);
  }

  /** Records the verdict of an exchange; returns its violations as recorded (redacted). */
  record(ex: Exchange, v: Verdict): ViolationRecord[] {
    this.exchanges[ex.protocol]++;
    for (const n of v.notes) {
      const text = this.text(n);
      const seen = this.#notes.get(text);
      if (seen !== undefined) this.#notes.set(text, seen + 1);
      else if (this.#notes.size < recorderCaps.distinctNotes) this.#notes.set(text, 1);
    }
    if (!v.violations.length) return [];
    this.failedExchanges++;
    let shown: ShownExchange | undefined;
    const out: ViolationRecord[] = [];
    for (const violation of v.violations) {
      const rec: ViolationRecord = { seq: ex.seq, protocol: ex.protocol, label: this.text(v.label), outcome: v.outcome, rules: violation.rules, reason: this.text(violation.reason), side: violation.side };
      out.push(rec);
      this.violationCount++;
      this.#bySide[rec.side]++;
      this.#recent.push(rec);
      if (this.#recent.length > recorderCaps.recentViolations) this.#recent.shift();
      for (const rule of rec.rules) {
        let tally = this.#byRule.get(rule);
        if (!tally) this.#byRule.set(rule, (tally = { rule, count: 0, examples: [] }));
        tally.count++;
        if (tally.examples.length < recorderCaps.examplesPerRule) tally.examples.push({ ...rec, exchange: (shown ??= this.show(ex)) });
      }
    }
    return out;
  }

  /** The exchange with every token replaced and bodies cut. */
  show(ex: Exchange): ShownExchange {
    const headers = (h: Exchange["requestHeaders"]) =>
      Object.fromEntries(
        Object.entries(h)
          .filter(([, x]) => x !== undefined)
          .map(([k, x]) => [k, k === "authorization" ? schemeOnly(x) : this.text(Array.isArray(x) ? x.join(", ") : String(x))]),
      );
    return {
      method: ex.method,
      path: this.text(ex.path),
      status: ex.status,
      ms: Math.round(ex.ms * 10) / 10,
      requestHeaders: headers(ex.requestHeaders),
      requestBody: this.text(cut(ex.requestText, recorderCaps.shownBodyChars)),
      responseHeaders: headers(ex.responseHeaders),
      responseBody: this.text(cut(ex.responseText, recorderCaps.shownBodyChars)),
    };
  }

  /** The most recent violations (at most recorderCaps.recentViolations). */
  violations(): ViolationRecord[] {
    return [...this.#recent];
  }

  report(): ProxyReport {
    return {
      startedAt: this.startedAt.toISOString(),
      endedAt: new Date().toISOString(),
      exchanges: { ...this.exchanges },
      failedExchanges: this.failedExchanges,
      violations: this.violationCount,
      bySide: { ...this.#bySide },
      byRule: [...this.#byRule.values()].sort((a, b) => b.count - a.count || a.rule.localeCompare(b.rule)).map((t) => ({ ...t, examples: [...t.examples] })),
      notes: [...this.#notes].map(([text, count]) => ({ text, count })),
    };
  }
}
