// The package as another repository gets it: `npm pack` (which builds dist/), installed into fresh projects
// offline — from the tarball and the npm cache that `npm ci` of this repository filled, never the network — then
// used as documented:
//   - app-light: types and validators only. Installs this package alone (no dependency, no optional peer);
//     compiles with tsc --strict (declaration files checked, guards narrow); validates from ESM and from
//     CommonJS; vendors the generated code with `ideas-contract export` as ESM and as CommonJS; the commands
//     name exactly the peers they lack.
//   - app-full: with the optional peers. Starts and stops the three mocks from ESM and CommonJS and runs the
//     conformance runner against them from code; the installed command runs the suite too.
// And @arethetypeswrong/cli checks the exports map.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { binPath } from "../lib/run.js";
import { repoRoot } from "../lib/paths.js";
import { consumerProject } from "./consumer/lockfile.js";
import { hangGuardMs } from "./support/hang-guard.js";

const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { name: string; version: string };
const fixtures = path.join(repoRoot, "test/consumer");

interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
}

// spawnSync blocks the test runner, so its own limit is the only hang guard a step has.
function run(command: string, args: string[], cwd: string, expectStatus: number | null = 0): Ran {
  const res = spawnSync(command, args, { cwd, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" }, timeout: hangGuardMs });
  const ran = { status: res.status, stdout: res.stdout, stderr: res.stderr };
  if (expectStatus !== null && res.status !== expectStatus)
    throw new Error(`${path.basename(command)} ${args.join(" ")} (in ${cwd}) exited ${res.status}${res.error ? ` (${res.error.message})` : ""}:\n${res.stdout}\n${res.stderr}`);
  return ran;
}

/** npm: the one running this test when there is one (`npm test`), else the one on PATH. */
function npm(args: string[], cwd: string, expectStatus: number | null = 0): Ran {
  const cli = process.env.npm_execpath;
  return cli?.endsWith(".js") ? run(process.execPath, [cli, ...args], cwd, expectStatus) : run("npm", args, cwd, expectStatus);
}

const tsc = (cwd: string) => run(process.execPath, [binPath("typescript", "tsc"), "-p", "tsconfig.json"], cwd);
const node = (file: string, cwd: string) => JSON.parse(run(process.execPath, [file], cwd).stdout.trim().split("\n").at(-1)!) as Record<string, any>;

/** Bytes of every file under dir (apparent size, as `du --apparent-size` counts it). */
function bytesUnder(dir: string): number {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .reduce((sum, e) => sum + fs.statSync(path.join(e.parentPath, e.name)).size, 0);
}

/** The packages installed under node_modules (top level and scoped). */
function installedPackages(dir: string): string[] {
  const top = path.join(dir, "node_modules");
  return fs
    .readdirSync(top)
    .filter((n) => !n.startsWith("."))
    .flatMap((n) => (n.startsWith("@") ? fs.readdirSync(path.join(top, n)).map((m) => `${n}/${m}`) : [n]))
    .sort();
}

let work: string;
let tarball: string;

/** A fresh project in `work/name` with the fixture files of app-`name`, installed offline (`npm ci --offline`). */
function project(name: "light" | "full", peers: readonly string[]): string {
  const dir = path.join(work, name);
  fs.cpSync(path.join(fixtures, `app-${name}`), dir, { recursive: true });
  const registry = npm(["config", "get", "registry"], dir).stdout.trim();
  const { manifest: pkg, lock } = consumerProject({ repoLock: path.join(repoRoot, "package-lock.json"), tarball, projectDir: dir, with: peers, registry });
  fs.writeFileSync(path.join(dir, "package.json"), `${JSON.stringify(pkg, null, 2)}\n`);
  fs.writeFileSync(path.join(dir, "package-lock.json"), `${JSON.stringify(lock, null, 2)}\n`);
  // --offline: cache only (a request that would need the network fails with ENOTCACHED instead);
  // --ignore-scripts: no install script may fetch anything either.
  npm(["ci", "--offline", "--ignore-scripts", "--no-audit", "--no-fund"], dir);
  return dir;
}

beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "consumer-"));
  npm(["pack", "--pack-destination", work], repoRoot); // prepack builds dist/
  tarball = path.join(work, `${manifest.name}-${manifest.version}.tgz`);
  expect(fs.existsSync(tarball)).toBe(true);
}, hangGuardMs);
afterAll(() => {
  if (work) fs.rmSync(work, { recursive: true, force: true });
}, hangGuardMs);

