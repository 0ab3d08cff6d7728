// Which checks a run takes: each suite's own (checks/<suite>/index.ts), narrowed by --only patterns.
import type { CheckInfo } from "./core/check.js";
import { mcpChecks } from "./suites/mcp/checks/index.js";
import { restChecks } from "./suites/rest/checks/index.js";

const mcpIds = new Set(mcpChecks.map((c) => c.id));

/** Which suite a check belongs to: the suite whose registry lists it. */
export const suiteOf = (check: Pick<CheckInfo, "id">): "rest" | "mcp" => (mcpIds.has(check.id) ? "mcp" : "rest");

/** Checks whose id matches any of the patterns (a `*` matches any run of characters); all when none given. */
export function selectChecks<C extends CheckInfo>(checks: readonly C[], patterns: readonly string[] = []): C[] {
  if (!patterns.length) return [...checks];
  const res = patterns.map((p) => new RegExp(`^${p.split("*").map((s) => s.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join(".*")}$`));
  return checks.filter((c) => res.some((re) => re.test(c.id)));
}
