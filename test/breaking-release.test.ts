// The release plan: next version from the diff, the CHANGELOG section, and the file edits (on strings only).
import { describe, expect, it } from "vitest";
import { diffMcp } from "../scripts/breaking/mcp-diff.js";
import { applyChangelog, planRelease, setLockVersion, setPackageVersion, unreleasedNotes } from "../scripts/breaking/release-plan.js";
import type { Change, Contract } from "../scripts/breaking/types.js";
import { asJson, real, toolIn, tools as toolsCopy, type Fields } from "./fixtures/breaking/support.js";
import { at, filterAt, setAt } from "./support/json.js";

const CHANGELOG = `# Changelog

All notable changes to this package.

## Unreleased

### Added
- A thing.

## [0.0.9] - 2026-01-01

### Added
- Older thing.
`;

const base = (version: string): Contract => ({ label: `v${version}`, version });
const mcp = (mutate: (tools: Fields) => void): Change[] => {
  const tools = toolsCopy();
  mutate(tools);
  return diffMcp({ tools: real.tools, errors: real.errors }, { tools: asJson(tools), errors: real.errors });
};
const plan = (changes: Change[], from: string, current = from) =>
  planRelease({ base: base(from), changes, currentVersion: current, date: "2026-12-01", unreleased: unreleasedNotes(CHANGELOG) });

describe("release plan", () => {
  const breaking = mcp((t) => filterAt(t, "tools", (x) => at(x, "name") !== "get_workspaces"));
  const compatible = mcp((t) => setAt(toolIn(t, "get_workspaces"), "inputSchema.properties.cursor", { type: "string" }));
  const docs = mcp((t) => setAt(toolIn(t, "get_workspaces"), "inputSchema.properties.query.examples", ["acme"]));

  it("breaking → major (0.x: the minor number), listed under Breaking", () => {
    const p = plan(breaking, "0.1.0");
    expect(p.version).toBe("0.2.0");
    expect(p.bump).toBe("major");
    expect(p.section).toMatch(/^## \[0\.2\.0\] - 2026-12-01\n\n### Added\n- A thing\.\n\n### Contract changes\n/);
    expect(p.section).toMatch(/#### Breaking\n\n- MCP `tool get_workspaces`: tool get_workspaces removed \(`mcp\.tool-removed`\)/);
    expect(plan(breaking, "1.2.3").version).toBe("2.0.0");
  });

  it("compatible → minor (0.x: patch); docs only → patch", () => {
    expect(plan(compatible, "0.1.0").version).toBe("0.1.1");
    expect(plan(compatible, "1.2.3").version).toBe("1.3.0");
    const p = plan(docs, "1.2.3");
    expect(p.version).toBe("1.2.4");
    expect(p.section).toMatch(/Documentation only: 1 change/);
  });

  it("keeps a version that was already bumped further by hand", () => {
    const p = plan(compatible, "1.2.3", "2.0.0");
    expect(p.version).toBe("2.0.0");
    expect(p.warnings.join(" ")).toMatch(/already says 2\.0\.0/);
  });

  it("first release: no tag, the current version as it is", () => {
    const p = planRelease({ base: { label: "nothing", empty: true }, changes: [], currentVersion: "0.1.0", date: "2026-12-01", unreleased: "### Added\n- A thing.\n" });
    expect(p.version).toBe("0.1.0");
    expect(p.bump).toBe("first");
    expect(p.section).toMatch(/First release/);
  });

  it("refuses REST breaking changes inside an existing version path", () => {
    const change: Change = { protocol: "rest", kind: "breaking", rule: "rest.operation-removed", path: "GET /v1/x", message: "removed" };
    const p = plan([change], "0.1.0");
    expect(p.blocking).toHaveLength(1);
    expect(p.warnings.join(" ")).toMatch(/new version path/);
  });
});

describe("file edits", () => {
  it("moves the Unreleased notes into the release section and keeps older releases", () => {
    const section = plan(mcp(() => {}), "0.1.0").section;
    const out = applyChangelog(CHANGELOG, section);
    expect(out).toMatch(/## Unreleased\n\n## \[0\.1\.1\] - 2026-12-01\n\n### Added\n- A thing\.\n/);
    expect(out).toMatch(/No contract changes\.\n\n## \[0\.0\.9\] - 2026-01-01\n/);
    expect(unreleasedNotes(out).trim()).toBe("");
    expect(out.match(/A thing/g)).toHaveLength(1);
  });

  it("adds an Unreleased heading when the changelog has none", () => {
    const out = applyChangelog("# Changelog\n", "## [1.0.0] - 2026-12-01\n\nx\n");
    expect(out).toBe("# Changelog\n\n## Unreleased\n\n## [1.0.0] - 2026-12-01\n\nx\n");
  });

  it("sets the version in package.json text and both places of package-lock.json", () => {
    expect(setPackageVersion('{\n  "name": "x",\n  "version": "0.1.0",\n  "dependencies": { "y": "1.0.0" }\n}\n', "0.2.0")).toBe(
      '{\n  "name": "x",\n  "version": "0.2.0",\n  "dependencies": { "y": "1.0.0" }\n}\n',
    );
    const lock = JSON.parse(setLockVersion(JSON.stringify({ name: "x", version: "0.1.0", packages: { "": { version: "0.1.0" }, "node_modules/y": { version: "1.0.0" } } }), "0.2.0"));
    expect([lock.version, lock.packages[""].version, lock.packages["node_modules/y"].version]).toEqual(["0.2.0", "0.2.0", "1.0.0"]);
  });
});
