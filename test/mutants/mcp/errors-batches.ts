// MCP mutants of area D (issue 16): error codes (common codes, upstream_<status>, a tool's own bad_request, the
// structured fields of live-post refusals), batches in every state and their items, pictures with no text record,
// renders refused while one runs. Each breaks one member other than the first the fixtures reach, and names the
// checks that should catch it (run.only).
import type { BatchItem, PostBatchStatus } from "../../../generated/mcp/types.js";
import schedulePost from "../../../spec/mcp/tools/schedule_post.json" with { type: "json" };
import type { McpMutant } from "./catalogue.js";
import { dataOf, errorOf, isSuccess, onError, onPayload, onResult, payloadOf, withData } from "./rewrite.js";

/** A failure envelope in place of a result. */
const envelope = (code: string, retryable: boolean, extra: Record<string, unknown> = {}) => ({
  isError: true,
  ...withData({}, { ok: false, error: { code, message: "mutant", retryable, ...extra } }),
});
/** Rewrites get_post_batch_status payloads; tools/list declares its output only as an object so the change gets through. */
const onBatch = (rewrite: (b: PostBatchStatus) => unknown) => onPayload("get_post_batch_status", rewrite);
const items = (b: PostBatchStatus, rewrite: (i: BatchItem) => unknown) => ({ ...b, items: (b.items ?? []).map(rewrite) });

