// `npm run build` (and `prepack`): the package as consumers install it, in dist/.
//
// tsc (tsconfig.build.json) compiles entry/, cli/ and everything they import into dist/, keeping the
// repository's folder layout; then the files the code reads at run time are copied next to it, at the same
// relative places, so every path resolved from `import.meta.url` (conformance/paths.ts, lib/paths.ts)
// finds them inside dist/ just as it finds them in the repository.
import fs from "node:fs";
import path from "node:path";
import { repoRoot } from "../lib/paths.js";
import { binPath, runNode } from "../lib/run.js";

const distDir = path.join(repoRoot, "dist");

/** What the built code reads at run time, relative to the repository (directories are copied whole). */
const runtimeData = [
  "generated", // validators (JS + .d.ts), types, OpenAPI, tools manifest, error catalogue
  "spec/rules", // rule catalogues and their schema (conformance)
  "spec/mcp/tools", // tool examples the MCP suite draws inputs from
  "conformance/targets", // the reference target file (embedded runs)
];

/** Generated for this repository's tests only: the strict validators hold the mock to the documented shapes. */
const testOnly = /validators-strict\.(js|d\.ts)$/;

/**
 * The generated JSON documents (and the tool sources the suite draws examples from) without indentation: programs read them, and the package (validators, mocks,
 * suite) stays within 3.5 MB installed. The indented copies people read are in the repository and in docs/.
 */
function compactJson(dir: string): void {
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith(".json")) continue;
    const file = path.join(entry.parentPath, entry.name);
    fs.writeFileSync(file, `${JSON.stringify(JSON.parse(fs.readFileSync(file, "utf8")))}\n`);
  }
}

const started = performance.now();
try {
  fs.rmSync(distDir, { recursive: true, force: true });
  runNode(binPath("typescript", "tsc"), ["-p", path.join(repoRoot, "tsconfig.build.json")], "tsc -p tsconfig.build.json");
  for (const rel of runtimeData) fs.cpSync(path.join(repoRoot, rel), path.join(distDir, rel), { recursive: true, filter: (src) => !testOnly.test(src) });
  compactJson(path.join(distDir, "generated"));
  compactJson(path.join(distDir, "spec/mcp/tools"));
  const files = fs.readdirSync(distDir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;
  console.log(`Built ${files} files into dist/ in ${Math.round(performance.now() - started)} ms.`);
} catch (err) {
  console.error((err as Error).message);
  process.exit(1);
}
