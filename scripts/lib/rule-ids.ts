// generated/rules.d.ts: the rule ids and target-file slots of the catalogues (spec/rules/rest.yaml, mcp.yaml) as
// types, so that a rule or slot that a check, a judge or a mutant names and the catalogue does not hold is a compile
// error. Made after generated/ is on disk: the families listed `from:` the contract take their members from it.
import { mcpRulesPath, restRulesPath } from "../../lib/contract/documents.js";
import { wholeContract } from "../../lib/contract/index.js";
import { loadRules, type RuleCatalogue } from "../../conformance/core/rules.js";
import { targetFileDefs } from "../../conformance/target-schema.js";
import { slashBanner } from "./banner.js";
import type { GeneratedFiles } from "./rest.js";

const union = (ids: readonly string[]): string => (ids.length ? ids.map((id) => JSON.stringify(id)).join(" | ") : "never");

/** The keys of a mapping of a target-file section (`inputs`, `triggers`), as slots (`<section>.<mapping>.<key>`). */
function fileSlots(section: "rest" | "mcp", mapping: "inputs" | "triggers"): string[] {
  const def = targetFileDefs[section === "rest" ? "RestSection" : "McpSection"] as { properties: Record<string, { properties?: Record<string, unknown> }> };
  return Object.keys(def.properties[mapping]?.properties ?? {}).map((key) => `${section}.${mapping}.${key}`);
}

function section(name: string, file: string, catalogue: RuleCatalogue, id: "rest" | "mcp"): string {
  const ruleSlots = [...new Set(catalogue.rules.flatMap((r) => (r.slot ? [r.slot] : [])))].sort();
  const plain = catalogue.rules.filter((r) => r.family === undefined).map((r) => r.id);
  return [
    `/** The rules of ${file} that are no family's members. */`,
    `export type ${name}PlainRuleId = ${union(plain)};`,
    `/** The families of ${file}: named alone, a family stands for every member. */`,
    `export type ${name}FamilyId = ${union([...catalogue.families.keys()])};`,
    `/** The target-file slots the rules of ${file} are provoked through (their \`slot:\`). */`,
    `export type ${name}TargetSlot = ${union(ruleSlots)};`,
    `/** Every slot of the \`${id}:\` section a check may read (ctx.slot): its rules' slots, its inputs and its triggers. */`,
    `export type ${name}FileSlot = ${union([...new Set([...ruleSlots, ...fileSlots(id, "inputs"), ...fileSlots(id, "triggers")])].sort())};`,
    "",
  ].join("\n");
}

export function generateRuleIds(files: GeneratedFiles): void {
  const text = [
    slashBanner,
    section("Rest", "spec/rules/rest.yaml", loadRules(restRulesPath, wholeContract), "rest"),
    section("Mcp", "spec/rules/mcp.yaml", loadRules(mcpRulesPath, wholeContract), "mcp"),
    "/** A family of either catalogue. */",
    "export type FamilyId = RestFamilyId | McpFamilyId;",
    "/** A target-file slot of either catalogue: what a check's rules need the target file (or environment) to give. */",
    "export type TargetSlot = RestTargetSlot | McpTargetSlot;",
    "/** A slot of either section a check may read: a rule's, or one it names in `optionalSlots` (why it reads it). */",
    "export type FileSlot = RestFileSlot | McpFileSlot;",
    "/**",
    " * What a check, a judge or a mutant may name: a rule, a family, or a member of a family. A member is taken as",
    " * `<family>/${string}` so that one built at run time (`publish-results/${part}`) still names a known family",
    " * (the runner checks the members a check declares against the catalogue).",
    " */",
    "export type RuleId = RestPlainRuleId | McpPlainRuleId | FamilyId | `${FamilyId}/${string}`;",
    "",
  ].join("\n");
  files.set("generated/rules.d.ts", text);
}
