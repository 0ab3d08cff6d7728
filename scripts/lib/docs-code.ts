// docs/ pages made from the code rather than from spec/ alone: the magic inputs of the mocks (the tables the
// mocks consult) and the rule catalogues with the conformance checks covering each rule.
//
// The mocks and the checks read generated/ from disk when they load (the negative checks are derived from the
// OpenAPI, the posts mock from the error catalogue), so `npm run generate` imports this module only after it
// has written generated/; `--check` compares with what the files on disk give.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { CheckInfo } from "../../conformance/core/check.js";
import { mcpChecks } from "../../conformance/suites/mcp/checks/index.js";
import { restChecks } from "../../conformance/suites/rest/checks/index.js";
import { replyFamilyPlaces } from "../../conformance/suites/mcp/expect.js";
import { mcpRulesPath, restRulesPath } from "../../lib/contract/documents.js";
import { wholeContract } from "../../lib/contract/index.js";
import { mcpTriggerSlots } from "../../conformance/suites/mcp/triggers.js";
import { referenceTargetPath } from "../../conformance/core/paths.js";
import { replyRulePlaces } from "../../conformance/suites/rest/replies.js";
import { restTriggerSlots } from "../../conformance/suites/rest/target.js";
import type { TriggerSlot } from "../../conformance/core/target-values.js";
import { stringify as stringifyYaml } from "yaml";
import { danglingPointers, loadRules, type Rule, type RuleCatalogue } from "../../conformance/core/rules.js";
import { postsMagicInputs } from "../../mock/mcp/posts/magic.js";
import { magicInputs as profilesMagicInputs } from "../../mock/mcp/profiles/magic.js";
import { mcpTestTokens } from "../../mock/mcp/tokens.js";
import { magicInputs as restMagicInputs } from "../../mock/rest/magic.js";
import { restTestTokens } from "../../mock/rest/tokens.js";
import { mcpMutants } from "../../test/mutants/mcp/catalogue.js";
import { mutants as restMutants } from "../../test/mutants/rest/catalogue.js";
import { anchor, banner, cell, table } from "./docs.js";
import { generateCommand } from "./banner.js";
import { repoRoot } from "../../lib/paths.js";
import type { GeneratedFiles } from "./rest.js";

const code = (text: string) => `\`${text}\``;

function magicInputsPage(): string {
  return [
    banner,
    "# Magic inputs of the mocks\n",
    "Values that steer the mocks into states the real services reach only by bad luck, like a payment sandbox's test cards, and the test tokens each mock knows. Taken from the tables the mocks themselves consult (`mock/rest/magic.ts`, `mock/rest/tokens.ts`, `mock/mcp/posts/magic.json`, `mock/mcp/profiles/magic.ts` and `magic.json`, `mock/mcp/tokens.ts`). Start the mocks with `npx ideas-contract mock`; send a token as `Authorization: Bearer <token>`.\n",
    "## REST reference server\n",
    "### Test tokens\n",
    table(["token", "kind", "team", "answers"], restTestTokens.map((t) => [code(t.token), t.kind.replace("_", " "), t.team ?? "—", t.description])) + "\n",
    "### Magic inputs\n",
    table(["input", "where", "effect"], restMagicInputs.map((m) => [m.input, m.where, m.effect])) + "\n",
    "## MCP gateway mock\n",
    "### Test tokens\n",
    table(
      ["token", "who", "scopes", "answers"],
      mcpTestTokens.map((t) => [code(t.token), t.kind, t.scopes.join(" "), t.description]),
    ) + "\n",
    "### Profiles, branding, connecting and ending a client\n",
    table(["tool", "input", "match", "effect"], profilesMagicInputs.map((m) => [code(m.tool), m.input, m.match, m.effect])) + "\n",
    "### Posts, approval, scheduling and publishing\n",
    "Markers are case-insensitive and may sit anywhere in the text.\n",
    table(["input", "where", "effect"], postsMagicInputs.map((m) => [m.input, m.where, m.effect])) + "\n",
  ].join("\n");
}

