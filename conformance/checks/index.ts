// Every check of the suite, in report order.
import type { Check, CheckInfo } from "../check.js";
import type { McpCheck } from "./mcp/common.js";
import { authChecks } from "./rest/auth.js";
import { authenticationChecks } from "./rest/authentication.js";
import { batchLifecycleChecks } from "./rest/batch-lifecycle.js";
import { brandLifecycleChecks } from "./rest/brand-lifecycle.js";
import { errorChecks } from "./rest/errors.js";
import { feedbackChecks } from "./rest/feedback.js";
import { negativeChecks } from "./rest/negative.js";
import { predictionChecks } from "./rest/predictions.js";
import { shapeChecks } from "./rest/shapes.js";
import { transportChecks } from "./rest/transport.js";
import { defaultWalks, restWalksCheck } from "../walks/check.js";
import { mcpWalksCheck } from "../walks/mcp-check.js";
import { defaultMcpWalks } from "../walks/defaults.js";
import { approvalChecks as mcpApprovalChecks } from "./mcp/approval.js";
import { authChecks as mcpAuthChecks } from "./mcp/auth.js";
import { batchChecks as mcpBatchChecks } from "./mcp/batch.js";
import { brandingChecks as mcpBrandingChecks } from "./mcp/branding.js";
import { buildChecks as mcpBuildChecks } from "./mcp/build.js";
import { commonCodeChecks as mcpCommonCodeChecks } from "./mcp/common-codes.js";
import { connectingChecks as mcpConnectingChecks } from "./mcp/connecting.js";
import { buildFailureChecks as mcpBuildFailureChecks } from "./mcp/build-failure-codes.js";
import { profileNotReadyChecks as mcpProfileNotReadyChecks } from "./mcp/profile-not-ready.js";
import { conventionChecks as mcpConventionChecks } from "./mcp/conventions.js";
import { errorCodeChecks as mcpErrorCodeChecks } from "./mcp/error-codes.js";
import { imageInProgressChecks as mcpImageInProgressChecks } from "./mcp/image-in-progress.js";
import { endingChecks as mcpEndingChecks } from "./mcp/ending.js";
import { deactivationEffectChecks as mcpDeactivationEffectChecks } from "./mcp/deactivation-effects.js";
import { fieldChecks as mcpFieldChecks } from "./mcp/fields.js";
import { mediaChecks as mcpMediaChecks } from "./mcp/media.js";
import { postChecks as mcpPostChecks } from "./mcp/posts.js";
import { preflightCodeChecks as mcpPreflightCodeChecks } from "./mcp/preflight-codes.js";
import { publishingEdgeChecks as mcpPublishingEdgeChecks } from "./mcp/publishing-edges.js";
import { createPostsRefusalChecks as mcpCreatePostsRefusalChecks } from "./mcp/create-posts-refusals.js";
import { designChangedChecks as mcpDesignChangedChecks } from "./mcp/design-changed.js";
import { postViewChecks as mcpPostViewChecks } from "./mcp/post-views.js";
import { profileChecks as mcpProfileChecks } from "./mcp/profiles.js";
import { partnerWorkspaceChecks as mcpPartnerWorkspaceChecks } from "./mcp/partner-workspaces.js";
import { readinessViewChecks as mcpReadinessViewChecks } from "./mcp/readiness-views.js";
import { publishingChecks as mcpPublishingChecks } from "./mcp/publishing.js";
import { slideTextSourceChecks as mcpSlideTextSourceChecks } from "./mcp/slide-text-source.js";
import { tenancyChecks as mcpTenancyChecks } from "./mcp/tenancy.js";
import { toolsChecks as mcpToolsChecks } from "./mcp/tools.js";

export const restChecks: readonly Check[] = [
  ...shapeChecks,
  ...authenticationChecks,
  ...errorChecks,
  ...authChecks,
  ...brandLifecycleChecks,
  ...batchLifecycleChecks,
  ...feedbackChecks,
  ...predictionChecks,
  ...transportChecks,
  ...negativeChecks,
  // Its options (count, length, seed, replay) come from the run: runConformance puts in the run's own.
  restWalksCheck({ ...defaultWalks, seed: "set-by-the-run" }),
];

/** The MCP gateway's checks (ids start with mcp-), run in the MCP suite's session (mcp/extension.ts). */
export const mcpChecks: readonly McpCheck[] = [
  ...mcpToolsChecks,
  ...mcpConventionChecks,
  ...mcpAuthChecks,
  ...mcpProfileChecks,
  ...mcpPartnerWorkspaceChecks,
  ...mcpReadinessViewChecks,
  ...mcpFieldChecks,
  ...mcpBuildChecks,
  ...mcpBuildFailureChecks,
  ...mcpProfileNotReadyChecks,
  ...mcpBatchChecks,
  ...mcpPostChecks,
  ...mcpApprovalChecks,
  ...mcpPublishingChecks,
  ...mcpPreflightCodeChecks,
  ...mcpPublishingEdgeChecks,
  ...mcpCreatePostsRefusalChecks,
  ...mcpDesignChangedChecks,
  ...mcpPostViewChecks,
  ...mcpTenancyChecks,
  ...mcpEndingChecks,
  ...mcpCommonCodeChecks,
  ...mcpErrorCodeChecks,
  ...mcpImageInProgressChecks,
  ...mcpSlideTextSourceChecks,
  ...mcpBrandingChecks,
  ...mcpConnectingChecks,
  ...mcpMediaChecks,
  ...mcpDeactivationEffectChecks,
  // Its options (count, length, seed, replay) come from the run: runConformance puts in the run's own.
  mcpWalksCheck({ ...defaultMcpWalks, seed: "set-by-the-run" }),
];

/** Which suite a check belongs to: MCP check ids start with mcp- (mcpCheck enforces it). */
export const suiteOf = (check: Pick<CheckInfo, "id">): "rest" | "mcp" => (check.id.startsWith("mcp-") ? "mcp" : "rest");

/** Checks whose id matches any of the patterns (a `*` matches any run of characters); all when none given. */
export function selectChecks<C extends CheckInfo>(checks: readonly C[], patterns: readonly string[] = []): C[] {
  if (!patterns.length) return [...checks];
  const res = patterns.map((p) => new RegExp(`^${p.split("*").map((s) => s.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join(".*")}$`));
  return checks.filter((c) => res.some((re) => re.test(c.id)));
}
