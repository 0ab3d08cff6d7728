// The MCP suite's rule catalogue (spec/rules/mcp.yaml), its pointers and families resolved in the generated tools
// manifest and error catalogue (lib/contract/).
import { mcpRulesPath } from "../../../lib/contract/documents.js";
import { mcpContract } from "../../../lib/contract/index.js";
import { loadRules, type RuleCatalogue } from "../../core/rules.js";

export { mcpContract, mcpRulesPath };

/** The catalogue, loaded once per process (core/rules.ts). */
export const mcpCatalogue = (): RuleCatalogue => loadRules(mcpRulesPath, mcpContract);
