// What the two mutant tests (REST and MCP) share: which checks killed a mutant, the run's own consistency, and
// the kill-rate table printed at the end.
import { expect } from "vitest";
import type { RunResult } from "../../conformance/index.js";

/** Whether a check declares a rule: by its id, or by its family's id (a family id stands for every member). */
export const declares = (rules: readonly string[], rule: string) => rules.includes(rule) || (rule.includes("/") && rules.includes(rule.slice(0, rule.indexOf("/"))));

/** The failing checks that name the rule and attribute a failure to it. */
export const killersOf = (result: RunResult, rule: string) =>
  result.checks.filter((c) => c.status === "fail" && declares(namedBy(c), rule) && c.failures.some((f) => f.rules.includes(rule)));

/** The rules a check names: those it enforces and those it judges its calls against in passing. */
const namedBy = (c: { rules: readonly string[]; incidental?: readonly string[] }) => [...c.rules, ...(c.incidental ?? [])];

/**
 * The checks that name `rule` (declared, by family, or judged in passing): the only ones whose failure can kill a
 * mutant of it (expectKilled asks for one of them), so a mutant's run needs no other. Scoping the run to them keeps
 * the proof and spares the cores: a whole-suite run per mutant made the catalogue the slowest file under load.
 */
export const checksNaming = (checks: readonly { id: string; rules: readonly string[]; incidental?: readonly string[] }[], rule: string): string[] =>
  checks.filter((c) => declares(namedBy(c), rule)).map((c) => c.id);

/** Asserts the mutant (breaking `rule`) was caught by a check naming the rule; returns the killers' ids. */
export function expectKilled(result: RunResult, mutant: { id: string; rule: string }): string[] {
  const killers = killersOf(result, mutant.rule).map((c) => c.id);
  // Every failure names rules its check declares, so the ledger and this test see the same thing.
  for (const c of result.checks) for (const f of c.failures) for (const r of f.rules) expect(declares(namedBy(c), r), `${c.id} attributes a failure to undeclared ${r}`).toBe(true);
  expect(killers, `${mutant.id} (breaks ${mutant.rule}) was not caught`).not.toEqual([]);
  expect(result.exitCode).toBe(1);
  expect(result.ledger.find((e) => e.id === mutant.rule)?.status).toBe("fail");
  return killers;
}

/** Prints the kill rate and, per mutant, its rule and the checks that killed it. */
export function printKillRate(title: string, outcomes: ReadonlyMap<string, { rule: string; killers: string[] }>): void {
  const killed = [...outcomes.values()].filter((o) => o.killers.length).length;
  const lines = [...outcomes].map(([id, o]) => `  ${o.killers.length ? "killed" : "ALIVE "} ${id.padEnd(36)} ${o.rule.padEnd(36)} ${o.killers.slice(0, 3).join(", ")}`);
  console.log(`${title} kill rate: ${killed}/${outcomes.size} (${outcomes.size ? Math.round((100 * killed) / outcomes.size) : 0}%)\n${lines.join("\n")}`);
}

/**
 * The MCP checks of a run that did not pass, but for a skip that only says a race was lost: pictures that landed
 * before the batch was seen settled leave nothing to watch land (the checks cannot slow the target down).
 */
export const mcpNonPasses = (result: RunResult): string[] =>
  result.checks
    .filter((c) => c.id.startsWith("mcp-") && c.status !== "pass")
    .filter((c) => !(c.id === "mcp-pictures-land" && c.status === "skip" && /nothing to see land/.test(c.reason ?? "")))
    .map((c) => `${c.id}: ${c.status} ${c.reason ?? c.failures[0]?.message ?? ""}`);
