// A check's target-file slots: what the rules it declares are provoked through (their `slot:` in the catalogue),
// required unless the check names one optional (it then runs without it, leaving those cases out). Each suite maps
// its slots to the values of its target (suites/<id>/slots.ts); the runner skips a check whose required slot is
// unset, with one reason for all, and hands the values in through `ctx.slot`.
import type { FileSlot, TargetSlot } from "../../generated/rules.js";
import type { CheckInfo } from "./check.js";
import { slotsOf, type RuleCatalogue } from "./rules.js";

export type { FileSlot, TargetSlot };

/** Where one slot's value comes from in a suite's target, and how a user gives it. */
export interface SlotSource<T> {
  /** The slot's value in the target; undefined when the target file and environment leave it unset. */
  value(target: T): string | undefined;
  /** What the value is, for people (a sentence or a noun phrase). */
  what: string;
  /** The environment variable that gives it too, when there is one. */
  env?: string;
  /**
   * Why any check of the suite may read it without naming it: an input the target file defaults (never unset, so no
   * check is skipped for it), or one the suite's shared scenarios are made from (any check may await one).
   */
  shared?: string;
}

/** A suite's slots (its section's, `S`), each with its source; one missing is a compile error where it is built. */
export type SlotTable<T, S extends FileSlot = FileSlot> = { readonly [K in S]: SlotSource<T> };

/**
 * A slot per trigger of a suite's trigger table (`<section>.triggers.<key>`, described as the table describes it):
 * a trigger added to the table is a slot with no other edit, so the table stays the one list of them.
 */
export function triggerSlots<T, K extends string, P extends string>(
  section: P,
  table: { readonly [Key in K]: { readonly what: string } },
  value: (target: T, key: K) => string | undefined,
): { readonly [Key in K as `${P}.triggers.${Key}`]: SlotSource<T> } {
  const keys = Object.keys(table) as K[];
  return Object.fromEntries(keys.map((key) => [`${section}.triggers.${key}`, { value: (target: T) => value(target, key), what: table[key].what }])) as {
    readonly [Key in K as `${P}.triggers.${Key}`]: SlotSource<T>;
  };
}

/**
 * The slots a check reads: those its rules name, split into those it cannot run without and those it runs without,
 * the others of the target file it names in `requiredSlots`, which it cannot run without, and those it names in
 * `optionalSlots` (each with why it reads it), which it runs without.
 */
export function checkSlots(catalogue: RuleCatalogue, check: CheckInfo): { required: FileSlot[]; optional: FileSlot[] } {
  const all = slotsOf(catalogue, check.rules) as FileSlot[];
  const optional = Object.keys(check.optionalSlots ?? {}) as FileSlot[];
  const own = Object.keys(check.requiredSlots ?? {}) as FileSlot[];
  const both = own.filter((s) => optional.includes(s));
  if (both.length) throw new Error(`check ${check.id} names ${both.join(", ")} both required and optional`);
  return { required: [...new Set([...all.filter((s) => !optional.includes(s)), ...own])].sort(), optional };
}

/** The one reason a check is skipped for when a slot it requires is unset. */
export const unsetSlotReason = (slot: FileSlot, source: SlotSource<unknown>): string =>
  `needs ${slot} in the target file${source.env ? ` (or ${source.env})` : ""}: ${source.what}`;
