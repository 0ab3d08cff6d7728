// What the proxy keeps of a session, bounded however long it runs: counts per protocol and per rule, the most
// recent violations, for each rule the first few exchanges that broke it, and the exchanges it did not judge
// against the service (client faults, unjudged, no answer), all redacted: secret headers by name, and every
// credential seen, wherever it appears, with the conformance suite's Redactor.
//
// A text is redacted when it is kept, with the secrets known then, and again when it is handed out (report(),
// violations()) with the secrets learnt since: a service may echo a value at one exchange that a client sends as
// its credential only later. The kept texts are bounded (recorderCaps) and are scanned again only when a secret
// learnt since may be in them (text-windows.ts), never once per exchange.
import type { RuleId } from "../generated/rules.js";
import { Redactor } from "../conformance/core/redact.js";
import { Lru } from "./lru.js";
import { bodyCredentials, SecretHeaders, secretsOfTarget } from "./secrets.js";
import { TextWindows } from "./text-windows.js";
import type { Exchange, Protocol, Verdict, ViolationSide } from "./types.js";

/** An exchange's bodies with their credential members hidden, and the long ones (secrets.ts bodyCredentials): read once per exchange recorded. */
type ShownBodies = Record<"request" | "response", ReturnType<typeof bodyCredentials>>;

/** One violation as the proxy reports it. */
export interface ViolationRecord {
  seq: number;
  protocol: Protocol;
  label: string;
  outcome: string;
  rules: RuleId[];
  reason: string;
  side: ViolationSide;
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
  rule: RuleId;
  count: number;
  /** The rule's violations by whose they are (they add up to count): the service's alone fail a run. */
  bySide: Record<ViolationSide, number>;
  /**
   * The first few violations of the rule, each with its exchange; the service's first one always among them (it
   * takes the last place when the first few were all the client's or drift).
   */
  examples: (ViolationRecord & { exchange: ShownExchange })[];
}

/** An exchange the proxy did not judge against the service, with why. */
export interface SetAside {
  seq: number;
  protocol: Protocol;
  label: string;
  reason: string;
}

/** Exchanges set aside for one kind of reason: how many, and the first few. */
export interface SetAsideTally {
  kind: string;
  count: number;
  examples: SetAside[];
}

export interface ProxyReport {
  startedAt: string;
  endedAt: string;
  exchanges: { rest: number; mcp: number };
  /** Exchanges with at least one violation. */
  failedExchanges: number;
  violations: number;
  /** Violations by whose they are: the client's requests, the service's answers, the service's drift (inferred rules only). */
  bySide: Record<ViolationSide, number>;
  byRule: RuleTally[];
  /**
   * Notes by kind (what a note says, its ids, numbers and quoted values aside: noteKind), the first 200 kinds: how
   * many of each kind came, and the first one's text.
   */
  notes: { text: string; count: number }[];
  /** Exchanges not judged against the service because the client sent what cannot be judged: never the service's fault. */
  clientFaults: { count: number; byKind: SetAsideTally[] };
  /** Exchanges the proxy could not judge, with why. */
  unjudged: { count: number; byKind: SetAsideTally[] };
  /** Exchanges the service never answered (unreachable, broke off): failures, counted by --fail-on-violation. */
  noAnswer: { count: number; byKind: SetAsideTally[] };
}

/** Caps of what is kept (see the README's "Bounded memory"). */
export const recorderCaps = { recentViolations: 1_000, examplesPerRule: 3, shownBodyChars: 4_000, distinctNotes: 200, tokens: 10_000, setAsideKinds: 50, setAsideExamples: 5 };

export { schemeOnly } from "./secrets.js";

type SetAsideWhat = "clientFaults" | "unjudged" | "noAnswer";

/** Characters a credential is usually made of: a text is never cut inside a run of them. */
const tokenChar = /[A-Za-z0-9\-_.~+/=%]/;

