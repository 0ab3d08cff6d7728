// MCP mutants for rule families that had none (issue 16, "Done when", part 3): pictures and their views, the
// digest across views, renders and their jobs, draft edits, the approval record, booking locks, schedule_failed,
// publish results and post status fields, unknown ids and blocked destination entries. Each breaks one member
// other than the first the fixtures reach, and names the checks that should catch it (run.only).
import type { Answer, Exchange, ProxyContext } from "../rest/proxy.js";
import type { McpMutant } from "./catalogue.js";
import type { PostDestination, PostView, ToolName, ToolOutputs } from "../../../generated/mcp/types.js";
import { behindObjectOutput, dataOf, errorOf, onCall, onError, onPayload, onResult, payloadOf, type Result, upstreamCall, withData } from "./rewrite.js";

type Response = (req: Exchange, res: Answer, ctx: ProxyContext) => Answer | Promise<Answer>;

/** Rewrites a tool's successful payloads (its output declared only as an object). */
const onSuccess = <N extends ToolName>(tool: N, rewrite: (data: ToolOutputs[N], result: Result) => unknown): Response => onPayload(tool, (d, _c, r) => rewrite(d, r));
/** Another well-formed digest (the last character changed). */
const otherDigest = (d: string) => d.slice(0, -1) + (d.endsWith("0") ? "1" : "0");
/** Each view_post destination's pictures (imageUrls and images) through `url`. */
const destinationUrls = (view: PostView, url: (u: string, d: PostDestination) => string) => ({
  ...view,
  destinations: (view.destinations ?? []).map((d) => ({
    ...d,
    ...(Array.isArray(d.imageUrls) ? { imageUrls: d.imageUrls.map((u: string) => url(u, d)) } : {}),
    ...(Array.isArray(d.images) ? { images: d.images.map((i) => ({ ...i, url: url(i.url, d) })) } : {}),
  })),
});

/** Per post, the text the digest-over-text mutant last saw and the digest it answered for it. */
const textDigests = new Map<string, { text: string; digest: string }>();

