// `ideas-contract export` (files, stamp, --module, --check), the optional peers each command needs, --version.
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { exportable, stampFile } from "../cli/export.js";
import { main } from "../cli/main.js";
import { missingPeerHint, missingPeers, missingPeersMessage, peersFor } from "../cli/peers.js";
import { generatedDir, repoRoot } from "../lib/paths.js";

const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")) as {
  version: string;
  devDependencies: Record<string, string>;
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
    fs.writeFileSync(path.join(dir, "package.json"), '{"type": "module"}\n');
    expect(await main(["export", "--out", dir, "--what", "openapi,validators"])).toBe(0);
    // The validators' declarations import the types they guard, so those come along.
    const files = [...exportable.openapi.files, ...exportable.types.files, ...exportable.validators.files];
    expect(listed(dir)).toEqual([...files, stampFile, "package.json"].sort());
    for (const rel of files) expect(fs.readFileSync(path.join(dir, rel)).equals(fs.readFileSync(path.join(generatedDir, rel)))).toBe(true);
    const stamp = JSON.parse(fs.readFileSync(path.join(dir, stampFile), "utf8"));
    expect(stamp).toMatchObject({ package: "ideas-contract", version: pkg.version, what: ["openapi", "types", "validators"], module: "esm" });
    expect(Object.keys(stamp.files).sort()).toEqual([...files].sort());
    expect(output.join("\n")).toContain("need no package at run time");
  });

  it("writes CommonJS where .js files are CommonJS, and either system by --module, each with declarations", async () => {
    const require = createRequire(import.meta.url);
    const request = { website: "https://www.bluefjord-bakery.no" };
    // What an exported rest/validators module offers (a REST module has no inputValidators: that answers undefined).
    type Exported = { validators: { CreateBrandRequest(data: unknown): boolean }; inputValidators?: { create_posts(data: unknown): boolean } };
    const answers = (m: Exported) => [m.validators.CreateBrandRequest(request), m.validators.CreateBrandRequest({ website: 7 }), m.inputValidators?.create_posts({})];

    // No package.json above: Node reads .js as CommonJS, and so does the default.
    expect(await main(["export", "--out", dir, "--what", "validators"])).toBe(0);
    expect(JSON.parse(fs.readFileSync(path.join(dir, stampFile), "utf8")).module).toBe("cjs");
    expect(fs.readFileSync(path.join(dir, "rest/validators.js"), "utf8")).toContain("module.exports = {");
    expect(answers(require(path.join(dir, "rest/validators.js")))).toEqual([true, false, undefined]);
    expect(require(path.join(dir, "mcp/validators.js")).inputValidators.create_posts({})).toBe(false);
    expect(fs.existsSync(path.join(dir, "rest/validators.d.ts"))).toBe(true);

    // The other system gets its own extensions, so Node and TypeScript read each file right.
    const esmDir = path.join(dir, "esm");
    expect(await main(["export", "--out", esmDir, "--what", "validators", "--module", "esm"])).toBe(0);
    expect(listed(esmDir).filter((f) => f.includes("validators"))).toEqual(["mcp/validators.d.mts", "mcp/validators.mjs", "rest/validators.d.mts", "rest/validators.mjs"]);
    expect(answers(await import(path.join(esmDir, "rest/validators.mjs")))).toEqual([true, false, undefined]);

    const cjsDir = path.join(dir, "module", "cjs");
    fs.mkdirSync(path.dirname(cjsDir), { recursive: true });
    fs.writeFileSync(path.join(dir, "module", "package.json"), '{"type": "module"}\n');
    expect(await main(["export", "--out", cjsDir, "--what", "validators", "--module", "cjs"])).toBe(0);
    expect(listed(cjsDir).filter((f) => f.includes("validators"))).toEqual(["mcp/validators.cjs", "mcp/validators.d.cts", "rest/validators.cjs", "rest/validators.d.cts"]);
    expect(answers(require(path.join(cjsDir, "rest/validators.cjs")))).toEqual([true, false, undefined]);
    expect(listed(cjsDir).filter((f) => f.includes("types"))).toEqual(["mcp/types.d.ts", "rest/types.d.ts"]); // what ./types.js resolves to
    expect(await main(["export", "--out", cjsDir, "--what", "validators", "--module", "cjs", "--check"])).toBe(0);
  });

  it("writes the error catalogue as CommonJS too, and it answers as the ES module does", async () => {
    expect(await main(["export", "--out", dir, "--what", "errors"])).toBe(0); // no package.json above: CommonJS
    const cjs = createRequire(import.meta.url)(path.join(dir, "mcp/errors.js"));
    const esm = await import("../generated/mcp/errors.js");
    expect(Object.keys(cjs).sort()).toEqual(Object.keys(esm).sort());
    expect(cjs.catalogue).toEqual(esm.catalogue);
    for (const error of [{ code: "upstream_503" }, { code: "bad_request" }, { code: "never_heard_of" }]) expect(cjs.expectedRetryable(error)).toBe(esm.expectedRetryable(error));
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
    expect(await main(["export", "--out", dir, "--module", "amd"])).toBe(2);
    expect(output.join("\n")).toContain('--module: "amd" is not one of esm, cjs');
    expect(await main(["export", "--out", dir, "--bogus"])).toBe(2);
    expect(listed(dir)).toEqual([]);
  });
});

