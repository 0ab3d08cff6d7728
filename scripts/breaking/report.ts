// Presents a diff: a readable list grouped by protocol and kind, or one JSON document.
import { KIND_ORDER, type Verdict } from "./classify.js";
import type { Change, Contract, Kind, Protocol } from "./types.js";

export interface Report {
  base: { label: string; version?: string };
  head: { label: string; version?: string };
  notes: string[];
  summary: Record<Kind, number> & { blocking: number };
  verdict: { ok: boolean; reasons: string[] };
  changes: Change[];
}

export function buildReport(base: Contract, head: Contract, changes: Change[], v: Verdict, notes: string[]): Report {
  const count = (k: Kind) => changes.filter((c) => c.kind === k).length;
  return {
    base: { label: base.label, ...(base.version ? { version: base.version } : {}) },
    head: { label: head.label, ...(head.version ? { version: head.version } : {}) },
    notes,
    summary: { breaking: count("breaking"), review: count("review"), compatible: count("compatible"), docs: count("docs"), blocking: v.blocking.length },
    verdict: { ok: v.ok, reasons: v.reasons },
    changes,
  };
}

const TITLES: Record<Protocol, string> = { rest: "REST (generated/openapi/openapi.json)", mcp: "MCP (generated/mcp/tools.json, errors.json)" };
const MARK: Record<Kind, string> = { breaking: "!", review: "?", compatible: "+", docs: "~" };

export function formatText(report: Report, verbose = false): string {
  const side = (s: Report["base"]) => `${s.label}${s.version ? ` (package ${s.version})` : ""}`;
  const lines = [`Contract changes: ${side(report.base)} → ${side(report.head)}`];
  for (const note of report.notes) lines.push(`note: ${note}`);
  for (const protocol of ["rest", "mcp"] as Protocol[]) {
    const mine = report.changes.filter((c) => c.protocol === protocol);
    lines.push("", `${TITLES[protocol]}: ${mine.length ? `${mine.length} change(s)` : "no changes"}`);
    for (const kind of KIND_ORDER) {
      const list = mine.filter((c) => c.kind === kind);
      if (!list.length) continue;
      if (kind === "docs" && !verbose) {
        lines.push(`  docs (${list.length}): examples, summaries, titles, x- annotations — --verbose lists them`);
        continue;
      }
      lines.push(`  ${kind} (${list.length})`);
      for (const c of list) {
        const also = c.alsoAt?.length ? ` (+${c.alsoAt.length} more place${c.alsoAt.length > 1 ? "s" : ""})` : "";
        const allowed = c.allowedBy ? ` [allowed: new version path ${c.allowedBy}]` : "";
        lines.push(`   ${MARK[kind]} ${c.path}${also}`, `       ${c.message}  [${c.rule}]${allowed}`);
        if (c.note) lines.push(`       note: ${c.note}`);
        if (verbose) for (const p of c.alsoAt ?? []) lines.push(`       also: ${p}`);
      }
    }
  }
  const s = report.summary;
  lines.push(
    "",
    `Summary: ${s.breaking} breaking (${s.blocking} blocking), ${s.review} to review, ${s.compatible} compatible, ${s.docs} docs.`,
    `Verdict: ${report.verdict.ok ? "PASS" : "FAIL"}`,
    ...report.verdict.reasons.map((r) => `  - ${r}`),
  );
  if (s.review) lines.push("  - Review items never fail the gate; a reviewer confirms the meaning did not change (seed 001: that would be breaking).");
  return lines.join("\n");
}
