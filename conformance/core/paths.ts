// Where the conformance suite finds the contract and the rule catalogue, resolved from this file so the
// suite works from any working directory.
import path from "node:path";
import { fileURLToPath } from "node:url";

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const restRulesPath = path.join(repoRoot, "spec/rules/rest.yaml");
export const targetSchemaPath = path.join(repoRoot, "generated/conformance/target-file.schema.json");
export const rulesSchemaPath = path.join(repoRoot, "spec/rules/rules.schema.json");
export const openapiJsonPath = path.join(repoRoot, "generated/openapi/openapi.json");
export const referenceTargetPath = path.join(repoRoot, "conformance/targets/reference.yaml");
export const mcpToolsJsonPath = path.join(repoRoot, "generated/mcp/tools.json");
export const mcpErrorsJsonPath = path.join(repoRoot, "generated/mcp/errors.json");
