// `npm run generate`: spec/ → generated/. `--check` regenerates into memory and fails if generated/ differs.
import fs from "node:fs";
import path from "node:path";
import { generatedDir, repoRoot } from "./lib/paths.js";
import { generateRest, type GeneratedFiles } from "./lib/rest.js";
import { generateMcp } from "./lib/mcp.js";
import { generateMcpErrors } from "./lib/mcp-errors.js";
import { generateCommand } from "./lib/banner.js";
import { inferredDoc } from "./lib/inferred.js";
import { loadDefs } from "./lib/mcp-source.js";
import type { JsonObject } from "./lib/schema-walk.js";

async function generateAll(): Promise<GeneratedFiles> {
  const files: GeneratedFiles = new Map();
  const openapi = await generateRest(files);
  const tools = await generateMcp(files);
  generateMcpErrors(files, tools);
  files.set("inferred.md", inferredDoc(openapi, tools, loadDefs() as Map<string, JsonObject>));
  return files;
}

function listFiles(dir: string, prefix = ""): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? listFiles(path.join(dir, e.name), `${prefix}${e.name}/`) : [`${prefix}${e.name}`],
  );
}

/** Paths (relative to generated/) that differ, are missing, or should not be there. */
function drift(files: GeneratedFiles): string[] {
  const problems: string[] = [];
  for (const [rel, content] of files) {
    const onDisk = path.join(generatedDir, rel);
    if (!fs.existsSync(onDisk)) problems.push(`missing  generated/${rel}`);
    else if (fs.readFileSync(onDisk, "utf8") !== content) problems.push(`differs  generated/${rel}`);
  }
  for (const rel of listFiles(generatedDir)) {
    if (!files.has(rel)) problems.push(`extra    generated/${rel}`);
  }
  return problems;
}

function write(files: GeneratedFiles): void {
  fs.rmSync(generatedDir, { recursive: true, force: true });
  for (const [rel, content] of files) {
    const target = path.join(generatedDir, rel);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, content);
  }
}

async function main(): Promise<void> {
  const check = process.argv.includes("--check");
  const started = performance.now();
  const files = await generateAll();
  if (check) {
    const problems = drift(files);
    if (problems.length) {
      console.error(`generated/ does not match spec/:\n  ${problems.join("\n  ")}`);
      console.error(`Fix: run \`${generateCommand}\` and commit generated/.`);
      process.exit(1);
    }
    console.log(`generated/ is up to date (${files.size} files).`);
    return;
  }
  write(files);
  const ms = Math.round(performance.now() - started);
  console.log(`Wrote ${files.size} files to ${path.relative(repoRoot, generatedDir)}/ in ${ms} ms.`);
}

main().catch((err: unknown) => {
  console.error((err as Error).message ?? err);
  process.exit(1);
});