/**
 * Where to cut a text to at most n characters: never inside a run of characters a credential is made of, however
 * long (a JWT runs to a thousand): a secret learnt after the cut could not be matched in a part of it, and that
 * part would show. A text that is one such run from its start is cut to nothing (its length is still told).
 */
export function cutIndex(s: string, n: number): number {
  if (s.length <= n || !tokenChar.test(s[n]!)) return Math.min(n, s.length);
  let at = n;
  while (at > 0 && tokenChar.test(s[at - 1]!)) at--;
  return at;
}

function cutText(s: string, n: number): string {
  if (s.length <= n) return s;
  const at = cutIndex(s, n);
  return `${s.slice(0, at)}… (${s.length - at} more characters)`;
}

/**
 * What a note says about the contract, without what differs from one exchange to the next: quoted values, every
 * word with a digit (ids, sequence numbers, statuses, milliseconds, array indices) and words that look like ids
 * without one (long and of mixed case, or a short prefix and an underscore). Notes of one kind are one entry.
 */
export function noteKind(text: string): string {
  return text
    .replace(/"(?:[^"\\]|\\.)*"/g, '"…"')
    .replace(/[\w.~+%-]*\d[\w.~+%-]*/g, "#")
    .replace(/\b(?=[A-Za-z_-]*[a-z])(?=[A-Za-z_-]*[A-Z])[A-Za-z_-]{16,}\b|\b[a-z]{1,4}_[A-Za-z]{10,}\b/g, "#");
}

/** The kind of a set-aside reason: its head ("too deep: …" → "too deep"), so one flood of a kind stays one entry. */
const asideKind = (reason: string) => reason.split(":")[0]!.slice(0, 80);

