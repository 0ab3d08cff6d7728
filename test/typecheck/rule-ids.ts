// Compiled by `npm run typecheck`: a check names its rules by the catalogues' ids (generated/rules.d.ts), so a
// misspelt or removed rule is a compile error, in the declaration of a check and in every case it records. Each
// `@ts-expect-error` line must not compile (tsc fails on an unused directive).
import type { RestTargetSlot } from "../../generated/rules.js";
import type { Judge, RunContext } from "../../conformance/core/judge.js";
import type { SlotTable } from "../../conformance/core/slots.js";
import type { RestCheck } from "../../conformance/suites/rest/check.js";
import type { McpCheck } from "../../conformance/suites/mcp/checks/common.js";

export function cases(ctx: Judge, tool: string): void {
  ctx.expect(true, "json-content-type", "a plain rule");
  ctx.expect(true, ["iso-8601-times/created_at", "error-envelope"], "a member and a rule");
  ctx.expect(true, `retryable-per-catalogue/${tool}`, "a member of a family, named at run time");
  // @ts-expect-error no such rule
  ctx.expect(true, "json-content-typ", "misspelt");
  // @ts-expect-error no such family
  ctx.expect(true, `retryable-per-catalog/${tool}`, "a member of a misspelt family");
  // @ts-expect-error one of the list is no rule
  ctx.fail(["error-envelope", "no-such-rule"], "stops");
}

export const declared: Pick<RestCheck, "rules" | "needs"> = { rules: ["create-brand-201"], needs: ["stateful"] };
// @ts-expect-error a REST check declares REST needs only
export const wrongNeed: Pick<RestCheck, "needs"> = { needs: ["mcp:partner-token"] };
// @ts-expect-error a check's rules are rule ids
export const wrongRule: Pick<McpCheck, "rules"> = { rules: ["mcp-tools-listed"] };

// A check reads target-file slots by the catalogues' names (generated TargetSlot), and names only those as optional.
export function slots(ctx: RunContext): string | undefined {
  // @ts-expect-error no such slot
  ctx.slot("mcp.triggers.caption_slowly");
  return ctx.slot("mcp.triggers.caption_slow") + (ctx.slot("rest.tokens.expired", "optional") ?? "");
}
// @ts-expect-error a check names slots of the catalogues as optional
export const wrongOptional: Pick<McpCheck, "optionalSlots"> = { optionalSlots: { "mcp.triggers.no_such_slot": "why" } };
// @ts-expect-error a suite's slot table maps every slot of its catalogue (here one is missing)
export const missingSlot: SlotTable<unknown, RestTargetSlot> = { "rest.url": { value: () => "", what: "" } };
