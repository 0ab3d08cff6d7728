// `npm run check:breaking -- [--base REF|TARBALL] [--head REF|TARBALL] [--json] [--verbose]`:
// the breaking-change gate. Compares the generated contract of the base (default: the last release tag) with
// the working tree and exits 1 when a breaking change is not allowed. --help for details.
import { commandArgs } from "../cli/args.js";
import { repoRoot } from "../lib/paths.js";
import { nothingCompared, verdict } from "./breaking/classify.js";
import { diffContracts } from "./breaking/contract.js";
import { loadBase, loadSide, loadWorkingTree } from "./breaking/load-base.js";
import { buildReport, formatText } from "./breaking/report.js";
import { rulesTable } from "./breaking/rules.js";

const HELP = `Usage: npm run check:breaking -- [options]

Compares the generated contract (generated/openapi/openapi.json, generated/mcp/tools.json,
generated/mcp/errors.json) of a base with the working tree and lists every change as breaking,
review, compatible or docs, with the path of what changed and the rule it falls under.

Options:
  --base REF|FILE   What to compare with: a git ref (tag, branch, commit, HEAD~3) or the path of a
                    published package tarball (npm pack output). Default: the last release tag (v*);
                    with no tag yet there is nothing to compare with and the check passes with a
                    note. So does a clone that cannot tell (shallow without tags, no usable git):
                    the note says so and how to fetch the tags.
  --head REF|FILE   The new side (default: the working tree).
  --json            Print one JSON document instead of the list.
  --verbose         Also list docs-only changes and every place a shared schema change
                    appears.
  --rules           Print the rule catalogue (Markdown) and exit.
  -h, --help        This text.

Exit status: 0 when the gate passes, 1 when it fails, 2 on a usage or loading error.
The gate fails on
  - a breaking REST change inside an existing version path (a breaking change needs a new path
    such as /v2 with the old /v1 operations kept unchanged; a package bump does not help), and
  - a breaking MCP change unless package.json's version is a major bump over the base's
    (0.x: a minor bump counts as major, e.g. 0.1.0 -> 0.2.0).
Review items (descriptions, documented defaults, annotations) never fail it; a reviewer checks them.
Compare generated artefacts: run \`npm run generate\` first if spec/ changed.`;

function main(): number {
  const parsed = commandArgs(
    process.argv.slice(2),
    {
      base: { type: "string" },
      head: { type: "string" },
      json: { type: "boolean", default: false },
      verbose: { type: "boolean", default: false },
      rules: { type: "boolean", default: false },
    },
    HELP,
  );
  if ("exit" in parsed) return parsed.exit;
  const args = parsed.values;
  if (args.rules) {
    console.log(rulesTable());
    return 0;
  }
  try {
    const head = args.head ? loadSide(repoRoot, args.head) : loadWorkingTree(repoRoot);
    const { contract: base, note } = loadBase(repoRoot, args.base, head.version);
    const changes = diffContracts(base, head);
    const v = base.empty ? nothingCompared() : verdict(changes, base.version, head.version);
    const notes = note ? [note] : [];
    const report = buildReport(base, head, changes, v, notes);
    console.log(args.json ? JSON.stringify(report, null, 2) : formatText(report, args.verbose));
    return v.ok ? 0 : 1;
  } catch (err) {
    console.error(`check:breaking: ${(err as Error).message}`);
    return 2;
  }
}

process.exitCode = main();