export const errorsBatchesMutants: McpMutant[] = [
  {
    id: "mcp-internal-error-disguised",
    rule: "common-codes-meaning/internal_error",
    description: "A failure on the service side answers upstream_unavailable instead of internal_error",
    run: { only: ["mcp-common-codes"] },
    response: onError("internal_error", (e) => ({ ...e, code: "upstream_unavailable" })),
  },
  {
    id: "mcp-writes-disabled-on-reads",
    rule: "common-codes-meaning/writes_disabled",
    description: "With writes switched off, reads are refused with writes_disabled too",
    run: { only: ["mcp-common-codes"] },
    response: onResult((c, _r, req) => req.token === "mcp_fails_writes_disabled" && c.name === "get_workspaces", () => envelope("writes_disabled", false)),
  },
  {
    id: "mcp-upstream-5xx-final",
    rule: "upstream-status-retryable/5xx",
    description: "An unrecognised 5xx (upstream_503) says retryable false",
    run: { only: ["mcp-upstream-status"] },
    response: onError("upstream_503", (e) => ({ ...e, retryable: false })),
  },
  {
    id: "mcp-own-bad-request-bracket-paths",
    rule: "invalid-fields-paths",
    description: "bad_request names refused array entries as mediaIds[1] instead of mediaIds.1",
    // An inferred rule: the mutant runs are strict, so it fails rather than drifts.
    run: { only: ["mcp-own-bad-request"] },
    response: onError("bad_request", (e) => ({ ...e, invalidFields: (e.invalidFields ?? []).map((f: string) => f.replace(/\.(\d+)/g, "[$1]")) })),
  },
  {
    id: "mcp-own-bad-request-unnamed",
    rule: "bad-request-own",
    description: "A tool's own bad_request names no refused field (invalidFields empty)",
    run: { only: ["mcp-own-bad-request"] },
    response: onError("bad_request", (e) => ({ ...e, invalidFields: [] })),
  },
  {
    id: "mcp-live-post-unnamed",
    rule: "error-structured-fields/post_already_published",
    description: "post_already_published comes without publishedPlatforms",
    run: { only: ["mcp-live-post-refusals"] },
    response: onError("post_already_published", ({ publishedPlatforms: _gone, ...e }) => e),
  },
  {
    id: "mcp-reddit-options-retryable",
    rule: "retryable-per-catalogue/reddit_options_required",
    description: "reddit_options_required says retryable true",
    run: { only: ["mcp-reddit-options-required-draft"] },
    response: onError("reddit_options_required", (e) => ({ ...e, retryable: true })),
  },
  {
    id: "mcp-not-connected-unnamed",
    rule: "error-structured-fields/platform_not_connected",
    description: "platform_not_connected comes without unavailablePlatforms",
    run: { only: ["mcp-platform-not-connected"] },
    response: onError("platform_not_connected", ({ unavailablePlatforms: _gone, ...e }) => e),
  },
  {
    id: "mcp-in-progress-other-job",
    rule: "image-in-progress/job-id",
    description: "image_generation_in_progress names a job that is not the running one",
    run: { only: ["mcp-image-in-progress"] },
    response: onError("image_generation_in_progress", (e) => ({ ...e, jobId: "00000000-0000-4000-8000-000000000000" })),
  },
  {
    id: "mcp-failed-batch-unsettled",
    rule: "batch-status-values/failed",
    description: "A failed batch says settled false",
    run: { only: ["mcp-batch-status-values"] },
    response: onBatch((b) => (b.status === "failed" ? { ...b, settled: false } : b)),
  },
  {
    id: "mcp-skipped-item-with-post",
    rule: "batch-items-failed/skipped",
    description: "A skipped batch item carries a postId",
    run: { only: ["mcp-batch-items"] },
    response: onBatch((b) => items(b, (i) => (i.status === "skipped" ? { ...i, postId: "00000000-0000-4000-8000-000000000001" } : i))),
  },
  {
    id: "mcp-item-not-connected-retryable",
    rule: "item-error-retryable/platform_not_connected",
    description: "A batch item failing with platform_not_connected says retryable true",
    run: { only: ["mcp-batch-items"] },
    response: onBatch((b) => items(b, (i) => (i.error?.code === "platform_not_connected" ? { ...i, error: { ...i.error, retryable: true } } : i))),
  },
  {
    id: "mcp-warnings-as-text",
    rule: "batch-output-fields/warnings",
    description: "get_post_batch_status answers warnings as one string instead of a list",
    run: { only: ["mcp-batch-fields"] },
    response: onBatch((b) => (Array.isArray(b.warnings) ? { ...b, warnings: b.warnings.join(" ") } : b)),
  },
  {
    id: "mcp-media-required-for-text",
    rule: "batch-item-fields/mediaRequiredFor",
    description: "Batch items answer mediaRequiredFor as one string instead of a list",
    run: { only: ["mcp-batch-fields"] },
    response: onBatch((b) => items(b, (i) => (Array.isArray(i.mediaRequiredFor) ? { ...i, mediaRequiredFor: i.mediaRequiredFor.join(",") } : i))),
  },
  {
    id: "mcp-connection-warning-dropped",
    rule: "create-posts-output-fields/connectionWarning",
    description: "create_posts for a brand with no connected channel answers no connectionWarning",
    run: { only: ["mcp-batch-fields"] },
    response: onResult((c, r) => c.name === "create_posts" && isSuccess(r) && "connectionWarning" in payloadOf(r, "create_posts"), (r) => withData(r, { ...payloadOf(r, "create_posts"), connectionWarning: undefined })),
  },
  {
    id: "mcp-unconnected-post-scheduled",
    rule: "connection-warning",
    description: "schedule_post of an approved post whose brand has no connected channel answers as if it were booked",
    run: { only: ["mcp-batch-fields"], strict: true },
    // In this check schedule_post is called only for the post of the brand with no channel.
    response: onResult((c, r) => c.name === "schedule_post" && errorOf(r) !== undefined, (r, c) => ({ ...withData(r, { ...schedulePost.examples.validOutputs[0], id: c.args.id }), isError: undefined })),
  },
  {
    id: "mcp-slide-text-without-source",
    rule: "slide-text-source-null/slideTextSource",
    description: "A picture with no record of its text (slideTextSource null) still reports a slideText",
    run: { only: ["mcp-slide-text-source-null"] },
    response: onResult(
      (c, r) => c.name === "view_post" && isSuccess(r),
      (r) => {
        const v = structuredClone(payloadOf(r, "view_post"));
        for (const d of v.destinations ?? []) for (const i of d.images ?? []) if (i.slideTextSource === null) i.slideText = "Invented text";
        return withData(r, v);
      },
    ),
  },
  {
    id: "mcp-render-timeout-final",
    rule: "render-failure-codes/provider_timeout",
    description: "A render failing with provider_timeout says retryable false",
    run: { only: ["mcp-render-failures"] },
    response: onResult(
      (c, r) => c.name === "get_generation_job" && isSuccess(r) && payloadOf(r, "get_generation_job").error?.code === "provider_timeout",
      (r) => withData(r, { ...payloadOf(r, "get_generation_job"), error: { ...payloadOf(r, "get_generation_job").error, retryable: false } }),
    ),
  },
];
