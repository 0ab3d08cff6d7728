// Collects the violations and notes of one exchange. It also stands in for the CheckContext the conformance
// assertions take (conformance/expect.ts, conformance/mcp/expect.ts), so they judge a single exchange as they
// judge a check's calls: a failed `expect` becomes a violation by the service.
import type { CheckContext } from "../conformance/check.js";
import { defaultTiming } from "../conformance/target.js";
import type { Side, Violation } from "./types.js";

const list = (rules: string | readonly string[]) => (typeof rules === "string" ? [rules] : [...rules]);

export class Findings {
  readonly violations: Violation[] = [];
  readonly notes: string[] = [];

  violate(rules: string | readonly string[], reason: string, side: Side = "service"): void {
    // The same rule and reason twice (two assertions seeing one fault) is one violation.
    const ids = list(rules);
    if (this.violations.some((v) => v.reason === reason && v.rules.join() === ids.join())) return;
    this.violations.push({ rules: ids, reason, side });
  }

  /** Records a violation unless `ok`; returns `ok`. */
  check(ok: boolean, rules: string | readonly string[], reason: string, side: Side = "service"): boolean {
    if (!ok) this.violate(rules, reason, side);
    return ok;
  }

  note(text: string): void {
    if (!this.notes.includes(text)) this.notes.push(text);
  }

  /** The findings as the CheckContext the conformance assertions judge with (only what they use is real). */
  context(): CheckContext {
    const unused = (what: string) => () => {
      throw new Error(`the proxy's judges do not use ctx.${what}`);
    };
    const violations = this.violations;
    const ctx = {
      // Only the answer-time limit is read (expectFast): the contract's default, "within seconds".
      target: { timing: { answerWithinMs: defaultTiming.answer_within_seconds * 1000 } },
      expect: (ok: boolean, rules: string | readonly string[], message: string) => this.check(ok, rules, message),
      fail: (rules: string | readonly string[], message: string): never => {
        this.violate(rules, message);
        throw new Error(message);
      },
      skip: unused("skip") as () => never,
      note: (text: string) => this.note(text),
      waiting: () => {},
      get failed() {
        return violations.length > 0;
      },
      get api(): never {
        return unused("api")() as never;
      },
      get fixtures(): never {
        return unused("fixtures")() as never;
      },
    };
    return ctx as unknown as CheckContext;
  }
}
