// A check's target-file slots come from the rules it declares (issue 24 item 2): the runner skips it, naming the slot
// and how to give it, when one it requires is unset; hands the values in through ctx.slot; leaves an optional one
// undefined; requires one more the check names in requiredSlots; lets a check read another slot of the target file it
// names in optionalSlots, or one its suite shares with every check; and ends a check that reads any other slot in
// `error` (a bug of the suite).
import { describe, expect, it } from "vitest";
import type { RuleId, TargetSlot } from "../generated/rules.js";
import type { Check, RunContext } from "../conformance/core/check.js";
import { Redactor } from "../conformance/core/redact.js";
import { wallClock } from "../conformance/core/run-clock.js";
import type { RunTarget } from "../conformance/core/run-target.js";
import { runChecks } from "../conformance/core/runner.js";
import type { RuleCatalogue } from "../conformance/core/rules.js";
import type { SlotTable } from "../conformance/core/slots.js";
import { mcpCatalogue } from "../conformance/suites/mcp/catalogue.js";
import { mcpSlots } from "../conformance/suites/mcp/slots.js";
import { restSlots } from "../conformance/suites/rest/slots.js";
import { restTriggerSlots } from "../conformance/suites/rest/target.js";
import { mcpTriggerSlots } from "../conformance/suites/mcp/triggers.js";
import { restCatalogue } from "../conformance/suites/rest/catalogue.js";

const rules = mcpCatalogue();
/** A rule of the MCP catalogue provoked through `slot`. */
const ruleOf = (slot: TargetSlot): RuleId => rules.rules.find((r) => r.slot === slot)!.id as RuleId;
const slow = "mcp.triggers.caption_slow" satisfies TargetSlot;
const stuck = "mcp.triggers.caption_stuck" satisfies TargetSlot;

/** A target that is only what the runner reads of one (nothing is sent), and a slot table of two slots over it. */
type Given = RunTarget & { given: Partial<Record<TargetSlot, string>> };
const target = (given: Given["given"]): Given => ({
  url: new URL("http://127.0.0.1:9/"),
  embedded: true,
  credentials: {},
  timing: { timeScale: 1, requestTimeoutMs: 1000, answerWithinMs: 1000, budgetMs: 60_000 },
  concurrency: 1,
  tls: { insecure: false },
  secrets: [],
  clock: wallClock,
  given,
});
const slots: Partial<SlotTable<Given>> = {
  [slow]: { value: (t) => t.given[slow], what: "a caption marker the destination finishes later", env: "CAPTION_SLOW" },
  [stuck]: { value: (t) => t.given[stuck], what: "a caption marker the provider never reports" },
};

const check = (id: string, run: (ctx: RunContext) => void, extra: Partial<Check> = {}): Check => ({
  id,
  description: id,
  group: "slots",
  rules: [ruleOf(slow)],
  tokenless: true,
  run: async (ctx) => run(ctx),
  ...extra,
});

const run = (checks: Check[], given: Given["given"]) =>
  runChecks({
    target: target(given),
    checks,
    rules,
    redactor: new Redactor([]),
    unmetNeed: () => undefined,
    slots,
    open: () => ({ context: (_check, base) => ({ ctx: base, requests: () => 0 }), requests: () => 0, close() {} }),
  });

