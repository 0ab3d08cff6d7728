// The JUnit XML report: one testsuite per check group, one testcase per check. Expected failures (in the
// baseline) are reported as skipped with the failure in the message; a listed check that passes now is a
// failure ("remove it from the baseline").
import { evidenceLines } from "../evidence.js";
import type { ReportedCheck, RunResult } from "../result.js";

/** Text safe in an XML attribute or element: control characters dropped, markup escaped. */
export const xmlEscape = (s: string) =>
  s
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;");

const failureText = (c: ReportedCheck) => c.failures.map((f) => [`[${f.rules.join(", ")}] ${f.message}`, ...evidenceLines(f).map((l) => `  ${l}`)].join("\n")).join("\n");

function testcase(c: ReportedCheck): string {
  const head = `    <testcase classname="conformance.${xmlEscape(c.group)}" name="${xmlEscape(c.id)}" time="${(c.durationMs / 1000).toFixed(3)}">`;
  const props = `      <properties><property name="rules" value="${xmlEscape(c.rules.join(" "))}"/><property name="description" value="${xmlEscape(c.description)}"/></properties>`;
  let body = "";
  if (c.verdict === "fail") body = `      <failure message="${xmlEscape(c.failures[0]?.message ?? "failed")}" type="${xmlEscape(c.failures[0]?.rules.join(" ") ?? "")}">${xmlEscape(failureText(c))}</failure>`;
  else if (c.verdict === "fixed") body = `      <failure message="listed as an expected failure but passes now: remove it from the baseline" type="baseline"/>`;
  else if (c.verdict === "expected-failure") body = `      <skipped message="${xmlEscape(`expected failure (baseline): ${c.failures[0]?.message ?? ""}`)}"/>`;
  else if (c.verdict === "drift") body = `      <skipped message="${xmlEscape(`contract drift (inferred rules only; --strict fails on it): ${c.failures[0]?.message ?? ""}`)}"/>`;
  else if (c.verdict === "error") body = `      <error message="${xmlEscape((c.error?.message ?? "error").split("\n")[0]!)}" type="${xmlEscape(c.error?.kind ?? "suite")}">${xmlEscape(c.error?.message ?? "")}</error>`;
  else if (c.verdict === "skip") body = `      <skipped message="${xmlEscape(c.reason ?? "skipped")}"/>`;
  return [head, props, ...(body ? [body] : []), "    </testcase>"].join("\n");
}

/** The root's name: every target that ran, by suite. */
export function rootName(result: RunResult): string {
  return `ideas-contract conformance (${result.targets.map((t) => `${t.suite.toUpperCase()} ${t.url}`).join(", ")})`;
}

export function junitReport(result: RunResult): string {
  const groups = new Map<string, ReportedCheck[]>();
  for (const c of result.checks) groups.set(c.group, [...(groups.get(c.group) ?? []), c]);
  const failing = (cs: ReportedCheck[]) => cs.filter((c) => c.verdict === "fail" || c.verdict === "fixed").length;
  const errors = (cs: ReportedCheck[]) => cs.filter((c) => c.verdict === "error").length;
  const skipped = (cs: ReportedCheck[]) => cs.filter((c) => c.verdict === "skip" || c.verdict === "expected-failure" || c.verdict === "drift").length;
  const time = (cs: ReportedCheck[]) => (cs.reduce((s, c) => s + c.durationMs, 0) / 1000).toFixed(3);
  const suites = [...groups].map(
    ([group, cs]) =>
      `  <testsuite name="${xmlEscape(group)}" tests="${cs.length}" failures="${failing(cs)}" errors="${errors(cs)}" skipped="${skipped(cs)}" time="${time(cs)}">\n${cs.map(testcase).join("\n")}\n  </testsuite>`,
  );
  const all = result.checks;
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="${xmlEscape(rootName(result))}" tests="${all.length}" failures="${failing(all)}" errors="${errors(all)}" skipped="${skipped(all)}" time="${(result.durationMs / 1000).toFixed(3)}">\n${suites.join("\n")}\n</testsuites>\n`;
  return result.redactor.text(xml);
}