describe("the packed package", () => {
  it("ships the build, the command and the docs, and no TypeScript sources", () => {
    const files = run("tar", ["-tzf", tarball], work).stdout.trim().split("\n").map((f) => f.replace(/^package\//, ""));
    const top = new Set(files.map((f) => f.split("/")[0]));
    expect([...top].sort()).toEqual(["CHANGELOG.md", "README.md", "bin", "conformance", "dist", "docs", "mock", "package.json"]);
    // Outside dist/, bin/ and docs/: only the READMEs of what the package ships (the maintainers' guide and the
    // breaking-change gate's README describe tools of the repository, not of the package).
    expect(files.filter((f) => /^(conformance|mock|scripts)\//.test(f)).sort()).toEqual(["conformance/README.md", "mock/mcp/README.md", "mock/rest/README.md"]);
    expect(files.filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"))).toEqual([]);
    for (const entry of ["rest", "mcp", "errors", "openapi", "tools", "mock", "conformance", "proxy"]) {
      expect(files).toContain(`dist/entry/${entry}.js`);
      expect(files).toContain(`dist/entry/${entry}.d.ts`);
    }
    expect(files).toContain("dist/cli/main.js");
  });

  it("holds every file its README links to", () => {
    const files = new Set(run("tar", ["-tzf", tarball], work).stdout.trim().split("\n").map((f) => f.replace(/^package\//, "")));
    const readme = run("tar", ["-xzOf", tarball, "package/README.md"], work).stdout;
    const targets = [...readme.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((t) => !/^(#|[a-z]+:)/.test(t));
    expect(targets.length).toBeGreaterThan(3);
    expect(targets.map((t) => t.split("#")[0]!).filter((t) => !files.has(t))).toEqual([]);
  });

  it("has an exports map @arethetypeswrong/cli finds no problem with", () => {
    // openapi.yaml is a data file, not a module: attw cannot resolve it (app-full resolves it by path). CommonJS
    // consumers load the ESM entry points with require(esm) (Node ≥ 20.19; TypeScript ≥ 5.8 with module
    // nodenext types it), which attw's bundled TypeScript 5.6 reports as "ESM (dynamic import only)".
    const ran = run(
      process.execPath,
      [binPath("@arethetypeswrong/cli", "attw"), tarball, "--format", "json", "--no-definitely-typed", "--exclude-entrypoints", "./openapi.yaml", "--ignore-rules", "cjs-resolves-to-esm"],
      work,
      null,
    );
    const report = JSON.parse(ran.stdout) as { analysis: { problems: { kind: string; entrypoint?: string }[]; entrypoints: Record<string, unknown> } };
    expect(report.analysis.problems.filter((p) => p.kind !== "CJSResolvesToESM")).toEqual([]);
    expect(Object.keys(report.analysis.entrypoints).sort()).toEqual(
      ["./conformance", "./errors", "./errors.json", "./mcp", "./mock", "./openapi", "./openapi.json", "./package.json", "./proxy", "./rest", "./tools", "./tools.json"].sort(),
    );
    expect(ran.status).toBe(0);
  }, hangGuardMs);
});

describe("a project that only imports types and validators", () => {
  let dir: string;
  beforeAll(() => {
    dir = project("light", []);
  }, hangGuardMs);

  // The budget: 3.1 MB, with the whole conformance suite (227 checks), both mocks and the proxy inside; the generated
  // validators and manifest are half of it (scripts/build.ts compacts the rest: scripts/lib/package-trim.ts). It was
  // 3 MB until the package passed it by 0.02 MB (the contract library, the proxy's verdict cache and drift, and the
  // CHANGELOG, which ships): what a types-only consumer installs stays this one package, a few MB.
  it("installs this package alone, at most 3.1 MB: the validators need nothing at run time", () => {
    const installed = installedPackages(dir);
    const mb = bytesUnder(path.join(dir, "node_modules")) / 2 ** 20;
    console.log(`types-only consumer: ${installed.length} package(s), ${mb.toFixed(2)} MB of node_modules`);
    expect(installed).toEqual(["ideas-contract"]);
    expect(mb).toBeLessThanOrEqual(3.1);
  });

  it("compiles with tsc --strict and validates from ESM and from CommonJS, installed and vendored", () => {
    const exported = npm(["exec", "--offline", "--no", "--", "ideas-contract", "export", "--out", "vendor", "--what", "types,validators"], dir);
    expect(exported.stdout).toContain("Wrote 7 files");
    const cjsExport = npm(["exec", "--offline", "--no", "--", "ideas-contract", "export", "--out", "vendor-cjs", "--what", "validators", "--module", "cjs"], dir);
    expect(cjsExport.stdout).toContain("vendor-cjs/rest/validators.cjs");
    tsc(dir);
    const esm = node("esm.js", dir);
    const cjs = node("cjs.cjs", dir);
    expect(esm.module).toBe("esm");
    expect(esm.passed).toHaveLength(8);
    expect(cjs).toEqual({ ...esm, module: "cjs" });
    // The CommonJS file really require()s the package.
    expect(fs.readFileSync(path.join(dir, "cjs.cjs"), "utf8")).toContain('require("ideas-contract/rest")');
    expect(node("vendored.js", dir)).toEqual({ module: "vendored", valid: true, invalidRefused: true });
    expect(node("vendored-cjs.cjs", dir)).toEqual({ module: "vendored-cjs", valid: true, invalidRefused: true });
    expect(fs.readFileSync(path.join(dir, "vendored-cjs.cjs"), "utf8")).toContain('require("./vendor-cjs/rest/validators.cjs")');
  });

  it("runs the installed command, which names exactly the optional peers a command needs, before doing anything", () => {
    const exec = (...args: string[]) => npm(["exec", "--offline", "--no", "--", "ideas-contract", ...args], dir, null);
    const mock = exec("mock", "--no-prism");
    expect(mock.status).toBe(1);
    expect(mock.stdout).toBe(""); // no URL printed before the failure
    expect(mock.stderr).toContain("ideas-contract mock needs @modelcontextprotocol/sdk, an optional peer dependency");
    expect(mock.stderr).toMatch(/npm install --save-dev @modelcontextprotocol\/sdk@\d+\.\d+\.\d+\n/);
    expect(mock.stderr).not.toMatch(/prism|yaml|ajv/);
    const conformance = exec("conformance");
    expect(conformance.status).toBe(1);
    expect(conformance.stderr).toContain("ideas-contract conformance needs @modelcontextprotocol/sdk, yaml, ajv and ajv-formats");
    expect(conformance.stderr).not.toContain("prism");
    expect(exec("--version").stdout.trim()).toBe(manifest.version);
    expect(exec("--help").stdout).toContain("export");
  });
});

describe("a project with the optional peers", () => {
  let dir: string;
  beforeAll(() => {
    dir = project("full", ["@modelcontextprotocol/sdk", "yaml", "@stoplight/prism-cli", "@types/node"]);
    tsc(dir);
  }, hangGuardMs);

  it("starts and stops the mocks and runs the conformance runner against them from code (ESM)", () => {
    const out = node("servers.js", dir);
    expect(out.observed).toEqual({
      rest: { status: 201, brandValid: true },
      mcp: { status: 200, listsCreatePosts: true },
      prism: { status: 200, brandValid: true },
      stopped: true,
    });
    expect(out.conformance.suites).toEqual(["rest", "mcp"]);
    expect(out.conformance.exitCode).toBe(0);
    expect(out.conformance.summary.failed).toBe(0);
    expect(out.conformance.summary.passed).toBeGreaterThan(100);
    expect(out.conformance.junitCases).toBe(out.conformance.summary.checks);
  }, hangGuardMs);

  it("starts and stops the mocks from CommonJS", () => {
    expect(node("servers.cjs", dir)).toEqual({
      module: "cjs",
      observed: { rest: { status: 201, brandValid: true }, mcp: { status: 200, listsCreatePosts: true }, stopped: true },
    });
  }, hangGuardMs);

  it("runs the suite with the installed command, and resolves the OpenAPI file by its export", () => {
    const ran = npm(["exec", "--offline", "--no", "--", "ideas-contract", "conformance", "--only", "no-token-*", "--no-live"], dir);
    expect(ran.stdout).toMatch(/PASS/);
    const resolved = run(process.execPath, ["-p", 'require.resolve("ideas-contract/openapi.yaml")'], dir).stdout.trim();
    expect(fs.readFileSync(resolved, "utf8")).toMatch(/^openapi: 3\.1\.0$/m);
  }, hangGuardMs);
});
