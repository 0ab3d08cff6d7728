// The `mcp-walks` check: N seeded random walks of up to K steps over the MCP tools (steps.ts), each judged
// after every step by the model (model.ts) and the scripted checks' assertions; run, shrunk and reported by
// the walks engine (engine.ts), as the REST walks are. What a walk may do follows the target file: clients of its
// own only with a partner token, --mcp-profile all and mcp.cost.builds; batches only with mcp.cost.extra_batches.
import type { McpCheck } from "../extension.js";
import { mcpWalksId } from "../checks/walks.js";
import { runWalks, type WalkOptions } from "../../../core/walks/engine.js";
import type { McpStep } from "./steps.js";
import { mcpWalkKind } from "./walk.js";

export { mcpWalksId };

/** Rules a walk judges when it comes to them: counted in the ledger when it did, never a skipped case when not. */
const reached = [
  "client-ids-agree/list-brands",
  "erased-client-gone",
  "create-profile-building",
  "create-profile-idempotent/same-ids",
  "create-profile-idempotent/created-false",
  "create-profile-idempotent/other-arguments-ignored",
  "create-profile-idempotent/current-state",
  "build-completes",
  "profile-not-ready-blocker",
  "channel-scopes-on-request/without-include-scopes",
  "list-brands/workspace-id",
  "list-brands-client-workspace",
  "workspaces-partner-clients",
  "deactivation-progress",
  "deactivation-effects/profile-inactive",
  "deletion-progress",
  "deleted-sticky",
  "delete-unknown-not-found",
  "create-posts-queued",
  "create-posts-repeat-new-batch",
  "create-posts-matches-status/brand-id",
  "create-posts-matches-status/company-id",
  "create-posts-matches-status/requested-count",
  "batch-settles",
  "batch-items",
  "view-post-fields/id-post-id",
  "digest-follows-content/stable",
  "digest-agrees-across-views/get_post_batch_status",
  "digest-follows-content/caption",
  "approve-records-digest",
  "approve-outdated-digest",
  "approval-decision-values/rejected",
  "delete-post",
  "approval-rejected/schedule_post",
  "approval-rejected/reschedule_posts",
  "approval-stale/schedule_post",
  "approval-stale/reschedule_posts",
  "already-scheduled-locked",
  "reject-booked-locked",
  "reschedule-per-entry/one-per-entry",
  "platforms-subset/schedule_post",
  "digest-agrees-across-views/get_post_status",
  "unknown-id-refused/get_profile",
  "unknown-id-refused/view_post",
  "unknown-id-refused/get_post_batch_status",
  "cross-tenant-refused/get_profile",
  "cross-tenant-refused/view_post",
  "cross-tenant-refused/update_post",
];

/** A walk makes at most two clients and two batches of at most two posts, without pictures (steps.ts). */
const perWalk = { builds: 2, posts: 4 };

export function mcpWalksCheck(o: WalkOptions<McpStep>): McpCheck {
  return {
    id: mcpWalksId,
    description: "Seeded random walks over clients (build, repeat, deactivation, deletion), batches, posts and approvals; every step's effects read back through every view (shrunk on failure)",
    rules: ["client-ids-agree/get-profile"],
    incidental: reached,
    group: "walks",
    // Shrinking replays a failing walk, which spends again: only against a target that failed already.
    spend: (input) => {
      const n = o.replay ? 1 : o.walks;
      return { builds: input.cost.builds ? n * perWalk.builds : 0, posts: input.cost.extraBatches ? n * perWalk.posts : 0 };
    },
    // The walks keep the whole MCP check context (their collecting contexts carry its session) and judge every
    // answer in the step that made it.
    judgesOwnReplies: true,
    run: (ctx) => runWalks(mcpWalkKind, ctx, o),
  };
}
