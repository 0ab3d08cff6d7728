// MCP mutants for rule families that had none (issue 16, "every MCP rule family has a mutant"), part C: website
// refusals, ending a client, create_posts and its batch, pictures landing, and the post view's fields. Each breaks
// one member other than the first the fixtures reach, and names the checks that should catch it (run.only).
import type { PostDestination, PostView } from "../../../generated/mcp/types.js";
import { randomUUID } from "node:crypto";
import type { Answer } from "../rest/proxy.js";
import type { McpMutant } from "./catalogue.js";
import type { ErrorDetail } from "../../../generated/mcp/types.js";
import { dataOf, errorOf, isSuccess, onCall, onPayload as onSuccess, onResult, payloadOf, withData } from "./rewrite.js";

/** Every destination of a view_post payload rewritten. */
const destinations = (v: PostView, rewrite: (d: PostDestination) => unknown) => ({ ...v, destinations: (v.destinations ?? []).map(rewrite) });
/** Rewrites an error's fields when its code is `code` on one tool. */
const onToolError = (tool: string, code: string, rewrite: (e: ErrorDetail) => unknown) =>
  onResult((c, r) => c.name === tool && errorOf(r)?.code === code, (r) => withData(r, { ...dataOf(r), error: rewrite({ ...errorOf(r)! }) }));

/** Batches read settled once (the unsettling mutant answers every later read as generating again). */
const settledReads = new Map<string, number>();
/** Per post, the contentDigest it had while its picture rendered (the digest-stuck mutant keeps answering it). */
const renderingDigests = new Map<string, string>();