/** The checks covering a rule, by group (the check's module): every id when a group has a few, else their number. */
function coverage(checks: readonly CheckInfo[]): string {
  const groups = new Map<string, string[]>();
  for (const c of checks) groups.set(c.group, [...(groups.get(c.group) ?? []), c.id]);
  return [...groups]
    .map(([group, ids]) => (ids.length <= 3 ? ids.map(code).join(", ") : `${ids.length} ${code(group)} checks`))
    .join("; ");
}

interface Catalogue {
  title: string;
  file: string;
  catalogue: RuleCatalogue;
  checks: readonly CheckInfo[];
  mutants: readonly { id: string; rule: string }[];
  /** Where the suite's reply judge applies a rule on every reply, beyond its checks' own calls. */
  replyPlace(rule: Rule): string | undefined;
}

/**
 * Where the mocks say they honour a rule: `// rule: <id>[, <id>…]` comments in mock/, as files by id (no line
 * numbers: an edit elsewhere in a file must not change the page; `git grep <id>` finds the line).
 */
function mockHubs(): Map<string, string[]> {
  const hubs = new Map<string, string[]>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (entry.name.endsWith(".ts"))
        readFileSync(file, "utf8")
          .split("\n")
          .forEach((line) => {
            const m = /\/\/\s*rules?:\s*(.+)$/.exec(line);
            for (const id of m?.[1]!.split(/[\s,]+/).filter(Boolean) ?? [])
              hubs.set(id, [...new Set([...(hubs.get(id) ?? []), path.relative(repoRoot, file)])]);
          });
    }
  };
  walk(path.join(repoRoot, "mock"));
  return hubs;
}

function catalogueSection(c: Catalogue, hubs: Map<string, string[]>): string {
  const names = (rule: Rule, ids: readonly string[]) => ids.includes(rule.id) || (rule.family !== undefined && ids.includes(rule.family));
  const out = [`## ${c.title} (${code(path.relative(repoRoot, c.file))})\n`];
  const sections = [...new Set(c.catalogue.rules.map((r) => r.section))];
  for (const section of sections) {
    out.push(`### ${section}\n`);
    const rows = c.catalogue.rules
      .filter((r) => r.section === section)
      .map((r) => {
        const checks = c.checks.filter((check) => names(r, check.rules));
        const inPassing = c.checks.filter((check) => names(r, check.incidental ?? []));
        const covered = checks.length
          ? coverage(checks)
          : inPassing.length
            ? `in passing, on every call the ${inPassing.length} checks that judge calls make`
            : r.testable === "not-observable"
              ? `none: ${cell(r.note)}`
              : "**not covered**";
        const kind = `${r.provenance} (${cell(r.provenance === "inferred" ? r.reason : `basis: ${r.basis}`)}); ${r.testable}${r.slot ? ` (${code(r.slot)})` : ""}`;
        const mock = [...(hubs.get(r.id) ?? []), ...(r.family ? (hubs.get(r.family) ?? []) : [])].map(code).join(", ") || "—";
        const mutants = c.mutants.filter((m) => names(r, [m.rule]) || m.rule === r.id).map((m) => code(m.id)).join(", ") || "—";
        return [code(r.id), r.statement, kind, code(r.contract), mock, covered, c.replyPlace(r) ?? "its checks' own calls", mutants];
      });
    out.push(table(["rule", "statement", "provenance; testable", "contract", "mock", "checks", "judged at", "mutants"], rows) + "\n");
  }
  return out.join("\n");
}

