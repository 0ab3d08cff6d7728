// Developer check of spec/mcp/ (the same checks npm test runs): `npx tsx scripts/check-mcp-sources.ts [tool…]`.
import fs from "node:fs";
import path from "node:path";
import { createAjv } from "./lib/ajv.js";
import { addDefs, loadDefs, loadToolFileSchema, toolsDir, type ToolSource } from "./lib/mcp-source.js";
import { checkToolSource } from "./lib/check-mcp-tool.js";

const only = new Set(process.argv.slice(2));
const ajv = createAjv();
addDefs(ajv, loadDefs());
ajv.addSchema(loadToolFileSchema(), "tool-file");
let failures = 0;
let count = 0;
for (const file of fs.readdirSync(toolsDir).filter((f) => f.endsWith(".json")).sort()) {
  const tool = JSON.parse(fs.readFileSync(path.join(toolsDir, file), "utf8")) as ToolSource;
  if (only.size && !only.has(tool.name)) continue;
  count++;
  for (const p of checkToolSource(ajv, tool, file)) {
    failures++;
    console.log(`${p.tool}: ${p.problem}`);
  }
}
console.log(failures ? `${failures} problem(s) in ${count} tool file(s)` : `${count} tool file(s) OK`);
process.exit(failures ? 1 : 0);
