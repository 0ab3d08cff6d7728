// What judging a reply needs, and nothing more: record a case of a rule (expect), stop at a fault the rest cannot be
// judged past (fail), say something that is no failure (note), and how long answers may take. The suite's checks
// and the proxy's per-exchange findings are both Judges, so one set of assertions (conformance/suites/rest/expect.ts,
// conformance/suites/mcp/expect.ts, conformance/suites/mcp/fields.ts) gives the same verdict on the same reply
// wherever it is met.
import type { FileSlot, RuleId } from "../../generated/rules.js";

/** The rule (or rules) a case is of: ids of the catalogues (generated/rules.d.ts), so a misspelt id is a compile error. */
export type RuleRef = RuleId | readonly RuleId[];

export interface Judge {
  /** Records a case of each rule named: a failure unless `ok`; returns `ok`. */
  expect(ok: boolean, rules: RuleRef, message: string): boolean;
  /** Records a failure of the rules and ends the judging of this reply (or check). */
  fail(rules: RuleRef, message: string): never;
  /** Something worth knowing that is no failure (a new enum value, a wait, a slow answer on a busy host). */
  note(text: string): void;
  /**
   * How long an answer may take, and whether a slower one is held against the target (`false` against the embedded
   * reference, which shares the suite's host: there a slow answer is only a note).
   */
  readonly speed: { withinMs: number; judged: boolean };
}

export const ruleList = (rules: RuleRef): RuleId[] => (typeof rules === "string" ? [rules] : [...rules]);

/**
 * `judge.expect`, with the message made only for a failure: messages serialise what was answered, a passing
 * case's message is never read, and the contract proxy judges every exchange it forwards.
 */
export const expectThat = (judge: Pick<Judge, "expect">, ok: boolean, rules: RuleRef, message: () => string): boolean => judge.expect(ok, rules, ok ? "" : message());

/** What the runner gives every check, whatever its protocol: a Judge of the target's replies, and the check's course. */
export interface RunContext extends Judge {
  /** Ends the check as failed. */
  fail(rules: RuleRef, message: string): never;
  /** Ends the check as skipped. */
  skip(reason: string): never;
  /** Says what the check is waiting on (shown in the live view); `null` clears it. */
  waiting(text: string | null): void;
  /** Whether a failure has been recorded so far. */
  readonly failed: boolean;
  /**
   * The value of a target-file slot the check names (core/slots.ts): one of its rules' slots, or one it names in
   * `requiredSlots` or `optionalSlots`. A required slot is always set (the check is skipped before it runs otherwise); an optional one
   * is read with "optional" and may be undefined. Reading a slot the check does not name (unless its suite shares it
   * with every check) is an error of the suite: every value a check takes from the target file is read here.
   */
  slot(name: FileSlot): string;
  slot(name: FileSlot, optional: "optional"): string | undefined;
}
