// `npm run release -- [--dry-run]`: computes the next version from the contract diff against the last
// release tag and writes package.json / package-lock.json version and the CHANGELOG section. It never
// commits or tags; it prints the git commands to run. --help for details.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { commandArgs } from "../cli/args.js";
import { repoRoot } from "../lib/paths.js";
import { diffContracts } from "./breaking/contract.js";
import { loadBase, loadWorkingTree } from "./breaking/load-base.js";
import { applyChangelog, planRelease, setLockVersion, setPackageVersion, unreleasedNotes } from "./breaking/release-plan.js";

const HELP = `Usage: npm run release -- [--dry-run] [--base REF|FILE] [--date YYYY-MM-DD]

Computes the next version from the generated contract's diff against the last release tag (v*):
breaking -> major, compatible -> minor, docs/examples or no contract change -> patch
(0.x: breaking -> minor, anything else -> patch). With no tag yet, the current package.json
version is the first release.

Prints the CHANGELOG section it would add: the notes under "## Unreleased" plus the contract
changes, listed from the same diff as npm run check:breaking. Without --dry-run it writes the
version into package.json and package-lock.json and the section into CHANGELOG.md, then prints
the git commands to commit and tag. It never commits, tags or pushes itself.

Options:
  --dry-run         Print the plan; write nothing.
  --base REF|FILE   Compare with this git ref or package tarball instead of the last release tag.
  --date YYYY-MM-DD Release date for the CHANGELOG heading (default: today, UTC).
  -h, --help        This text.

Refuses (exit 1) when the diff holds a breaking REST change inside an existing version path,
or when the tag for the computed version exists already; refuses (exit 2) when this clone
cannot tell the last release (shallow without tags, no usable git).`;

function tagExists(tag: string): boolean {
  try {
    execFileSync("git", ["rev-parse", "--verify", "--quiet", `refs/tags/${tag}`], { cwd: repoRoot, stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

function main(): number {
  const parsed = commandArgs(
    process.argv.slice(2),
    {
      "dry-run": { type: "boolean", default: false },
      base: { type: "string" },
      date: { type: "string" },
    },
    HELP,
  );
  if ("exit" in parsed) return parsed.exit;
  const args = parsed.values;
  const date = args.date ?? new Date().toISOString().slice(0, 10);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) {
    console.error(`--date must be YYYY-MM-DD, got ${date}`);
    return 2;
  }
  const files = {
    pkg: path.join(repoRoot, "package.json"),
    lock: path.join(repoRoot, "package-lock.json"),
    changelog: path.join(repoRoot, "CHANGELOG.md"),
  };
  try {
    const head = loadWorkingTree(repoRoot);
    const pkgText = fs.readFileSync(files.pkg, "utf8");
    const current = (JSON.parse(pkgText) as { version: string }).version;
    const { contract: base, note, historyMissing } = loadBase(repoRoot, args.base, current);
    if (historyMissing) {
      // Releasing without knowing the last release would call this the first one, or skip a breaking change.
      console.error(`Refusing to release: ${note}`);
      return 2;
    }
    const changelog = fs.existsSync(files.changelog) ? fs.readFileSync(files.changelog, "utf8") : "# Changelog\n";
    const changes = diffContracts(base, head);
    const plan = planRelease({ base, changes, currentVersion: current, date, unreleased: unreleasedNotes(changelog) });
    const tag = `v${plan.version}`;

    if (note) console.log(`note: ${note}`);
    console.log(`Release ${tag} (${plan.bump === "first" ? "first release" : `${plan.bump} release after ${base.label}${base.version ? ` ${base.version}` : ""}`}); package.json now ${current}.`);
    for (const w of plan.warnings) console.log(`warning: ${w}`);
    console.log(`\nCHANGELOG.md section${args["dry-run"] ? " it would add" : ""}:\n\n${plan.section}`);

    if (plan.blocking.length) {
      console.error(`Refusing to release: ${plan.blocking.length} breaking REST change(s) inside an existing version path (npm run check:breaking lists them).`);
      return 1;
    }
    if (tagExists(tag)) {
      console.error(`Refusing to release: tag ${tag} exists already.`);
      return 1;
    }
    if (args["dry-run"]) {
      console.log("Dry run: nothing written.");
      return 0;
    }
    fs.writeFileSync(files.pkg, setPackageVersion(pkgText, plan.version));
    if (fs.existsSync(files.lock)) fs.writeFileSync(files.lock, setLockVersion(fs.readFileSync(files.lock, "utf8"), plan.version));
    fs.writeFileSync(files.changelog, applyChangelog(changelog, plan.section));
    console.log(
      [
        `Wrote package.json${fs.existsSync(files.lock) ? ", package-lock.json" : ""} (${plan.version}) and CHANGELOG.md. Check them, run npm test, then:`,
        "",
        `  git add package.json package-lock.json CHANGELOG.md`,
        `  git commit -m "Release ${tag}"`,
        `  git tag -a ${tag} -m "${tag}"`,
        `  git push --follow-tags`,
      ].join("\n"),
    );
    return 0;
  } catch (err) {
    console.error(`release: ${(err as Error).message}`);
    return 2;
  }
}

process.exitCode = main();
