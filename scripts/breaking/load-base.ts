// Reads the generated contract of one side: the working tree, a git ref, or a published package tarball.
//
// Only the GENERATED artefacts are compared (what clients actually get): generated/openapi/openapi.json,
// generated/mcp/tools.json and generated/mcp/errors.json, plus package.json for the version. A git ref is
// read with `git show REF:path` (nothing is checked out); a tarball (`npm pack` output, `package/` prefix) is
// unpacked with `tar` into a temporary directory that is removed afterwards.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { compareVersions, parseVersion } from "./semver.js";
import type { Contract, Json } from "./types.js";

export const ARTEFACTS = {
  openapi: "generated/openapi/openapi.json",
  tools: "generated/mcp/tools.json",
  errors: "generated/mcp/errors.json",
} as const;

type Reader = (rel: string) => string | undefined;

function parse(text: string | undefined, where: string): Json | undefined {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as Json;
  } catch (err) {
    throw new Error(`${where} is not valid JSON: ${(err as Error).message}`);
  }
}

function read(label: string, reader: Reader): Contract {
  const pkg = parse(reader("package.json"), `${label}: package.json`) as { version?: unknown } | undefined;
  const contract: Contract = { label };
  if (pkg && typeof pkg.version === "string") contract.version = pkg.version;
  for (const [key, rel] of Object.entries(ARTEFACTS) as [keyof typeof ARTEFACTS, string][]) {
    const doc = parse(reader(rel), `${label}: ${rel}`);
    if (doc !== undefined) contract[key] = doc;
  }
  return contract;
}

function git(root: string, args: string[]): string {
  return execFileSync("git", args, { cwd: root, encoding: "utf8", maxBuffer: 256 * 1024 * 1024, stdio: ["ignore", "pipe", "pipe"] });
}

/** The first line git (or the system) gave as the reason a command failed. */
function gitError(err: unknown): string {
  const e = err as { stderr?: string | Buffer; message?: string; code?: string };
  if (e.code === "ENOENT") return "git is not installed";
  const text = String(e.stderr ?? "").trim() || String(e.message ?? err);
  return text.split("\n")[0]!.replace(/^fatal: /, "");
}

export function loadWorkingTree(root: string): Contract {
  return read("working tree", (rel) => {
    const file = path.join(root, rel);
    return fs.existsSync(file) ? fs.readFileSync(file, "utf8") : undefined;
  });
}

/** The commit a ref names, or undefined when there is no such ref or its commit is not in this clone. */
function resolveCommit(root: string, ref: string): string | undefined {
  try {
    return git(root, ["rev-parse", "--verify", "--quiet", `${ref}^{commit}`]).trim() || undefined;
  } catch {
    return undefined;
  }
}

export function loadGitRef(root: string, ref: string): Contract {
  const commit = resolveCommit(root, ref);
  if (!commit) throw new Error(`${ref} is neither a file nor a git ref of this repository`);
  // Paths are relative to `root` (`./`), so a package inside a larger repository reads its own files.
  const files = new Set(git(root, ["ls-tree", "-r", "--name-only", commit, "--", "package.json", ...Object.values(ARTEFACTS)]).split("\n"));
  return read(ref, (rel) => (files.has(rel) ? git(root, ["show", `${commit}:./${rel}`]) : undefined));
}

