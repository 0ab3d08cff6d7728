// The live console view: a line per check as it finishes (pass / fail / skip with why), and what the run is
// waiting on (which brand or batch, which transition). On a terminal the waits sit in a status line that is
// redrawn; elsewhere each wait is printed once when it starts. Then a summary with the failures and the ledger.
import type { RunEvent } from "../runner.js";
import { profileOf, targetLabel, type RunResult } from "../result.js";
import { evidenceLines } from "../evidence.js";
import { enforcementLine, ledgerCounts } from "./ledger.js";
import { isTimingProblem } from "../host-load.js";
import { walksLine } from "../walks/engine.js";
import { rateLimitLines } from "../pacing.js";

export interface ConsoleOptions {
  out?: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  /** Redraw a status line (default: when `out` is a terminal). */
  live?: boolean;
  color?: boolean;
  /** Print only failures and the summary. */
  quiet?: boolean;
}

export interface ConsoleReporter {
  onEvent(event: RunEvent): void;
  finish(result: RunResult, written?: string[]): void;
}

export function consoleReporter(options: ConsoleOptions = {}): ConsoleReporter {
  const out = options.out ?? process.stdout;
  const live = options.live ?? Boolean(out.isTTY);
  const color = options.color ?? (Boolean(out.isTTY) && !process.env.NO_COLOR);
  const paint = (code: string, s: string) => (color ? `\x1b[${code}m${s}\x1b[0m` : s);
  const green = (s: string) => paint("32", s);
  const red = (s: string) => paint("31", s);
  const yellow = (s: string) => paint("33", s);
  const dim = (s: string) => paint("2", s);
  const waits = new Map<string, string>();
  let running = 0;
  let done = 0;
  let total = 0;
  let footerShown = false;

  const width = () => Math.max(40, (out.columns ?? 120) - 1);
  const clearFooter = () => {
    if (live && footerShown) out.write("\r\x1b[2K");
    footerShown = false;
  };
  const drawFooter = () => {
    if (!live) return;
    const first = [...waits.values()].at(-1);
    const more = waits.size > 1 ? ` (+${waits.size - 1} more)` : "";
    const text = `${done}/${total} done, ${running} running${first ? ` · waiting: ${first}${more}` : ""}`;
    out.write(dim(text.slice(0, width())));
    footerShown = true;
  };
  const line = (s: string) => {
    clearFooter();
    out.write(`${s}\n`);
    drawFooter();
  };

  return {
    onEvent(event) {
      switch (event.type) {
        case "start":
          total++;
          running++;
          break;
        case "stateful":
          line(dim(`target ${event.stateful ? "is stateful" : "is stateless"}: ${event.reason}`));
          break;
        case "waiting":
          if (event.text === null) waits.delete(event.key);
          else {
            if (!waits.has(event.key) && !live && !options.quiet) line(dim(`… waiting: ${event.text}`));
            waits.set(event.key, event.text);
          }
          break;
        case "result": {
          running--;
          done++;
          const r = event.result;
          const ms = dim(`(${r.durationMs} ms)`);
          if (r.status === "pass") {
            if (!options.quiet) line(`${green("✓")} ${r.id} ${ms}`);
          } else if (r.status === "skip") {
            if (!options.quiet) line(`${yellow("-")} ${r.id} ${dim(`skipped: ${r.reason ?? ""}`)}`);
          } else if (r.status === "error") {
            line(`${yellow("!")} ${r.id} ${ms} ${yellow(`error (${r.error?.kind === "budget" ? "out of budget" : "the suite broke"}): no verdict on the target`)}`);
            line(dim(`    ${(r.error?.message ?? "").split("\n").slice(0, 4).join("\n    ")}`));
          } else {
            line(`${red("✗")} ${r.id} ${ms}`);
            for (const f of r.failures.slice(0, 3)) line(`    ${red("→")} [${f.rules.join(", ")}] ${f.message}`);
            const shown = r.failures[0] ? evidenceLines(r.failures[0]) : [];
            for (const l of shown) line(dim(`      ${l}`));
            if (r.failures.length > 3) line(dim(`    … ${r.failures.length - 3} more`));
          }
          break;
        }
      }
      if (live && event.type !== "result") {
        clearFooter();
        drawFooter();
      }
    },
    finish(result, written = []) {
      clearFooter();
      const s = result.summary;
      const w = (t: string) => out.write(`${t}\n`);
      w("");
      w(`${enforcementLine(s.enforcement.seed, "testable seed rules")}; ${enforcementLine(s.enforcement.inferred, "inferred rules")}`);
      const embedded = result.target.embedded ? " (embedded reference)" : "";
      for (const t of result.targets) w(`${targetLabel(t)} ${t.url}${embedded}${profileOf(t)}, time scale ${result.target.timeScale}`);
      if (result.walks) w(walksLine(result.walks));
      w(`${s.checks} checks in ${(result.durationMs / 1000).toFixed(1)} s (${result.requests} requests): ${green(`${s.passed} passed`)}, ${s.failed ? red(`${s.failed} failed`) : "0 failed"}, ${s.skipped} skipped${s.errors ? `, ${yellow(`${s.errors} ended in error`)}` : ""}`);
      for (const line of rateLimitLines(result)) w(yellow(line));
      if (s.expectedFailures) w(yellow(`${s.expectedFailures} failure(s) expected by the baseline`));
      for (const c of result.checks.filter((c) => c.verdict === "fixed")) w(red(`✗ ${c.id} is listed as an expected failure but passes now: remove it from the baseline`));
      const unexpected = result.checks.filter((c) => c.verdict === "fail");
      if (unexpected.length) {
        w(red(`Unexpected failures (${unexpected.length}):`));
        for (const c of unexpected) w(`  ${red("✗")} ${c.id} [${[...new Set(c.failures.flatMap((f) => f.rules))].join(", ")}]`);
      }
      const drift = result.checks.filter((c) => c.verdict === "drift");
      if (drift.length) {
        w(yellow(`Contract drift (${drift.length}): failures of rules we inferred where the seeds are silent; not failing the run (--strict fails on them):`));
        for (const c of drift) w(`  ${yellow("~")} ${c.id} [${[...new Set(c.failures.flatMap((f) => f.rules))].join(", ")}] ${c.failures[0]?.message ?? ""}`);
      }
      // Skips by reason: a target file or environment that lacks something shows as one line per lack.
      const skipsBy = new Map<string, number>();
      for (const c of result.checks) if (c.verdict === "skip") skipsBy.set(c.reason ?? "", (skipsBy.get(c.reason ?? "") ?? 0) + 1);
      if (skipsBy.size) {
        w(yellow(`Skipped (${s.skipped}), by reason:`));
        const reasons = [...skipsBy].sort((a, b) => b[1] - a[1]);
        for (const [reason, n] of reasons.slice(0, 8)) w(dim(`  ${n} × ${reason}`));
        if (reasons.length > 8) w(dim(`  … ${reasons.length - 8} more reasons (the Markdown and JSON reports list every skip)`));
      }
      const errored = result.checks.filter((c) => c.verdict === "error");
      if (errored.length) {
        w(yellow(`Ended in error (${errored.length}): the suite could not judge these; not failures of the target (exit 3 when nothing failed):`));
        for (const c of errored) w(`  ${yellow("!")} ${c.id}: ${(c.error?.message ?? "").split("\n")[0]}`);
      }
      if (result.host?.starved && result.checks.some(isTimingProblem))
        w(yellow(`The host running the suite was starved (event-loop delay p99 ${result.host.p99Ms} ms): timing problems above may be the host's, not the target's; rerun on a quieter host or raise --budget`));
      for (const gate of s.gates) w(red(`✗ gate: ${gate}`));
      if (result.unknownBaselineIds.length) w(yellow(`The baseline lists ids that name no check: ${result.unknownBaselineIds.join(", ")}`));
      for (const t of result.targets) {
        const counts = ledgerCounts(result.ledger.filter((e) => e.suite === t.suite));
        w(`Rules (${t.rules}): ${Object.entries(counts).map(([k, v]) => `${v} ${k}`).join(", ")}`);
      }
      const open = result.ledger.filter((e) => e.status === "skipped" || e.status === "partial" || e.status === "not-covered");
      for (const e of open.slice(0, 12)) w(dim(`  ${e.suite}/${e.id}: ${e.status} — ${e.why ?? ""}`));
      if (open.length > 12) w(dim(`  … ${open.length - 12} more (the Markdown and JSON reports list every rule)`));
      for (const f of written) w(dim(`wrote ${f}`));
      w(result.exitCode === 0 ? green("PASS") : result.exitCode === 3 ? yellow("ERROR (the suite could not finish judging)") : red("FAIL"));
    },
  };
}
