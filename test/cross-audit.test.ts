// The held-out audit of the seeds' cross-operation statements (conformance/core/walks/AUDIT.md): each sampled statement
// broken alone in the reference (test/mutants/rest/cross-audit.ts, test/mutants/mcp/cross-audit.ts), and the whole
// suite of its protocol run against it as `npm run conformance` runs it (scripted checks and the default walks, on
// driven time; a fixed walk seed per statement). Each must fail with a rule that names the statement. Prints the
// audit's figure.
import { createHash } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { mcpCrossAuditMutants } from "./mutants/mcp/cross-audit.js";
import { restCrossAuditMutants, type AuditMutant } from "./mutants/rest/cross-audit.js";
import { hangGuardMs } from "./support/hang-guard.js";
import { runMutant, type Protocol } from "./support/walk-mutants.js";

const made = { rest: restCrossAuditMutants, mcp: mcpCrossAuditMutants };
const cases = (["rest", "mcp"] as const).flatMap((p) => made[p]().map((m) => [m.id, p, m.statement] as const));
/**
 * A fixed walk seed per mutant (from its id): a statement enforced only by the walks is then judged the same on
 * every run (npm run conformance draws a new seed each time; bench:walk-mutants measures kill rates over seeds).
 */
const walkSeedOf = (id: string) => createHash("sha256").update(`audit:${id}`).digest("hex").slice(0, 8);
const outcomes = new Map<string, { statement: string; by: string[] }>();

/** Whether a failure's rule is one of the statement's (a family's id stands for each of its members). */
const names = (rule: string, listed: readonly string[]) => listed.some((l) => rule === l || rule.startsWith(`${l}/`));

/** The checks that failed naming one of the statement's rules, with the rule. */
const enforcers = (result: Awaited<ReturnType<typeof runMutant>>, m: AuditMutant) =>
  result.checks.filter((c) => c.status === "fail").flatMap((c) => [...new Set(c.failures.flatMap((f) => f.rules.filter((r) => names(r, m.rules))))].map((r) => `${c.id} [${r}]`));

describe("held-out audit of cross-operation statements", () => {
  it("samples about 15 statements per seed, each with its own mutant", () => {
    for (const p of ["rest", "mcp"] as const) {
      const ms = made[p]();
      expect(ms.length).toBeGreaterThanOrEqual(15);
      expect(new Set(ms.map((m) => m.id)).size).toBe(ms.length);
      for (const m of ms) expect(m.statement, m.id).toMatch(/^[RM]\d+ · /);
    }
  });

  // One at a time: each is a whole run on driven time, bound by CPU alone, so running several at once gains nothing on
  // two cores and multiplies each test's wall time (five at once met the hang guard on a loaded host).
  it.each(cases)("%s (%s) is enforced", async (id, protocol: Protocol) => {
    const mutant = made[protocol]().find((m) => m.id === id)!;
    const result = await runMutant(protocol, mutant, { walkSeed: walkSeedOf(id) });
    const by = enforcers(result, mutant);
    outcomes.set(id, { statement: mutant.statement, by });
    expect(by, `${mutant.statement}: no failure names ${mutant.rules.join(" or ")}`).not.toEqual([]);
    expect(result.exitCode).toBe(1);
    // A hang guard, never a verdict on speed (./support/hang-guard.ts).
  }, hangGuardMs);

  afterAll(() => {
    const enforced = [...outcomes.values()].filter((o) => o.by.length).length;
    const lines = [...outcomes].map(([id, o]) => `  ${o.by.length ? "enforced" : "MISSED  "} ${o.statement.slice(0, 70).padEnd(70)} ${id} ${o.by.slice(0, 2).join(", ")}`);
    console.log(`cross-operation audit: ${enforced}/${outcomes.size} enforced\n${lines.sort().join("\n")}`);
  });
});
