// `ideas-contract export` (files, stamp, --check) and the hint for a missing optional peer dependency.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { exportable, stampFile } from "../cli/export.js";
import { main } from "../cli/main.js";
import { missingPeerHint } from "../cli/peers.js";
import { generatedDir, repoRoot } from "../scripts/lib/paths.js";

const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")) as {
  version: string;
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
};

let dir: string;
let output: string[];
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "export-test-"));
  output = [];
  const keep = (...args: unknown[]) => void output.push(args.join(" "));
  vi.spyOn(console, "log").mockImplementation(keep);
  vi.spyOn(console, "error").mockImplementation(keep);
});
afterEach(() => {
  vi.restoreAllMocks();
  fs.rmSync(dir, { recursive: true, force: true });
});

const listed = (root: string): string[] =>
  fs
    .readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)))
    .sort();

describe("ideas-contract export", () => {
  it("writes every generated file of the chosen parts, byte for byte, and a stamp naming the version", async () => {
    expect(await main(["export", "--out", dir, "--what", "openapi,validators"])).toBe(0);
    const files = [...exportable.openapi.files, ...exportable.validators.files];
    expect(listed(dir)).toEqual([...files, stampFile].sort());
    for (const rel of files) expect(fs.readFileSync(path.join(dir, rel)).equals(fs.readFileSync(path.join(generatedDir, rel)))).toBe(true);
    const stamp = JSON.parse(fs.readFileSync(path.join(dir, stampFile), "utf8"));
    expect(stamp).toMatchObject({ package: "ideas-contract", version: pkg.version, what: ["openapi", "validators"] });
    expect(stamp.runtimeDependencies).toEqual({ ajv: pkg.dependencies.ajv, "ajv-formats": pkg.dependencies["ajv-formats"] });
    expect(Object.keys(stamp.files).sort()).toEqual([...files].sort());
    expect(output.join("\n")).toContain(`npm install ajv@${pkg.dependencies.ajv} ajv-formats@${pkg.dependencies["ajv-formats"]}`);
  });

  it("writes everything without --what, and --what may be repeated", async () => {
    expect(await main(["export", "--out", dir])).toBe(0);
    const all = Object.values(exportable).flatMap((e) => [...e.files]);
    expect(listed(dir)).toEqual([...all, stampFile].sort());
    const other = path.join(dir, "two");
    expect(await main(["export", "--out", other, "--what", "types", "--what", "manifest"])).toBe(0);
    expect(listed(other)).toEqual([...exportable.manifest.files, ...exportable.types.files, stampFile].sort());
  });

  it("--check passes on a fresh export and names each drifted or missing file", async () => {
    expect(await main(["export", "--out", dir, "--what", "types,errors"])).toBe(0);
    output.length = 0;
    expect(await main(["export", "--out", dir, "--what", "types,errors", "--check"])).toBe(0);
    expect(output.join("\n")).toContain(`matches ideas-contract ${pkg.version}`);

    fs.appendFileSync(path.join(dir, "rest/types.d.ts"), "// edited by hand\n");
    fs.rmSync(path.join(dir, "mcp/errors.js"));
    output.length = 0;
    expect(await main(["export", "--out", dir, "--what", "types,errors", "--check"])).toBe(1);
    const text = output.join("\n");
    expect(text).toContain("differs  rest/types.d.ts");
    expect(text).toContain("missing  mcp/errors.js");
    expect(text).not.toContain("mcp/types.d.ts");
    expect(text).toContain(`--what types,errors`);
    // --check writes nothing.
    expect(fs.existsSync(path.join(dir, "mcp/errors.js"))).toBe(false);
  });

  it("refuses bad usage with exit 2", async () => {
    expect(await main(["export", "--what", "types"])).toBe(2);
    expect(output.join("\n")).toContain("--out DIR is required");
    expect(await main(["export", "--out", dir, "--what", "types,sdk"])).toBe(2);
    expect(output.join("\n")).toContain('unknown "sdk"');
    expect(await main(["export", "--out", dir, "--bogus"])).toBe(2);
    expect(listed(dir)).toEqual([]);
  });
});

describe("a missing optional peer dependency", () => {
  const notFound = (code: string, message: string) => Object.assign(new Error(message), { code });

  it("is named with the install command of every peer at its pinned version", () => {
    const hint = missingPeerHint(notFound("ERR_MODULE_NOT_FOUND", "Cannot find package '@modelcontextprotocol/sdk' imported from /x/dist/mock/mcp/server.js"), "ideas-contract mock");
    expect(hint).toContain("ideas-contract mock needs @modelcontextprotocol/sdk");
    const all = Object.entries(pkg.peerDependencies).map(([n, v]) => `${n}@${v}`);
    expect(all.length).toBeGreaterThan(0);
    expect(hint).toContain(`npm install --save-dev ${all.join(" ")}`);
    // CommonJS resolution (Prism's bin is found with require.resolve) names a subpath.
    expect(missingPeerHint(notFound("MODULE_NOT_FOUND", "Cannot find module '@stoplight/prism-cli/package.json'"), "mock")).toContain("mock needs @stoplight/prism-cli");
    expect(missingPeerHint(notFound("ERR_MODULE_NOT_FOUND", "Cannot find package 'yaml' imported from /x.js"), "conformance")).toContain("conformance needs yaml");
  });

  it("is the only error turned into a hint", () => {
    expect(missingPeerHint(notFound("ERR_MODULE_NOT_FOUND", "Cannot find package 'left-pad' imported from /x.js"), "mock")).toBeUndefined();
    expect(missingPeerHint(notFound("ERR_MODULE_NOT_FOUND", "Cannot find module '/x/dist/mock/rest/server.js'"), "mock")).toBeUndefined();
    expect(missingPeerHint(new Error("Cannot find package 'yaml'"), "mock")).toBeUndefined();
  });
});
