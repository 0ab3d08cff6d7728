// `ideas-contract conformance --list`: every selected check with its rules, the cases its rule families give it (one
// per member: an operation, a tool, a field, …, so a new tool or endpoint shows up here), its needs, the target-file
// slots its rules' cases are provoked through, required or optional (the runner's own data: core/slots.ts), and for the MCP
// checks what the run would spend of the tenant's AI allowance (posts generated, pictures, renders, profile builds), sized by
// the target file's triggers and mcp.cost, before anything runs.
import type { CheckInfo } from "../conformance/core/check.js";
import { suiteOf } from "../conformance/select.js";
import { describeCost, describeSpend, runSpend, sharedSpend, spendOf, type SpendInput } from "../conformance/suites/mcp/cost.js";
import type { RuleCatalogue } from "../conformance/core/rules.js";
import { mcpCatalogue } from "../conformance/suites/mcp/catalogue.js";
import { restCatalogue } from "../conformance/suites/rest/catalogue.js";
import { checkSlots, type SlotSource } from "../conformance/core/slots.js";
import { mcpSlots } from "../conformance/suites/mcp/slots.js";
import { restSlots } from "../conformance/suites/rest/slots.js";
import { needsOf } from "../conformance/core/runner.js";

/** The members of each rule family the check names: `family × N (member, …)`, one entry per family. */
function casesOf(check: CheckInfo, catalogue: RuleCatalogue): string[] {
  return check.rules.flatMap((ref) => {
    const members = catalogue.families.get(ref);
    return members?.length ? [`${ref} × ${members.length} (${members.map((m) => m.id.slice(ref.length + 1)).join(", ")})`] : [];
  });
}

/** The lines --list prints for `checks`; `spend` is what MCP checks are sized by. */
export function listLines(checks: readonly CheckInfo[], spend: SpendInput): string[] {
  const lines: string[] = [];
  const catalogues = { rest: restCatalogue(), mcp: mcpCatalogue() };
  for (const c of checks) {
    lines.push(c.id, `    ${c.description}`, `    rules: ${c.rules.join(", ")}`);
    const cases = casesOf(c, catalogues[suiteOf(c)]);
    if (cases.length) lines.push(`    cases: ${cases.join("; ")}`);
    lines.push(`    needs: ${needsOf(c).join(", ")}`);
    const slots = checkSlots(catalogues[suiteOf(c)], c);
    if (slots.required.length) lines.push(`    target file: ${slots.required.join(", ")} (required: the check is skipped without it)`);
    for (const s of slots.optional) lines.push(`    target file, optional: ${s} (${c.optionalSlots?.[s]})`);
    if (suiteOf(c) === "mcp") lines.push(`    spends: ${describeSpend(spendOf(c, spend))}`);
  }
  // The slots a suite shares with every check of it (core/slots.ts): listed once, not under each check.
  const tables: Record<"rest" | "mcp", Record<string, SlotSource<never>>> = { rest: restSlots, mcp: mcpSlots };
  for (const suite of ["rest", "mcp"] as const) {
    if (!checks.some((c) => suiteOf(c) === suite)) continue;
    const shared = Object.entries(tables[suite]).filter(([, source]) => source.shared);
    if (shared.length) lines.push("", `Every ${suite} check may read, besides its own slots:`, ...shared.map(([slot, source]) => `  target file, optional: ${slot} (${source.shared})`));
  }
  const mcp = checks.filter((c) => suiteOf(c) === "mcp");
  if (mcp.length) {
    lines.push(
      "",
      `MCP spend of the tenant's AI allowance (mcp.cost: ${describeCost(spend.cost)}; a check whose spend is off is skipped):`,
      `  shared batches and builds: ${describeSpend(sharedSpend(spend))}`,
      `  at most, with the ${mcp.length} MCP checks listed: ${describeSpend(runSpend(mcp, spend))}`,
    );
  }
  return lines;
}
