// The expected-failures baseline: a YAML list of check ids that are known to fail. A failure not listed fails
// the run; so does a listed check that now passes (the baseline must shrink with the fixes).
import { readFileSync } from "node:fs";
import { parse } from "yaml";
import type { CheckResult } from "../check.js";

/**
 * `drift`: a failure of inferred rules only, against a target other than the reference (not --strict).
 * `error`: the check could not judge (the suite broke, or the budget ran out): exit code 3, not a failure of the target.
 */
export type Verdict = "pass" | "fail" | "skip" | "expected-failure" | "fixed" | "drift" | "error";

export interface BaselineOutcome {
  /** Ids listed in the baseline. */
  listed: string[];
  /** Listed ids that name no check of this run. */
  unknown: string[];
}

/** Reads a baseline: a YAML list of ids, or a mapping with `expected_failures:` holding one. */
export function loadBaseline(file: string): string[] {
  let data: unknown;
  try {
    data = parse(readFileSync(file, "utf8"));
  } catch (err) {
    throw new Error(`cannot read the expected-failures file ${file}: ${(err as Error).message}`);
  }
  if (data === null || data === undefined) return [];
  const list = Array.isArray(data) ? data : (data as Record<string, unknown>).expected_failures;
  if (!Array.isArray(list) || !list.every((x) => typeof x === "string"))
    throw new Error(`${file} must be a YAML list of check ids (or expected_failures: [ids])`);
  return list as string[];
}

export function verdictOf(result: CheckResult, listed: ReadonlySet<string>, drift = false): Verdict {
  if (result.status === "error") return "error";
  if (!listed.has(result.id)) return drift ? "drift" : result.status;
  if (result.status === "fail") return "expected-failure";
  if (result.status === "pass") return "fixed";
  return "skip";
}

/** Whether a verdict fails the run. */
export const failsRun = (v: Verdict) => v === "fail" || v === "fixed";
