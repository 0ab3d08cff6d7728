// Every check of the MCP gateway suite, in report order.
import { mcpRegistered, type McpCheck } from "../extension.js";
import { mcpWalksCheck } from "../walks/check.js";
import { defaultMcpWalks } from "../walks/defaults.js";
import { approvalChecks as mcpApprovalChecks } from "./approval.js";
import { authChecks as mcpAuthChecks } from "./auth.js";
import { batchChecks as mcpBatchChecks } from "./batch.js";
import { brandingChecks as mcpBrandingChecks } from "./branding.js";
import { buildChecks as mcpBuildChecks } from "./build.js";
import { commonCodeChecks as mcpCommonCodeChecks } from "./common-codes.js";
import { connectingChecks as mcpConnectingChecks } from "./connecting.js";
import { buildFailureChecks as mcpBuildFailureChecks } from "./build-failure-codes.js";
import { profileNotReadyChecks as mcpProfileNotReadyChecks } from "./profile-not-ready.js";
import { conventionChecks as mcpConventionChecks } from "./conventions.js";
import { errorCodeChecks as mcpErrorCodeChecks } from "./error-codes.js";
import { imageInProgressChecks as mcpImageInProgressChecks } from "./image-in-progress.js";
import { endingChecks as mcpEndingChecks } from "./ending.js";
import { deactivationEffectChecks as mcpDeactivationEffectChecks } from "./deactivation-effects.js";
import { fieldChecks as mcpFieldChecks } from "./fields.js";
import { everyReplyChecks as mcpEveryReplyChecks } from "./every-reply.js";
import { wrongTypeChecks as mcpWrongTypeChecks } from "./wrong-types.js";
import { mediaChecks as mcpMediaChecks } from "./media.js";
import { postChecks as mcpPostChecks } from "./posts.js";
import { preflightCodeChecks as mcpPreflightCodeChecks } from "./preflight-codes.js";
import { publishingEdgeChecks as mcpPublishingEdgeChecks } from "./publishing-edges.js";
import { createPostsRefusalChecks as mcpCreatePostsRefusalChecks } from "./create-posts-refusals.js";
import { designChangedChecks as mcpDesignChangedChecks } from "./design-changed.js";
import { postViewChecks as mcpPostViewChecks } from "./post-views.js";
import { profileChecks as mcpProfileChecks } from "./profiles.js";
import { partnerWorkspaceChecks as mcpPartnerWorkspaceChecks } from "./partner-workspaces.js";
import { readinessViewChecks as mcpReadinessViewChecks } from "./readiness-views.js";
import { publishingChecks as mcpPublishingChecks } from "./publishing.js";
import { slideTextSourceChecks as mcpSlideTextSourceChecks } from "./slide-text-source.js";
import { tenancyChecks as mcpTenancyChecks } from "./tenancy.js";
import { toolsChecks as mcpToolsChecks } from "./tools.js";

/** The MCP gateway's checks (ids start with mcp-), run in the MCP suite's session (mcp/extension.ts), each registered once. */
export const mcpChecks: readonly McpCheck[] = [
  ...mcpToolsChecks,
  ...mcpConventionChecks,
  ...mcpWrongTypeChecks,
  ...mcpAuthChecks,
  ...mcpProfileChecks,
  ...mcpPartnerWorkspaceChecks,
  ...mcpReadinessViewChecks,
  ...mcpFieldChecks,
  ...mcpEveryReplyChecks,
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
].map(mcpRegistered);