export const familiesCMutants: McpMutant[] = [
  {
    id: "mcp-unsafe-website-as-unreachable",
    rule: "website-refusal-unsafe/URL_UNSAFE",
    description: "A harmful website is refused with websiteRefusal URL_NOT_REACHABLE instead of URL_UNSAFE",
    run: { only: ["mcp-create-profile-trigger-refusals"] },
    response: onToolError("create_profile", "invalid_website_url", (e) => (e.websiteRefusal === "URL_UNSAFE" ? { ...e, websiteRefusal: "URL_NOT_REACHABLE" } : e)),
  },
  {
    id: "mcp-unknown-refusal-named",
    rule: "website-refusal-unknown-left-out/unknown",
    description: "A website refused for a reason the contract does not list carries websiteRefusal URL_NOT_ALLOWED instead of leaving it out",
    run: { only: ["mcp-create-profile-trigger-refusals"] },
    response: onToolError("create_profile", "invalid_website_url", (e) => ("websiteRefusal" in e ? e : { ...e, websiteRefusal: "URL_NOT_ALLOWED" })),
  },
  {
    id: "mcp-unscheduled-posts-as-text",
    rule: "deactivate-output-fields/unscheduledPosts",
    description: "deactivate_profile answers unscheduledPosts as a string",
    run: { only: ["mcp-deactivation-progress"] },
    response: onSuccess("deactivate_profile", (d) => ({ ...d, unscheduledPosts: String(d.unscheduledPosts) })),
  },
  {
    id: "mcp-external-billing-deleted",
    rule: "external-billing-refused/delete_profile",
    description: "delete_profile of a workspace that pays its own plan schedules the deletion instead of answering external_billing_workspace (deactivate_profile is still refused)",
    run: { only: ["mcp-external-billing-refused"] },
    response: onResult(
      (c, r) => c.name === "delete_profile" && errorOf(r)?.code === "external_billing_workspace",
      () => withData({}, { companyId: randomUUID(), deleted: true, status: "deletion_scheduled" }),
    ),
  },
  {
    id: "mcp-delete-status-dropped",
    rule: "delete-output-fields/status",
    description: "delete_profile answers without status while the deletion is scheduled",
    run: { only: ["mcp-deletion-progress"] },
    response: onSuccess("delete_profile", (d) => {
      if (d.status !== "deletion_scheduled") return d;
      const { status: _gone, ...rest } = d;
      return rest;
    }),
  },
  {
    id: "mcp-deletion-never-ends",
    rule: "deletion-progress/ends-deleted",
    description: "delete_profile keeps answering deletion_scheduled once the deletion is done",
    run: { only: ["mcp-deletion-progress"] },
    response: onResult((c, r) => c.name === "delete_profile" && isSuccess(r) && payloadOf(r, "delete_profile").status === "deleted", (r) => withData(r, { ...payloadOf(r, "delete_profile"), status: "deletion_scheduled" })),
  },
  {
    id: "mcp-create-posts-says-generating",
    rule: "create-posts-queued/status-queued",
    description: "create_posts answers its new batch with status generating instead of queued (and declares its output only as an object, so the live schema lets it through)",
    run: { only: ["mcp-create-posts-queued"] },
    response: onSuccess("create_posts", (b) => (b.status === "queued" ? { ...b, status: "generating" } : b)),
  },
  {
    id: "mcp-batch-status-other-company",
    rule: "create-posts-matches-status/company-id",
    description: "get_post_batch_status names another companyId than create_posts answered for the same batch",
    run: { only: ["mcp-create-posts-queued"] },
    response: onResult((c, r) => c.name === "get_post_batch_status" && isSuccess(r), (r) => withData(r, { ...payloadOf(r, "get_post_batch_status"), companyId: "00000000-0000-4000-8000-00000000c0de" })),
  },
  {
    id: "mcp-include-image-default-off",
    rule: "include-image-default/create_posts",
    description: "create_posts without includeImage or mediaIds makes its posts without pictures (the default taken as false)",
    run: { only: ["mcp-create-posts-queued"] },
    request: onCall((call) => (call.name === "create_posts" && !("includeImage" in call.args) && !("mediaIds" in call.args) ? { args: { ...call.args, includeImage: false } } : {})),
  },
  {
    id: "mcp-allowance-refusal-no-reset",
    rule: "create-posts-allowance-refused/usage_limit_exceeded",
    description: "create_posts refused with usage_limit_exceeded does not say when the allowance resets (resetDate left out)",
    run: { only: ["mcp-create-posts-generation-refusals"] },
    response: onToolError("create_posts", "usage_limit_exceeded", ({ resetDate: _gone, ...e }) => e),
  },
  {
    id: "mcp-ai-failure-as-internal",
    rule: "create-posts-ai-failure/ai_generation_failed",
    description: "A failing generation refuses create_posts with internal_error instead of ai_generation_failed",
    run: { only: ["mcp-create-posts-generation-refusals"] },
    response: onToolError("create_posts", "ai_generation_failed", (e) => ({ ...e, code: "internal_error", retryable: true })),
  },
  {
    id: "mcp-batch-unsettles",
    rule: "batch-stays-settled",
    description: "A batch read settled once answers generating (settled false) on later reads",
    run: { only: ["mcp-batch-settles"] },
    response: onResult(
      (c, r) => c.name === "get_post_batch_status" && isSuccess(r) && payloadOf(r, "get_post_batch_status").settled === true,
      (r) => {
        const b = payloadOf(r, "get_post_batch_status");
        const seen = settledReads.get(b.batchId) ?? 0;
        settledReads.set(b.batchId, seen + 1);
        return seen === 0 ? r : withData(r, { ...b, status: "generating", settled: false });
      },
    ),
  },
  {
    id: "mcp-digest-stuck-while-landing",
    rule: "pictures-land/digest-changes",
    description: "A post's contentDigest is not recomputed when its picture lands: it keeps the digest it had while rendering",
    run: { only: ["mcp-pictures-land"] },
    response: (req, res, ctx) => {
      const remember = (id: unknown, digest: unknown) => typeof id === "string" && typeof digest === "string" && !renderingDigests.has(id) && renderingDigests.set(id, digest);
      const batch = onResult(
        (c, r) => c.name === "get_post_batch_status" && isSuccess(r),
        (r) => {
          const b = payloadOf(r, "get_post_batch_status");
          for (const i of b.items ?? []) if (i?.imagePending === true) remember(i.postId, i.contentDigest);
          const items = (b.items ?? []).map((i) => (i.postId !== null && renderingDigests.has(i.postId) && "contentDigest" in i ? { ...i, contentDigest: renderingDigests.get(i.postId) } : i));
          return withData(r, { ...b, items });
        },
      );
      const view = onResult(
        (c, r) => c.name === "view_post" && isSuccess(r),
        (r) => {
          const v = payloadOf(r, "view_post");
          if (Array.isArray(v.imageUrls) && v.imageUrls.length === 0) remember(v.id, v.contentDigest);
          return renderingDigests.has(v.id) ? withData(r, { ...v, contentDigest: renderingDigests.get(v.id) }) : r;
        },
      );
      return view!(req, batch!(req, res, ctx) as Answer, ctx);
    },
  },
  {
    id: "mcp-failed-batch-called-partial",
    rule: "batch-partial-or-failed/failed",
    description: "A batch whose every slot failed settles as partial",
    run: { only: ["mcp-batch-failed"] },
    response: onSuccess("get_post_batch_status", (b) => (b.status === "failed" ? { ...b, status: "partial" } : b)),
  },
  {
    id: "mcp-failed-batch-without-error",
    // The seed lists error as optional: a failed batch that gives no reason breaks our reading only (inferred).
    rule: "batch-failed-says-why",
    description: "A batch whose every slot failed says failed with error null, giving no reason",
    run: { only: ["mcp-batch-failed"] },
    response: onSuccess("get_post_batch_status", (b) => (b.status === "failed" ? { ...b, error: null } : b)),
  },
  {
    id: "mcp-batch-item-stale-pictures",
    rule: "batch-item-matches-post/image-urls",
    description: "Batch items list their pictures under addresses the post does not have (a stale copy)",
    run: { only: ["mcp-batch-item-matches-post"] },
    response: onResult(
      (c, r) => c.name === "get_post_batch_status" && isSuccess(r),
      (r) => withData(r, { ...payloadOf(r, "get_post_batch_status"), items: (payloadOf(r, "get_post_batch_status").items ?? []).map((i) => (Array.isArray(i?.imageUrls) && i.imageUrls.length ? { ...i, imageUrls: i.imageUrls.map((u: string) => `${u}?stale=1`) } : i)) }),
    ),
  },
  {
    id: "mcp-post-app-url-numeric",
    rule: "post-view-fields/appUrl",
    description: "view_post answers appUrl as a number",
    run: { only: ["mcp-post-fields"] },
    response: onSuccess("view_post", (v) => ({ ...v, appUrl: 42 })),
  },
  {
    id: "mcp-destination-limit-as-text",
    rule: "destination-fields/characterLimit",
    description: "view_post answers each destination's characterLimit as a string",
    run: { only: ["mcp-post-fields"] },
    response: onSuccess("view_post", (v) => destinations(v, (d) => ({ ...d, characterLimit: String(d.characterLimit) }))),
  },
  {
    id: "mcp-destination-image-alt-dropped",
    rule: "destination-image-fields/altText",
    description: "view_post leaves altText out of every destination picture",
    run: { only: ["mcp-post-fields"] },
    response: onSuccess("view_post", (v) => destinations(v, (d) => (Array.isArray(d.images) ? { ...d, images: d.images.map(({ altText: _gone, ...i }) => i) } : d))),
  },
  {
    id: "mcp-character-count-trailing-break",
    rule: "view-post-fields/character-count",
    description: "view_post counts one character more than each caption has (the line break an editor keeps at its end)",
    run: { only: ["mcp-view-post-fields"] },
    response: onResult(
      (c, r) => c.name === "view_post" && isSuccess(r),
      (r) => withData(r, destinations(payloadOf(r, "view_post"), (d) => (typeof d.text === "string" ? { ...d, characterCount: [...d.text].length + 1 } : d))),
    ),
  },
];
