// `npm run generate`: spec/ → generated/ and docs/. `--check` regenerates into memory and fails if either differs.
// The docs pages made from the mocks' and the checks' code (scripts/lib/docs-code.ts) and the rule ids
// (scripts/lib/rule-ids.ts) and the target file's schema and types (scripts/lib/target-file.ts) come last: that code
// reads generated/ from disk as it loads, so it is imported only
// once generated/ is written.
import fs from "node:fs";
import path from "node:path";
import { repoRoot } from "../lib/paths.js";
import { generateRest, type GeneratedFiles } from "./lib/rest.js";
import { generateMcp } from "./lib/mcp.js";
import { generateMcpErrors } from "./lib/mcp-errors.js";
import { generateCommand } from "./lib/banner.js";
import { generateDocs } from "./lib/docs.js";

async function generateAll(): Promise<GeneratedFiles> {
  const files: GeneratedFiles = new Map();
  const openapi = await generateRest(files);
  const tools = await generateMcp(files);
  generateMcpErrors(files, tools);
  await generateDocs(files, openapi, tools);
  return files;
}

function listFiles(dir: string, prefix = ""): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? listFiles(path.join(dir, e.name), `${prefix}${e.name}/`) : [`${prefix}${e.name}`],
  );
}

/** The folders the generator owns entirely; anything in them it did not write is drift too. */
const ownedDirs = ["generated", "docs"];

/** Paths (relative to the repository) that differ, are missing, or should not be there. */
function drift(files: GeneratedFiles): string[] {
  const problems: string[] = [];
  for (const [rel, content] of files) {
    const onDisk = path.join(repoRoot, rel);
    if (!fs.existsSync(onDisk)) problems.push(`missing  ${rel}`);
    else if (fs.readFileSync(onDisk, "utf8") !== content) problems.push(`differs  ${rel}`);
  }
  for (const dir of ownedDirs) {
    for (const rel of listFiles(path.join(repoRoot, dir), `${dir}/`)) {
      if (!files.has(rel)) problems.push(`extra    ${rel}`);
    }
  }
  return problems;
}

/** docs/ pages made from the mocks' tables and the conformance checks, and the rule ids, as the files on disk make them load. */
async function generateFromCode(): Promise<GeneratedFiles> {
  const files: GeneratedFiles = new Map();
  (await import("./lib/docs-code.js")).generateCodeDocs(files);
  (await import("./lib/rule-ids.js")).generateRuleIds(files);
  await (await import("./lib/target-file.js")).generateTargetFile(files);
  return files;
}

function write(files: GeneratedFiles): void {
  for (const [rel, content] of files) {
    const target = path.join(repoRoot, rel);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, content);
  }
}

async function main(): Promise<void> {
  const check = process.argv.includes("--check");
  const started = performance.now();
  const files = await generateAll();
  if (check) {
    for (const [rel, content] of await generateFromCode()) files.set(rel, content);
    const problems = drift(files);
    if (problems.length) {
      console.error(`generated/ and docs/ do not match spec/:\n  ${problems.join("\n  ")}`);
      console.error(`Fix: run \`${generateCommand}\` and commit generated/ and docs/.`);
      process.exit(1);
    }
    console.log(`generated/ and docs/ are up to date (${files.size} files).`);
    return;
  }
  for (const dir of ownedDirs) fs.rmSync(path.join(repoRoot, dir), { recursive: true, force: true });
  write(files);
  const fromCode = await generateFromCode();
  write(fromCode);
  for (const [rel, content] of fromCode) files.set(rel, content);
  const ms = Math.round(performance.now() - started);
  console.log(`Wrote ${files.size} files to ${ownedDirs.map((d) => `${d}/`).join(" and ")} in ${ms} ms.`);
}

main().catch((err: unknown) => {
  console.error((err as Error).message ?? err);
  process.exit(1);
});