export function loadTarball(file: string): Contract {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ideas-contract-base-"));
  try {
    execFileSync("tar", ["-xzf", path.resolve(file), "-C", dir], { stdio: ["ignore", "pipe", "pipe"] });
    const root = path.join(dir, "package");
    if (!fs.existsSync(root)) throw new Error(`${file} has no package/ folder (expected an npm pack tarball)`);
    return read(path.basename(file), (rel) => {
      const f = path.join(root, rel);
      return fs.existsSync(f) ? fs.readFileSync(f, "utf8") : undefined;
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** A release tag: `v` and a final semantic version (pre-releases such as v1.0.0-rc.1 are not releases). */
const RELEASE_TAG = /^v\d+\.\d+\.\d+$/;

/**
 * The last release: the highest release tag, or — given the working tree's version — the highest one not above
 * it (so a 1.x maintenance branch compares with v1.x, not with a v2.0.0 tagged elsewhere). Sorted by semver
 * here, not by git's version sort (which depends on `versionsort.suffix`). Throws when git cannot list tags.
 */
export function lastReleaseTag(root: string, atOrBelow?: string): string | undefined {
  const tags = git(root, ["tag", "--list", "v*"])
    .split("\n")
    .map((t) => t.trim())
    .filter((t) => RELEASE_TAG.test(t))
    .sort((a, b) => compareVersions(b, a));
  const ceiling = atOrBelow !== undefined && isVersion(atOrBelow) ? atOrBelow : undefined;
  return ceiling ? tags.find((t) => compareVersions(t, ceiling) <= 0) : tags[0];
}

function isVersion(text: string): boolean {
  try {
    parseVersion(text);
    return true;
  } catch {
    return false;
  }
}

/** A side named on the command line: an existing file is a tarball, anything else a git ref. */
export function loadSide(root: string, spec: string): Contract {
  const asFile = path.resolve(spec);
  if (fs.existsSync(asFile) && fs.statSync(asFile).isFile()) return loadTarball(asFile);
  return loadGitRef(root, spec);
}

export interface BaseChoice {
  contract: Contract;
  /** Said to the user: where the base came from, or why there is none. */
  note?: string;
  /**
   * No base because this checkout cannot tell what was released: git is missing or refuses the folder, the
   * clone is shallow and has no release tag (tags not fetched), or a release tag's commit is absent. The gate
   * passes with the note (CI must not fail for how it cloned); a release refuses.
   */
  historyMissing?: true;
}

const nothing = (label: string): Contract => ({ label, empty: true });
const FETCH = "Fetch the tags (`git fetch --tags`; in GitHub Actions `actions/checkout` with `fetch-depth: 0`) or pass --base with a ref or a release tarball.";

/**
 * `--base` given: that side (errors are errors). Not given: the last release tag (see lastReleaseTag, capped at
 * `headVersion`); with none, "nothing" and a note saying why — which never throws for a missing history.
 */
export function loadBase(root: string, spec: string | undefined, headVersion?: string): BaseChoice {
  if (spec) return { contract: loadSide(root, spec) };
  let tag: string | undefined;
  let shallow: boolean;
  try {
    shallow = git(root, ["rev-parse", "--is-shallow-repository"]).trim() === "true";
    tag = lastReleaseTag(root, headVersion);
  } catch (err) {
    return {
      contract: nothing("nothing (git unavailable)"),
      note: `Cannot read git here (${gitError(err)}), so the last release is unknown and nothing was compared. Run the gate in a git clone with its tags, or pass --base with a release tarball.`,
      historyMissing: true,
    };
  }
  if (tag) {
    if (resolveCommit(root, tag)) return { contract: loadGitRef(root, tag), note: `base: last release tag ${tag}` };
    return {
      contract: nothing(`nothing (${tag} not in this clone)`),
      note: `Release tag ${tag} exists but its commit is not in this clone${shallow ? " (shallow)" : ""}, so nothing was compared. ${FETCH}`,
      historyMissing: true,
    };
  }
  if (shallow) {
    return {
      contract: nothing("nothing (shallow clone, no tags)"),
      note: `This clone is shallow and has no release tag (v*): tags were probably not fetched, so nothing was compared. ${FETCH}`,
      historyMissing: true,
    };
  }
  const above = headVersion !== undefined && lastReleaseTag(root);
  if (above) {
    return {
      contract: nothing(`nothing (no release tag at or below ${headVersion})`),
      note: `No release tag at or below package.json's ${headVersion} (the highest is ${above}): nothing to compare with. Pass --base ${above} to compare with it.`,
    };
  }
  return {
    contract: nothing("nothing (no release tag)"),
    note: "No release tag (v*) exists yet: nothing to compare with, so nothing can break. Pass --base REF to compare with a commit.",
  };
}
