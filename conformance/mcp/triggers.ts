// The MCP target file's triggers (mcp.triggers): inputs a test gateway turns into paths a caller cannot force (a
// build that fails, a caption the provider refuses, …). This table is their one list: the target-file parser, the
// slots a rule may name (spec/rules/mcp.yaml `slot:`) and the McpTriggers type all come from it. A leaf: target.ts
// reads them from the file, cost.ts sizes the checks' spend by them.
import type { SlotValues } from "../target-values.js";

/** Each trigger's key in the target file, with what a test gateway does when it meets the value. */
export const mcpTriggerSlots = {
  website_fails_build: "A website whose first build fails (a repeat of create_profile restarts it).",
  brief_partial: "Added to a brief: some slots fail and the batch ends partial.",
  brief_fails: "Added to a brief: every slot fails and the batch ends failed.",
  caption_refused: "Added to a caption: the provider refuses that destination every time (a non-retryable code).",
  caption_refused_once: "Added to a caption: the provider refuses that destination once (a retryable code).",
  caption_refused_code: "Added to a caption, `{code}` replaced by a per-destination code: the provider refuses that destination with it.",
  caption_slow: "Added to a caption: the destination is accepted and finishes later (publishing_in_progress).",
  caption_stuck: "Added to a caption: the provider takes the destination and never reports (stuck_at_provider).",
  caption_story_partial: "Added to the main caption: a story goes out partly (story_partially_published).",
  caption_publisher_error: "Added to a caption: the publishing provider fails (publisher_error).",
  brief_allowance_exhausted: "Added to a brief: the AI allowance is used up (usage_limit_exceeded).",
  brief_allowance_runs_out: "Added to a brief: the allowance runs out part way, later slots end skipped.",
  brief_ai_fails: "Added to a brief: generation fails (ai_generation_failed).",
  render_fails: "Added to a render prompt, `{code}` replaced by an image render code: the render fails with it.",
  prompt_templates: "Added to a render prompt: the workspace renders from design templates (template_rendering).",
  subreddit_needs_flair: "A subreddit that requires a flair (reddit_flair_required).",
  website_builds_slowly: "A website whose build stays building for the whole run (profile_not_ready seen while building, never raced).",
  website_fails_build_code: "A website whose build fails with a given code, `{code}` replaced by a build failure code (build-failure-codes).",
  connect_account: "An account the suite signs in with when it opens a connect link itself (`<url>?account=<name>`), as the client would: a test gateway's simulated sign-in. A real gateway leaves it out (a person signs in with the platform).",
  connect_account_unreachable: "An account that connects, but whose provider cannot then be reached (connection_check_failed); signed in like connect_account.",
  website_fails_queue: "A website whose build cannot be started (create_profile answers failed, build_not_queued).",
  website_unsafe: "A website flagged as harmful (websiteRefusal URL_UNSAFE).",
  website_refused_unknown: "A website refused for a reason the gateway does not know (no websiteRefusal).",
  external_billing_external_id: "An externalId whose workspace pays its own plan (external_billing_workspace).",
  design_style_busy: "A colour whose save meets a concurrent one (design_style_busy).",
  logo_unreadable: "A logo address that is no usable logo (logo_unreadable).",
  headless_unsupported_platform: "A platform with no headless connect (headless_connect_unavailable).",
  connect_token_expired: "A connectToken that has expired (connect_session_expired).",
  design_style_unavailable_brand: "A brandId not on the design style (design_style_unavailable).",
  design_changed: "Added to a caption before approval: the post's design then counts as changed after it (design_changed_after_approval).",
  partner_downstream_auth_fails: "A token for which the gateway cannot get the partner client's access (partner_downstream_auth_failed).",
  common_errors: "A token, `{code}` replaced by a common code (commonErrorCodes), for which every call answers that code (writes_disabled: every write).",
  upstream_status: "A token, `{status}` replaced by an HTTP status (upstreamStatuses), for which every call answers upstream_<status>.",
  render_stuck: "Added to a render prompt: the render keeps running until its post is deleted (image_generation_in_progress).",
  pictures_held: "Added to a brief: the batch's pictures keep rendering until it is first read settled (pictures-land).",
  brief_stepwise: "Added to a brief: the first read shows the batch queued, the second generating (batch-status-values).",
  brief_item_fails: "Added to a brief once per code, `{code}` replaced by an item error code: one slot per marker fails with it.",
} as const;

/** The triggers of a target file, by their names in code (what each does: mcpTriggerSlots). */
export type McpTriggers = SlotValues<keyof typeof mcpTriggerSlots>;
