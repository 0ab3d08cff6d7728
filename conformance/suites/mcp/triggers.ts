// The MCP target file's triggers (mcp.triggers): inputs a test gateway turns into paths a caller cannot force (a
// build that fails, a caption the provider refuses, …). This table is their one list: the target-file parser, the
// slots a rule may name (spec/rules/mcp.yaml `slot:`), the McpTriggers type, docs/target-triggers.md and the
// reference's target file (`npm run generate`) all come from it. A leaf: target.ts reads them from the file,
// cost.ts sizes the checks' spend by them.
import type { SlotValues, TriggerSlot } from "../../core/target-values.js";

/**
 * Each trigger's key in the target file, with what a test gateway does when it meets the value, and the value the
 * MCP mock honours (its magic tables, mock/mcp/profiles/magic.json and mock/mcp/posts/magic.json).
 */
export const mcpTriggerSlots = {
  website_fails_build: { what: "A website whose first build fails (a repeat of create_profile restarts it).", reference: "https://www.fail-analysis.example.com" },
  brief_partial: { what: "Added to a brief: some slots fail and the batch ends partial.", reference: "[partial]" },
  brief_fails: { what: "Added to a brief: every slot fails and the batch ends failed.", reference: "[batch-fails]" },
  caption_refused: { what: "Added to a caption: the provider refuses that destination every time (a non-retryable code).", reference: "[refuse:content_rejected]" },
  caption_refused_once: { what: "Added to a caption: the provider refuses that destination once (a retryable code).", reference: "[refuse:rate_limited]" },
  caption_refused_code: { what: "Added to a caption, `{code}` replaced by a per-destination code: the provider refuses that destination with it.", reference: "[refuse:{code}]" },
  caption_slow: { what: "Added to a caption: the destination is accepted and finishes later (publishing_in_progress).", reference: "[slow]" },
  caption_stuck: { what: "Added to a caption: the provider takes the destination and never reports (stuck_at_provider).", reference: "[stuck]" },
  caption_story_partial: { what: "Added to the main caption: a story goes out partly (story_partially_published).", reference: "[story-partial]" },
  caption_publisher_error: { what: "Added to a caption: the publishing provider fails (publisher_error).", reference: "[publisher-error]" },
  brief_allowance_exhausted: { what: "Added to a brief: the AI allowance is used up (usage_limit_exceeded).", reference: "[allowance-exhausted]" },
  brief_allowance_runs_out: { what: "Added to a brief: the allowance runs out part way, later slots end skipped.", reference: "[allowance-runs-out]" },
  brief_ai_fails: { what: "Added to a brief: generation fails (ai_generation_failed).", reference: "[ai-fails]" },
  render_fails: { what: "Added to a render prompt, `{code}` replaced by an image render code: the render fails with it.", reference: "[render-fails:{code}]" },
  prompt_templates: { what: "Added to a render prompt: the workspace renders from design templates (template_rendering).", reference: "[templates]" },
  subreddit_needs_flair: { what: "A subreddit that requires a flair (reddit_flair_required).", reference: "conformance-flair" },
  website_builds_slowly: { what: "A website whose build stays building for the whole run (profile_not_ready seen while building, never raced).", reference: "https://www.build-slow.example.com" },
  website_fails_build_code: { what: "A website whose build fails with a given code, `{code}` replaced by a build failure code (build-failure-codes).", reference: "https://www.fail-code-{code}.example.com" },
  connect_account: { what: "An account the suite signs in with when it opens a connect link itself (`<url>?account=<name>`), as the client would: a test gateway's simulated sign-in. A real gateway leaves it out (a person signs in with the platform).", reference: "conformance" },
  connect_account_unreachable: { what: "An account that connects, but whose provider cannot then be reached (connection_check_failed); signed in like connect_account.", reference: "unreachable" },
  website_fails_queue: { what: "A website whose build cannot be started (create_profile answers failed, build_not_queued).", reference: "https://www.fail-queue.example.com" },
  website_unsafe: { what: "A website flagged as harmful (websiteRefusal URL_UNSAFE).", reference: "https://www.malware.example.com" },
  website_refused_unknown: { what: "A website refused for a reason the gateway does not know (no websiteRefusal).", reference: "https://www.refused-unknown.example.com" },
  external_billing_external_id: { what: "An externalId whose workspace pays its own plan (external_billing_workspace).", reference: "conformance-external-billing" },
  design_style_busy: { what: "A colour whose save meets a concurrent one (design_style_busy).", reference: "#BEEBEE" },
  logo_unreadable: { what: "A logo address that is no usable logo (logo_unreadable).", reference: "https://www.example.com/tiny-logo.png" },
  headless_unsupported_platform: { what: "A platform with no headless connect (headless_connect_unavailable).", reference: "threads" },
  connect_token_expired: { what: "A connectToken that has expired (connect_session_expired).", reference: "conformance-expired-connect-session" },
  design_style_unavailable_brand: { what: "A brandId not on the design style (design_style_unavailable); the reference's is Northside Physio, mcp_user's fixture brand on no design style.", reference: "fa40a6dd-7458-5bf1-8e70-1bab1243f11b" },
  design_changed: { what: "Added to a caption before approval: the post's design then counts as changed after it (design_changed_after_approval).", reference: "[design-changed]" },
  partner_downstream_auth_fails: { what: "A token for which the gateway cannot get the partner client's access (partner_downstream_auth_failed).", reference: "mcp_partner_downstream_fails" },
  common_errors: { what: "A token, `{code}` replaced by a common code (commonErrorCodes), for which every call answers that code (writes_disabled: every write).", reference: "mcp_fails_{code}" },
  upstream_status: { what: "A token, `{status}` replaced by an HTTP status (upstreamStatuses), for which every call answers upstream_<status>.", reference: "mcp_fails_upstream_{status}" },
  render_stuck: { what: "Added to a render prompt: the render keeps running until its post is deleted (image_generation_in_progress).", reference: "[render-stuck]" },
  pictures_held: { what: "Added to a brief: the batch's pictures keep rendering until it is first read settled (pictures-land).", reference: "[pictures-held]" },
  brief_stepwise: { what: "Added to a brief: the first read shows the batch queued, the second generating (batch-status-values).", reference: "[stepwise]" },
  brief_item_fails: { what: "Added to a brief once per code, `{code}` replaced by an item error code: one slot per marker fails with it.", reference: "[item-fails:{code}]" },
} as const satisfies Record<string, TriggerSlot>;

/** The triggers of a target file, by their names in code (what each does: mcpTriggerSlots). */
export type McpTriggers = SlotValues<keyof typeof mcpTriggerSlots>;
