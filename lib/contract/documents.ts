// Where the contract documents are (the generated OpenAPI, the tools manifest, the error catalogue) and the rule
// catalogues that point into them, resolved from this file so every caller works from any working directory. A
// document is read once per process.
import { readFileSync } from "node:fs";
import path from "node:path";
import { generatedDir, specDir } from "../paths.js";

export const openapiJsonPath = path.join(generatedDir, "openapi/openapi.json");
export const mcpToolsJsonPath = path.join(generatedDir, "mcp/tools.json");
export const mcpErrorsJsonPath = path.join(generatedDir, "mcp/errors.json");
export const restRulesPath = path.join(specDir, "rules/rest.yaml");
export const mcpRulesPath = path.join(specDir, "rules/mcp.yaml");

const read = new Map<string, unknown>();

/** A JSON document of the contract, parsed on first use. */
export function contractDocument(file: string): unknown {
  if (!read.has(file)) read.set(file, JSON.parse(readFileSync(file, "utf8")));
  return read.get(file);
}
