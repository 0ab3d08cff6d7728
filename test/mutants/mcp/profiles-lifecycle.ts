// MCP mutants of profiles, builds, readiness and ending a client (issue 16, area C): each breaks one member of a
// family (never the first the checks meet) or one rule, and is killed by the scenario check that provokes it
// (run.only keeps each run to that check).
import generateCaption from "../../../spec/mcp/tools/generate_caption.json" with { type: "json" };
import schedulePost from "../../../spec/mcp/tools/schedule_post.json" with { type: "json" };
import type { McpMutant } from "./catalogue.js";
import type { ToolOutputs } from "../../../generated/mcp/types.js";
import { callOf, dataOf, errorOf, isSuccess, onCall, onlyObjectOutput, onResult, onToolSuccess, payloadOf, type Result, upstreamCall, withData } from "./rewrite.js";

/** A failure envelope in place of a result (isError, payload and text together). */
const failWith = (result: Result, code: string, retryable: boolean): Result => ({ ...withData(result, { ok: false, error: { code, message: `mutant: ${code}`, retryable } }), isError: true });

/** get_profile answers of the partner's clients, rewritten. */
const onClientProfile = (when: (p: ToolOutputs["get_profile"]) => boolean, rewrite: (p: ToolOutputs["get_profile"]) => unknown) =>
  onToolSuccess("get_profile", (p, _c, req) => req.token === "mcp_partner" && when(p), rewrite);

/** A failed build's onboarding without its error code. */
const dropFailedError = onClientProfile((p) => p.onboarding?.status === "failed", (p) => ({ ...p, onboarding: { status: "failed" } }))!;

/** create_profile answering failed (the build could not start) without its error code. */
const dropNotQueuedError = onToolSuccess(
  "create_profile",
  (p) => p.status === "failed",
  ({ error: _error, ...rest }) => rest,
);

/** Drafts the partner made for a client whose build failed (the not-ready mutant holds them up). */
const draftsOfFailedBuilds = new Set<string>();

