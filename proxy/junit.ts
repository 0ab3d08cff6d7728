// The proxy's session as JUnit XML, for CI test-report views: one testcase per rule that was broken (a failure
// with its count and first examples), and one that stands for every exchange judged, so a clean session is a
// passing suite rather than an empty one. Rules broken only by the client's requests, or only as drift from rules the
// contract inferred, are reported as skipped: they never fail the run (--fail-on-violation counts the service alone).
// Which it is comes from the rule's counts by side, never from its examples (the first few only).
import { xmlEscape } from "../conformance/core/report/junit.js";
import { sideMark, sidesOfRule, summaryLine } from "./output.js";
import type { ProxyReport, RuleTally } from "./recorder.js";

function ruleCase(t: RuleTally): { xml: string; failed: boolean } {
  const failed = t.bySide.service > 0;
  // The example named is the service's when the rule failed (the recorder always keeps its first one).
  const first = (failed && t.examples.find((e) => e.side === "service")) || t.examples[0];
  const text = t.examples.map((e) => `#${e.seq} ${e.protocol} ${e.label} → ${e.outcome}${sideMark(e.side)}: ${e.reason}`).join("\n");
  const message = `${t.count} violation${t.count === 1 ? "" : "s"}${sidesOfRule(t)}${first ? `, e.g. #${first.seq}: ${first.reason}` : ""}`;
  const why =
    t.bySide.client && t.bySide.drift ? "broken by the client's requests and as drift from a rule the contract inferred (neither is the service's failure)"
    : t.bySide.drift ? "drift from a rule the contract inferred (not a failure)"
    : "broken by the client's requests (not the service's)";
  const body = failed
    ? `      <failure message="${xmlEscape(message)}" type="${xmlEscape(t.rule)}">${xmlEscape(text)}</failure>`
    : `      <skipped message="${xmlEscape(`${why}: ${message}`)}"/>`;
  return { xml: `    <testcase classname="proxy.rules" name="${xmlEscape(t.rule)}" time="0">\n${body}\n    </testcase>`, failed };
}

export function proxyJunitReport(r: ProxyReport): string {
  const seconds = ((Date.parse(r.endedAt) - Date.parse(r.startedAt)) / 1000).toFixed(3);
  const cases = r.byRule.map(ruleCase);
  const exchanges = `    <testcase classname="proxy" name="exchanges" time="${seconds}">\n      <system-out>${xmlEscape(summaryLine(r))}</system-out>\n    </testcase>`;
  const failures = cases.filter((c) => c.failed).length;
  const skipped = cases.length - failures;
  const tests = cases.length + 1;
  const suite = `  <testsuite name="ideas-contract proxy" tests="${tests}" failures="${failures}" errors="0" skipped="${skipped}" time="${seconds}" timestamp="${xmlEscape(r.startedAt)}">\n${[exchanges, ...cases.map((c) => c.xml)].join("\n")}\n  </testsuite>`;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="ideas-contract proxy" tests="${tests}" failures="${failures}" errors="0" skipped="${skipped}" time="${seconds}">\n${suite}\n</testsuites>\n`;
}
