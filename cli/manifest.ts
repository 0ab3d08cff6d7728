// This package's own package.json, found above the running file: cli/ in the repository, dist/cli/ installed.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export interface Manifest {
  name: string;
  version: string;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

export function ownManifest(): Manifest {
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; dir = path.dirname(dir)) {
    try {
      const manifest = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as Manifest;
      if (manifest.name === "ideas-contract") return manifest;
    } catch {
      // no package.json here
    }
    if (path.dirname(dir) === dir) throw new Error("cannot find the package.json of ideas-contract");
  }
}

/** A file of this package as a user can open it: relative to the working directory when under it, else absolute. */
export function shownPath(file: string): string {
  const rel = path.relative(process.cwd(), file);
  return rel && !rel.startsWith("..") && !path.isAbsolute(rel) ? rel : file;
}
