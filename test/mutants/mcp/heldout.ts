// A second held-out audit of seed 001 (issue 25): statements sampled every 20th line from line 65 (or the next line
// that states something testable), chosen before looking at coverage, each broken once in the reference. The
// suite must fail each with a rule naming the statement. Kept as mutants so the figure stays true; each runs only
// the checks that catch it, to keep the catalogue quick.
import type { McpMutant } from "./catalogue.js";
import type { ErrorDetail } from "../../../generated/mcp/types.js";
import { behindObjectOutput, dataOf, errorOf, listedToEveryToken, onPayload, onResult, withData } from "./rewrite.js";

/** A failure's envelope with its error rewritten, for `tool` (every tool when "*") and `code`. */
const onToolError = (tool: string, code: string, rewrite: (e: ErrorDetail) => unknown) =>
  onResult(
    (c, r) => (tool === "*" || c.name === tool) && errorOf(r)?.code === code,
    (r) => withData(r, { ...dataOf(r), error: rewrite({ ...errorOf(r)! }) }),
  );

export const heldoutMcpMutants: McpMutant[] = [
  {
    // L67: "`brandId` | string | yes | Profile id" (get_profile).
    id: "heldout-mcp-profile-brand-id-missing-with-scopes",
    rule: "contract-output-shape/get_profile",
    description: "get_profile called with includeScopes leaves out brandId",
    run: { only: ["mcp-read-variants"] },
    response: onPayload("get_profile", (d, c) => (c.args.includeScopes === true && d && typeof d === "object" ? (({ brandId: _, ...rest }) => rest)(d) : d)),
  },
  {
    // L85: "`health` | string | yes | `connected`, `expiring_soon`, `needs_reauth`, `disconnected`".
    id: "heldout-mcp-health-uppercase",
    rule: "contract-output-shape/get_profile",
    description: "get_profile's channels show health in uppercase (CONNECTED)",
    run: { only: ["mcp-success-conventions"] },
    response: onPayload("get_profile", (d) => (Array.isArray(d?.channels) ? { ...d, channels: d.channels.map((ch) => ({ ...ch, health: String(ch.health).toUpperCase() })) } : d)),
  },
  {
    // L105: "`connection_check_failed` | The social provider could not be reached, state unknown".
    id: "heldout-mcp-connection-check-as-reauth",
    rule: "readiness-consistent/connection_check_failed",
    description: "a profile whose provider cannot be reached shows the blocker all_channels_need_reauth instead of connection_check_failed",
    run: { only: ["mcp-readiness-views"] },
    response: onPayload("get_profile", (d) =>
      Array.isArray(d?.readiness?.blockers) && d.readiness.blockers.includes("connection_check_failed")
        ? { ...d, readiness: { ...d.readiness, blockers: d.readiness.blockers.map((b: string) => (b === "connection_check_failed" ? "all_channels_need_reauth" : b)) } }
        : d,
    ),
  },
  {
    // L125: "`platform` | string | yes | Uppercase destination" (destination object).
    id: "heldout-mcp-destination-platform-lowercase",
    rule: "contract-output-shape/view_post",
    description: "view_post's destinations name their platform in lowercase",
    run: { only: ["mcp-destination-case"] },
    response: onPayload("view_post", (d) => (Array.isArray(d?.destinations) ? { ...d, destinations: d.destinations.map((x) => ({ ...x, platform: String(x.platform).toLowerCase() })) } : d)),
  },
  {
    // L150: "(none) | create_profile | New externalId | building | Answers at once with ids and `created: true`".
    id: "heldout-mcp-new-profile-created-false",
    rule: "create-profile-building/created",
    description: "create_profile with a new externalId answers created: false",
    run: { only: ["mcp-create-profile-building"] },
    response: onPayload("create_profile", (d) => (d?.created === true ? { ...d, created: false } : d)),
  },
  {
    // L185: "`delete_profile` | (none) | First call with `confirm: true` | `deletion_scheduled` | `deleted: true` returned".
    id: "heldout-mcp-delete-first-call-deleted-false",
    rule: "contract-output-shape/delete_profile",
    description: "delete_profile's first answer (deletion_scheduled) says deleted: false",
    run: { only: ["mcp-success-conventions"] },
    response: onPayload("delete_profile", (d) => (d?.status === "deletion_scheduled" ? { ...d, deleted: false } : d)),
  },
  {
    // L205: "`created` (boolean; `false` when answering with the profile an earlier call made)".
    id: "heldout-mcp-repeat-profile-created-true",
    rule: "create-profile-idempotent/created-false",
    description: "create_profile repeated with the same externalId answers created: true",
    run: { only: ["mcp-create-profile-idempotent"] },
    response: onPayload("create_profile", (d) => (d?.created === false ? { ...d, created: true } : d)),
  },
  {
    // L225: "`unscheduledPosts` (number, withdrawn so far; final once `deactivated`)".
    id: "heldout-mcp-unscheduled-posts-string",
    rule: "contract-output-shape/deactivate_profile",
    description: "deactivate_profile answers unscheduledPosts as a string",
    run: { only: ["mcp-deactivation-progress"] },
    response: onPayload("deactivate_profile", (d) => (typeof d?.unscheduledPosts === "number" ? { ...d, unscheduledPosts: String(d.unscheduledPosts) } : d)),
  },
  {
    // L245: "`items` (one per slot: `index` from 0, `status` `pending`)" (create_posts).
    id: "heldout-mcp-items-index-from-one",
    rule: "create-posts-queued/items-pending",
    description: "create_posts numbers its items from 1",
    run: { only: ["mcp-create-posts-queued"] },
    response: onPayload("create_posts", (d) => (Array.isArray(d?.items) ? { ...d, items: d.items.map((i) => ({ ...i, index: typeof i.index === "number" ? i.index + 1 : i.index })) } : d)),
  },
  {
    // L265: "`items` | object[] | yes" (get_post_batch_status).
    id: "heldout-mcp-settled-batch-without-items",
    rule: "batch-output-fields/items",
    description: "get_post_batch_status leaves out items once the batch has settled",
    run: { only: ["mcp-batch-fields"] },
    response: onPayload("get_post_batch_status", (d) => (d && ["completed", "partial", "failed"].includes(d.status) ? (({ items: _, ...rest }) => rest)(d) : d)),
  },
  {
    // L293: "Partner-only tools ... appear in `tools/list` only for a partner token".
    id: "heldout-mcp-delete-profile-listed",
    rule: "partner-only-hidden/delete_profile",
    description: "tools/list shows delete_profile to every token",
    run: { only: ["mcp-partner-only-hidden"] },
    response: listedToEveryToken("delete_profile"),
  },
  {
    // L326: "`invalidFields` (string[]) | `bad_request`".
    id: "heldout-mcp-invalid-fields-joined-on-update-post",
    rule: "error-structured-fields/bad_request",
    description: "update_post's bad_request carries invalidFields as one comma-joined string, behind an output schema declared only as an object",
    run: { only: ["mcp-own-bad-request"] },
    response: behindObjectOutput("update_post", onToolError("update_post", "bad_request", (e) => (Array.isArray(e.invalidFields) ? { ...e, invalidFields: e.invalidFields.join(",") } : e))!),
  },
  {
    // L345: "`bad_request` | false | Invalid input".
    id: "heldout-mcp-bad-request-retryable-on-schedule",
    rule: "retryable-per-catalogue/bad_request",
    description: "schedule_post's bad_request says retryable true",
    run: { only: ["mcp-own-bad-request"] },
    response: onToolError("schedule_post", "bad_request", (e) => ({ ...e, retryable: true })),
  },
  {
    // L366: "`profile_not_ready` | true".
    id: "heldout-mcp-profile-not-ready-not-retryable",
    rule: "retryable-per-catalogue/profile_not_ready",
    description: "profile_not_ready says retryable false",
    run: { only: ["mcp-profile-not-ready-refusals"] },
    response: onToolError("*", "profile_not_ready", (e) => ({ ...e, retryable: false })),
  },
  {
    // L388: "`usage_limit_exceeded` | false | AI budget used up until `resetDate`".
    id: "heldout-mcp-usage-limit-retryable",
    rule: "retryable-per-catalogue/usage_limit_exceeded",
    description: "usage_limit_exceeded says retryable true",
    run: { only: ["mcp-create-posts-generation-refusals"] },
    response: onToolError("*", "usage_limit_exceeded", (e) => ({ ...e, retryable: true })),
  },
  {
    // L405: "`approval_stale` | false".
    id: "heldout-mcp-approval-stale-retryable",
    rule: "retryable-per-catalogue/approval_stale",
    description: "approval_stale says retryable true",
    run: { only: ["mcp-approval-stale"] },
    response: onToolError("*", "approval_stale", (e) => ({ ...e, retryable: true })),
  },
  {
    // L445: "`media_required` | false | Attach or generate media".
    id: "heldout-mcp-media-required-retryable",
    rule: "retryable-per-catalogue/media_required",
    description: "media_required says retryable true",
    run: { only: ["mcp-stories-need-media"] },
    response: onToolError("*", "media_required", (e) => ({ ...e, retryable: true })),
  },
  {
    // L465: "Image render codes ...: `content_rejected` (false)".
    id: "heldout-mcp-render-content-rejected-retryable",
    rule: "render-failure-codes/content_rejected",
    description: "a failed render job with content_rejected says retryable true",
    run: { only: ["mcp-render-failures"] },
    response: onPayload("get_generation_job", (d) =>
      d?.status === "failed" && d?.error && typeof d.error === "object" && d.error.code === "content_rejected" ? { ...d, error: { ...d.error, retryable: true } } : d,
    ),
  },
  {
    // L487: "Posts per `create_posts` batch | 1 to 20" — the accepting edge.
    id: "heldout-mcp-twenty-posts-refused",
    rule: "limit-create-posts-edge-accepted/count-max",
    description: "create_posts refuses a count of 20 as bad_request",
    run: { only: ["mcp-create-posts-count-edge-accepted"] },
    response: onResult(
      (c) => c.name === "create_posts" && c.args.count === 20,
      (r) => ({ ...withData(r, { ok: false, error: { code: "bad_request", message: "count must be at most 19.", retryable: false, invalidFields: ["count"] } }), isError: true }),
    ),
  },
];