describe("the optional peers a command needs", () => {
  const notFound = (code: string, message: string) => Object.assign(new Error(message), { code });

  it("are exactly what the command imports: mock --no-prism the MCP SDK only, conformance no Prism, help nothing", () => {
    expect(peersFor("mock", ["--no-prism"])).toEqual(["@modelcontextprotocol/sdk"]);
    expect(peersFor("mock", [])).toEqual(["@modelcontextprotocol/sdk", "@stoplight/prism-cli"]);
    expect(peersFor("conformance", ["--rest-url", "http://127.0.0.1:1"])).toEqual(["@modelcontextprotocol/sdk", "yaml", "ajv", "ajv-formats"]);
    expect(peersFor("conformance", ["--help"])).toEqual([]);
    expect(peersFor("export", ["--out", "x"])).toEqual([]);
    // Every peer a command names is declared, and all are installed here.
    for (const name of [...peersFor("mock", []), ...peersFor("conformance", [])]) expect(pkg.peerDependencies).toHaveProperty([name]);
    expect(missingPeers([...peersFor("mock", []), ...peersFor("conformance", [])])).toEqual([]);
  });

  it("are named when missing, with the install line of only those, at the versions this package pins", () => {
    const one = missingPeersMessage("ideas-contract mock", ["@modelcontextprotocol/sdk"]);
    expect(one).toContain("ideas-contract mock needs @modelcontextprotocol/sdk, an optional peer dependency");
    expect(one).toContain(`npm install --save-dev @modelcontextprotocol/sdk@${pkg.peerDependencies["@modelcontextprotocol/sdk"]}\n`.trimEnd());
    expect(one).not.toMatch(/prism|yaml/);
    const two = missingPeersMessage("ideas-contract conformance", ["yaml", "ajv"]);
    expect(two).toContain("needs yaml and ajv, optional peer dependencies of ideas-contract that are not installed");
    expect(two).toContain(`npm install --save-dev yaml@${pkg.peerDependencies.yaml} ajv@${pkg.devDependencies.ajv}`);
    expect(missingPeersMessage("ideas-contract mock", ["@stoplight/prism-cli"])).toContain("Or pass --no-prism");
  });

  it("a late not-found error still becomes a hint naming that package only", () => {
    const hint = missingPeerHint(notFound("ERR_MODULE_NOT_FOUND", "Cannot find package '@modelcontextprotocol/sdk' imported from /x/dist/mock/mcp/server.js"), "ideas-contract mock");
    expect(hint).toContain("ideas-contract mock needs @modelcontextprotocol/sdk");
    expect(missingPeerHint(notFound("MODULE_NOT_FOUND", "Cannot find module '@stoplight/prism-cli/package.json'"), "mock")).toContain("mock needs @stoplight/prism-cli");
    expect(missingPeerHint(notFound("ERR_MODULE_NOT_FOUND", "Cannot find package 'left-pad' imported from /x.js"), "mock")).toBeUndefined();
    expect(missingPeerHint(notFound("ERR_MODULE_NOT_FOUND", "Cannot find module '/x/dist/mock/rest/server.js'"), "mock")).toBeUndefined();
    expect(missingPeerHint(new Error("Cannot find package 'yaml'"), "mock")).toBeUndefined();
  });
});

describe("ideas-contract --version", () => {
  it("prints the package version", async () => {
    expect(await main(["--version"])).toBe(0);
    expect(output).toEqual([pkg.version]);
  });
});