export const profilesLifecycleMutants: McpMutant[] = [
  {
    id: "mcp-build-failure-code-swapped",
    rule: "build-failure-codes/enrichment_failed",
    description: "A build that failed with enrichment_failed reports analysis_failed in onboarding.error",
    response: onClientProfile((p) => p.onboarding?.error === "enrichment_failed", (p) => ({ ...p, onboarding: { ...p.onboarding, error: "analysis_failed" } })),
    run: { only: ["mcp-build-failure-codes"] },
  },
  {
    id: "mcp-failed-build-without-error",
    rule: "onboarding-fields/error",
    description: "A failed build's onboarding leaves out its error code",
    // The gateway advertises get_profile's output as an object only (as the seed allows), so the SDK client takes it.
    response: (req, res, ctx) =>
      req.body?.method === "tools/list" ? onlyObjectOutput(res, "get_profile") : dropFailedError(req, res, ctx),
    run: { only: ["mcp-build-failure-codes"] },
  },
  {
    id: "mcp-not-queued-without-error",
    rule: "create-profile-output-fields/error",
    description: "create_profile answers status failed (the build could not start) with no error code",
    response: (req, res, ctx) => (req.body?.method === "tools/list" ? onlyObjectOutput(res, "create_profile") : dropNotQueuedError(req, res, ctx)),
    run: { only: ["mcp-build-failure-codes"] },
  },
  {
    id: "mcp-failed-build-not-blocking",
    rule: "profile-not-ready-blocker/failed",
    description: "A failed build no longer shows profile_not_ready in readiness, and canGenerate is true",
    response: onClientProfile(
      (p) => p.onboarding?.status === "failed",
      (p) => ({ ...p, readiness: { ...p.readiness, canGenerate: true, blockers: p.readiness.blockers.filter((b: string) => b !== "profile_not_ready") } }),
    ),
    run: { only: ["mcp-build-failure-codes"] },
  },
  {
    id: "mcp-not-ready-image-code",
    rule: "profile-not-ready-refusal/generate_image",
    description: "generate_image refuses a profile that is not ready with ai_generation_failed instead of profile_not_ready",
    response: onResult(
      (c, r) => c.name === "generate_image" && errorOf(r)?.code === "profile_not_ready",
      (r) => failWith(r, "ai_generation_failed", true),
    ),
    run: { only: ["mcp-profile-not-ready-refusals"] },
  },
  {
    id: "mcp-not-ready-holds-booking",
    rule: "not-ready-does-not-hold/schedule_post",
    description: "schedule_post of a draft whose client's build failed is refused with profile_not_ready",
    response: async (req, res, ctx) => {
      const call = callOf(req);
      const result = res.body?.result as Result | undefined;
      if (!call || !result || req.token !== "mcp_partner") return res;
      if (call.name === "create_draft" && isSuccess(result)) {
        const profile = await upstreamCall(ctx, req, "get_profile", { brandId: call.args.brandId });
        if (profile?.onboarding?.status === "failed") draftsOfFailedBuilds.add(payloadOf(result, "create_draft").postId);
      }
      if (call.name === "schedule_post" && draftsOfFailedBuilds.has(String(call.args.id))) return { ...res, body: { ...res.body, result: failWith(result, "profile_not_ready", true) } };
      return res;
    },
    run: { only: ["mcp-profile-not-ready-refusals"] },
  },
  {
    id: "mcp-connection-check-hidden",
    rule: "readiness-consistent/connection_check_failed",
    description: "get_profile leaves out the connection_check_failed blocker when the provider could not be reached",
    response: onClientProfile((p) => p.readiness?.blockers?.includes("connection_check_failed"), (p) => ({ ...p, readiness: { ...p.readiness, blockers: p.readiness.blockers.filter((b: string) => b !== "connection_check_failed") } })),
    run: { only: ["mcp-readiness-views"] },
  },
  {
    id: "mcp-unknown-readiness-listed-not-connected",
    rule: "publish-readiness-values/unknown",
    description: "list_brands says not_connected where the provider holds the answer (unknown)",
    response: onToolSuccess(
      "list_brands",
      (d) => d.brands.some((b) => b.publishReadiness === "unknown"),
      (d) => ({ ...d, brands: d.brands.map((b) => (b.publishReadiness === "unknown" ? { ...b, publishReadiness: "not_connected" } : b)) }),
    ),
    run: { only: ["mcp-readiness-views"] },
  },
  {
    id: "mcp-deactivation-drops-dates",
    rule: "deactivation-effects/dates-kept",
    description: "After deactivation a withdrawn post loses its date (get_post_status scheduledAt null)",
    response: onToolSuccess(
      "get_post_status",
      (d, _c, req) => req.token === "mcp_partner" && typeof d.scheduledAt === "string" && !d.platformResults.some((p) => p.status === "scheduled"),
      (d) => ({ ...d, scheduledAt: null }),
    ),
    run: { only: ["mcp-deactivation-effects"] },
  },
  {
    id: "mcp-disconnected-channel-publishes",
    rule: "channel-health-publishes/disconnected",
    description: "A disconnected channel is still listed in generationPlatforms",
    response: onClientProfile(
      (p) => p.channels.some((c) => c.health === "disconnected"),
      (p) => ({ ...p, generationPlatforms: [...new Set([...p.generationPlatforms, ...p.channels.filter((c) => c.health === "disconnected").map((c) => c.platform)])] }),
    ),
    run: { only: ["mcp-deactivation-effects"] },
  },
  {
    id: "mcp-inactive-books",
    rule: "inactive-refuses-work",
    description: "schedule_post of an inactive client's post answers as if it were booked",
    response: onResult(
      // In this scenario schedule_post fails only for the inactive client (whatever the code says why).
      (c, r) => c.name === "schedule_post" && errorOf(r) !== undefined,
      (r, c) => ({ ...withData(r, { ...schedulePost.examples.validOutputs[0], id: c.args.id }), isError: undefined }),
    ),
    run: { only: ["mcp-deactivation-effects"], strict: true },
  },
  {
    id: "mcp-inactive-writes-captions",
    rule: "inactive-refuses-work",
    description: "generate_caption for a post of an inactive (deactivated, built) client answers with a caption",
    response: onResult(
      // In this scenario generate_caption fails only because the client is inactive (its build is ready).
      (c, r) => c.name === "generate_caption" && errorOf(r) !== undefined,
      (r, c) => ({ ...withData(r, { ...generateCaption.examples.validOutputs[0], postId: c.args.postId }), isError: undefined }),
    ),
    run: { only: ["mcp-inactive-refuses-generation"], strict: true },
  },
  {
    id: "mcp-erased-pictures-resolve",
    rule: "deletion-pictures-stop-resolving",
    description: "After deletion a client's picture addresses still answer with a picture",
    response: (req, res) =>
      req.method === "GET" && req.path.startsWith("/images/") && res.status === 404 ? { status: 200, headers: { "content-type": "image/png" }, body: undefined, raw: Buffer.from("\x89PNG kept") } : res,
    run: { only: ["mcp-deactivation-effects"], strict: true },
  },
  {
    id: "mcp-erased-post-forbidden",
    rule: "deletion-erases",
    description: "After deletion a client's post answers forbidden instead of not_found",
    response: onResult(
      (c, r, req) => c.name === "view_post" && req.token === "mcp_partner" && errorOf(r)?.code === "not_found",
      (r) => failWith(r, "forbidden", false),
    ),
    run: { only: ["mcp-deactivation-effects"], strict: true },
  },
  {
    id: "mcp-partner-lists-user-workspaces",
    rule: "workspaces-partner-clients",
    description: "get_workspaces with a partner token lists a signed-in user's workspaces",
    request: onCall((call, req) => (call.name === "get_workspaces" && req.token === "mcp_partner" ? { token: "mcp_user" } : {})),
    run: { only: ["mcp-partner-workspaces"] },
  },
  {
    id: "mcp-client-workspace-needs-choice",
    rule: "list-brands-client-workspace",
    description: "list_brands of a partner's client workspace answers needsUserChoice true",
    response: onResult(
      (c, r, req) => c.name === "list_brands" && req.token === "mcp_partner" && isSuccess(r),
      (r) => withData(r, { ...dataOf(r), needsUserChoice: true }),
    ),
    run: { only: ["mcp-partner-workspaces"] },
  },
  {
    id: "mcp-onboarding-on-user-profile",
    rule: "onboarding-only-from-create-profile",
    description: "A signed-in user's profile, not made by create_profile, shows onboarding ready",
    response: onResult(
      (c, r, req) => c.name === "get_profile" && req.token === "mcp_user" && isSuccess(r),
      (r) => withData(r, { ...dataOf(r), onboarding: { status: "ready" } }),
    ),
    run: { only: ["mcp-partner-workspaces"] },
  },
  {
    id: "mcp-downstream-auth-final",
    rule: "partner-downstream-auth-failed",
    description: "partner_downstream_auth_failed is answered as not retryable",
    response: onResult(
      (_c, r) => errorOf(r)?.code === "partner_downstream_auth_failed",
      (r) => failWith(r, "partner_downstream_auth_failed", false),
    ),
    run: { only: ["mcp-partner-downstream-auth-failed"] },
  },
];