/** Where the REST reply judge applies a rule: every reply of the operations and statuses the contract lists. */
function restReplyPlaces(): (rule: Rule) => string | undefined {
  const places = replyRulePlaces();
  return (rule) => {
    const at = places.get(rule.id) ?? (rule.family !== undefined ? places.get(rule.family) : undefined);
    if (!at) return undefined;
    const byOperation = new Map<string, string[]>();
    for (const place of at) {
      const [operation, status] = place.split(" → ") as [string, string];
      byOperation.set(operation, [...(byOperation.get(operation) ?? []), status]);
    }
    return `every reply of ${[...byOperation].map(([op, statuses]) => `${code(op)} (${statuses.join(", ")})`).join("; ")}`;
  };
}

/** Where the MCP reply judge applies a rule: every reply of the member tool, every failure, or every failure with the member code. */
function mcpReplyPlace(rule: Rule): string | undefined {
  const kind = rule.family !== undefined ? replyFamilyPlaces[rule.family] : replyFamilyPlaces[rule.id];
  if (kind === "tool") return rule.member !== undefined ? `every reply of ${code(rule.member)}` : "every reply of a tool the contract lacks";
  if (kind === "failure") return "every failure of every tool";
  if (kind === "code") return rule.member !== undefined ? `every failure of every tool answering ${code(rule.member)}` : "every failure with a code the catalogue lacks";
  return undefined;
}

function rulesPage(catalogues: Catalogue[]): string {
  const hubs = mockHubs();
  const summary = catalogues.map((c) => {
    const rules = c.catalogue.rules;
    const count = (f: (r: Rule) => boolean) => String(rules.filter(f).length);
    const covered = (r: Rule) => c.checks.some((k) => [...k.rules, ...(k.incidental ?? [])].some((id) => id === r.id || id === r.family));
    return [
      `[${c.title}](#${anchor(`${c.title} (${path.relative(repoRoot, c.file)})`)})`,
      String(rules.length),
      count((r) => r.provenance === "seed"),
      count((r) => r.provenance === "inferred"),
      count((r) => r.testable === "direct"),
      count((r) => r.testable === "trigger"),
      count((r) => r.testable === "not-observable"),
      String(c.checks.length),
      count((r) => r.testable !== "not-observable" && !covered(r)),
    ];
  });
  return [
    banner,
    "# Rule catalogue\n",
    "Every observable statement of both seeds, in our words, one rule each (families expanded: one rule per enum value, limit side, error code, tool or field), with where the contract states it, the mock code that honours it (`// rule:` comments in `mock/`), the conformance checks that enforce it and the mutants (`test/mutants/`) that prove those checks. `provenance` says whether the seed states a rule (`seed`) or we designed it where the seed is silent (`inferred`, with why): against a target other than the embedded reference, a failure of inferred rules only is reported as contract drift unless the run is `--strict`. `testable`: `direct` any caller can observe it, `trigger` a caller given the target-file slot that provokes it, `not-observable` nobody from outside (the note says why). The format is in `spec/rules/README.md`; `npx ideas-contract conformance --list` lists the checks; a run's ledger reports each rule's outcome.\n",
    table(["catalogue", "rules", "seed", "inferred", "direct", "trigger", "not observable", "checks", "testable rules no check covers"], summary) + "\n",
    ...catalogues.map((c) => catalogueSection(c, hubs)),
  ].join("\n");
}

