// Adding an MCP tool is its schema file: in a copy of the package with one more tool in spec/mcp/tools/ (and no
// other edit), `npm run generate` puts it in the contract, the rule families drawn from the tools gain its members,
// `--list` shows them among the checks' cases, and a run's ledger judges the members the checks reach and reports
// the ones no case reached as not enforced — a new tool is never silently out of the suite.
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../lib/paths.js";
import { spawnTracked } from "./support/children.js";
import { hangGuardMs } from "./support/hang-guard.js";

const dummy = "get_dummy_note";
let copy: string;

/** Runs a command in the copy; its stdout, or a failure with both streams. */
function run(command: string, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawnTracked(command, args, { cwd: copy, env: { ...process.env, NO_COLOR: "1" }, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout!.on("data", (d) => (out += d));
    child.stderr!.on("data", (d) => (err += d));
    child.on("exit", (code) => (code === 0 ? resolve(out) : reject(new Error(`${command} ${args.join(" ")} exited ${code}:\n${out}\n${err}`))));
  });
}

beforeAll(async () => {
  copy = mkdtempSync(path.join(tmpdir(), "ideas-contract-dummy-tool-"));
  // The package's own files (tracked or new, not ignored), as a contributor's checkout has them.
  const files = execFileSync("git", ["ls-files", "-co", "--exclude-standard"], { cwd: repoRoot, encoding: "utf8" }).split("\n").filter(Boolean);
  for (const f of files) cpSync(path.join(repoRoot, f), path.join(copy, f), { recursive: true });
  symlinkSync(path.join(repoRoot, "node_modules"), path.join(copy, "node_modules"), "dir");
  const tool = JSON.parse(readFileSync(path.join(copy, "spec/mcp/tools/get_brand_style.json"), "utf8"));
  writeFileSync(path.join(copy, `spec/mcp/tools/${dummy}.json`), `${JSON.stringify({ ...tool, name: dummy, description: "A tool added by a test: reads a brand's note." }, null, 2)}\n`);
  await run(process.execPath, [path.join(repoRoot, "node_modules/tsx/dist/cli.mjs"), "scripts/generate.ts"]);
}, hangGuardMs);

afterAll(() => {
  if (copy) rmSync(copy, { recursive: true, force: true });
});

describe("a new MCP tool, from its schema file alone", () => {
  it("is in the generated contract", () => {
    const manifest = JSON.parse(readFileSync(path.join(copy, "generated/mcp/tools.json"), "utf8"));
    expect(JSON.stringify(manifest)).toContain(`"${dummy}"`);
  });

  it("gets its cases in --list", async () => {
    const list = await run(process.execPath, ["bin/ideas-contract.js", "conformance", "--suite", "mcp", "--mcp-profile", "all", "--list"]);
    const schemas = list.split("\n").findIndex((l) => l === "mcp-tools-list-schemas");
    expect(schemas).toBeGreaterThanOrEqual(0);
    const cases = list.split("\n").slice(schemas).find((l) => l.trim().startsWith("cases:"));
    expect(cases).toMatch(new RegExp(`tools-list-schemas × \\d+ \\(.*\\b${dummy}\\b`));
  });

  it("is judged where the checks reach it, and shown as not enforced where they do not", async () => {
    const report = path.join(copy, "report.json");
    const checks = ["mcp-tools-list-schemas", "mcp-success-conventions"];
    await run(process.execPath, ["bin/ideas-contract.js", "conformance", "--suite", "mcp", "--mcp-profile", "all", ...checks.flatMap((c) => ["--only", c]), "--report-json", report]);
    const ledger: { id: string; status: string }[] = JSON.parse(readFileSync(report, "utf8")).ledger;
    const of = (family: string) => ledger.find((r) => r.id === `${family}/${dummy}`)?.status;
    expect(of("tools-list-schemas")).toBe("pass");
    // The reference answers the tool like any other read; no check knows how to call it yet: a gap, in plain view.
    expect(of("success-structured-data")).toBe("skipped");
    expect(ledger.filter((r) => r.id.endsWith(`/${dummy}`)).length).toBeGreaterThanOrEqual(10);
  }, hangGuardMs);
});
