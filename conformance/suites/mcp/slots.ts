// The MCP suite's target-file slots (the `slot:` of spec/rules/mcp.yaml's rules, the section's inputs and triggers):
// where each one's value is in the parsed target, and how a user gives it. A slot the catalogue or the section gains
// and this table lacks is a compile error. Checks read them only through ctx.slot (core/slots.ts).
import type { McpFileSlot } from "../../../generated/rules.js";
import { triggerSlots, type SlotSource, type SlotTable } from "../../core/slots.js";
import { camelKey } from "../../core/target-values.js";
import { mcpTokenEnv, type McpRunTarget, type McpTokenKind } from "./target.js";
import { mcpTriggerSlots } from "./triggers.js";

type Source = SlotSource<McpRunTarget>;

const token = (kind: McpTokenKind, what: string): Source => ({ value: (t) => t.mcp.tokens[kind], what, env: mcpTokenEnv[kind] });

export const mcpSlots = {
  "mcp.tokens.normal": token("normal", "an MCP token with mcp:read mcp:write"),
  "mcp.tokens.readonly": token("readonly", "an MCP token with mcp:read only"),
  "mcp.tokens.partner": token("partner", "an MCP partner token (sees the partner-only tools)"),
  "mcp.tokens.other_tenant": token("otherTenant", "an MCP token of another tenant"),
  "mcp.tokens.expired": token("expired", "an expired MCP token"),
  "mcp.tokens.partner_unconfigured": token("partnerUnconfigured", "an MCP token of a partner client with no partner configured"),
  "mcp.inputs.allow_publishing": {
    value: (t) => (t.mcp.inputs.allowPublishing ? "true" : undefined),
    what: "true, to let publish_post_now really publish (posts go live)",
  },
  "mcp.inputs.website": {
    value: (t) => t.mcp.inputs.website,
    what: "a website the target can build a profile from",
    shared: "an input with a default; the shared builds and every client a check makes are made from it",
  },
  "mcp.inputs.brand_id": {
    value: (t) => t.mcp.inputs.brandId,
    what: "the brand the post lifecycles run on (found through get_workspaces and list_brands when not given)",
    shared: "the brand under test, which the shared batches and every post lifecycle run on, is this one when given",
  },
  "mcp.inputs.logo_url": { value: (t) => t.mcp.inputs.logoUrl, what: "a public https address of a usable logo image" },
  ...triggerSlots("mcp", mcpTriggerSlots, (t: McpRunTarget, key) => t.mcp.triggers[camelKey(key)]),
} as const satisfies SlotTable<McpRunTarget, McpFileSlot>;
