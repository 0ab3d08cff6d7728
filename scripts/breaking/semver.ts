// The few semver operations the gate and the release need.
//
// 0.x convention (semver §4, as npm's caret ranges and Cargo read it): while the major is 0 the MINOR number
// is the breaking one. So 0.1.0 → 0.2.0 counts as a major bump, and a compatible change in 0.x only moves
// the patch number (0.1.0 → 0.1.1). From 1.0.0 on: breaking → major, compatible → minor, docs → patch.

export interface Version {
  major: number;
  minor: number;
  patch: number;
  pre?: string;
}

export function parseVersion(text: string): Version {
  const m = /^v?(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/.exec(text.trim());
  if (!m) throw new Error(`not a semantic version: ${text}`);
  return { major: Number(m[1]), minor: Number(m[2]), patch: Number(m[3]), ...(m[4] ? { pre: m[4] } : {}) };
}

export function formatVersion(v: Version): string {
  return `${v.major}.${v.minor}.${v.patch}${v.pre ? `-${v.pre}` : ""}`;
}

export function compareVersions(a: string, b: string): number {
  const x = parseVersion(a);
  const y = parseVersion(b);
  for (const k of ["major", "minor", "patch"] as const) if (x[k] !== y[k]) return x[k] - y[k];
  if (x.pre === y.pre) return 0;
  if (!x.pre) return 1;
  if (!y.pre) return -1;
  return x.pre < y.pre ? -1 : 1;
}

/** `head` is a breaking-change release after `base` (major bump; in 0.x a minor bump). */
export function isMajorBump(base: string, head: string): boolean {
  const b = parseVersion(base);
  const h = parseVersion(head);
  if (h.major !== b.major) return h.major > b.major;
  return b.major === 0 && h.minor > b.minor;
}

export type Bump = "major" | "minor" | "patch";

/** The next version after `base` for a release of the given kind (0.x: major → minor, minor → patch). */
export function bumpVersion(base: string, bump: Bump): string {
  const v = parseVersion(base);
  if (v.major === 0) {
    if (bump === "major") return formatVersion({ major: 0, minor: v.minor + 1, patch: 0 });
    return formatVersion({ major: 0, minor: v.minor, patch: v.patch + 1 });
  }
  if (bump === "major") return formatVersion({ major: v.major + 1, minor: 0, patch: 0 });
  if (bump === "minor") return formatVersion({ major: v.major, minor: v.minor + 1, patch: 0 });
  return formatVersion({ major: v.major, minor: v.minor, patch: v.patch + 1 });
}
