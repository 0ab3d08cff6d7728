// The gate as a whole: the contract against itself, REST versioning (/v2 allowed vs the same change in /v1
// refused), the version-bump rule, recursion, the three ways to load a side, and the CLI.
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nothingCompared, releaseBump, verdict } from "../scripts/breaking/classify.js";
import { diffContracts } from "../scripts/breaking/contract.js";
import { ARTEFACTS, lastReleaseTag, loadBase, loadGitRef, loadSide, loadWorkingTree } from "../scripts/breaking/load-base.js";
import { diffMcp } from "../scripts/breaking/mcp-diff.js";
import { diffOpenApi } from "../scripts/breaking/openapi-diff.js";
import { buildReport, formatText, type Report } from "../scripts/breaking/report.js";
import { rulesTable } from "../scripts/breaking/rules.js";
import { bumpVersion, isMajorBump } from "../scripts/breaking/semver.js";
import { isObject, type Change, type Contract, type Json } from "../scripts/breaking/types.js";
import { repoRoot } from "../lib/paths.js";
import { asJson, clone, clientRules, fixture, real, schemaDiff, toolIn, tools as toolsCopy, type Fields } from "./fixtures/breaking/support.js";
import { at, fieldsOf, filterAt, itemsOf, setAt } from "./support/json.js";

const removeTool = (name: string) => {
  const after = toolsCopy();
  filterAt(after, "tools", (t) => at(t, "name") !== name);
  return diffMcp({ tools: real.tools, errors: real.errors }, { tools: asJson(after), errors: real.errors });
};

