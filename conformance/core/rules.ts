// A rule catalogue (one per suite, under spec/rules/; format in spec/rules/README.md): loaded, checked against
// rules.schema.json, its families expanded into one rule per member from the contract, indexed by id. Which
// documents a catalogue points into is the suite's to say: it gives the loader a ContractResolver.
import { readFileSync } from "node:fs";
import Ajv2020 from "ajv/dist/2020.js";
import { parse } from "yaml";
import { rulesSchemaPath } from "./paths.js";

export type Testable = "direct" | "trigger" | "not-observable";
export type Provenance = "seed" | "inferred";

export interface Rule {
  id: string;
  statement: string;
  section: string;
  /** seed: stated by the seed; inferred: our design where the seed is silent (`reason` says why). */
  provenance: Provenance;
  reason?: string;
  /** For a seed rule: the seed's claim it rests on, in our words, no stronger than the seed's. */
  basis?: string;
  testable: Testable;
  /** For a trigger rule: the target-file slot that provokes the situation. */
  slot?: string;
  note?: string;
  /** Where the contract states it: a pointer `<kind>:<where>` its catalogue's ContractResolver resolves. */
  contract: string;
  /** For a member of a family: the family's id and the member. */
  family?: string;
  member?: string;
}

/** A family member as the contract lists it: its name and, when the source implies one, its contract pointer. */
export interface Member {
  name: string;
  contract?: string;
}

/**
 * What the loader knows of the contract, given by the suite whose catalogue it loads (the kinds of pointer and the
 * family sources are the suite's; the core knows none): what a pointer points at (undefined when it dangles), and
 * the members of a family source filtered by its `where` (throws when the source dangles).
 */
export interface ContractResolver {
  resolve(pointer: string): unknown;
  members(from: string, where?: Readonly<Record<string, unknown>>): Member[];
}

interface Entry extends Omit<Rule, "family" | "member"> {
  family?: { from?: string; where?: Readonly<Record<string, unknown>>; members?: string[]; notObservable?: Record<string, string> };
}

export interface RuleCatalogue {
  file: string;
  /** Every rule, families expanded, in catalogue order. */
  rules: readonly Rule[];
  byId: ReadonlyMap<string, Rule>;
  /** A family's id → its members' rules. */
  families: ReadonlyMap<string, readonly Rule[]>;
}

const schemaCheck = (() => {
  let validate: ReturnType<InstanceType<typeof Ajv2020.default>["compile"]> | undefined;
  return (data: unknown) => {
    validate ??= new Ajv2020.default({ allErrors: true, strict: false }).compile(JSON.parse(readFileSync(rulesSchemaPath, "utf8")) as object);
    return validate(data) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message ?? "is not valid"}`);
  };
})();

const fill = (text: string, member: string) => text.replaceAll("{member}", member);

function expand(entry: Entry, contract: ContractResolver): Rule[] {
  const { family, ...rule } = entry;
  const base: Rule = rule;
  if (!family) return [base];
  const members = family.members ? family.members.map((name): Member => ({ name })) : contract.members(family.from!, family.where);
  const unknown = Object.keys(family.notObservable ?? {}).filter((name) => !members.some((m) => m.name === name));
  if (unknown.length) throw new Error(`family ${entry.id}: notObservable names ${unknown.join(", ")}, not members of the family`);
  return members.map((m) => {
    const contract = entry.contract.includes("{member}") ? fill(entry.contract, m.name) : (m.contract ?? entry.contract);
    // A member no caller can see (its note says why), in a family whose other members are observable.
    const hidden = family.notObservable?.[m.name];
    return {
      ...base,
      id: `${entry.id}/${m.name}`,
      statement: fill(entry.statement, m.name),
      contract,
      family: entry.id,
      member: m.name,
      ...(hidden ? { testable: "not-observable" as const, note: hidden } : {}),
    };
  });
}

/** Catalogues loaded in this process, by resolver and file, with the text they were read from. */
const loaded = new WeakMap<ContractResolver, Map<string, { text: string; catalogue: RuleCatalogue }>>();

/**
 * Loads, checks and expands a rule catalogue, its pointers and families resolved by `contract`; throws with every
 * problem listed when it is not valid. Parsed once per process, resolver and text: the run and the checks that
 * look a family up share it (a catalogue may be ~120 KB of YAML).
 */
export function loadRules(file: string, contract: ContractResolver): RuleCatalogue {
  const text = readFileSync(file, "utf8");
  const byFile = loaded.get(contract) ?? new Map<string, { text: string; catalogue: RuleCatalogue }>();
  loaded.set(contract, byFile);
  const known = byFile.get(file);
  if (known?.text === text) return known.catalogue;
  const catalogue = parseRules(file, text, contract);
  byFile.set(file, { text, catalogue });
  return catalogue;
}

function parseRules(file: string, text: string, contract: ContractResolver): RuleCatalogue {
  const data = parse(text) as unknown;
  const problems = schemaCheck(data);
  if (problems.length) throw new Error(`${file} is not a valid rule catalogue:\n  ${problems.join("\n  ")}`);
  const rules: Rule[] = [];
  const byId = new Map<string, Rule>();
  const families = new Map<string, Rule[]>();
  for (const entry of (data as { rules: Entry[] }).rules) {
    let expanded: Rule[];
    try {
      expanded = expand(entry, contract);
    } catch (err) {
      throw new Error(`${file}: rule ${entry.id}: ${(err as Error).message}`);
    }
    if (entry.family) {
      if (!expanded.length) throw new Error(`${file}: family ${entry.id} has no members`);
      if (byId.has(entry.id) || families.has(entry.id)) throw new Error(`${file}: rule id ${entry.id} appears twice`);
      families.set(entry.id, expanded);
    }
    for (const rule of expanded) {
      if (byId.has(rule.id) || families.has(rule.id) && !rule.family) throw new Error(`${file}: rule id ${rule.id} appears twice`);
      byId.set(rule.id, rule);
      rules.push(rule);
    }
  }
  return { file, rules, byId, families };
}

/** The rule ids a reference stands for: a rule's own id, or every member of a family; undefined when unknown. */
export function expandRuleRef(catalogue: RuleCatalogue, ref: string): readonly string[] | undefined {
  if (catalogue.byId.has(ref)) return [ref];
  return catalogue.families.get(ref)?.map((r) => r.id);
}

/**
 * The target-file slots (`rest.tokens.expired`, `mcp.triggers.caption_slow`, …) that the rules a check declares are
 * provoked through (their `slot`): what the check's cases of those rules need from the target file. A check may run
 * its other cases without them; `--list` shows both.
 */
export function slotsOf(catalogue: RuleCatalogue, refs: readonly string[]): string[] {
  const slots = new Set<string>();
  for (const ref of refs) for (const id of expandRuleRef(catalogue, ref) ?? []) {
    const slot = catalogue.byId.get(id)?.slot;
    if (slot) slots.add(slot);
  }
  return [...slots].sort();
}

/** Every contract pointer of the catalogue that points at nothing in `contract`, as `<rule id>: <pointer>`. */
export function danglingPointers(catalogue: RuleCatalogue, contract: ContractResolver): string[] {
  return catalogue.rules.filter((r) => contract.resolve(r.contract) === undefined).map((r) => `${r.id}: ${r.contract}`);
}
