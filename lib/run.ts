// Runs a tool from node_modules with the current Node, failing loudly with its output.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { repoRoot } from "./paths.js";

const require = createRequire(import.meta.url);

/** A package's package.json: exported directly, or found above its entry point (packages export one or the other). */
function manifestPathOf(pkg: string): string {
  try {
    return require.resolve(`${pkg}/package.json`, { paths: [repoRoot] });
  } catch {
    // not exported; walk up from the entry point
  }
  let dir = path.dirname(require.resolve(pkg, { paths: [repoRoot] }));
  for (;;) {
    const candidate = path.join(dir, "package.json");
    if (fs.existsSync(candidate) && (JSON.parse(fs.readFileSync(candidate, "utf8")) as { name?: string }).name === pkg) {
      return candidate;
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`cannot find package.json of ${pkg}`);
    dir = parent;
  }
}

/** Path of a package's bin script, e.g. binPath("@typespec/compiler", "tsp"). */
export function binPath(pkg: string, bin: string): string {
  const manifestPath = manifestPathOf(pkg);
  const manifest = JSON.parse(fs.readFileSync(manifestPath, "utf8")) as { bin: string | Record<string, string> };
  const rel = typeof manifest.bin === "string" ? manifest.bin : manifest.bin[bin];
  if (!rel) throw new Error(`${pkg} has no bin ${bin}`);
  return path.join(path.dirname(manifestPath), rel);
}

export function runNode(script: string, args: string[], what: string): string {
  const res = spawnSync(process.execPath, [script, ...args], { cwd: repoRoot, encoding: "utf8" });
  if (res.status !== 0) {
    throw new Error(`${what} failed (exit ${res.status}):\n${res.stdout}\n${res.stderr}`);
  }
  return res.stdout;
}