/** The triggers of the target file, one table per suite: what each slot does, the reference's value, the rules it provokes. */
function triggersPage(catalogues: Catalogue[]): string {
  const rulesOf = (slot: string) => catalogues.flatMap((c) => c.catalogue.rules.filter((r) => r.slot === slot).map((r) => code(r.id)));
  const section = (suite: "rest" | "mcp", title: string, slots: Readonly<Record<string, TriggerSlot>>) => [
    `## ${title} (\`${suite}.triggers\`)\n`,
    table(
      ["slot", "what the target does with it", "the reference's value", "rules it provokes"],
      Object.entries(slots).map(([key, slot]) => [code(key), slot.what, code(slot.reference), rulesOf(`${suite}.triggers.${key}`).join(", ") || "—"]),
    ) + "\n",
  ];
  return [
    banner,
    "# Triggers of the target file\n",
    `Inputs that steer a target into situations a caller cannot force (a website it fails to read, a caption its provider refuses). A test deployment of an implementation recognises them; the suite sends them where a check needs the situation, and a check whose trigger is not given is skipped, with the reason. \`{code}\` or \`{status}\` in a value stands for the code or status a case wants. Any value may be written \`{ env: NAME }\`. Taken from the suite's own tables (\`restTriggerSlots\` in \`conformance/suites/rest/target.ts\`, \`mcpTriggerSlots\` in \`conformance/suites/mcp/triggers.ts\`), which also give the reference's values to its target file (\`${path.relative(repoRoot, referenceTargetPath)}\`, generated).\n`,
    ...section("rest", "REST API", restTriggerSlots),
    ...section("mcp", "MCP gateway", mcpTriggerSlots),
  ].join("\n");
}

/** `text` in lines of at most `width` characters, broken between words. */
function wrapped(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/)) {
    if (line && line.length + 1 + word.length > width) (lines.push(line), (line = word));
    else line = line ? `${line} ${word}` : word;
  }
  return line ? [...lines, line] : lines;
}

/** A target file's `triggers:` section with every slot of `slots` at its reference value, each under its description. */
function triggersSection(slots: Readonly<Record<string, TriggerSlot>>): string {
  const lines = ["triggers:"];
  for (const [key, slot] of Object.entries(slots)) {
    for (const line of wrapped(slot.what.replace(/`/g, ""), 110)) lines.push(`    # ${line}`);
    lines.push(`    ${key}: ${stringifyYaml(slot.reference).trimEnd()}`);
  }
  return lines.join("\n");
}

/** The reference's target file: scripts/templates/reference-target.yaml with each suite's triggers from its table. */
function referenceTargetFile(): string {
  const template = readFileSync(path.join(repoRoot, "scripts/templates/reference-target.yaml"), "utf8");
  const filled = template.replace("{{rest.triggers}}", triggersSection(restTriggerSlots)).replace("{{mcp.triggers}}", triggersSection(mcpTriggerSlots));
  const made = `# Generated by \`${generateCommand}\` from scripts/templates/reference-target.yaml and the suites' trigger tables\n# (restTriggerSlots, mcpTriggerSlots): edit those, not this file.\n`;
  // An editor's schema line stays first, where the YAML language server looks for it.
  const [first, ...rest] = filled.split("\n");
  return first!.startsWith("# yaml-language-server:") ? [first, made.trimEnd(), ...rest].join("\n") : made + filled;
}

/** Adds docs/mock-magic-inputs.md, docs/target-triggers.md and docs/rules.md; throws when a rule's contract pointer dangles. */
export function generateCodeDocs(files: GeneratedFiles): void {
  const catalogues: Catalogue[] = [
    { title: "REST API", file: restRulesPath, catalogue: loadRules(restRulesPath, wholeContract), checks: restChecks, mutants: restMutants, replyPlace: restReplyPlaces() },
    { title: "MCP gateway", file: mcpRulesPath, catalogue: loadRules(mcpRulesPath, wholeContract), checks: mcpChecks, mutants: mcpMutants, replyPlace: mcpReplyPlace },
  ];
  const dangling = catalogues.flatMap((c) => danglingPointers(c.catalogue, wholeContract).map((d) => `${path.relative(repoRoot, c.file)}: ${d}`));
  if (dangling.length)
    throw new Error(`rule contract pointers point at nothing in generated/ (fix them in spec/rules/):\n  ${dangling.join("\n  ")}`);
  files.set("docs/mock-magic-inputs.md", magicInputsPage());
  files.set("docs/rules.md", rulesPage(catalogues));
  files.set("docs/target-triggers.md", triggersPage(catalogues));
  files.set(path.relative(repoRoot, referenceTargetPath), referenceTargetFile());
}
