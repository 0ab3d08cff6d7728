// docs/ pages made from the code rather than from spec/ alone: the magic inputs of the mocks (the tables the
// mocks consult) and the rule catalogues with the conformance checks covering each rule.
//
// The mocks and the checks read generated/ from disk when they load (the negative checks are derived from the
// OpenAPI, the posts mock from the error catalogue), so `npm run generate` imports this module only after it
// has written generated/; `--check` compares with what the files on disk give.
import path from "node:path";
import type { Check } from "../../conformance/check.js";
import { mcpChecks, restChecks } from "../../conformance/checks/index.js";
import { mcpRulesPath } from "../../conformance/mcp/paths.js";
import { restRulesPath } from "../../conformance/paths.js";
import { loadRules, type Rule } from "../../conformance/rules.js";
import { postsMagicInputs } from "../../mock/mcp/posts/magic.js";
import { magicInputs as profilesMagicInputs } from "../../mock/mcp/profiles/magic.js";
import { mcpTestTokens } from "../../mock/mcp/tokens.js";
import { magicInputs as restMagicInputs } from "../../mock/rest/magic.js";
import { restTestTokens } from "../../mock/rest/tokens.js";
import { anchor, banner, cell, table } from "./docs.js";
import { repoRoot } from "./paths.js";
import type { GeneratedFiles } from "./rest.js";

const code = (text: string) => `\`${text}\``;

function magicInputsPage(): string {
  return [
    banner,
    "# Magic inputs of the mocks\n",
    "Values that steer the mocks into states the real services reach only by bad luck, like a payment sandbox's test cards, and the test tokens each mock knows. Taken from the tables the mocks themselves consult (`mock/rest/magic.ts`, `mock/rest/tokens.ts`, `mock/mcp/posts/magic.ts`, `mock/mcp/profiles/magic.ts`, `mock/mcp/tokens.ts`). Start the mocks with `npx ideas-contract mock`; send a token as `Authorization: Bearer <token>`.\n",
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
function coverage(checks: readonly Check[]): string {
  const groups = new Map<string, string[]>();
  for (const c of checks) groups.set(c.group, [...(groups.get(c.group) ?? []), c.id]);
  return [...groups]
    .map(([group, ids]) => (ids.length <= 3 ? ids.map(code).join(", ") : `${ids.length} ${code(group)} checks`))
    .join("; ");
}

interface Catalogue {
  title: string;
  file: string;
  rules: readonly Rule[];
  checks: readonly Check[];
}

function catalogueSection(c: Catalogue): string {
  const covering = (rule: Rule) => c.checks.filter((check) => check.rules.includes(rule.id));
  const out = [`## ${c.title} (${code(path.relative(repoRoot, c.file))})\n`];
  const sections = [...new Set(c.rules.map((r) => r.section))];
  for (const section of sections) {
    out.push(`### ${section}\n`);
    const rows = c.rules
      .filter((r) => r.section === section)
      .map((r) => {
        const checks = covering(r);
        const covered = r.testable === "not-observable" ? `none: ${cell(r.note)}` : checks.length ? coverage(checks) : "**not covered**";
        return [code(r.id), r.statement, r.testable, covered];
      });
    out.push(table(["rule", "statement", "testable", "checks"], rows) + "\n");
  }
  return out.join("\n");
}

function rulesPage(catalogues: Catalogue[]): string {
  const summary = catalogues.map((c) => {
    const count = (t: Rule["testable"]) => c.rules.filter((r) => r.testable === t).length;
    const uncovered = c.rules.filter((r) => r.testable !== "not-observable" && !c.checks.some((k) => k.rules.includes(r.id))).length;
    return [`[${c.title}](#${anchor(`${c.title} (${path.relative(repoRoot, c.file)})`)})`, String(c.rules.length), String(count("always")), String(count("trigger")), String(count("not-observable")), String(c.checks.length), String(uncovered)];
  });
  return [
    banner,
    "# Rule catalogue\n",
    "Every behavioural rule of both APIs, in our words, with the conformance checks that enforce it (the checks of `conformance/checks/` that name the rule). `testable` says who can observe a rule: `always` any caller, `trigger` a caller given a path it cannot force (in the target file), `not-observable` nobody from outside (no check; the note says why). List the checks with `npx ideas-contract conformance --list`; a run's coverage ledger reports each rule's outcome.\n",
    table(["catalogue", "rules", "always", "trigger", "not observable", "checks", "testable rules no check covers"], summary) + "\n",
    ...catalogues.map(catalogueSection),
  ].join("\n");
}

/** Adds docs/mock-magic-inputs.md and docs/rules.md. */
export function generateCodeDocs(files: GeneratedFiles): void {
  files.set("docs/mock-magic-inputs.md", magicInputsPage());
  files.set(
    "docs/rules.md",
    rulesPage([
      { title: "REST API", file: restRulesPath, rules: loadRules(restRulesPath).rules, checks: restChecks },
      { title: "MCP gateway", file: mcpRulesPath, rules: loadRules(mcpRulesPath).rules, checks: mcpChecks },
    ]),
  );
}
