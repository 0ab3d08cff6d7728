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

export function loadWorkingTree(root: string): Contract {
  return read("working tree", (rel) => {
    const file = path.join(root, rel);
    return fs.existsSync(file) ? fs.readFileSync(file, "utf8") : undefined;
  });
}

export function loadGitRef(root: string, ref: string): Contract {
  let commit: string;
  try {
    commit = git(root, ["rev-parse", "--verify", "--quiet", `${ref}^{commit}`]).trim();
  } catch {
    throw new Error(`${ref} is neither a file nor a git ref of this repository`);
  }
  const files = new Set(git(root, ["ls-tree", "-r", "--name-only", commit, "--", "package.json", ...Object.values(ARTEFACTS)]).split("\n"));
  return read(ref, (rel) => (files.has(rel) ? git(root, ["show", `${commit}:${rel}`]) : undefined));
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

/** The newest release tag (`v*` with a semantic version), or undefined when nothing was released yet. */
export function lastReleaseTag(root: string): string | undefined {
  const tags = git(root, ["tag", "--list", "v*", "--sort=-version:refname"]).split("\n").map((t) => t.trim());
  return tags.find((t) => /^v\d+\.\d+\.\d+/.test(t));
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
}

/** `--base` given: that side. Not given: the last release tag, or — with no tag yet — nothing. */
export function loadBase(root: string, spec: string | undefined): BaseChoice {
  if (spec) return { contract: loadSide(root, spec) };
  const tag = lastReleaseTag(root);
  if (tag) return { contract: loadSide(root, tag), note: `base: last release tag ${tag}` };
  return {
    contract: { label: "nothing (no release tag)", empty: true },
    note: "No release tag (v*) exists yet: nothing to compare with, so nothing can break. Pass --base REF to compare with a commit.",
  };
}
