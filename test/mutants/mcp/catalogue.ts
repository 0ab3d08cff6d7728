// The MCP mutant catalogue: variants of the MCP gateway mock, each breaking exactly one rule of
// spec/rules/mcp.yaml, made by rewriting JSON-RPC requests or answers in the same proxy as the REST mutants
// (../rest/proxy.ts; the mock answers plain JSON, enableJsonResponse). A mutant that changes a payload keeps
// structuredContent.data and content[0].text in step, so that it breaks its one rule and not the text convention.
// The conformance suite must catch every one with a failing check that names the broken rule.
import { randomUUID } from "node:crypto";
import manifest from "../../../generated/mcp/tools.json" with { type: "json" };
import { withoutHeader, type Mutant } from "../rest/proxy.js";
import { errorsBatchesMutants } from "./errors-batches.js";
import { familiesBMutants } from "./families-b.js";
import { familiesCMutants } from "./families-c.js";
import { familiesDMutants } from "./families-d.js";
import { familiesAMutants } from "./families-a.js";
import { profilesLifecycleMutants } from "./profiles-lifecycle.js";
import { preflightPublishingMutants } from "./preflight-publishing.js";
import { callOf, dataOf, errorOf, isSuccess, listedToEveryToken, onCall, onlyObjectOutput, onResult, payloadOf, type Result, toolsOf, upstreamCall, withData, withTools } from "./rewrite.js";
import { toolsBrandingMutants } from "./tools-branding.js";
import { skipsMutants } from "./skips.js";
import { powerMutants } from "./power.js";
import { auditMutants } from "./audit.js";
import { heldoutMcpMutants } from "./heldout.js";

const tools = (manifest as { tools: { name: string; inputSchema: { properties?: Record<string, unknown> } }[] }).tools;
const partnerOnly = ["create_profile", "deactivate_profile", "delete_profile"];

/** Batches claim to be settled while still queued or generating. */
const settledEarly = onResult(
  (c, r) => c.name === "get_post_batch_status" && isSuccess(r) && ["queued", "generating"].includes(payloadOf(r, "get_post_batch_status").status),
  (r) => withData(r, { ...payloadOf(r, "get_post_batch_status"), settled: true }),
);

/** Per post, the first digest view_post answered (the digest-frozen mutant keeps answering it). */
const firstDigests = new Map<string, string>();
/** Brands whose deletion was seen finished (the deleted-forgotten mutant answers not_found for them afterwards). */
const deletedBrands = new Set<string>();

/**
 * A mutant, and (rarely) how the run against it differs: only some checks, a slower clock, strict verdicts (a
 * mutant of an inferred rule: the reference itself is judged strictly, so its variants are too).
 */
export type McpMutant = Mutant & { run?: { only?: string[]; timeScale?: number; strict?: boolean } };

