// Collects the violations and notes of one exchange; it is the Judge the conformance assertions report to.
import { ruleList, type Judge, type RuleRef } from "../conformance/core/judge.js";
import { defaultTiming } from "../conformance/suites/rest/target.js";
import { inferredOnly } from "./provenance.js";
import type { Side, Violation } from "./types.js";

export class Findings implements Judge {
  readonly violations: Violation[] = [];
  readonly notes: string[] = [];

  violate(rules: RuleRef, reason: string, side: Side = "service"): void {
    // The same rule and reason twice (two assertions seeing one fault) is one violation.
    const ids = ruleList(rules);
    if (this.violations.some((v) => v.reason === reason && v.rules.join() === ids.join())) return;
    // The service breaking only what we inferred is drift, as in the conformance suite's verdicts.
    this.violations.push({ rules: ids, reason, side: side === "service" && inferredOnly(ids) ? "drift" : side });
  }

  /** Records a violation unless `ok`; returns `ok`. */
  check(ok: boolean, rules: RuleRef, reason: string, side: Side = "service"): boolean {
    if (!ok) this.violate(rules, reason, side);
    return ok;
  }

  note(text: string): void {
    if (!this.notes.includes(text)) this.notes.push(text);
  }

  // As a Judge (conformance/core/judge.ts), the conformance assertions judge one exchange exactly as they judge a
  // check's calls: a failed `expect` is a violation by the service.
  expect(ok: boolean, rules: RuleRef, message: string): boolean {
    return this.check(ok, rules, message);
  }

  fail(rules: RuleRef, message: string): never {
    this.violate(rules, message);
    throw new Error(message);
  }

  /** The contract's default, "within seconds"; the proxy always holds the service to it. */
  readonly speed = { withinMs: defaultTiming.answer_within_seconds * 1000, judged: true };
}
