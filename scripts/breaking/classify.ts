// From raw differences to a decision: fold duplicates, decide the gate, decide the release bump.
import { isMajorBump, type Bump } from "./semver.js";
import type { Change, Kind, Protocol, RawChange } from "./types.js";

/**
 * Gives raw changes their protocol and folds the copies a shared (`$ref`'d) definition produces: the first
 * place keeps the change, the others go to `alsoAt`.
 */
export function fold(raw: RawChange[], protocol: Protocol): Change[] {
  // A copy inside a new version path (allowedBy) never folds into a copy that blocks, or the reverse.
  const byOrigin = new Map<string, Change>();
  const out: Change[] = [];
  for (const { origin: id, ...rest } of raw) {
    const origin = `${id}|${rest.allowedBy ?? ""}`;
    const first = byOrigin.get(origin);
    if (first) {
      if (first.path !== rest.path && !(first.alsoAt ?? []).includes(rest.path)) (first.alsoAt ??= []).push(rest.path);
      continue;
    }
    const change: Change = { protocol, ...rest };
    byOrigin.set(origin, change);
    out.push(change);
  }
  return out;
}

export const KIND_ORDER: Kind[] = ["breaking", "review", "compatible", "docs"];

export function sortChanges(changes: Change[]): Change[] {
  const p = (c: Change) => (c.protocol === "rest" ? 0 : 1);
  return [...changes].sort(
    (a, b) => p(a) - p(b) || KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind) || a.path.localeCompare(b.path) || a.rule.localeCompare(b.rule),
  );
}

export interface Verdict {
  ok: boolean;
  /** Breaking changes that count against the gate. */
  blocking: Change[];
  /** Why the gate passes or fails, one line each. */
  reasons: string[];
  majorBump: boolean;
}

/**
 * The gate.
 * - REST: a breaking change is allowed only inside a new version path (`/v2` added while `/v1` stays
 *   unchanged; such changes carry `allowedBy`). Any other REST breaking change fails, whatever the package
 *   version says: REST clients pin the path, not the npm version (seed 000 Versioning 1–2).
 * - MCP: a breaking change fails unless package.json was bumped major against the base (0.x: minor).
 */
export function verdict(changes: Change[], baseVersion: string | undefined, headVersion: string | undefined): Verdict {
  const majorBump = !!baseVersion && !!headVersion && isMajorBump(baseVersion, headVersion);
  const rest = changes.filter((c) => c.kind === "breaking" && c.protocol === "rest" && !c.allowedBy);
  const allowed = changes.filter((c) => c.kind === "breaking" && c.allowedBy);
  const mcp = changes.filter((c) => c.kind === "breaking" && c.protocol === "mcp");
  const reasons: string[] = [];
  const blocking: Change[] = [...rest];
  if (rest.length) {
    reasons.push(
      `${rest.length} breaking REST change(s) inside an existing version path: add the changed operations under a new version path (e.g. /v2) and keep the old ones unchanged. A package major bump does not help REST clients, who call the path.`,
    );
  }
  if (allowed.length) reasons.push(`${allowed.length} breaking REST difference(s) are confined to a new version path (${[...new Set(allowed.map((c) => c.allowedBy))].join(", ")}) and allowed.`);
  if (mcp.length) {
    if (majorBump) reasons.push(`${mcp.length} breaking MCP change(s) allowed: package.json ${baseVersion} → ${headVersion} is a major bump${baseVersion?.startsWith("0.") ? " (0.x: a minor bump counts as major)" : ""}.`);
    else {
      blocking.push(...mcp);
      reasons.push(
        `${mcp.length} breaking MCP change(s) without a major version bump: package.json is ${headVersion ?? "?"} against ${baseVersion ?? "?"} on the base; bump to ${suggestMajor(baseVersion)} or later (0.x: a minor bump counts as major), or undo the change.`,
      );
    }
  }
  if (!changes.some((c) => c.kind === "breaking")) reasons.push("No breaking changes.");
  return { ok: blocking.length === 0, blocking, reasons, majorBump };
}

/** The verdict when there was no base to compare with (no release yet, or a clone without its tags). */
export function nothingCompared(): Verdict {
  return { ok: true, blocking: [], reasons: ["Nothing was compared (see the note above), so the gate passes without checking anything."], majorBump: false };
}

function suggestMajor(base: string | undefined): string {
  if (!base) return "a new major version";
  const [major, minor] = base.split(".").map(Number) as [number, number];
  return major === 0 ? `0.${minor + 1}.0` : `${major + 1}.0.0`;
}

/**
 * What kind of release the changes call for: breaking → major, compatible → minor, only review/docs (or
 * nothing in the contract) → patch. Breaking REST differences confined to a new version path are additions
 * for the package (the old path still works), so they count as compatible.
 */
export function releaseBump(changes: Change[]): Bump {
  if (changes.some((c) => c.kind === "breaking" && !c.allowedBy)) return "major";
  if (changes.some((c) => c.kind === "compatible" || c.allowedBy)) return "minor";
  return "patch";
}