export class Recorder {
  readonly startedAt = new Date();
  readonly exchanges = { rest: 0, mcp: 0 };
  failedExchanges = 0;
  violationCount = 0;
  readonly #bySide: Record<ViolationSide, number> = { client: 0, service: 0, drift: 0 };
  readonly #recent: ViolationRecord[] = [];
  readonly #byRule = new Map<string, RuleTally>();
  /** Note kind (noteKind) → how many came and the first one's text. */
  #notes = new Map<string, { text: string; count: number }>();
  // Read for every request (most carry a token already known): a known token moves only now and then (lru.ts).
  readonly #tokens = new Lru<string, true>(recorderCaps.tokens, { refreshAfter: recorderCaps.tokens / 2 });
  readonly #redactor = new Redactor([]);
  /**
   * Tokens learnt (in #tokens) and not yet given to the redactor: they are added only when a text is about to be
   * redacted. A quiet proxy redacts nothing for most exchanges, so a token let go before any output is never
   * added nor deleted (a new token with every request: those two were most of what learning one cost).
   */
  readonly #unadded = new Set<string>();
  /** The windows of every text kept (what a new secret is looked up in), and whether one may hold a secret learnt since. */
  readonly #windows = new TextWindows();
  #stale = false;
  readonly #setAside: Record<SetAsideWhat, { count: number; byKind: Map<string, SetAsideTally> }> = {
    clientFaults: { count: 0, byKind: new Map() },
    unjudged: { count: 0, byKind: new Map() },
    noAnswer: { count: 0, byKind: new Map() },
  };
  readonly secretHeaders: SecretHeaders;

  /** `secretHeaders`: header names whose values are secrets, besides Authorization, Proxy-Authorization, Cookie, Set-Cookie, X-Api-Key and those a credential word names (secrets.ts). */
  constructor(options: { secretHeaders?: readonly string[] } = {}) {
    this.secretHeaders = new SecretHeaders(options.secretHeaders);
  }

  /** How much redaction has cost so far (forms added to the redactor, characters scanned): for tests and benches. */
  get redaction() {
    return { ...this.#redactor.stats, tokens: this.#tokens.size };
  }

  /** Learns a secret, so that no output ever shows it; the oldest is forgotten beyond the cap. */
  learnSecret(secret: string): void {
    if (!secret || this.#tokens.get(secret)) return;
    const forgotten = this.#tokens.set(secret, true);
    // The token as the LRU keeps it (a copy of its own, not a slice of the head it came in).
    this.#unadded.add(this.#tokens.newestKey!);
    if (forgotten !== undefined && !this.#unadded.delete(forgotten)) this.#redactor.delete(forgotten);
  }

  /** Learns every secret the headers (any header named secret) and the request target (access_token, …) carry. */
  learn(headers: Record<string, string | string[] | undefined>, target?: string): void {
    // An upstream answers the same head again and again, and the fast path hands the same frozen headers for it
    // (fast-path.ts AnswerHeads): their secrets are found once, as learnRaw's.
    if (headers !== this.#lastLearnt.headers) this.#lastLearnt = { headers: Object.isFrozen(headers) ? headers : undefined, secrets: this.secretHeaders.secrets(headers) };
    for (const s of this.#lastLearnt.secrets) this.learnSecret(s);
    if (target !== undefined) for (const s of secretsOfTarget(target)) this.learnSecret(s);
  }

  /** As learn, from a request's raw headers (every copy of each, as received) and its target. */
  learnRaw(raw: readonly string[], target?: string): void {
    // The fast path hands the same frozen raw headers again for a head read before (fast-path.ts): their secrets
    // are found once, and learnt again each time (which keeps them among the remembered).
    if (raw !== this.#lastRaw.raw) this.#lastRaw = { raw: Object.isFrozen(raw) ? raw : undefined, secrets: this.secretHeaders.secretsOfRaw(raw) };
    for (const s of this.#lastRaw.secrets) this.learnSecret(s);
    if (target !== undefined) for (const s of secretsOfTarget(target)) this.learnSecret(s);
  }
  #lastRaw: { raw: readonly string[] | undefined; secrets: readonly string[] } = { raw: undefined, secrets: [] };
  #lastLearnt: { headers: object | undefined; secrets: readonly string[] } = { headers: undefined, secrets: [] };

  /** Learns the token of an Authorization value (any scheme). */
  learnToken(authorization: string | string[] | undefined): void {
    if (authorization !== undefined) this.learn({ authorization });
  }

  /** Headers with every secret header's value hidden. */
  hide<H extends Record<string, string | string[] | undefined>>(headers: H): H {
    return this.secretHeaders.hide(headers);
  }

  /** The text with every token remembered replaced (those learnt since the last text are added first). */
  text(s: string): string {
    this.#addLearnt();
    return this.#redactor.text(s);
  }

  /** Gives the redactor the tokens learnt since the last text; one a kept text may hold makes the kept texts stale. */
  #addLearnt(): void {
    if (!this.#unadded.size) return;
    // Windows of texts let go fill the bits over a long run: the next output scans and files the kept texts anew.
    if (this.#windows.crowded) this.#stale = true;
    for (const secret of this.#unadded) {
      this.#redactor.add(secret);
      if (!this.#stale && this.#windows.mayHold(secret)) this.#stale = true;
    }
    this.#unadded.clear();
  }

  /** Files the windows of texts about to be kept (already redacted). */
  #file(...texts: string[]): void {
    for (const s of texts) this.#windows.add(s);
  }

  /** The kept texts redacted with every secret known now, when a secret learnt since they were kept may be in them. */
  #current(): void {
    this.#addLearnt();
    if (!this.#stale) return;
    this.#stale = false;
    this.#eachKept((s) => this.#redactor.text(s));
  }

  /**
   * Every kept text replaced by `f` of it (and the windows filed again), tallies keyed by a text merged when two
   * keys became one. New objects throughout: what was handed out before stays as it was.
   */
  #eachKept(f: (s: string) => string): void {
    this.#windows.clear();
    const t = (s: string) => {
      const out = f(s);
      this.#windows.add(out);
      return out;
    };
    const record = <R extends ViolationRecord | SetAside>(r: R): R => ({ ...r, label: t(r.label), reason: t(r.reason), ...("outcome" in r ? { outcome: t(r.outcome) } : {}) });
    const headers = (h: Record<string, string>) => Object.fromEntries(Object.entries(h).map(([k, v]) => [k, t(v)]));
    for (let i = 0; i < this.#recent.length; i++) this.#recent[i] = record(this.#recent[i]!);
    const shown = new Map<ShownExchange, ShownExchange>();
    const show = (x: ShownExchange): ShownExchange => {
      let out = shown.get(x);
      if (!out) {
        out = { ...x, method: t(x.method), path: t(x.path), requestHeaders: headers(x.requestHeaders), requestBody: t(x.requestBody), responseHeaders: headers(x.responseHeaders), responseBody: t(x.responseBody) };
        shown.set(x, out);
      }
      return out;
    };
    for (const tally of this.#byRule.values()) tally.examples = tally.examples.map((e) => ({ ...record(e), exchange: show(e.exchange) }));
    const notes = new Map<string, { text: string; count: number }>();
    for (const n of this.#notes.values()) {
      const text = t(n.text);
      const kind = noteKind(text);
      const had = notes.get(kind);
      if (had) had.count += n.count;
      else notes.set(kind, { text, count: n.count });
    }
    this.#notes = notes;
    for (const group of Object.values(this.#setAside)) {
      const byKind = new Map<string, SetAsideTally>();
      for (const tally of group.byKind.values()) {
        const examples = tally.examples.map(record);
        const kind = asideKind(examples[0]!.reason);
        const had = byKind.get(kind);
        if (had) {
          had.count += tally.count;
          had.examples = [...had.examples, ...examples].slice(0, recorderCaps.setAsideExamples);
        } else byKind.set(kind, { kind, count: tally.count, examples });
      }
      group.byKind = byKind;
    }
    this.#windows.rebuilt();
  }

  /** Sets an exchange aside (not judged against the service) under the kind its reason starts with. */
  setAside(what: SetAsideWhat, ex: Pick<Exchange, "seq" | "protocol">, label: string, reason: string): SetAside {
    const rec: SetAside = { seq: ex.seq, protocol: ex.protocol, label: this.text(label), reason: this.text(reason) };
    const group = this.#setAside[what];
    group.count++;
    const kind = asideKind(rec.reason);
    let tally = group.byKind.get(kind);
    if (!tally && group.byKind.size < recorderCaps.setAsideKinds) group.byKind.set(kind, (tally = { kind, count: 0, examples: [] }));
    if (tally) {
      tally.count++;
      if (tally.examples.length < recorderCaps.setAsideExamples) {
        tally.examples.push(rec);
        this.#file(rec.label, rec.reason);
      }
    }
    return rec;
  }

  /** Records the verdict of an exchange; returns its violations as recorded (redacted). */
  record(ex: Exchange, v: Verdict): ViolationRecord[] {
    this.exchanges[ex.protocol]++;
    if (v.clientFault !== undefined) this.setAside("clientFaults", ex, v.label, v.clientFault);
    if (v.unjudged !== undefined) this.setAside("unjudged", ex, v.label, v.unjudged);
    if (v.noAnswer !== undefined) this.setAside("noAnswer", ex, v.label, v.noAnswer);
    for (const n of v.notes) {
      const text = this.text(n);
      const kind = noteKind(text);
      const seen = this.#notes.get(kind);
      if (seen) seen.count++;
      else if (this.#notes.size < recorderCaps.distinctNotes) {
        this.#notes.set(kind, { text, count: 1 });
        this.#file(text);
      }
    }
    if (!v.violations.length) return [];
    this.failedExchanges++;
    // An exchange with violations may be shown (its bodies too): the credentials its bodies carry are learnt first,
    // so that no text of it, its reasons included, shows one.
    const bodies = { request: bodyCredentials(ex.requestText), response: bodyCredentials(ex.responseText) };
    for (const s of [...bodies.request.secrets, ...bodies.response.secrets]) this.learnSecret(s);
    let shown: ShownExchange | undefined;
    const out: ViolationRecord[] = [];
    for (const violation of v.violations) {
      // A copy: the verdict is shared and frozen (judge-worker.ts ParsedVerdicts); a record is the caller's to sort or change.
      const rec: ViolationRecord = { seq: ex.seq, protocol: ex.protocol, label: this.text(v.label), outcome: this.text(v.outcome), rules: [...violation.rules], reason: this.text(violation.reason), side: violation.side };
      out.push(rec);
      this.violationCount++;
      this.#bySide[rec.side]++;
      this.#recent.push(rec);
      this.#file(rec.label, rec.outcome, rec.reason);
      if (this.#recent.length > recorderCaps.recentViolations) this.#recent.shift();
      for (const rule of rec.rules) {
        let tally = this.#byRule.get(rule);
        if (!tally) this.#byRule.set(rule, (tally = { rule, count: 0, bySide: { service: 0, client: 0, drift: 0 }, examples: [] }));
        tally.count++;
        tally.bySide[rec.side]++;
        // The service's first violation of a rule is always shown: it is what fails the rule (JUnit, Markdown).
        const at =
          tally.examples.length < recorderCaps.examplesPerRule ? tally.examples.length
          : rec.side === "service" && tally.bySide.service === 1 ? recorderCaps.examplesPerRule - 1
          : -1;
        if (at >= 0) tally.examples[at] = { ...rec, exchange: (shown ??= this.#shown(ex, bodies)) };
      }
    }
    return out;
  }

  /** As show, its texts filed as kept. */
  #shown(ex: Exchange, bodies: ShownBodies): ShownExchange {
    const x = this.show(ex, bodies);
    this.#file(x.method, x.path, ...Object.values(x.requestHeaders), x.requestBody, ...Object.values(x.responseHeaders), x.responseBody);
    return x;
  }

  /** The exchange with every token replaced, bodies' credential members hidden, and bodies cut (redacted whole, then cut). */
  show(ex: Exchange, bodies: ShownBodies = { request: bodyCredentials(ex.requestText), response: bodyCredentials(ex.responseText) }): ShownExchange {
    const headers = (h: Exchange["requestHeaders"]) =>
      Object.fromEntries(
        Object.entries(this.hide(h))
          .filter(([, x]) => x !== undefined)
          .map(([k, x]) => [k, this.text(Array.isArray(x) ? x.join(", ") : String(x))]),
      );
    return {
      method: this.text(ex.method),
      path: this.text(ex.path),
      status: ex.status,
      ms: Math.round(ex.ms * 10) / 10,
      requestHeaders: headers(ex.requestHeaders),
      requestBody: cutText(this.text(bodies.request.hidden), recorderCaps.shownBodyChars),
      responseHeaders: headers(ex.responseHeaders),
      responseBody: cutText(this.text(bodies.response.hidden), recorderCaps.shownBodyChars),
    };
  }

  /** The most recent violations (at most recorderCaps.recentViolations). */
  violations(): ViolationRecord[] {
    this.#current();
    return [...this.#recent];
  }

  report(): ProxyReport {
    this.#current();
    return {
      startedAt: this.startedAt.toISOString(),
      endedAt: new Date().toISOString(),
      exchanges: { ...this.exchanges },
      failedExchanges: this.failedExchanges,
      violations: this.violationCount,
      bySide: { ...this.#bySide },
      byRule: [...this.#byRule.values()].sort((a, b) => b.count - a.count || a.rule.localeCompare(b.rule)).map((t) => ({ ...t, bySide: { ...t.bySide }, examples: [...t.examples] })),
      notes: [...this.#notes.values()].map(({ text, count }) => ({ text, count })),
      clientFaults: this.#tallies("clientFaults"),
      unjudged: this.#tallies("unjudged"),
      noAnswer: this.#tallies("noAnswer"),
    };
  }

  #tallies(what: SetAsideWhat): { count: number; byKind: SetAsideTally[] } {
    const g = this.#setAside[what];
    return { count: g.count, byKind: [...g.byKind.values()].map((t) => ({ ...t, examples: [...t.examples] })) };
  }
}
