// Where things live, resolved from the repository root so scripts work from any cwd.
import { fileURLToPath } from "node:url";
import path from "node:path";

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const specDir = path.join(repoRoot, "spec");
export const generatedDir = path.join(repoRoot, "generated");
export const mcpSpecDir = path.join(specDir, "mcp");
export const restSpecDir = path.join(specDir, "rest");
