// The optional peer dependencies: the light install (types and validators) does without them; the mocks and the
// conformance suite need some. Each command reads its options first (help and bad usage need no peer), then
// checks every peer it needs at once, before it loads them or starts anything: all the missing ones are named in
// one install line, at the versions this package pins.
import { createRequire } from "node:module";
import path from "node:path";
import { ownManifest } from "./manifest.js";

const require = createRequire(import.meta.url);

/** A module path of each optional peer that resolves only when it is installed. */
const probes: Readonly<Record<string, string>> = {
  "@modelcontextprotocol/sdk": "@modelcontextprotocol/sdk/types.js",
  "@stoplight/prism-cli": "@stoplight/prism-cli/package.json",
  yaml: "yaml",
  ajv: "ajv/dist/2020.js",
  "ajv-formats": "ajv-formats",
};

const sdk = "@modelcontextprotocol/sdk";
const prism = "@stoplight/prism-cli";

/** Flags with which `mock` only sends a control request to mocks already running. */
const steeringFlags = ["--reset", "--advance", "--freeze", "--unfreeze"];

/**
 * The peers `command` needs with these arguments (its own, before any `--`): what the code it runs imports.
 * `mock` runs the MCP gateway mock (the SDK) and Prism unless --no-prism, and nothing when it only steers mocks
 * already running; `conformance` runs both suites, with the embedded MCP mock, reads YAML target files and
 * compiles the target's live tool schemas with ajv; `proxy` judges with the conformance suite's assertions.
 * Help needs nothing.
 */
export function peersFor(command: string, argv: readonly string[]): string[] {
  const split = argv.indexOf("--");
  const args = split < 0 ? argv : argv.slice(0, split);
  if (args.includes("--help") || args.includes("-h")) return [];
  if (command === "mock") {
    if (args.some((a) => steeringFlags.includes(a.split("=")[0]!))) return [];
    return args.includes("--no-prism") ? [sdk] : [sdk, prism];
  }
  // The proxy judges with the conformance suite's assertions (the same imports).
  if (command === "conformance" || command === "proxy") return [sdk, "yaml", "ajv", "ajv-formats"];
  return [];
}

function installed(name: string): boolean {
  const probe = probes[name] ?? name;
  try {
    require.resolve(probe);
    return true;
  } catch {
    try {
      import.meta.resolve(probe); // an ESM-only package: CommonJS resolution cannot see it
      return true;
    } catch {
      return false;
    }
  }
}

export function missingPeers(names: readonly string[]): string[] {
  return names.filter((n) => !installed(n));
}

/**
 * For a command whose options are read: prints the install line of every peer it lacks and answers exit 1, or
 * undefined when all are installed.
 */
export function refuseWithoutPeers(command: string, argv: readonly string[]): 1 | undefined {
  const missing = missingPeers(peersFor(command, argv));
  if (!missing.length) return undefined;
  console.error(missingPeersMessage(`ideas-contract ${command}`, missing));
  return 1;
}

/** `name@version` at the version this package is built and tested with. */
function pinned(name: string): string {
  const manifest = ownManifest();
  const version = manifest.devDependencies?.[name] ?? manifest.peerDependencies?.[name];
  return version ? `${name}@${version}` : name;
}

/** What to print when `what` lacks the optional peers `missing` (never empty). */
export function missingPeersMessage(what: string, missing: readonly string[]): string {
  const list = missing.length === 1 ? missing[0]! : `${missing.slice(0, -1).join(", ")} and ${missing.at(-1)}`;
  const noun = missing.length === 1 ? "an optional peer dependency" : "optional peer dependencies";
  const lines = [`${what} needs ${list}, ${noun} of ideas-contract that ${missing.length === 1 ? "is" : "are"} not installed. Install next to ideas-contract:`, `  npm install --save-dev ${missing.map(pinned).join(" ")}`];
  if (missing.includes(prism)) lines.push("Or pass --no-prism to run the mocks without Prism.");
  return lines.join("\n");
}

/** The package a "cannot find" error names: `@scope/name` or `name`, without a subpath. */
function missingPackage(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  if (code !== "ERR_MODULE_NOT_FOUND" && code !== "MODULE_NOT_FOUND") return undefined;
  const spec = /Cannot find (?:package|module) '([^']+)'/.exec((err as Error).message)?.[1];
  if (!spec || spec.startsWith(".") || path.isAbsolute(spec)) return undefined;
  return spec.split("/").slice(0, spec.startsWith("@") ? 2 : 1).join("/");
}

/** An install hint when `err` (thrown late, e.g. by code used from a program) says an optional peer is missing. */
export function missingPeerHint(err: unknown, what: string): string | undefined {
  const name = missingPackage(err);
  if (!name || !(name in (ownManifest().peerDependencies ?? {}))) return undefined;
  return missingPeersMessage(what, [name]);
}
