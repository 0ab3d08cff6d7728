// The Markdown report: summary, failures with their evidence, skipped checks with reasons, and the coverage
// ledger. Whatever the target sent (in messages, reasons, evidence) is escaped: an HTML error page or a `|` in a
// body must not turn into markup.
import { evidenceLines } from "../evidence.js";
import { enforcementLine, ledgerCounts } from "./ledger.js";
import { rateLimitLines } from "../pacing.js";
import { profileOf, targetLabel, type RunResult } from "../result.js";
import { walksLine } from "../walks/engine.js";

/** Text as literal Markdown: HTML and Markdown's own characters escaped. */
const md = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/([\\`*_[\]#|~])/g, "\\$1");
const cell = (s: string) => md(s).replace(/\r?\n/g, " ");
/** A fenced block that no backtick run in the text can close. */
const fenced = (text: string) => {
  const fence = "`".repeat(Math.max(3, ...[...text.matchAll(/`+/g)].map((m) => m[0].length + 1)));
  return [`${fence}text`, text, fence];
};
const mark: Record<string, string> = {
  pass: "✅ pass",
  fail: "❌ fail",
  skip: "⏭️ skipped",
  "expected-failure": "⚠️ expected failure",
  fixed: "❗ passes (listed as expected failure)",
  drift: "🔀 contract drift (inferred rules only)",
  error: "⚠️ error (the suite could not judge; not a failure of the target)",
  partial: "◐ partial",
  skipped: "⏭️ skipped",
  "not-covered": "➖ not covered",
  "not-observable": "👁️ not observable",
};

export function markdownReport(result: RunResult): string {
  const s = result.summary;
  const lines: string[] = [];
  const embedded = result.target.embedded ? " (embedded reference server)" : "";
  lines.push(`# Conformance: ${result.targets.map((t) => t.title).join(", ")}`, "");
  lines.push(`**${enforcementLine(s.enforcement.seed, "testable seed rules")}**; ${enforcementLine(s.enforcement.inferred, "inferred rules")}.`, "");
  for (const t of result.targets) lines.push(`- ${targetLabel(t)}: ${t.url}${embedded}${profileOf(t)}`);
  if (result.target.stateful !== undefined) lines.push(`- Stateful: ${result.target.stateful ? "yes" : "no"} (${result.target.statefulReason})`);
  if (result.walks) lines.push(`- ${walksLine(result.walks)}`);
  lines.push(`- Started: ${result.startedAt}; took ${(result.durationMs / 1000).toFixed(1)} s; ${result.requests} requests; time scale ${result.target.timeScale}`);
  for (const line of rateLimitLines(result)) lines.push(`- ${line}`);
  lines.push(
    `- Checks: ${s.checks} — ${s.passed} passed, ${s.failed} failed (${s.unexpectedFailures} unexpected, ${s.expectedFailures} expected), ${s.skipped} skipped${s.errors ? `, ${s.errors} ended in error` : ""}${s.fixed ? `, ${s.fixed} listed as expected failures but passing` : ""}`,
  );
  for (const suite of result.suites)
    lines.push(`- Rules of spec/rules/${suite}.yaml: ${Object.entries(ledgerCounts(result.ledger.filter((e) => e.suite === suite))).map(([k, v]) => `${v} ${k}`).join(", ")}`);
  lines.push(`- Result: **${result.exitCode === 0 ? "PASS" : result.exitCode === 3 ? "ERROR" : "FAIL"}**`, "");
  for (const gate of s.gates) lines.push(`> Gate failed: ${cell(gate)}`, "");
  if (s.drift) lines.push(`> ${s.drift} check${s.drift === 1 ? "" : "s"} found contract drift: failures that concern only rules we inferred where the seeds are silent (listed under Failures; \`--strict\` fails on them).`, "");
  if (result.unknownBaselineIds.length) lines.push(`> The baseline lists ids that name no check: ${result.unknownBaselineIds.join(", ")}`, "");

  const bad = result.checks.filter((c) => c.verdict !== "pass" && c.verdict !== "skip");
  if (bad.length) {
    lines.push("## Failures", "");
    for (const c of bad) {
      lines.push(`### ${c.id} — ${mark[c.verdict]}`, "", `${c.description}. Rules: ${c.rules.map((r) => `\`${r}\``).join(", ")}.`, "");
      if (c.verdict === "fixed") lines.push("- Passes now: remove it from the expected-failures file.");
      if (c.error) lines.push("", ...fenced(c.error.message), "");
      for (const f of c.failures) {
        lines.push(`- [${f.rules.join(", ")}] ${cell(f.message)}`);
        const evidence = evidenceLines(f);
        if (evidence.length) lines.push("", ...fenced(evidence.join("\n")), "");
      }
      lines.push("");
    }
  }
  const noted = result.checks.filter((c) => c.notes.length);
  if (noted.length) {
    lines.push("## Notes", "", "Things worth knowing that are not failures (waits, races judged only when seen, output the contract does not list yet).", "");
    for (const c of noted) for (const n of c.notes.slice(0, 5)) lines.push(`- ${c.id}: ${cell(n)}`);
    lines.push("");
  }
  const skipped = result.checks.filter((c) => c.verdict === "skip");
  if (skipped.length) {
    lines.push("## Skipped", "", "| Check | Why |", "| --- | --- |");
    for (const c of skipped) lines.push(`| ${c.id} | ${cell(c.reason ?? "")} |`);
    lines.push("");
  }
  lines.push("## Checks", "", "| Check | Result | Rules | Description |", "| --- | --- | --- | --- |");
  for (const c of result.checks) lines.push(`| ${c.id} | ${mark[c.verdict]} | ${c.rules.join(", ")} | ${cell(c.description)} |`);
  lines.push("", "## Coverage ledger", "", "| Suite | Rule | Result | Checks | Judged at | Why | Statement |", "| --- | --- | --- | --- | --- | --- | --- |");
  for (const e of result.ledger)
    lines.push(`| ${e.suite} | ${e.id} | ${mark[e.status]} | ${e.failedBy.length ? `failed: ${e.failedBy.join(", ")}` : e.checks.length} | ${cell(placesCell(e.places))} | ${cell(e.why ?? "")} | ${cell(e.statement)} |`);
  lines.push("");
  return result.redactor.text(lines.join("\n"));
}

/** Where a rule was judged, shortened: a rule judged on every reply lists dozens of places. */
function placesCell(places: readonly string[] | undefined): string {
  if (!places?.length) return "";
  const shown = 6;
  return places.length <= shown ? places.join("; ") : `${places.slice(0, shown).join("; ")}; and ${places.length - shown} more (JSON report)`;
}