export const familiesDMutants: McpMutant[] = [
  {
    id: "mcp-images-thumbnail-urls",
    rule: "images-match-image-urls/images",
    description: "view_post's images entries point at thumbnails (?size=thumb) while imageUrls name the pictures",
    run: { only: ["mcp-view-post-fields"] },
    response: onSuccess("view_post", (v) => ({
      ...v,
      destinations: (v.destinations ?? []).map((d) => (Array.isArray(d.images) ? { ...d, images: d.images.map((i) => ({ ...i, url: `${i.url}?size=thumb` })) } : d)),
    })),
  },
  {
    id: "mcp-slot-picture-per-platform",
    rule: "same-picture-per-slot/imageUrls",
    description: "view_post gives each destination its own rendition of the pictures (a ?platform= URL in imageUrls and images alike)",
    run: { only: ["mcp-view-post-fields"] },
    response: onSuccess("view_post", (v) => destinationUrls(v, (u, d) => `${u}?platform=${d.platform}`)),
  },
  {
    id: "mcp-status-digest-differs",
    rule: "digest-agrees-across-views/get_post_status",
    description: "get_post_status answers a contentDigest other than view_post's for the same content",
    run: { only: ["mcp-batch-item-matches-post"] },
    response: onSuccess("get_post_status", (s) => (typeof s.contentDigest === "string" ? { ...s, contentDigest: otherDigest(s.contentDigest) } : s)),
  },
  {
    id: "mcp-digest-over-text-only",
    rule: "new-picture-new-url/new-digest",
    description: "view_post's contentDigest covers the captions only: a new picture keeps the digest",
    run: { only: ["mcp-regenerate-job"] },
    response: onSuccess("view_post", (v) => {
      if (typeof v.contentDigest !== "string") return v;
      // The text a post publishes: each destination's caption and first comment (view_post has no top-level firstComment).
      const text = JSON.stringify((v.destinations ?? []).map((d) => [d.text, d.firstComment]));
      const seen = textDigests.get(v.id);
      if (seen?.text === text) return { ...v, contentDigest: seen.digest };
      textDigests.set(v.id, { text, digest: v.contentDigest });
      return v;
    }),
  },
  {
    id: "mcp-render-temporary-url",
    rule: "regenerate-job/image-url",
    description: "A completed render's imageUrl is a temporary render URL, not the picture the post got",
    run: { only: ["mcp-regenerate-job"] },
    response: onSuccess("get_generation_job", (j) => (typeof j.imageUrl === "string" ? { ...j, imageUrl: `${j.imageUrl}?render=${j.jobId}` } : j)),
  },
  {
    id: "mcp-completed-job-without-picture",
    rule: "generation-job-fields/imageUrl",
    description: "A completed render answers imageUrl null (its picture not yet recorded when the job reads completed)",
    run: { only: ["mcp-regenerate-job"], strict: true },
    response: onSuccess("get_generation_job", (j) => (j.status === "completed" ? { ...j, imageUrl: null } : j)),
  },
  {
    id: "mcp-job-updated-at-epoch",
    rule: "generation-job-fields/updatedAt",
    description: "get_generation_job answers updatedAt as epoch milliseconds instead of a timestamp",
    run: { only: ["mcp-regenerate-job"] },
    response: onSuccess("get_generation_job", (j) => (typeof j.updatedAt === "string" ? { ...j, updatedAt: Date.parse(j.updatedAt) } : j)),
  },
  {
    id: "mcp-template-library-saved",
    rule: "template-rendering/generate_image-save-to-library",
    description: "On a template-rendering workspace, generate_image with saveToLibrary answers a picture instead of template_rendering",
    run: { only: ["mcp-render-failures"] },
    response: behindObjectOutput(
      "generate_image",
      onResult(
        (c, r) => c.name === "generate_image" && errorOf(r)?.code === "template_rendering",
        () => withData({}, { imageUrl: "https://cdn.example.com/mutant/template.png", mediaId: "00000000-0000-4000-8000-000000000002", postId: null, imageIndex: null }),
      )!,
    ),
  },
  {
    id: "mcp-over-limit-truncated",
    rule: "caption-over-limit/update_post",
    description: "update_post cuts a caption longer than every destination allows to the shortest limit instead of refusing it",
    run: { only: ["mcp-draft-edits"] },
    request: onCall(async (call, req, ctx) => {
      if (call.name !== "update_post" || typeof call.args.caption !== "string") return {};
      const view = await upstreamCall(ctx, req, "view_post", { id: call.args.id });
      const limits: number[] = (view?.destinations ?? []).map((d) => d?.characterLimit).filter((n: unknown): n is number => typeof n === "number" && n > 0);
      const limit = limits.length ? Math.min(...limits) : Infinity;
      return [...call.args.caption].length > limit ? { args: { ...call.args, caption: [...call.args.caption].slice(0, limit).join("") } } : {};
    }),
  },
  {
    id: "mcp-remove-platforms-ignored",
    rule: "remove-platforms/update_post",
    description: "update_post ignores removePlatforms (every destination stays)",
    run: { only: ["mcp-draft-edits"] },
    request: onCall((call) => {
      if (call.name !== "update_post" || !("removePlatforms" in call.args)) return {};
      const { removePlatforms: _gone, ...args } = call.args;
      return { args };
    }),
  },
  {
    id: "mcp-approval-decided-at-epoch",
    rule: "approval-fields/decidedAt",
    description: "approve_post's approval gives decidedAt as epoch milliseconds instead of a timestamp",
    run: { only: ["mcp-approve-records-digest"] },
    response: onSuccess("approve_post", (a) => (typeof a.approval?.decidedAt === "string" ? { ...a, approval: { ...a.approval, decidedAt: Date.parse(a.approval.decidedAt) } } : a)),
  },
  {
    id: "mcp-rejection-declined",
    rule: "approval-decision-values/rejected",
    description: "reject_post records decision declined, a value outside approved|rejected",
    run: { only: ["mcp-approval-rejected"] },
    response: onSuccess("reject_post", (a) => (a.approval?.decision === "rejected" ? { ...a, approval: { ...a.approval, decision: "declined" } } : a)),
  },
  {
    id: "mcp-approval-not-read-back",
    rule: "approve-records-digest/read-back",
    description: "view_post shows no approval while the recorded one still holds (only stale approvals are read back)",
    run: { only: ["mcp-approve-records-digest"] },
    response: onSuccess("view_post", (v) => (v.approval && v.approval.stale !== true ? { ...v, approval: null } : v)),
  },
  {
    id: "mcp-unschedule-withdraws-nothing",
    rule: "already-scheduled-locked/unschedule-withdraws",
    description: "unschedule_platform answers unscheduled true but withdraws nothing (the booking stays held)",
    run: { only: ["mcp-already-scheduled-locked"] },
    // The call reaches the mock with a booking id nobody issued (so nothing is withdrawn), and its refusal is
    // answered as a withdrawal.
    request: onCall((call) => (call.name === "unschedule_platform" ? { args: { ...call.args, platformPostId: `mutant-${call.args.platformPostId}` } } : {})),
    response: onResult(
      (c, r) => c.name === "unschedule_platform" && errorOf(r)?.code === "not_found",
      (_r, c) => withData({}, { id: c.args.id, platform: c.args.platform, unscheduled: true, scheduledDestinations: [] }),
    ),
  },
  {
    id: "mcp-schedule-failed-scheduled-dropped",
    rule: "schedule-failed-rule/scheduled-destinations",
    description: "schedule_failed lists no scheduledDestinations though the other destinations were booked",
    run: { only: ["mcp-schedule-failed-final"] },
    response: onError("schedule_failed", (e) => ({ ...e, scheduledDestinations: [] })),
  },
  {
    id: "mcp-published-with-reason",
    rule: "publish-results/published-no-reason",
    description: "publish_post_now's published results carry a reason (code published)",
    run: { only: ["mcp-publish-results"] },
    response: onSuccess("publish_post_now", (p) => ({
      ...p,
      publishResults: (p.publishResults ?? []).map((r) => (r.status === "published" ? { ...r, reason: { code: "published", message: "Published.", retryable: false } } : r)),
    })),
  },
  {
    id: "mcp-not-requested-pending",
    rule: "publish-reason-status/not_requested",
    description: "publish_post_now reports destinations left out of platforms as pending (reason not_requested) instead of skipped",
    run: { only: ["mcp-publish-results"] },
    response: onSuccess("publish_post_now", (p) => ({
      ...p,
      publishResults: (p.publishResults ?? []).map((r) => (r.reason?.code === "not_requested" ? { ...r, status: "pending" } : r)),
    })),
  },
  {
    id: "mcp-status-approval-as-text",
    rule: "post-status-fields/approval",
    description: "get_post_status answers approval as its decision alone (a string) instead of the approval object",
    run: { only: ["mcp-post-fields"] },
    response: onSuccess("get_post_status", (s) => ({ ...s, approval: s.approval ? s.approval.decision : "none" })),
  },
  {
    id: "mcp-unknown-job-internal-error",
    rule: "unknown-id-refused/get_generation_job",
    description: "get_generation_job of a job nobody started answers internal_error instead of not_found",
    run: { only: ["mcp-unknown-ids-refused"] },
    response: onResult(
      (c, r) => c.name === "get_generation_job" && errorOf(r)?.code === "not_found",
      (r) => withData(r, { ...payloadOf(r, "get_generation_job"), error: { ...errorOf(r), code: "internal_error", retryable: true } }),
    ),
  },
  {
    id: "mcp-blocked-image-limit-text",
    rule: "blocked-destination-fields/imageLimit",
    description: "too_many_images entries of blockedDestinations give imageLimit as a string",
    run: { only: ["mcp-preflight-too-many-images"] },
    // The envelope is part of schedule_post's output schema: tools/list declares it only as an object so the change gets through.
    response: behindObjectOutput(
      "schedule_post",
      onResult(
        (c, r) => c.name === "schedule_post" && Array.isArray(errorOf(r)?.blockedDestinations),
        (r) =>
          withData(r, {
            ...payloadOf(r, "schedule_post"),
            error: { ...errorOf(r), blockedDestinations: errorOf(r)!.blockedDestinations!.map((b) => (typeof b.imageLimit === "number" ? { ...b, imageLimit: String(b.imageLimit) } : b)) },
          }),
      )!,
    ),
  },
];