describe("a check's target-file slots", () => {
  it("skips a check whose required slot is unset, naming the slot and how to give it, before it runs", async () => {
    let ran = false;
    const { results } = await run([check("needs-slow", () => void (ran = true))], {});
    expect(ran).toBe(false);
    expect(results[0]).toMatchObject({ status: "skip", reason: "needs mcp.triggers.caption_slow in the target file (or CAPTION_SLOW): a caption marker the destination finishes later" });
  });

  it("hands a required slot's value in through ctx.slot", async () => {
    let seen: string | undefined;
    const { results } = await run([check("reads-slow", (ctx) => void (seen = ctx.slot(slow)))], { [slow]: "[slow]" });
    expect(results[0]!.status).toBe("pass");
    expect(seen).toBe("[slow]");
  });

  it("ends a check that reads a slot it does not name in error, never as the target's failure", async () => {
    const { results } = await run([check("reads-stuck", (ctx) => void ctx.slot(stuck))], { [slow]: "[slow]", [stuck]: "[stuck]" });
    expect(results[0]).toMatchObject({ status: "error", error: { kind: "suite" } });
    expect(results[0]!.error!.message).toMatch(/reads the target-file slot mcp\.triggers\.caption_stuck, which it does not name \(by a rule, or in requiredSlots or optionalSlots\)/);
  });

  it("runs a check without an optional slot: read with \"optional\" it is undefined, read as required it is an error of the suite", async () => {
    const optional = { rules: [ruleOf(slow), ruleOf(stuck)], optionalSlots: { [stuck]: "its other case runs without it" } };
    const seen: (string | undefined)[] = [];
    const { results } = await run(
      [
        check("optional-stuck", (ctx) => void seen.push(ctx.slot(slow), ctx.slot(stuck, "optional")), optional),
        check("optional-read-as-required", (ctx) => void ctx.slot(stuck), optional),
      ],
      { [slow]: "[slow]" },
    );
    expect(results.map((r) => r.status)).toEqual(["pass", "error"]);
    expect(seen).toEqual(["[slow]", undefined]);
    expect(results[1]!.error!.message).toMatch(/reads its optional slot mcp\.triggers\.caption_stuck as required/);
  });

  it("lets a check read, where given, a slot no rule of it names when it names it in optionalSlots, and one its suite shares", async () => {
    const seen: (string | undefined)[] = [];
    const shared = { ...slots, "mcp.inputs.website": { value: () => "https://www.example.com", what: "a website", shared: "an input with a default" } };
    const { results } = await runChecks({
      target: target({ [slow]: "[slow]" }),
      checks: [check("optional-unnamed", (ctx) => void seen.push(ctx.slot(stuck, "optional"), ctx.slot("mcp.inputs.website")), { optionalSlots: { [stuck]: "makes a case certain where given" } })],
      rules,
      redactor: new Redactor([]),
      unmetNeed: () => undefined,
      slots: shared,
      open: () => ({ context: (_check, base) => ({ ctx: base, requests: () => 0 }), requests: () => 0, close() {} }),
    });
    expect(results[0]!.status).toBe("pass");
    expect(seen).toEqual([undefined, "https://www.example.com"]);
  });

  it("requires a slot no rule of the check names when it names it in requiredSlots: skipped without it, read as required with it", async () => {
    const required = { requiredSlots: { [stuck]: "the situation it makes takes it" } };
    const seen: string[] = [];
    const reads = (id: string) => check(id, (ctx) => void seen.push(ctx.slot(slow), ctx.slot(stuck)), required);
    const unset = await run([reads("without-stuck")], { [slow]: "[slow]" });
    expect(unset.results[0]).toMatchObject({ status: "skip", reason: "needs mcp.triggers.caption_stuck in the target file: a caption marker the provider never reports" });
    const set = await run([reads("with-stuck")], { [slow]: "[slow]", [stuck]: "[stuck]" });
    expect(set.results[0]!.status).toBe("pass");
    expect(seen).toEqual(["[slow]", "[stuck]"]);
    await expect(run([check("both", () => {}, { ...required, optionalSlots: { [stuck]: "and not" } })], {})).rejects.toThrow(/names mcp\.triggers\.caption_stuck both required and optional/);
  });

  it("refuses a check naming a slot the suite does not map", async () => {
    await expect(run([check("unmapped", () => {}, { rules: [ruleOf("mcp.tokens.expired")] })], {})).rejects.toThrow(/maps no target-file slot mcp\.tokens\.expired/);
  });

  it("has every slot of each catalogue mapped in its suite's table, and besides them only the suite's triggers and inputs", () => {
    const catalogueSlots = (catalogue: RuleCatalogue) => [...new Set(catalogue.rules.flatMap((r) => (r.slot ? [r.slot] : [])))].sort();
    const cases = [
      [restSlots, restCatalogue(), "rest", restTriggerSlots],
      [mcpSlots, mcpCatalogue(), "mcp", mcpTriggerSlots],
    ] as const;
    for (const [table, rules, section, triggers] of cases) {
      const mapped = Object.keys(table);
      const named = catalogueSlots(rules);
      expect(named.filter((slot) => !mapped.includes(slot)), `${section}: slots no table entry maps`).toEqual([]);
      // A trigger no rule names yet is still a place in the target file (the table takes every trigger, one list).
      const allowed = new Set([...named, ...Object.keys(triggers).map((key) => `${section}.triggers.${key}`)]);
      expect(mapped.filter((slot) => !allowed.has(slot) && !slot.startsWith(`${section}.inputs.`)), `${section}: entries that are neither a rule's slot, a trigger nor an input`).toEqual([]);
      expect(mapped.filter((slot) => slot.startsWith(`${section}.triggers.`)).sort()).toEqual(Object.keys(triggers).map((key) => `${section}.triggers.${key}`).sort());
    }
  });
});