export const mcpMutants: McpMutant[] = [
  {
    id: "mcp-is-error-missing",
    rule: "failure-envelope/is-error",
    run: { only: ["mcp-failure-conventions"] },
    description: "Failures in the envelope come without isError",
    response: onResult((_c, r) => !!errorOf(r), (r) => (delete r.isError, r)),
  },
  {
    id: "mcp-retryable-flipped",
    rule: "retryable-per-catalogue/not_found",
    run: { only: ["mcp-failure-conventions", "mcp-unknown-ids-refused"] },
    description: "Every envelope error says the opposite retryable of the catalogue",
    response: onResult((_c, r) => typeof errorOf(r)?.retryable === "boolean", (r) => withData(r, { ...dataOf(r), error: { ...errorOf(r), retryable: !errorOf(r)!.retryable } })),
  },
  {
    id: "mcp-text-differs",
    rule: "text-mirrors-data/get_workspaces",
    run: { only: ["mcp-success-conventions"] },
    description: "content[0].text of successes is not the payload (an extra field in the text only)",
    response: onResult((_c, r) => isSuccess(r), (r) => ({ ...r, content: [{ type: "text", text: JSON.stringify({ ...dataOf(r), textOnly: true }) }] })),
  },
  {
    id: "mcp-structured-content-dropped",
    rule: "success-structured-data/view_post",
    run: { only: ["mcp-success-conventions"] },
    description: "Successes of view_post carry the payload as text only, no structuredContent",
    response: onResult((c, r) => c.name === "view_post" && isSuccess(r), (r) => (delete r.structuredContent, r)),
  },
  {
    id: "mcp-output-off-schema",
    rule: "result-matches-output-schema/view_post",
    run: { only: ["mcp-success-conventions"] },
    description: "view_post answers characterCount as a string",
    response: onResult(
      (c, r) => c.name === "view_post" && isSuccess(r),
      (r) => withData(r, { ...payloadOf(r, "view_post"), destinations: payloadOf(r, "view_post").destinations.map((d) => ({ ...d, characterCount: String(d.characterCount) })) }),
    ),
  },
  {
    id: "mcp-unknown-argument-accepted",
    rule: "unknown-argument-refused/get_workspaces",
    description: "Arguments a tool does not take are dropped instead of refused",
    request: onCall((call) => {
      const known = tools.find((t) => t.name === call.name)?.inputSchema.properties;
      return known ? { args: Object.fromEntries(Object.entries(call.args).filter(([k]) => k in known)) } : {};
    }),
    // Only the check that judges it: a whole-suite run under load reaches the run's budget before that check ends.
    run: { only: ["mcp-invalid-arguments-refused-first"] },
  },
  {
    id: "mcp-validation-in-envelope",
    rule: "schema-violation-refused-first/get_workspaces",
    description: "Input-schema refusals come as a bad_request envelope, as if the tool had run",
    response: onResult(
      (_c, r) => r.isError === true && !errorOf(r) && /validation|invalid/i.test(r.content?.[0]?.text ?? ""),
      (r) => withData(r, { ok: false, error: { code: "bad_request", message: r.content?.[0]?.text ?? "Invalid input.", retryable: false, invalidFields: ["input"] } }),
    ),
    run: { only: ["mcp-invalid-arguments-refused-first"] },
  },
  {
    id: "mcp-unknown-tool-envelope",
    // The envelope is an inferred form (seed 001 says only "fails as an unknown tool"): drift against a real
    // target, a failure in the (strict) mutant runs.
    rule: "unknown-tool-no-envelope",
    run: { only: ["mcp-unknown-tool-fails"] },
    description: "An unknown tool answers a not_found envelope instead of failing as an unknown tool",
    response: (req, res) => {
      const call = callOf(req);
      const known = call && (tools.some((t) => t.name === call.name) || partnerOnly.includes(call.name));
      const failed = res.body?.error || (res.body?.result as Result | undefined)?.isError;
      if (!call || known || !failed) return res;
      const data = { ok: false, error: { code: "not_found", message: `No tool ${call.name}.`, retryable: false } };
      return { ...res, body: { jsonrpc: "2.0", id: res.body?.id ?? req.body.id, result: withData({ isError: true }, data) } };
    },
  },
  {
    id: "mcp-partner-tool-listed",
    rule: "partner-only-hidden/create_profile",
    run: { only: ["mcp-partner-only-hidden"] },
    description: "tools/list shows create_profile to every token",
    response: listedToEveryToken("create_profile"),
  },
  {
    id: "mcp-401-without-challenge",
    rule: "unauthenticated-401/missing",
    run: { only: ["mcp-no-token-401"] },
    description: "401 answers come without WWW-Authenticate",
    response: withoutHeader(401, "www-authenticate"),
  },
  {
    id: "mcp-write-scope-ignored",
    rule: "insufficient-scope-403/update_post",
    run: { only: ["mcp-write-without-scope-403"] },
    description: "A read-only token's writes run as if it had mcp:write",
    request: onCall((call, req) => {
      const write = !["get_", "list_", "view_"].some((p) => call.name.startsWith(p));
      return req.token === "mcp_readonly" && write ? { token: "mcp_user" } : {};
    }),
  },
  {
    id: "mcp-settled-while-generating",
    rule: "batch-status-values/generating",
    description:
      "get_post_batch_status says settled while the batch is queued or generating, and (so the live schema lets it through, as the seed allows) tools/list declares its output only as an object",
    // Copy takes 60 to 180 virtual seconds: a slower clock keeps a loaded machine from missing it.
    run: { only: ["mcp-batch-status-values"], timeScale: 0.003 },
    response: (req, res, ctx) => (req.body?.method === "tools/list" ? onlyObjectOutput(res, "get_post_batch_status") : settledEarly!(req, res, ctx)),
  },
  {
    id: "mcp-images-pending-overcounted",
    rule: "settled-copy-only/images-pending-count",
    run: { only: ["mcp-settled-copy-only"] },
    description: "Once settled, imagesPendingCount counts one picture more than the created items still rendering",
    response: onResult(
      (c, r) => c.name === "get_post_batch_status" && isSuccess(r) && payloadOf(r, "get_post_batch_status").settled === true,
      (r) => withData(r, { ...payloadOf(r, "get_post_batch_status"), imagesPendingCount: (payloadOf(r, "get_post_batch_status").imagesPendingCount ?? 0) + 1 }),
    ),
  },
  {
    id: "mcp-counts-inconsistent",
    rule: "batch-counts-consistent/created",
    run: { only: ["mcp-batch-counts-consistent", "mcp-batch-partial"] },
    description: "get_post_batch_status counts one created post too many",
    response: onResult((c, r) => c.name === "get_post_batch_status" && isSuccess(r), (r) => withData(r, { ...payloadOf(r, "get_post_batch_status"), createdCount: payloadOf(r, "get_post_batch_status").createdCount + 1 })),
  },
  {
    id: "mcp-created-items-without-platforms",
    rule: "batch-items",
    run: { only: ["mcp-batch-items"] },
    description: "Created batch items list no destinations",
    response: onResult(
      (c, r) => c.name === "get_post_batch_status" && isSuccess(r),
      (r) => withData(r, { ...payloadOf(r, "get_post_batch_status"), items: payloadOf(r, "get_post_batch_status").items.map((i) => (i.status === "created" ? { ...i, platforms: [] } : i)) }),
    ),
  },
  {
    id: "mcp-digest-frozen",
    rule: "digest-follows-content/caption",
    run: { only: ["mcp-digest-follows-content"] },
    description: "view_post keeps answering the first contentDigest it gave for a post, whatever changes",
    response: onResult(
      (c, r) => c.name === "view_post" && isSuccess(r) && typeof payloadOf(r, "view_post").contentDigest === "string",
      (r) => {
        const d = payloadOf(r, "view_post");
        if (!firstDigests.has(d.id) && d.contentDigest !== null) firstDigests.set(d.id, d.contentDigest);
        return withData(r, { ...d, contentDigest: firstDigests.get(d.id) });
      },
    ),
  },
  {
    id: "mcp-approval-gate-skipped",
    rule: "approval-stale/schedule_post",
    run: { only: ["mcp-approval-stale"] },
    description: "schedule_post and publish_post_now approve the post as it reads now before they run: a stale approval never stops them",
    request: onCall(async (call, req, ctx) => {
      if (call.name !== "schedule_post" && call.name !== "publish_post_now") return {};
      const view = await upstreamCall(ctx, req, "view_post", { id: call.args.id });
      if (view?.approval?.decision === "approved" && typeof view.contentDigest === "string") await upstreamCall(ctx, req, "approve_post", { id: call.args.id, contentDigest: view.contentDigest });
      return {};
    }),
  },
  {
    id: "mcp-outdated-digest-approved",
    rule: "approve-outdated-digest/approve_post",
    run: { only: ["mcp-approve-records-digest"] },
    description: "approve_post with a digest the post no longer has records an approval of the current content",
    request: onCall(async (call, req, ctx) => {
      if (call.name !== "approve_post") return {};
      const view = await upstreamCall(ctx, req, "view_post", { id: call.args.id });
      return typeof view?.contentDigest === "string" ? { args: { ...call.args, contentDigest: view.contentDigest } } : {};
    }),
  },
  {
    id: "mcp-platforms-ignored",
    rule: "platforms-subset/schedule_post",
    run: { only: ["mcp-preflight-refusal"] },
    description: "schedule_post and publish_post_now ignore `platforms` and act on every destination",
    request: onCall((call) => {
      if ((call.name !== "schedule_post" && call.name !== "publish_post_now") || !("platforms" in call.args)) return {};
      const { platforms: _platforms, ...args } = call.args;
      return { args };
    }),
  },
  {
    id: "mcp-preflight-count-off",
    rule: "preflight-counts/caption_too_long",
    run: { only: ["mcp-preflight-refusal"] },
    description: "caption_too_long reports characterCount one short",
    response: onResult(
      (_c, r) => errorOf(r)?.code === "schedule_preflight_failed",
      (r) =>
        withData(r, {
          ...dataOf(r),
          error: { ...errorOf(r), blockedDestinations: errorOf(r)!.blockedDestinations!.map((b) => (b.code === "caption_too_long" ? { ...b, characterCount: b.characterCount! - 1 } : b)) },
        }),
    ),
  },
  {
    id: "mcp-republish",
    rule: "publish-repeat-safe",
    run: { only: ["mcp-publish-results"] },
    description: "A repeated publish_post_now reports live destinations published again instead of already_published",
    response: onResult(
      (c, r) => c.name === "publish_post_now" && isSuccess(r),
      (r) => withData(r, { ...payloadOf(r, "publish_post_now"), publishResults: (payloadOf(r, "publish_post_now").publishResults ?? []).map((p) => (p.reason?.code === "already_published" ? { ...p, status: "published", reason: null } : p)) }),
    ),
  },
  {
    id: "mcp-held-published",
    rule: "held-by-provider",
    run: { only: ["mcp-publish-held-by-provider"] },
    description: "publish_post_now reports destinations held by a booking as published",
    response: onResult(
      (c, r) => c.name === "publish_post_now" && isSuccess(r),
      (r) => withData(r, { ...payloadOf(r, "publish_post_now"), publishResults: (payloadOf(r, "publish_post_now").publishResults ?? []).map((p) => (p.reason?.code === "held_by_provider" ? { ...p, status: "published", reason: null } : p)) }),
    ),
  },
  {
    id: "mcp-second-render-started",
    rule: "image-in-progress/refused",
    description: "A second regenerate_post_image while one runs answers a new job instead of image_generation_in_progress",
    // The reference's render_stuck trigger keeps the first render running, whatever the time scale.
    run: { only: ["mcp-image-in-progress"] },
    response: onResult(
      (c, r) => c.name === "regenerate_post_image" && errorOf(r)?.code === "image_generation_in_progress",
      (r, c) => withData({}, { jobId: randomUUID(), postId: c.args.postId, status: "queued" }),
    ),
  },
  {
    id: "mcp-repeat-profile-created",
    rule: "create-profile-idempotent/created-false",
    run: { only: ["mcp-create-profile-idempotent"] },
    description: "create_profile repeated with the same externalId says created true",
    response: onResult((c, r) => c.name === "create_profile" && isSuccess(r) && payloadOf(r, "create_profile").created === false, (r) => withData(r, { ...payloadOf(r, "create_profile"), created: true })),
  },
  {
    id: "mcp-deleted-forgotten",
    rule: "deleted-sticky",
    run: { only: ["mcp-deletion-progress"] },
    description: "Once a deletion is finished, delete_profile answers not_found for the brand",
    response: onResult(
      (c, r) => c.name === "delete_profile" && (deletedBrands.has(String(c.args.brandId)) || (isSuccess(r) && payloadOf(r, "delete_profile").status === "deleted")),
      (r, c) => {
        if (!deletedBrands.has(String(c.args.brandId))) {
          deletedBrands.add(String(c.args.brandId));
          return r;
        }
        return withData({ isError: true }, { ok: false, error: { code: "not_found", message: "No such profile.", retryable: false } });
      },
    ),
  },
  {
    id: "mcp-other-tenant-reaches",
    rule: "cross-tenant-refused/view_post",
    run: { only: ["mcp-cross-tenant-refused"] },
    description: "Another tenant's token reaches the user's posts (its calls run as the user)",
    request: onCall((call, req) => (req.token === "mcp_other_user" && ["view_post", "update_post", "get_post_status"].includes(call.name) ? { token: "mcp_user" } : {})),
  },
  {
    id: "mcp-not-ready-as-ai-failure",
    rule: "profile-not-ready-refusal/create_posts",
    description: "Generation on a profile still building is refused with ai_generation_failed instead of profile_not_ready",
    // A build takes 10 to 30 virtual minutes: at 0.001 a loaded machine may see it end before the call is judged.
    run: { only: ["mcp-profile-not-ready-while-building"], timeScale: 0.003 },
    response: onResult(
      (_c, r) => errorOf(r)?.code === "profile_not_ready",
      (r) => withData(r, { ok: false, error: { code: "ai_generation_failed", message: "Generation failed.", retryable: true } }),
    ),
  },
  {
    id: "mcp-read-only-hint-flipped",
    rule: "read-only-hint/get_profile",
    run: { only: ["mcp-read-only-hints"] },
    description: "tools/list marks get_profile as a tool that changes data",
    response: (req, res) => {
      const listed = req.body?.method === "tools/list" ? toolsOf(res) : undefined;
      return listed ? withTools(res, listed.map((t) => (t.name === "get_profile" ? { ...t, annotations: { ...t.annotations, readOnlyHint: false } } : t))) : res;
    },
  },
  {
    id: "mcp-times-with-offset",
    rule: "times-to-utc/numeric-offset",
    run: { only: ["mcp-times-to-utc"] },
    description: "update_post answers scheduledAt with a +02:00 offset (the same instant, not in UTC)",
    response: onResult(
      (c, r) => c.name === "update_post" && isSuccess(r) && typeof payloadOf(r, "update_post").scheduledAt === "string",
      (r) => {
        const at = new Date(Date.parse(payloadOf(r, "update_post").scheduledAt!) + 2 * 3_600_000).toISOString().replace(/\.\d{3}Z$/, "+02:00");
        return withData(r, { ...payloadOf(r, "update_post"), scheduledAt: at });
      },
    ),
  },
  {
    id: "mcp-story-channel",
    rule: "destination-case/stories-not-channels",
    run: { only: ["mcp-destination-case"] },
    description: "get_profile lists instagram_stories as a channel of its own",
    response: onResult(
      (c, r) => c.name === "get_profile" && isSuccess(r) && payloadOf(r, "get_profile").channels.some((ch) => ch.platform === "instagram"),
      (r) => {
        const d = payloadOf(r, "get_profile");
        const ig = d.channels.find((ch) => ch.platform === "instagram");
        return withData(r, { ...d, channels: [...d.channels, { ...ig, platform: "instagram_stories" }] });
      },
    ),
  },
  {
    id: "mcp-deactivation-never-ends",
    rule: "deactivation-progress/ends-deactivated",
    description: "deactivate_profile keeps answering deactivation_scheduled",
    // Only the check that waits for the end: the whole suite waiting out every ending took minutes on a saturated host.
    run: { only: ["mcp-deactivation-progress"] },
    response: onResult((c, r) => c.name === "deactivate_profile" && isSuccess(r), (r) => withData(r, { ...payloadOf(r, "deactivate_profile"), status: "deactivation_scheduled" })),
  },
  {
    id: "mcp-delete-without-confirm",
    rule: "delete-confirm-true/false",
    run: { only: ["mcp-delete-confirm-true"] },
    description: "delete_profile runs without confirm: true (the request is completed with it)",
    request: onCall((call) => (call.name === "delete_profile" && call.args.confirm !== true ? { args: { ...call.args, confirm: true } } : {})),
  },
  {
    id: "mcp-truncated-always-false",
    rule: "workspaces-limit-truncated/truncated",
    run: { only: ["mcp-workspaces-limit-truncated"] },
    description: "get_workspaces never says truncated",
    response: onResult((c, r) => c.name === "get_workspaces" && isSuccess(r), (r) => withData(r, { ...payloadOf(r, "get_workspaces"), truncated: false })),
  },
  {
    id: "mcp-user-choice-inverted",
    rule: "list-brands/needs-user-choice",
    run: { only: ["mcp-list-brands"] },
    description: "list_brands says needsUserChoice the other way round",
    response: onResult((c, r) => c.name === "list_brands" && isSuccess(r), (r) => withData(r, { ...payloadOf(r, "list_brands"), needsUserChoice: !payloadOf(r, "list_brands").needsUserChoice })),
  },
  {
    id: "mcp-readiness-without-blockers",
    rule: "readiness-consistent/no_channel_connected",
    run: { only: ["mcp-readiness-views"] },
    description: "get_profile says it can generate and publish whatever blocks it (blockers kept)",
    response: onResult(
      (c, r) => c.name === "get_profile" && isSuccess(r) && payloadOf(r, "get_profile").readiness?.blockers?.length > 0,
      (r) => withData(r, { ...payloadOf(r, "get_profile"), readiness: { ...payloadOf(r, "get_profile").readiness, canGenerate: true, canPublish: true } }),
    ),
  },
  {
    id: "mcp-reschedule-stops-at-failure",
    rule: "reschedule-per-entry/one-per-entry",
    run: { only: ["mcp-reschedule-per-entry"] },
    description: "reschedule_posts answers no move after the first failing entry",
    response: onResult(
      (c, r) => c.name === "reschedule_posts" && isSuccess(r),
      (r) => {
        const moves = payloadOf(r, "reschedule_posts").moves;
        const cut = moves.findIndex((m) => m.ok === false);
        return withData(r, { ...payloadOf(r, "reschedule_posts"), moves: cut < 0 ? moves : moves.slice(0, cut + 1) });
      },
    ),
  },
  {
    id: "mcp-failed-destination-pending",
    rule: "publish-failed-destination",
    run: { only: ["mcp-publish-failed-destination"] },
    description: "publish_post_now reports a refused destination as pending (publishing_in_progress) instead of failed",
    response: onResult(
      (c, r) => c.name === "publish_post_now" && isSuccess(r),
      (r) =>
        withData(r, {
          ...payloadOf(r, "publish_post_now"),
          publishResults: (payloadOf(r, "publish_post_now").publishResults ?? []).map((p) =>
            p.status === "failed" ? { ...p, status: "pending", reason: { code: "publishing_in_progress", message: "Finishing in the background.", retryable: false } } : p,
          ),
        }),
    ),
  },
  {
    id: "mcp-rejection-ignored",
    rule: "approval-rejected/schedule_post",
    run: { only: ["mcp-approval-rejected"] },
    description: "schedule_post and publish_post_now approve a rejected post as it reads before they run",
    request: onCall(async (call, req, ctx) => {
      if (call.name !== "schedule_post" && call.name !== "publish_post_now") return {};
      const view = await upstreamCall(ctx, req, "view_post", { id: call.args.id });
      if (view?.approval?.decision === "rejected") await upstreamCall(ctx, req, "approve_post", { id: call.args.id, contentDigest: view.contentDigest });
      return {};
    }),
  },
  {
    id: "mcp-approval-not-required",
    rule: "approval-required/schedule_post",
    run: { only: ["mcp-approval-required"] },
    description: "A post nobody decided on is approved as it reads before schedule_post runs (as if no approval were required)",
    request: onCall(async (call, req, ctx) => {
      if (call.name !== "schedule_post") return {};
      const view = await upstreamCall(ctx, req, "view_post", { id: call.args.id });
      if (view && view.approval === null && typeof view.contentDigest === "string") await upstreamCall(ctx, req, "approve_post", { id: call.args.id, contentDigest: view.contentDigest });
      return {};
    }),
  },
  {
    id: "mcp-social-website-accepted",
    rule: "website-refused",
    run: { only: ["mcp-website-refused"] },
    description: "create_profile accepts a social profile as website (the request is sent with a usable one)",
    request: onCall((call) =>
      call.name === "create_profile" && /instagram\.com|facebook\.com|tiktok\.com/.test(String(call.args.websiteUrl)) ? { args: { ...call.args, websiteUrl: "https://www.harbourloaf.ie" } } : {},
    ),
  },
  {
    id: "mcp-unconfigured-partner-served",
    rule: "partner-not-found/get_workspaces",
    run: { only: ["mcp-partner-not-found"] },
    description: "A partner client with no partner configured is served as a normal user",
    request: onCall((_call, req) => (req.token === "mcp_partner_unconfigured" ? { token: "mcp_user" } : {})),
  },
  {
    id: "mcp-read-scope-refused",
    rule: "read-scope-suffices/get_workspaces",
    run: { only: ["mcp-read-scope-reads"] },
    description: "A read-only token's reads are refused like writes (403 insufficient_scope)",
    response: (req, res) => {
      const call = callOf(req);
      if (req.token !== "mcp_readonly" || !call) return res;
      const body = { error: "insufficient_scope", error_description: "Needs mcp:write." };
      return { ...res, status: 403, headers: { ...res.headers, "www-authenticate": 'Bearer error="insufficient_scope", scope="mcp:read mcp:write"' }, body };
    },
  },
  {
    id: "mcp-hidden-tool-scope-403",
    rule: "partner-only-call-unknown/delete_profile",
    description: "A read-only token calling a partner-only tool gets 403 insufficient_scope, which tells it the tool exists",
    run: { only: ["mcp-partner-only-hidden"] },
    response: (req, res) => {
      const call = callOf(req);
      if (req.token !== "mcp_readonly" || !call || !partnerOnly.includes(call.name)) return res;
      const body = { error: "insufficient_scope", error_description: "Needs mcp:write." };
      return { ...res, status: 403, headers: { ...res.headers, "www-authenticate": 'Bearer error="insufficient_scope", scope="mcp:read mcp:write"' }, body };
    },
  },
  // Members other than the first a fixture uses: each breaks one tool, one side or one field of a family.
  {
    id: "mcp-object-only-output-field-dropped",
    rule: "profile-fields/socialProvider",
    run: { only: ["mcp-profile-fields"] },
    description:
      "tools/list declares get_profile's output only as an object (the seed allows it), and get_profile leaves out the required socialProvider: only the contract's own schema can tell",
    response: (req, res, ctx) =>
      req.body?.method === "tools/list"
        ? onlyObjectOutput(res, "get_profile")
        : onResult(
            (c, r) => c.name === "get_profile" && isSuccess(r),
            (r) => {
              const { socialProvider: _dropped, ...rest } = payloadOf(r, "get_profile");
              return withData(r, rest);
            },
          )!(req, res, ctx),
  },
  {
    id: "mcp-write-scope-ignored-reject-post",
    rule: "insufficient-scope-403/reject_post",
    run: { only: ["mcp-write-without-scope-403"] },
    description: "A read-only token's reject_post runs as if it had mcp:write (every other write is still refused)",
    request: onCall((call, req) => (req.token === "mcp_readonly" && call.name === "reject_post" ? { token: "mcp_user" } : {})),
  },
  {
    id: "mcp-unknown-argument-dropped-list-brands",
    rule: "unknown-argument-refused/list_brands",
    run: { only: ["mcp-invalid-arguments-refused-first"] },
    description: "list_brands drops arguments it does not take instead of refusing them (every other tool still refuses)",
    request: onCall((call) => {
      if (call.name !== "list_brands") return {};
      const known = tools.find((t) => t.name === call.name)?.inputSchema.properties ?? {};
      return { args: Object.fromEntries(Object.entries(call.args).filter(([k]) => k in known)) };
    }),
  },
  {
    id: "mcp-limit-max-clamped",
    rule: "limit-workspaces-limit/max",
    run: { only: ["mcp-workspaces-limit-truncated"] },
    description: "get_workspaces takes a limit over 200 and clamps it instead of refusing it (the minimum is still refused)",
    request: onCall((call) => (call.name === "get_workspaces" && typeof call.args.limit === "number" && call.args.limit > 200 ? { args: { ...call.args, limit: 200 } } : {})),
  },
  {
    id: "mcp-read-only-hint-flipped-list-brands",
    rule: "read-only-hint/list_brands",
    run: { only: ["mcp-read-only-hints"] },
    description: "tools/list marks list_brands as a tool that changes data",
    response: (req, res) => {
      const listed = req.body?.method === "tools/list" ? toolsOf(res) : undefined;
      return listed ? withTools(res, listed.map((t) => (t.name === "list_brands" ? { ...t, annotations: { ...t.annotations, readOnlyHint: false } } : t))) : res;
    },
  },
  {
    id: "mcp-other-tenant-reads-status",
    rule: "cross-tenant-refused/get_post_status",
    run: { only: ["mcp-cross-tenant-refused"] },
    description: "Another tenant's token reads the user's post status (only get_post_status runs as the user)",
    request: onCall((call, req) => (req.token === "mcp_other_user" && call.name === "get_post_status" ? { token: "mcp_user" } : {})),
  },
  ...preflightPublishingMutants,
  ...errorsBatchesMutants,
  ...toolsBrandingMutants,
  ...profilesLifecycleMutants,
  ...familiesBMutants,
  ...familiesCMutants,
  ...familiesDMutants,
  ...familiesAMutants,
  ...skipsMutants,
  ...powerMutants,
  ...auditMutants,
  ...heldoutMcpMutants,
];
