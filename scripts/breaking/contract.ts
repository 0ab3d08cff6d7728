// One call from two contracts to every change, REST first, then MCP.
import { sortChanges } from "./classify.js";
import { diffMcp } from "./mcp-diff.js";
import { diffOpenApi } from "./openapi-diff.js";
import type { Change, Contract } from "./types.js";

export function diffContracts(base: Contract, head: Contract): Change[] {
  if (base.empty) return [];
  return sortChanges([
    ...diffOpenApi(base.openapi, head.openapi),
    ...diffMcp({ tools: base.tools, errors: base.errors }, { tools: head.tools, errors: head.errors }),
  ]);
}
