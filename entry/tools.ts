// `ideas-contract/tools`: the MCP tools manifest — what the gateway answers to `tools/list` — as an object, with
// our contract metadata under `_meta["ideas-contract/contract"]`. The file itself is `ideas-contract/tools.json`.
import manifest from "../generated/mcp/tools.json" with { type: "json" };
import type { ToolName } from "../generated/mcp/types.js";

export type JsonSchema = Record<string, unknown>;

/** What the contract says about a tool, beyond its schemas. */
export interface ToolContract {
  status: "preview" | "in_development";
  /** Parts of a preview tool still in development. */
  inDevelopment?: string[];
  /** Listed only to partner tokens. */
  partnerOnly: boolean;
  scopes: string[];
  /** How much of the tool the source documents show. */
  source: "documented" | "partly_inferred" | "inferred";
  sourceReason?: string;
  /** Envelope codes the tool can return besides the common ones. */
  errors: string[];
}

export interface ManifestTool {
  name: ToolName;
  description: string;
  inputSchema: JsonSchema;
  outputSchema: JsonSchema;
  annotations: { readOnlyHint: boolean; [key: string]: unknown };
  _meta: { "ideas-contract/contract": ToolContract };
}

export interface ToolsManifest {
  tools: ManifestTool[];
  _meta: Record<string, unknown>;
}

// JSON modules type every string as string; the generator writes only the contract's tool names here.
export const toolsManifest: ToolsManifest = manifest as ToolsManifest;
