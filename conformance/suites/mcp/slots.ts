// The MCP suite's target-file slots (the `slot:` of spec/rules/mcp.yaml's rules): where each one's value is in the
// parsed target, and how a user gives it. A slot the catalogue gains and this table lacks is a compile error.
import type { McpTargetSlot } from "../../../generated/rules.js";
import type { SlotSource, SlotTable } from "../../core/slots.js";
import { camelKey } from "../../core/target-values.js";
import { mcpTokenEnv, type McpRunTarget, type McpTokenKind } from "./target.js";
import { mcpTriggerSlots } from "./triggers.js";

type Source = SlotSource<McpRunTarget>;

const token = (kind: McpTokenKind, what: string): Source => ({ value: (t) => t.mcp.tokens[kind], what, env: mcpTokenEnv[kind] });
const trigger = (key: keyof typeof mcpTriggerSlots): Source => ({ value: (t) => t.mcp.triggers[camelKey(key)], what: mcpTriggerSlots[key].what });

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
  "mcp.triggers.brief_ai_fails": trigger("brief_ai_fails"),
  "mcp.triggers.brief_allowance_exhausted": trigger("brief_allowance_exhausted"),
  "mcp.triggers.brief_fails": trigger("brief_fails"),
  "mcp.triggers.brief_partial": trigger("brief_partial"),
  "mcp.triggers.caption_publisher_error": trigger("caption_publisher_error"),
  "mcp.triggers.caption_refused": trigger("caption_refused"),
  "mcp.triggers.caption_refused_code": trigger("caption_refused_code"),
  "mcp.triggers.caption_refused_once": trigger("caption_refused_once"),
  "mcp.triggers.caption_slow": trigger("caption_slow"),
  "mcp.triggers.caption_story_partial": trigger("caption_story_partial"),
  "mcp.triggers.caption_stuck": trigger("caption_stuck"),
  "mcp.triggers.common_errors": trigger("common_errors"),
  "mcp.triggers.connect_token_expired": trigger("connect_token_expired"),
  "mcp.triggers.design_changed": trigger("design_changed"),
  "mcp.triggers.design_style_busy": trigger("design_style_busy"),
  "mcp.triggers.design_style_unavailable_brand": trigger("design_style_unavailable_brand"),
  "mcp.triggers.external_billing_external_id": trigger("external_billing_external_id"),
  "mcp.triggers.headless_unsupported_platform": trigger("headless_unsupported_platform"),
  "mcp.triggers.logo_unreadable": trigger("logo_unreadable"),
  "mcp.triggers.partner_downstream_auth_fails": trigger("partner_downstream_auth_fails"),
  "mcp.triggers.prompt_templates": trigger("prompt_templates"),
  "mcp.triggers.render_fails": trigger("render_fails"),
  "mcp.triggers.subreddit_needs_flair": trigger("subreddit_needs_flair"),
  "mcp.triggers.upstream_status": trigger("upstream_status"),
  "mcp.triggers.website_fails_build": trigger("website_fails_build"),
  "mcp.triggers.website_fails_build_code": trigger("website_fails_build_code"),
  "mcp.triggers.website_fails_queue": trigger("website_fails_queue"),
  "mcp.triggers.website_refused_unknown": trigger("website_refused_unknown"),
  "mcp.triggers.website_unsafe": trigger("website_unsafe"),
} as const satisfies SlotTable<McpRunTarget, McpTargetSlot>;
