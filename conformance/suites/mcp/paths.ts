// Where the MCP suite finds the gateway contract: the tools manifest (lib/contract/) and the tools' sources with
// their examples.
import path from "node:path";
import { specDir } from "../../../lib/paths.js";

export { mcpRulesPath, mcpToolsJsonPath } from "../../../lib/contract/documents.js";

export const mcpToolSpecsDir = path.join(specDir, "mcp/tools");
