// The rule catalogue (spec/rules/rest.yaml): loaded, checked against rules.schema.json and indexed by id.
import { readFileSync } from "node:fs";
import Ajv2020 from "ajv/dist/2020.js";
import { parse } from "yaml";
import { restRulesPath, rulesSchemaPath } from "./paths.js";

export type Testable = "always" | "trigger" | "not-observable";

export interface Rule {
  id: string;
  statement: string;
  section: string;
  testable: Testable;
  note?: string;
}

export interface RuleCatalogue {
  rules: readonly Rule[];
  byId: ReadonlyMap<string, Rule>;
}

/** Loads and checks a rule catalogue; throws with every problem listed when it is not valid. */
export function loadRules(file: string = restRulesPath): RuleCatalogue {
  const data = parse(readFileSync(file, "utf8")) as unknown;
  const schema = JSON.parse(readFileSync(rulesSchemaPath, "utf8")) as object;
  const ajv = new Ajv2020.default({ allErrors: true, strict: false });
  const validate = ajv.compile(schema);
  if (!validate(data)) {
    const problems = (validate.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message ?? "is not valid"}`);
    throw new Error(`${file} is not a valid rule catalogue:\n  ${problems.join("\n  ")}`);
  }
  const rules = (data as { rules: Rule[] }).rules;
  const byId = new Map<string, Rule>();
  for (const rule of rules) {
    if (byId.has(rule.id)) throw new Error(`${file}: rule id ${rule.id} appears twice`);
    byId.set(rule.id, rule);
  }
  return { rules, byId };
}
