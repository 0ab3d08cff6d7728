// What the MCP target file's triggers are (mcp.triggers): inputs a test gateway turns into paths a caller cannot
// force (a build that fails, a caption the provider refuses, …). A leaf: target.ts reads them from the file, cost.ts
// sizes the checks' spend by them.
export interface McpTriggers {
  /** A website whose first build fails (a repeat of create_profile restarts it). */
  websiteFailsBuild?: string;
  /** Added to a brief: some slots fail and the batch ends partial. */
  briefPartial?: string;
  /** Added to a brief: every slot fails and the batch ends failed. */
  briefFails?: string;
  /** Added to a caption: the provider refuses that destination every time (a non-retryable code). */
  captionRefused?: string;
  /** Added to a caption: the provider refuses that destination once (a retryable code). */
  captionRefusedOnce?: string;
  // Slots of the rule catalogue's trigger rules (spec/rules/mcp.yaml `slot:`) that no check reads yet (issue 16).
  /** Added to a caption, `{code}` replaced by a per-destination code: the provider refuses that destination with it. */
  captionRefusedCode?: string;
  /** Added to a caption: the destination is accepted and finishes later (publishing_in_progress). */
  captionSlow?: string;
  /** Added to a caption: the provider takes the destination and never reports (stuck_at_provider). */
  captionStuck?: string;
  /** Added to the main caption: a story goes out partly (story_partially_published). */
  captionStoryPartial?: string;
  /** Added to a caption: the publishing provider fails (publisher_error). */
  captionPublisherError?: string;
  /** Added to a brief: the AI allowance is used up (usage_limit_exceeded). */
  briefAllowanceExhausted?: string;
  /** Added to a brief: the allowance runs out part way, later slots end skipped. */
  briefAllowanceRunsOut?: string;
  /** Added to a brief: generation fails (ai_generation_failed). */
  briefAiFails?: string;
  /** Added to a render prompt, `{code}` replaced by an image render code: the render fails with it. */
  renderFails?: string;
  /** Added to a render prompt: the workspace renders from design templates (template_rendering). */
  promptTemplates?: string;
  /** A subreddit that requires a flair (reddit_flair_required). */
  subredditNeedsFlair?: string;
  /** A website whose build stays building for the whole run (profile_not_ready seen while building, never raced). */
  websiteBuildsSlowly?: string;
  /** A website whose build fails with a given code, `{code}` replaced by a build failure code (build-failure-codes). */
  websiteFailsBuildCode?: string;
  /**
   * An account the suite signs in with when it opens a connect link itself (`<url>?account=<name>`), as the client
   * would: a test gateway's simulated sign-in. A real gateway leaves it out (a person signs in with the platform).
   */
  connectAccount?: string;
  /** An account that connects, but whose provider cannot then be reached (connection_check_failed); signed in like connect_account. */
  connectAccountUnreachable?: string;
  /** A website whose build cannot be started (create_profile answers failed, build_not_queued). */
  websiteFailsQueue?: string;
  /** A website flagged as harmful (websiteRefusal URL_UNSAFE). */
  websiteUnsafe?: string;
  /** A website refused for a reason the gateway does not know (no websiteRefusal). */
  websiteRefusedUnknown?: string;
  /** An externalId whose workspace pays its own plan (external_billing_workspace). */
  externalBillingExternalId?: string;
  /** A colour whose save meets a concurrent one (design_style_busy). */
  designStyleBusy?: string;
  /** A logo address that is no usable logo (logo_unreadable). */
  logoUnreadable?: string;
  /** A platform with no headless connect (headless_connect_unavailable). */
  headlessUnsupportedPlatform?: string;
  /** A connectToken that has expired (connect_session_expired). */
  connectTokenExpired?: string;
  /** A brandId not on the design style (design_style_unavailable). */
  designStyleUnavailableBrand?: string;
  /** Added to a caption before approval: the post's design then counts as changed after it (design_changed_after_approval). */
  designChanged?: string;
  /** A token for which the gateway cannot get the partner client's access (partner_downstream_auth_failed). */
  partnerDownstreamAuthFails?: string;
  /** A token, `{code}` replaced by a common code (commonErrorCodes), for which every call answers that code (writes_disabled: every write). */
  commonErrors?: string;
  /** A token, `{status}` replaced by an HTTP status (upstreamStatuses), for which every call answers upstream_<status>. */
  upstreamStatus?: string;
  /** Added to a render prompt: the render keeps running until its post is deleted (image_generation_in_progress). */
  renderStuck?: string;
  /** Added to a brief: the batch's pictures keep rendering until it is first read settled (pictures-land). */
  picturesHeld?: string;
  /** Added to a brief: the first read shows the batch queued, the second generating (batch-status-values). */
  briefStepwise?: string;
  /** Added to a brief once per code, `{code}` replaced by an item error code: one slot per marker fails with it. */
  briefItemFails?: string;
}
