// How the proxy speaks: one line per exchange, a summary line, and the end-of-session report as JSON or
// Markdown (everything the client or the target sent is escaped, and was redacted by the Recorder before it
// got here). Every line printed goes through `printable`: a method, tool name or path with a newline or an ANSI
// escape cannot forge or recolour a log line.
import { printable, printableBlock } from "../conformance/core/printable.js";
import { cutIndex, type ProxyReport, type RuleTally, type SetAsideTally, type ViolationRecord } from "./recorder.js";
import type { Exchange, Verdict, ViolationSide } from "./types.js";

// Cut where no credential can be half shown: the line is redacted after it is made (server.ts).
const shortReason = (r: string) => (r.length > 160 ? `${r.slice(0, cutIndex(r, 160))}…` : r);

/** How a violation that is not the service's is marked: ` (client)`, ` (drift)`; nothing for the service's. */
export const sideMark = (side: ViolationSide): string => (side === "service" ? "" : ` (${side})`);

/**
 * `#12 rest POST /v1/brands 201 14 ms ✓`, or ✗ and each violation's rules and reason; an exchange the proxy set
 * aside says why instead of ✓: `✗ no answer: …`, `client fault: …`, `unjudged: …`.
 */
export function exchangeLine(ex: Exchange, v: Verdict, violations: ViolationRecord[], label = v.label): string {
  // A label is what the client sent (a path, a batch of methods): one line stays readable however long it is.
  const head = `#${ex.seq} ${ex.protocol.padEnd(4)} ${shortReason(label)} ${v.outcome} ${Math.round(ex.ms)} ms`;
  const tail = [
    ...(v.noAnswer !== undefined ? [`✗ no answer: ${shortReason(v.noAnswer)}`] : []),
    ...(violations.length ? [`✗ ${violations.map((x) => `[${x.rules.join(", ")}]${sideMark(x.side)} ${shortReason(x.reason)}`).join(" | ")}`] : []),
    ...(v.clientFault !== undefined ? [`client fault (not judged): ${shortReason(v.clientFault)}`] : []),
    ...(v.unjudged !== undefined ? [`unjudged: ${shortReason(v.unjudged)}`] : []),
  ];
  return printable(`${head} ${tail.length ? tail.join(" | ") : "✓"}`);
}

type Summarised = Pick<ProxyReport, "exchanges" | "failedExchanges" | "violations" | "bySide" | "byRule"> & Partial<Pick<ProxyReport, "clientFaults" | "unjudged" | "noAnswer">>;

export function summaryLine(r: Summarised): string {
  const rules = r.byRule.length ? `: ${r.byRule.map((t) => `${t.rule} ×${t.count}`).join(", ")}` : "";
  const drift = r.bySide.drift ? `, ${r.bySide.drift} drift from inferred rules` : "";
  const sides = r.violations ? ` (${r.bySide.service} by the service, ${r.bySide.client} by the client${drift})` : "";
  const aside = [
    r.noAnswer?.count ? `${r.noAnswer.count} without an answer` : "",
    r.clientFaults?.count ? `${r.clientFaults.count} client faults (not judged)` : "",
    // Each reason named ("judge backlog full ×12"): a run never reads as passed for what it did not judge.
    r.unjudged?.count ? `${r.unjudged.count} unjudged (${r.unjudged.byKind.map((k) => `${k.kind} ×${k.count}`).join(", ") || "reasons not kept"})` : "",
  ].filter(Boolean);
  return printable(`${r.exchanges.rest} REST + ${r.exchanges.mcp} MCP exchanges, ${r.failedExchanges} with violations, ${r.violations} violations${sides}${aside.length ? `, ${aside.join(", ")}` : ""}${rules}`);
}

/** A rule's violations by side, the sides it has: ` (2 by the service, 3 drift)`. */
export function sidesOfRule(t: Pick<RuleTally, "bySide">): string {
  const { service, client, drift } = t.bySide;
  const parts = [service ? `${service} by the service` : "", client ? `${client} by the client` : "", drift ? `${drift} drift` : ""].filter(Boolean);
  return parts.length ? ` (${parts.join(", ")})` : "";
}

/** What --fail-on-violation counts: the service's violations and the exchanges it never answered, never the client's or drift. */
export const serviceFailures = (r: Pick<ProxyReport, "bySide" | "noAnswer">): number => r.bySide.service + r.noAnswer.count;

export function jsonReport(r: ProxyReport): string {
  return `${JSON.stringify(r, null, 2)}\n`;
}

/** Text safe inside a Markdown paragraph or table cell: Markdown and HTML characters escaped, one line. */
export function mdText(s: string): string {
  return printable(s.replace(/[\\`*_{}[\]()#+!|<>~]/g, (c) => `\\${c}`).replace(/\r?\n/g, " "));
}

/** A fenced block whose fence is longer than any backtick run inside, so the content cannot close it. */
export function mdBlock(s: string): string {
  const longest = Math.max(2, ...[...s.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  return `${fence}text\n${printableBlock(s)}\n${fence}`;
}

export function markdownReport(r: ProxyReport): string {
  const lines = [
    "# ideas-contract proxy report",
    "",
    `${mdText(r.startedAt)} to ${mdText(r.endedAt)}: ${summaryLine({ ...r, byRule: [] })}.`,
    "",
  ];
  if (!r.byRule.length) lines.push("No violations.", "");
  else {
    // By side from the rule's counts, not its examples (the first few only): the service's alone fail a run.
    lines.push(
      "| rule | violations | by the service | by the client | drift |",
      "|---|---|---|---|---|",
      ...r.byRule.map((t) => `| ${mdText(t.rule)} | ${t.count} | ${t.bySide.service} | ${t.bySide.client} | ${t.bySide.drift} |`),
      "",
    );
    for (const t of r.byRule) {
      lines.push(`## ${mdText(t.rule)}`, "");
      for (const e of t.examples) {
        const x = e.exchange;
        const headers = (h: Record<string, string>) => Object.entries(h).map(([k, v]) => `${k}: ${v}`).join("\n");
        lines.push(
          `- #${e.seq} ${mdText(e.protocol)} ${mdText(e.label)} → ${mdText(e.outcome)}${sideMark(e.side)}: ${mdText(e.reason)}`,
          "",
          mdBlock(`${x.method} ${x.path}\n${headers(x.requestHeaders)}\n\n${x.requestBody}\n\n→ ${x.status} (${x.ms} ms)\n${headers(x.responseHeaders)}\n\n${x.responseBody}`),
          "",
        );
      }
    }
  }
  const setAside = (title: string, what: string, g: { count: number; byKind: SetAsideTally[] }) => {
    if (!g.count) return;
    lines.push(`## ${title}`, "", `${g.count} exchanges ${what}.`, "");
    for (const t of g.byKind) {
      lines.push(`- ${mdText(t.kind)} (×${t.count})`);
      for (const e of t.examples) lines.push(`  - #${e.seq} ${mdText(e.protocol)} ${mdText(e.label)}: ${mdText(e.reason)}`);
    }
    lines.push("");
  };
  setAside("Without an answer", "the service never answered (failures)", r.noAnswer);
  setAside("Client faults", "not judged against the service: what the client sent cannot be judged (never the service's violation)", r.clientFaults);
  setAside("Unjudged", "the proxy could not judge", r.unjudged);
  if (r.notes.length)
    lines.push("## Notes", "", "By kind (ids, numbers and quoted values aside): the first of each, with how many came.", "", ...r.notes.map((n) => `- ${mdText(n.text)}${n.count > 1 ? ` (×${n.count})` : ""}`), "");
  return lines.join("\n");
}
