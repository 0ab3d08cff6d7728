// The JSON report: the whole run (target, summary, every check with its failures, the coverage ledger),
// redacted.
import type { RunResult } from "../result.js";

export function jsonReport(result: RunResult): string {
  const { redactor, ...rest } = result;
  return JSON.stringify(redactor.value({ format: "ideas-contract-conformance/1", ...rest }), null, 2) + "\n";
}
