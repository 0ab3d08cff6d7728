// The coverage ledger: every rule of the catalogue with what the run made of it — pass, fail, skipped (why),
// not covered (no check names it) or not observable (no check can; the catalogue says why).
import type { CheckResult } from "../check.js";
import type { Rule, RuleCatalogue } from "../rules.js";

export type LedgerStatus = "pass" | "fail" | "skipped" | "not-covered" | "not-observable";

export interface LedgerEntry {
  /** The catalogue the rule is in: spec/rules/rest.yaml or spec/rules/mcp.yaml. */
  suite: "rest" | "mcp";
  id: string;
  statement: string;
  section: string;
  testable: Rule["testable"];
  status: LedgerStatus;
  /** Checks that name the rule. */
  checks: string[];
  /** Checks with a failure attributed to the rule. */
  failedBy: string[];
  /** Why it was skipped, not covered or not observable. */
  why?: string;
}

/** `unselected`: rules that checks left out of the run (--only) would have covered. */
export function buildLedger(
  catalogue: RuleCatalogue,
  results: readonly CheckResult[],
  unselected: ReadonlySet<string> = new Set(),
  suite: LedgerEntry["suite"] = "rest",
): LedgerEntry[] {
  return catalogue.rules.map((rule) => {
    const covering = results.filter((r) => r.rules.includes(rule.id) || r.failures.some((f) => f.rules.includes(rule.id)));
    const failedBy = results.filter((r) => r.failures.some((f) => f.rules.includes(rule.id))).map((r) => r.id);
    const base = { suite, id: rule.id, statement: rule.statement, section: rule.section, testable: rule.testable, checks: covering.map((r) => r.id), failedBy };
    if (failedBy.length) return { ...base, status: "fail" };
    if (covering.some((r) => r.status !== "skip")) return { ...base, status: "pass" };
    if (rule.testable === "not-observable" && !covering.length) return { ...base, status: "not-observable", why: rule.note ?? "not observable from outside" };
    if (covering.length) {
      const reasons = [...new Set(covering.map((r) => r.reason ?? "skipped"))];
      return { ...base, status: "skipped", why: reasons.join("; ") };
    }
    if (unselected.has(rule.id)) return { ...base, status: "skipped", why: "its checks were not selected (--only)" };
    return { ...base, status: "not-covered", why: "no check names this rule" };
  });
}

export function ledgerCounts(ledger: readonly LedgerEntry[]): Record<LedgerStatus, number> {
  const out: Record<LedgerStatus, number> = { pass: 0, fail: 0, skipped: 0, "not-covered": 0, "not-observable": 0 };
  for (const e of ledger) out[e.status]++;
  return out;
}
