// Where the MCP suite finds its rule catalogue and the gateway contract, resolved from this file.
import path from "node:path";
import { repoRoot } from "../../core/paths.js";

export { mcpToolsJsonPath } from "../../core/paths.js";

export const mcpRulesPath = path.join(repoRoot, "spec/rules/mcp.yaml");
export const mcpToolSpecsDir = path.join(repoRoot, "spec/mcp/tools");