describe("the current contract", () => {
  it("compared with itself (a deep copy) has no changes", () => {
    expect(diffContracts(real, clone(real))).toEqual([]);
  });

  it("read through git at HEAD is the committed contract, not the working tree's", () => {
    // A repository of its own holding a copy of the contract: HEAD read through git equals the files read from
    // disk; an uncommitted change to the working tree shows up in a diff against HEAD.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gate-head-"));
    try {
      for (const rel of ["package.json", ...Object.values(ARTEFACTS)]) {
        fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
        fs.copyFileSync(path.join(repoRoot, rel), path.join(dir, rel));
      }
      const git = (...args: string[]) => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false", ...args], { cwd: dir, stdio: "pipe" });
      git("init", "-q");
      git("add", "-A");
      git("commit", "-qm", "contract");
      const head = loadGitRef(dir, "HEAD");
      expect({ ...head, label: "" }).toEqual({ ...loadWorkingTree(dir), label: "" });
      expect(head.version).toBe(real.version);
      expect(diffContracts(head, loadWorkingTree(dir))).toEqual([]);
      const tools = JSON.parse(fs.readFileSync(path.join(dir, ARTEFACTS.tools), "utf8"));
      filterAt(tools, "tools", (t) => at(t, "name") !== "get_workspaces");
      fs.writeFileSync(path.join(dir, ARTEFACTS.tools), JSON.stringify(tools));
      const changes = diffContracts(loadGitRef(dir, "HEAD"), loadWorkingTree(dir));
      expect(changes.map((c) => `${c.kind} ${c.rule}`)).toEqual(["breaking mcp.tool-removed"]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("serialized differently (every key order reversed, tools and codes listed backwards) has no changes", () => {
    // Identical tools are skipped by a string comparison; this copy differs as text, so every schema is walked.
    const reorder = (v: unknown): unknown => (Array.isArray(v) ? v.map(reorder) : isObject(v) ? Object.fromEntries(Object.entries(v).reverse().map(([k, x]) => [k, reorder(x)])) : v);
    const copy = reorder(clone(real)) as Contract;
    itemsOf(copy.tools, "tools").reverse();
    itemsOf(copy.errors, "entries").reverse();
    expect(JSON.stringify(copy.tools)).not.toBe(JSON.stringify(real.tools));
    expect(diffContracts(real, copy)).toEqual([]);
  });

  it("is not mutated by a diff", () => {
    const before = JSON.stringify(real);
    diffContracts(real, clone(real));
    removeTool("get_workspaces");
    expect(JSON.stringify(real)).toBe(before);
  });
});

describe("REST versioning: a breaking change needs a new version path", () => {
  const v1 = fixture("rest-v1.json");

  it("allows the change when /v2 is added and /v1 stays unchanged", () => {
    const changes = diffOpenApi(v1, fixture("rest-v2-added.json"));
    const breaking = changes.filter((c) => c.kind === "breaking");
    expect(breaking.map((c) => [c.rule, c.path, c.allowedBy])).toEqual([["response.field-renamed", "GET /v2/items/{item_id} › 200.name", "/v2"]]);
    expect(changes.some((c) => c.rule === "rest.operation-added" && c.path === "GET /v2/items/{item_id}")).toBe(true);
    const v = verdict(changes, "0.1.0", "0.1.0");
    expect(v.ok).toBe(true);
    expect(v.reasons.join(" ")).toMatch(/confined to a new version path \(\/v2\)/);
    expect(releaseBump(changes)).toBe("minor");
  });

  it("refuses the same change made in place under /v1, even with a major package bump", () => {
    const changes = diffOpenApi(v1, fixture("rest-v1-changed.json"));
    expect(clientRules(changes)).toEqual(["response.field-renamed"]);
    expect(changes[0]!.allowedBy).toBeUndefined();
    expect(verdict(changes, "0.1.0", "0.1.0").ok).toBe(false);
    const bumped = verdict(changes, "1.0.0", "2.0.0");
    expect(bumped.ok).toBe(false);
    expect(bumped.reasons[0]).toMatch(/new version path/);
  });

  it("refuses /v2 when /v1 was removed", () => {
    const after = fixture<Fields>("rest-v2-added.json");
    delete fieldsOf(after, "paths")["/v1/items/{item_id}"];
    const changes = diffOpenApi(v1, asJson(after));
    expect(changes.some((c) => c.rule === "rest.operation-removed" && !c.allowedBy)).toBe(true);
    expect(verdict(changes, "0.1.0", "0.2.0").ok).toBe(false);
  });

  it("refuses /v2 when a schema /v1 shares changed too", () => {
    const after = fixture<Fields>("rest-v2-added.json");
    const schemas = fieldsOf(after, "components", "schemas");
    schemas.Item = schemas.ItemV2;
    fieldsOf(after, "paths", "/v2/items/{item_id}", "get", "responses", "200", "content", "application/json", "schema").$ref = "#/components/schemas/Item";
    const changes = diffOpenApi(v1, asJson(after));
    const blocking = verdict(changes, "0.1.0", "0.1.0").blocking;
    expect(blocking.map((c) => c.path)).toContain("GET /v1/items/{item_id} › 200.name");
  });

  it("matches operations across a renamed path parameter", () => {
    const after = fixture<Fields>("rest-v1.json");
    const item = fieldsOf(after, "paths", "/v1/items/{item_id}");
    setAt(item, "get.parameters.0.name", "id");
    after.paths = { "/v1/items/{id}": item };
    const changes = diffOpenApi(v1, asJson(after));
    expect(clientRules(changes)).toEqual([]);
    expect(changes.map((c) => c.rule)).toEqual(["docs-changed"]);
  });
});

describe("the gate and the version bump", () => {
  const mcpBreaking = removeTool("get_workspaces");

  it("refuses a breaking MCP change without a major bump", () => {
    expect(verdict(mcpBreaking, "0.1.0", "0.1.0").ok).toBe(false);
    expect(verdict(mcpBreaking, "0.1.0", "0.1.1").ok).toBe(false);
    expect(verdict(mcpBreaking, "1.4.2", "1.5.0").ok).toBe(false);
  });

  it("allows it with a major bump (0.x: a minor bump counts as major)", () => {
    expect(verdict(mcpBreaking, "0.1.0", "0.2.0").ok).toBe(true);
    expect(verdict(mcpBreaking, "0.1.0", "1.0.0").ok).toBe(true);
    expect(verdict(mcpBreaking, "1.4.2", "2.0.0").ok).toBe(true);
  });

  it("passes compatible and review-only changes", () => {
    const tools = toolsCopy();
    toolIn(tools, "get_workspaces").description = "Lists workspaces.";
    setAt(toolIn(tools, "get_workspaces"), "inputSchema.properties.cursor", { type: "string" });
    const changes = diffMcp({ tools: real.tools, errors: real.errors }, { tools: asJson(tools), errors: real.errors });
    expect(changes.map((c) => c.kind).sort()).toEqual(["compatible", "review"]);
    expect(verdict(changes, "0.1.0", "0.1.0").ok).toBe(true);
  });

  it("semver helpers", () => {
    expect(isMajorBump("0.1.0", "0.2.0")).toBe(true);
    expect(isMajorBump("0.1.0", "0.1.9")).toBe(false);
    expect(isMajorBump("1.2.3", "2.0.0")).toBe(true);
    expect(isMajorBump("1.2.3", "1.9.0")).toBe(false);
    expect(bumpVersion("0.1.0", "major")).toBe("0.2.0");
    expect(bumpVersion("0.1.0", "minor")).toBe("0.1.1");
    expect(bumpVersion("0.1.3", "patch")).toBe("0.1.4");
    expect(bumpVersion("1.2.3", "major")).toBe("2.0.0");
    expect(bumpVersion("1.2.3", "minor")).toBe("1.3.0");
    expect(bumpVersion("1.2.3", "patch")).toBe("1.2.4");
  });

  it("release kind: breaking → major, compatible → minor, docs/review only → patch", () => {
    const c = (kind: Change["kind"], allowedBy?: string): Change => ({ protocol: "rest", kind, rule: "x", path: "p", message: "m", ...(allowedBy ? { allowedBy } : {}) });
    expect(releaseBump([c("compatible"), c("breaking")])).toBe("major");
    expect(releaseBump([c("compatible"), c("docs")])).toBe("minor");
    expect(releaseBump([c("breaking", "/v2")])).toBe("minor");
    expect(releaseBump([c("docs"), c("review")])).toBe("patch");
    expect(releaseBump([])).toBe("patch");
  });
});

describe("schemas", () => {
  it("resolves recursive $refs without looping", () => {
    const { before, after } = fixture<{ before: Json; after: Json }>("recursive.json");
    const changes = schemaDiff(before, after, "request");
    expect(clientRules(changes)).toEqual(["request.limit-tightened"]);
    expect(changes.every((c) => c.path.endsWith(".name"))).toBe(true);
  });

  it("folds a shared definition's change into one entry with the other places in alsoAt", () => {
    const doc = clone(real.openapi);
    setAt(doc, "components.schemas.BrandId.pattern", "^brand_[a-z]+$");
    const changes = diffOpenApi(real.openapi, doc).filter((c) => c.rule === "response.constraint-changed");
    expect(changes).toHaveLength(1);
    expect(changes[0]!.alsoAt!.length).toBeGreaterThan(3);
  });
});

let tmp: string;
beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "breaking-test-"));
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe("loading a side", () => {
  it("reads a published package tarball (npm pack layout)", () => {
    const tgz = path.join(tmp, "ideas-contract-head.tgz");
    const files = ["package.json", "generated/openapi/openapi.json", "generated/mcp/tools.json", "generated/mcp/errors.json"];
    execFileSync("git", ["archive", "--format=tar.gz", "--prefix=package/", "-o", tgz, "HEAD", ...files], { cwd: repoRoot });
    const fromTar = loadSide(repoRoot, tgz);
    const fromGit = loadGitRef(repoRoot, "HEAD");
    expect(fromTar.version).toBe(fromGit.version);
    expect(diffContracts(fromTar, fromGit)).toEqual([]);
  });

  it("names a bad ref", () => {
    expect(() => loadSide(repoRoot, "no-such-ref-xyz")).toThrow(/neither a file nor a git ref/);
  });
});

describe("the default base: the last release tag, and clones that cannot tell (CI)", () => {
  const git = (cwd: string, ...args: string[]) =>
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false", "-c", "tag.gpgsign=false", ...args], { cwd, stdio: "pipe", encoding: "utf8" });
  /** A repository with one commit per version (package.json only), tagged as given. */
  const repo = (name: string, commits: [version: string, tag?: string][]) => {
    const dir = path.join(tmp, name);
    fs.mkdirSync(dir);
    git(dir, "init", "-q");
    for (const [version, tag] of commits) {
      fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "x", version }));
      git(dir, "add", "package.json");
      git(dir, "commit", "-q", "-m", version);
      if (tag) git(dir, "tag", tag);
    }
    return dir;
  };
  const shallowClone = (from: string, name: string) => {
    git(tmp, "clone", "-q", "--depth", "1", "--no-tags", `file://${from}`, name);
    return path.join(tmp, name);
  };
  let released: string;
  beforeAll(() => {
    released = repo("released", [["0.2.0", "v0.2.0"], ["0.9.0", "v0.9.0"], ["0.10.0", "v0.10.0"], ["1.0.0-rc.1", "v1.0.0-rc.1"]]);
  });

  it("is the highest final release by semver (v0.10.0 > v0.9.0; pre-releases are not releases)", () => {
    expect(lastReleaseTag(released)).toBe("v0.10.0");
    const base = loadBase(released, undefined, "1.0.0-rc.1");
    expect([base.contract.label, base.contract.version, base.note, base.historyMissing]).toEqual(["v0.10.0", "0.10.0", "base: last release tag v0.10.0", undefined]);
  });

  it("is not above the working version (a maintenance branch compares with its own line)", () => {
    expect(lastReleaseTag(released, "0.9.3")).toBe("v0.9.0");
    const below = loadBase(released, undefined, "0.1.0");
    expect(below.contract.empty).toBe(true);
    expect(below.historyMissing).toBeUndefined();
    expect(below.note).toMatch(/No release tag at or below package.json's 0\.1\.0 \(the highest is v0\.10\.0\)/);
  });

  it("is nothing in a complete clone without tags: the first release, no warning", () => {
    const base = loadBase(repo("unreleased", [["0.1.0"]]), undefined, "0.1.0");
    expect(base.contract.empty).toBe(true);
    expect(base.historyMissing).toBeUndefined();
    expect(base.note).toMatch(/No release tag \(v\*\) exists yet/);
  });

  it("is unknown in a shallow clone without tags (the CI default): a note says so, and its advice works", () => {
    const dir = shallowClone(released, "shallow");
    const base = loadBase(dir, undefined, "1.0.0-rc.1");
    expect(base.contract.empty).toBe(true);
    expect(base.historyMissing).toBe(true);
    expect(base.note).toMatch(/shallow and has no release tag.*git fetch --tags/);
    git(dir, "fetch", "-q", "--tags");
    expect(loadBase(dir, undefined, "1.0.0-rc.1").contract.version).toBe("0.10.0");
  });

  it("is unknown when a release tag is there but its commit is not", () => {
    const dir = shallowClone(released, "shallow-broken-tag");
    fs.appendFileSync(path.join(dir, ".git/packed-refs"), `${git(released, "rev-parse", "v0.2.0").trim()} refs/tags/v0.2.0\n`);
    const base = loadBase(dir, undefined, "1.0.0-rc.1");
    expect([base.contract.empty, base.historyMissing]).toEqual([true, true]);
    expect(base.note).toMatch(/Release tag v0\.2\.0 exists but its commit is not in this clone \(shallow\)/);
  });

  it("is unknown outside a git repository (no error)", () => {
    const dir = path.join(tmp, "no-git");
    fs.mkdirSync(dir);
    const base = loadBase(dir, undefined, "0.1.0");
    expect([base.contract.empty, base.historyMissing]).toEqual([true, true]);
    expect(base.note).toMatch(/^Cannot read git here \(not a git repository/);
  });

  it("compares nothing and passes with its note in the report", () => {
    const base = loadBase(repo("noted", [["0.1.0"]]), undefined, "0.1.0");
    const report = buildReport(base.contract, real, diffContracts(base.contract, real), nothingCompared(), [base.note!]);
    expect(report.changes).toEqual([]);
    expect(report.verdict.ok).toBe(true);
    expect(formatText(report)).toMatch(/^Contract changes: nothing \(no release tag\) → working tree .*\nnote: No release tag[\s\S]*Verdict: PASS\n {2}- Nothing was compared/);
  });
});

describe("report and CLI", () => {
  const cli = (args: string[]) =>
    spawnSync(process.execPath, ["--import", "tsx", path.join(repoRoot, "scripts/check-breaking.ts"), ...args], { cwd: repoRoot, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });

  it("prints a readable list grouped by protocol and kind", () => {
    const changes = removeTool("get_workspaces");
    const report = buildReport({ label: "base", version: "0.1.0" }, { label: "head", version: "0.1.0" }, changes, verdict(changes, "0.1.0", "0.1.0"), []);
    const text = formatText(report);
    expect(text).toMatch(/MCP .*: 1 change/);
    expect(text).toMatch(/breaking \(1\)\n {3}! tool get_workspaces\n {7}tool get_workspaces removed {2}\[mcp\.tool-removed\]/);
    expect(text).toMatch(/Verdict: FAIL/);
  });

  it("--json against HEAD: no breaking changes, exit 0", () => {
    const run = cli(["--base", "HEAD", "--json"]);
    expect(run.status, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as Report;
    expect(report.base.label).toBe("HEAD");
    expect(report.summary.breaking).toBe(0);
    expect(report.verdict.ok).toBe(true);
  });

  it("exits 1 on a breaking change (base tarball has a tool the working tree lacks)", () => {
    const dir = path.join(tmp, "pkg", "package");
    fs.mkdirSync(path.join(dir, "generated/mcp"), { recursive: true });
    fs.mkdirSync(path.join(dir, "generated/openapi"), { recursive: true });
    const tools = toolsCopy();
    itemsOf(tools, "tools").push({ ...toolIn(tools, "get_workspaces"), name: "legacy_tool" });
    fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "ideas-contract", version: real.version }));
    fs.writeFileSync(path.join(dir, "generated/mcp/tools.json"), JSON.stringify(tools));
    fs.writeFileSync(path.join(dir, "generated/mcp/errors.json"), JSON.stringify(real.errors));
    fs.writeFileSync(path.join(dir, "generated/openapi/openapi.json"), JSON.stringify(real.openapi));
    const tgz = path.join(tmp, "base.tgz");
    execFileSync("tar", ["-czf", tgz, "-C", path.join(tmp, "pkg"), "package"]);
    const run = cli(["--base", tgz]);
    expect(run.status, run.stderr).toBe(1);
    expect(run.stdout).toMatch(/tool legacy_tool removed {2}\[mcp\.tool-removed\]/);
    expect(run.stdout).toMatch(/without a major version bump/);
  });

  it("scripts/breaking/README.md carries the current rule table", () => {
    const readme = fs.readFileSync(path.join(repoRoot, "scripts/breaking/README.md"), "utf8");
    const table = /<!-- rules-table:[^\n]*-->\n([\s\S]*?)\n<!-- \/rules-table -->/.exec(readme)?.[1];
    expect(table, "regenerate with npm run check:breaking -- --rules").toBe(rulesTable());
  });

  it("--help and bad options", () => {
    const help = cli(["--help"]);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/--base REF\|FILE/);
    expect(cli(["--bogus"]).status).toBe(2);
  });
});
