// The optional peer dependencies: the light install (types and validators) does without them; the mocks and the
// conformance suite need them. When one is missing, say which and how to install it, at the pinned version.
import path from "node:path";
import { ownManifest } from "./manifest.js";

/** The package a "cannot find" error names: `@scope/name` or `name`, without a subpath. */
function missingPackage(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  if (code !== "ERR_MODULE_NOT_FOUND" && code !== "MODULE_NOT_FOUND") return undefined;
  const spec = /Cannot find (?:package|module) '([^']+)'/.exec((err as Error).message)?.[1];
  if (!spec || spec.startsWith(".") || path.isAbsolute(spec)) return undefined;
  return spec.split("/").slice(0, spec.startsWith("@") ? 2 : 1).join("/");
}

/** An install hint when `err` says an optional peer dependency is missing; undefined for any other error. */
export function missingPeerHint(err: unknown, what: string): string | undefined {
  const name = missingPackage(err);
  const peers = ownManifest().peerDependencies ?? {};
  if (!name || !(name in peers)) return undefined;
  const all = Object.entries(peers).map(([n, v]) => `${n}@${v}`);
  return `${what} needs ${name}, an optional peer dependency of ideas-contract that is not installed.
Install it next to ideas-contract (the peers the mocks and the conformance suite use: ${all.join(", ")}):
  npm install --save-dev ${all.join(" ")}`;
}
