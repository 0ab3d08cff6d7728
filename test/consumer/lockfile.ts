// A package-lock.json for a consumer project, cut from this repository's lock, so `npm ci --offline` installs it
// from the npm cache alone. `npm ci` of this repository fills the cache with the tarballs of every locked
// package but with no registry metadata (packuments); npm resolves a dependency without a lock entry through
// that metadata, so an offline install without a lock fails (ENOTCACHED) even when every tarball is cached.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

interface LockEntry {
  version?: string;
  resolved?: string;
  integrity?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  dev?: boolean;
  devOptional?: boolean;
  peer?: boolean;
  optional?: boolean;
  [key: string]: unknown;
}

interface Lock {
  lockfileVersion: number;
  packages: Record<string, LockEntry>;
}

/** Where Node finds `name` from the package installed at `from` ("" for the project): the nearest node_modules. */
function locate(packages: Record<string, LockEntry>, from: string, name: string): string | undefined {
  for (let dir = from; ; dir = dir.slice(0, Math.max(0, dir.lastIndexOf("/node_modules/")))) {
    const candidate = `${dir ? `${dir}/` : ""}node_modules/${name}`;
    if (packages[candidate]) return candidate;
    if (!dir) return undefined;
  }
}

/** The names a locked package needs installed: its dependencies, its optional ones and its required peers. */
function needs(entry: LockEntry): { name: string; optional: boolean }[] {
  const optionalPeers = new Set(Object.entries(entry.peerDependenciesMeta ?? {}).filter(([, m]) => m.optional).map(([n]) => n));
  return [
    ...Object.keys(entry.dependencies ?? {}).map((name) => ({ name, optional: false })),
    ...Object.keys(entry.optionalDependencies ?? {}).map((name) => ({ name, optional: true })),
    ...Object.keys(entry.peerDependencies ?? {}).filter((n) => !optionalPeers.has(n)).map((name) => ({ name, optional: false })),
  ];
}

export interface ConsumerLockOptions {
  /** This repository's package-lock.json. */
  repoLock: string;
  /** The packed tarball of this package, as the consumer depends on it. */
  tarball: string;
  /** The consumer project's folder (the tarball is referenced relative to it). */
  projectDir: string;
  /** Further packages the consumer depends on, each at the version this repository locks. */
  with?: readonly string[];
  /** The registry the cache was filled from (`npm config get registry`): the tarballs' URLs, the cache's keys. */
  registry: string;
}

/** The tarball URL npm computes for a lock entry without `resolved` (omit-lockfile-registry-resolved). */
function tarballUrl(registry: string, at: string, version: string): string {
  const name = at.slice(at.lastIndexOf("node_modules/") + "node_modules/".length);
  return `${registry.replace(/\/?$/, "/")}${name}/-/${name.slice(name.lastIndexOf("/") + 1)}-${version}.tgz`;
}

/** The consumer's package.json and package-lock.json, installing the tarball and `with` from the npm cache. */
export function consumerProject(options: ConsumerLockOptions): { manifest: object; lock: object } {
  const repo = JSON.parse(fs.readFileSync(options.repoLock, "utf8")) as Lock;
  const own = repo.packages[""]!;
  const tarballSpec = `file:${path.relative(options.projectDir, options.tarball).split(path.sep).join("/")}`;
  const integrity = `sha512-${createHash("sha512").update(fs.readFileSync(options.tarball)).digest("base64")}`;
  const dependencies: Record<string, string> = { [own.name as string]: tarballSpec };
  for (const name of options.with ?? []) {
    const found = repo.packages[`node_modules/${name}`];
    if (!found?.version) throw new Error(`${name} is not in this repository's lock`);
    dependencies[name] = found.version;
  }
  const ownEntry: LockEntry = { ...own, resolved: tarballSpec, integrity };
  for (const key of ["name", "devDependencies", "dev", "devOptional"]) delete ownEntry[key];
  const packages: Record<string, LockEntry> = {
    "": { name: "consumer", version: "1.0.0", dependencies },
    [`node_modules/${own.name as string}`]: ownEntry,
  };

  // Every package Node would load, at the place it has in this repository's tree (a valid tree for them).
  const queue: { from: string; entry: LockEntry }[] = [{ from: `node_modules/${own.name as string}`, entry: ownEntry }];
  for (const name of options.with ?? []) queue.push({ from: "", entry: { dependencies: { [name]: "*" } } });
  while (queue.length) {
    const { from, entry } = queue.shift()!;
    for (const need of needs(entry)) {
      const at = locate(repo.packages, from, need.name);
      if (!at) {
        if (need.optional) continue; // a platform package this machine never installed
        throw new Error(`${need.name} (needed by ${from || "the project"}) is not in this repository's lock`);
      }
      if (packages[at]) continue;
      const copy: LockEntry = { ...repo.packages[at]! };
      for (const key of ["dev", "devOptional", "peer"] as const) delete copy[key];
      copy.resolved ??= tarballUrl(options.registry, at, copy.version!);
      packages[at] = copy;
      queue.push({ from: at, entry: copy });
    }
  }
  return {
    manifest: { name: "consumer", version: "1.0.0", private: true, type: "module", dependencies },
    lock: { name: "consumer", version: "1.0.0", lockfileVersion: repo.lockfileVersion, requires: true, packages },
  };
}
