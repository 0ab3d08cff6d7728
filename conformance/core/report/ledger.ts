// The coverage ledger: every rule of the catalogue with what the run made of it. A rule passes only when every
// case that enforces it ran and passed; skipped cases make it `partial`; no case run makes it `skipped`; no check
// naming it makes it `not-covered` (or `not-observable` when the catalogue says nobody can see it).
//
// A case is a check's verdict on one rule: every `ctx.expect`/`ctx.fail` naming the rule records one. A check that
// names a rule but records no case for it has not enforced it (it counts as a skipped case); a check that names a
// family must record a case per member, so one tried member never passes the others.
import type { CheckResult } from "../check.js";
import type { SuiteId } from "../suite.js";
import type { Provenance, Rule, RuleCatalogue } from "../rules.js";

export type LedgerStatus = "pass" | "fail" | "partial" | "skipped" | "not-covered" | "not-observable";

export interface LedgerCase {
  check: string;
  outcome: "pass" | "fail" | "skipped";
  /** Why the case did not run. */
  why?: string;
}

export interface LedgerEntry {
  /** The suite whose catalogue the rule is in (spec/rules/<suite>.yaml). */
  suite: SuiteId;
  id: string;
  statement: string;
  section: string;
  provenance: Provenance;
  testable: Rule["testable"];
  status: LedgerStatus;
  /** Checks that name the rule (or its family). */
  checks: string[];
  /** Checks with a failure attributed to the rule. */
  failedBy: string[];
  /** Each enforcing check's case. */
  cases: LedgerCase[];
  /** Where its cases were judged in this run: the operations (REST) or tools (MCP) whose replies it judged. */
  places: string[];
  /** Why it is partial, skipped, not covered or not observable. */
  why?: string;
}

/** How one check's run bears on one rule it enforces. */
function caseOf(rule: Rule, result: CheckResult, viaFamily: boolean): LedgerCase {
  const check = result.id;
  const failedHere = result.failures.some((f) => names(f.rules, rule));
  const recorded = result.cases[rule.id];
  if (failedHere || recorded === "fail") return { check, outcome: "fail" };
  // A case that ran before the check gave up still counts.
  if (recorded === "pass") return { check, outcome: "pass" };
  if (result.status === "skip") return { check, outcome: "skipped", why: result.reason ?? "skipped" };
  if (result.status === "error") return { check, outcome: "skipped", why: `${check} ended in error (${result.error?.kind === "budget" ? "out of budget" : "a suite error"}) before judging it` };
  return {
    check,
    outcome: "skipped",
    why: viaFamily ? `${check} ran but tried no case of this member` : result.status === "fail" ? `${check} stopped before reaching this rule` : `${check} ran but recorded no case of this rule`,
  };
}

/** Whether a list of rule ids (typed by the contract) holds a catalogue's id (read from its YAML). */
const has = (refs: readonly string[] | undefined, id: string) => !!refs && refs.includes(id);
const names = (refs: readonly string[] | undefined, rule: Rule) => has(refs, rule.id) || (rule.family !== undefined && has(refs, rule.family));

/** `unselected`: rules (or families) that checks left out of the run (--only) would have covered. */
export function buildLedger(
  catalogue: RuleCatalogue,
  results: readonly CheckResult[],
  unselected: ReadonlySet<string> = new Set(),
  suite: SuiteId,
): LedgerEntry[] {
  return catalogue.rules.map((rule) => {
    const cases: LedgerCase[] = [];
    for (const r of results) {
      const direct = has(r.rules, rule.id);
      const viaFamily = !direct && rule.family !== undefined && has(r.rules, rule.family);
      if (direct || viaFamily) cases.push(caseOf(rule, r, viaFamily));
      else if (names(r.incidental, rule)) {
        // Judged in passing: a case only where the check recorded one.
        const failed = r.cases[rule.id] === "fail" || r.failures.some((f) => has(f.rules, rule.id));
        if (failed || r.cases[rule.id] === "pass") cases.push({ check: r.id, outcome: failed ? "fail" : "pass" });
      }
    }
    const base = {
      suite,
      id: rule.id,
      statement: rule.statement,
      section: rule.section,
      provenance: rule.provenance,
      testable: rule.testable,
      checks: cases.map((c) => c.check),
      failedBy: cases.filter((c) => c.outcome === "fail").map((c) => c.check),
      cases,
      places: [...new Set(results.filter((r) => cases.some((c) => c.check === r.id && c.outcome !== "skipped")).flatMap((r) => r.places?.[rule.id] ?? []))].sort(),
    };
    const left = unselected.has(rule.id) || (rule.family !== undefined && unselected.has(rule.family));
    const skipped = cases.filter((c) => c.outcome === "skipped");
    const reasons = [...new Set(skipped.map((c) => c.why!)), ...(left ? ["some of its checks were not selected (--only)"] : [])];
    if (base.failedBy.length) return { ...base, status: "fail" };
    if (cases.some((c) => c.outcome === "pass")) return reasons.length ? { ...base, status: "partial", why: reasons.join("; ") } : { ...base, status: "pass" };
    if (reasons.length) return { ...base, status: "skipped", why: reasons.join("; ") };
    if (rule.testable === "not-observable") return { ...base, status: "not-observable", why: rule.note ?? "not observable from outside" };
    const passing = results.filter((r) => names(r.incidental, rule));
    if (passing.length) return { ...base, status: "not-covered", why: inPassing(passing) };
    return { ...base, status: "not-covered", why: "no check names this rule" };
  });
}

/** Why a rule that checks judge only in passing has no case: none of them came to it in this run. */
function inPassing(checks: readonly CheckResult[]): string {
  const ran = checks.filter((c) => c.status === "pass" || c.status === "fail");
  const ids = (ran.length ? ran : checks).map((c) => c.id).join(", ");
  if (!ran.length) return `judged only in passing, by ${ids}, which did not run to the end`;
  // What a walk comes to follows its seed: a rule one seed reaches, another may not.
  const walks = ran.some((c) => c.group === "walks") ? " (the walks of this walk seed did not come to it: more walks, --walks N, or another --walk-seed may)" : "";
  return `judged only in passing, by ${ids}, which did not come to it in this run${walks}`;
}

export function ledgerCounts(ledger: readonly LedgerEntry[]): Record<LedgerStatus, number> {
  const out: Record<LedgerStatus, number> = { pass: 0, fail: 0, partial: 0, skipped: 0, "not-covered": 0, "not-observable": 0 };
  for (const e of ledger) out[e.status]++;
  return out;
}

/** The figure a run opens with: of the testable rules of a provenance, how many this run enforced. */
export interface Enforcement {
  enforced: number;
  testable: number;
  percent: number;
}

export function enforcement(ledger: readonly LedgerEntry[], provenance: Provenance): Enforcement {
  const testable = ledger.filter((e) => e.provenance === provenance && e.testable !== "not-observable");
  const enforced = testable.filter((e) => e.status === "pass").length;
  return { enforced, testable: testable.length, percent: testable.length ? Math.floor((enforced / testable.length) * 1000) / 10 : 100 };
}

/** "N of M <what> enforced in this run (x%)". */
export const enforcementLine = (e: Enforcement, what: string) => `${e.enforced} of ${e.testable} ${what} enforced in this run (${e.percent}%)`;
