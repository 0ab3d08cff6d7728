// The held-out audit of seed 001's cross-operation statements (conformance/core/walks/AUDIT.md): one mutant per sampled
// statement, each breaking that statement alone (one call's effect on what another call, or a later repeat,
// shows). test/cross-audit.test.ts runs each against the whole MCP suite (scripted checks and the default walks, as
// `npm run conformance` does) and requires a failure naming one of `rules`. Each call makes fresh instances.
import type { RuleId } from "../../../generated/rules.js";
import type { AuditMutant } from "../rest/cross-audit.js";
import type { ErrorDetail } from "../../../generated/mcp/types.js";
import { type Call, dataOf, errorOf, isSuccess, onResult, onTool, type Result, withData } from "./rewrite.js";
import type { Exchange, Mutant } from "../rest/proxy.js";

type Response = NonNullable<Mutant["response"]>;


/** Rewrites the failures of `tool` (the envelope's error) for which `when` holds into another answer. */
const onFailure = (tool: string, when: (error: ErrorDetail, call: Call) => boolean, rewrite: (error: ErrorDetail, call: Call, r: Result) => Result): Response =>
  onResult((c, r) => c.name === tool && !!errorOf(r) && when(errorOf(r)!, c), (r, c) => rewrite(errorOf(r)!, c, r))!;

const chain =
  (...steps: Response[]): Response =>
  async (req, res, ctx) => {
    for (const step of steps) res = await step(req, res, ctx);
    return res;
  };

/** A failure in the envelope with another code (the rest of the error kept). */
const recoded = (r: Result, error: ErrorDetail, code: string): Result => ({ ...withData(r, { ok: false, error: { ...error, code } }), isError: true });
/** A success with `data` in place of a failure. */
const succeeded = (r: Result, data: unknown): Result => {
  const out = withData(r, data);
  delete out.isError;
  return out;
};

/** The reference's partner token (conformance/targets/reference.yaml). */
const partnerToken = "mcp_partner";

const audit = (statement: string, rules: RuleId[], m: Omit<Mutant, "rule">): AuditMutant => ({ ...m, rule: rules[0]!, rules, statement });

export function mcpCrossAuditMutants(): AuditMutant[] {
  const clientWorkspaces = new Set<string>();
  const clients = new Map<string, string>();
  const deactivated = new Set<string>();
  const deactivatedAt = new Map<string, number>();
  const built = new Set<string>();
  const briefs = new Map<string, string>();
  const failedSeen = new Set<string>();
  const profileIds = new Set<string>();
  return [
    audit("M1 · What the service does: each client is a workspace (`companyId`) holding one brand", ["list-brands-client-workspace"], {
      id: "audit-mcp-client-workspace-needs-choice",
      description: "list_brands of a workspace made by create_profile answers needsUserChoice true",
      response: chain(
        onTool("create_profile", (d) => (typeof d.companyId === "string" && clientWorkspaces.add(d.companyId), d)),
        onTool("list_brands", (d) => (clientWorkspaces.has(d.workspaceId) ? { ...d, needsUserChoice: true } : d)),
      ),
    }),
    audit("M3 · Profile: inactive profiles cannot generate or publish", ["inactive-refuses-work"], {
      id: "audit-mcp-inactive-generates",
      description: "create_posts for a deactivated profile answers queued instead of refusing it",
      response: chain(
        onTool("deactivate_profile", (d, c) => (deactivated.add(String(c.args.brandId)), d)),
        onFailure("create_posts", (_e, c) => deactivated.has(String(c.args.brandId)), (_e, c, r) => {
          const count = Number(c.args.count) || 1;
          return succeeded(r, { batchId: `audit-${Date.now()}`, brandId: c.args.brandId, companyId: "audit", status: "queued", requestedCount: count, items: Array.from({ length: count }, (_, index) => ({ index, status: "pending" })) });
        }),
      ),
    }),
    audit("M5 · Profile: `onboarding` only on a profile made by `create_profile`", ["onboarding-only-from-create-profile"], {
      id: "audit-mcp-onboarding-on-every-profile",
      description: "get_profile of a profile create_profile did not make shows onboarding ready",
      response: chain(
        onTool("create_profile", (d) => (profileIds.add(d.brandId), d)),
        onTool("get_profile", (d) => (profileIds.has(d.brandId) || d.onboarding ? d : { ...d, onboarding: { status: "ready" } })),
      ),
    }),
    audit("M7 · Brand list item: `isActive`", ["deactivation-effects/profile-inactive", "brand-list-matches-profile/is-active"], {
      id: "audit-mcp-deactivated-listed-active",
      description: "once deactivate_profile answered deactivated, list_brands still shows the brand active",
      response: chain(
        onTool("deactivate_profile", (d, c) => (d.status === "deactivated" && deactivated.add(String(c.args.brandId)), d)),
        onTool("list_brands", (d) => ({ ...d, brands: (d.brands ?? []).map((b) => (deactivated.has(b?.id) ? { ...b, isActive: true } : b)) })),
      ),
    }),
    audit("M9 · Profile build: `building` → `ready` when the build completes; generation tools usable", ["build-completes", "profile-not-ready-blocker/building"], {
      id: "audit-mcp-ready-build-still-blocked",
      description: "get_profile of a client whose build is ready still shows canGenerate false with profile_not_ready",
      response: onTool("get_profile", (d) =>
        d.onboarding?.status === "ready" ? { ...d, readiness: { ...d.readiness, canGenerate: false, blockers: [...new Set([...(d.readiness?.blockers ?? []), "profile_not_ready"])] } } : d,
      ),
    }),
    audit("M11 · Profile build: `create_profile` repeated, not a failed build → unchanged, answers with the build's current state", ["create-profile-idempotent/current-state", "create-profile-idempotent/same-ids", "build-completes"], {
      id: "audit-mcp-repeat-answers-building",
      description: "create_profile repeated for a build get_profile showed ready answers status building",
      response: chain(
        onTool("get_profile", (d) => (d.onboarding?.status === "ready" && built.add(d.brandId), d)),
        onTool("create_profile", (d) => (d.created === false && built.has(d.brandId) && d.status === "ready" ? { ...d, status: "building" } : d)),
      ),
    }),
    audit("M13 · Ending a client: `deactivation_scheduled` → `deactivated` (seen by calling again), `unscheduledPosts` final", ["deactivation-progress/unscheduled-monotonic", "deactivation-progress/ends-deactivated"], {
      id: "audit-mcp-unscheduled-not-final",
      description: "deactivate_profile called again after deactivated answers a larger unscheduledPosts each time",
      response: onTool("deactivate_profile", (d, c) => {
        const id = String(c.args.brandId);
        if (d.status !== "deactivated") return d;
        const n = (deactivatedAt.get(id) ?? -1) + 1;
        deactivatedAt.set(id, n);
        return { ...d, unscheduledPosts: (typeof d.unscheduledPosts === "number" ? d.unscheduledPosts : 0) + n };
      }),
    }),
    audit("M15 · create_profile rule 1: a repeat returns the first call's profile … and never makes a second workspace", ["create-profile-idempotent/no-second-workspace", "workspaces-partner-clients"], {
      id: "audit-mcp-repeat-lists-second-workspace",
      description: "after a repeat of create_profile, the partner's get_workspaces lists the client's workspace twice (a copy with another id)",
      response: chain(
        onTool("create_profile", (d) => (d.created === false && typeof d.companyId === "string" && clients.set(d.companyId, d.brandId), d)),
        onTool("get_workspaces", (d, _c, req) => {
          if (req.token !== partnerToken) return d;
          const copies = (d.workspaces ?? []).filter((w) => clients.has(w?.id)).map((w) => ({ ...w, id: `${w.id}-2`, slug: `${w.slug}-2` }));
          return copies.length ? { ...d, workspaces: [...d.workspaces, ...copies], totalCount: (d.totalCount ?? 0) + copies.length } : d;
        }),
      ),
    }),
    audit("M17 · get_workspaces: with a partner token, only the partner's clients' workspaces are listed", ["workspaces-partner-clients"], {
      id: "audit-mcp-new-client-not-listed",
      description: "the partner's get_workspaces leaves out the workspaces create_profile made",
      response: chain(
        onTool("create_profile", (d) => (typeof d.companyId === "string" && clientWorkspaces.add(d.companyId), d)),
        onTool("get_workspaces", (d, _c, req) => {
          if (req.token !== partnerToken) return d;
          const kept = (d.workspaces ?? []).filter((w) => !clientWorkspaces.has(w?.id));
          return kept.length === (d.workspaces ?? []).length ? d : { ...d, workspaces: kept, totalCount: kept.length };
        }),
      ),
    }),
    audit("M19 · deactivate_profile effects: every profile in the workspace becomes inactive", ["deactivation-effects/profile-inactive"], {
      id: "audit-mcp-deactivated-profile-active",
      description: "once deactivate_profile answered deactivated, get_profile still shows the profile active, without brand_inactive",
      response: chain(
        onTool("deactivate_profile", (d, c) => (d.status === "deactivated" && deactivated.add(String(c.args.brandId)), d)),
        onTool("get_profile", (d) =>
          deactivated.has(d.brandId) ? { ...d, isActive: true, readiness: { ...d.readiness, blockers: (d.readiness?.blockers ?? []).filter((b: string) => b !== "brand_inactive") } } : d,
        ),
      ),
    }),
    audit("M21 · create_posts: a resent call makes a second batch", ["create-posts-repeat-new-batch"], {
      id: "audit-mcp-resent-batch-same-id",
      description: "create_posts resent with the same brand and brief answers the first call's batchId",
      response: onTool("create_posts", (d, c) => {
        const key = `${c.args.brandId} ${c.args.brief}`;
        if (!briefs.has(key)) briefs.set(key, d.batchId);
        return { ...d, batchId: briefs.get(key) };
      }),
    }),
    audit("M23 · view_post: the `contentDigest` from it is what `approve_post` records; if the post changed in between, `approve_post` is refused with `post_content_changed`", ["approve-outdated-digest/approve_post", "approve-outdated-digest"], {
      id: "audit-mcp-outdated-approval-taken",
      description: "approve_post with a digest the post no longer has answers an approval instead of post_content_changed",
      response: onFailure(
        "approve_post",
        (e) => e?.code === "post_content_changed",
        (_e, c, r) => succeeded(r, { id: c.args.id, approval: { decision: "approved", contentDigest: c.args.contentDigest, decidedAt: new Date().toISOString() } }),
      ),
    }),
    audit("M25 · Errors: a failed destination stays failed until the caller acts", ["failed-destination-stays-failed"], {
      id: "audit-mcp-failed-destination-retried",
      description: "get_post_status shows a destination it showed failed as pending from the next read on (a retry of the service's own)",
      response: onTool("get_post_status", (d, c) => ({
        ...d,
        platformResults: (d.platformResults ?? []).map((p) => {
          const key = `${c.args.id} ${p?.platform}`;
          if (p?.status !== "failed") return p;
          if (!failedSeen.has(key)) return failedSeen.add(key), p;
          return { ...p, status: "pending", error: null };
        }),
      })),
    }),
    audit("M27 · Approval: `approval_stale` — content changed after approval", ["approval-stale/schedule_post", "approval-stale"], {
      id: "audit-mcp-stale-approval-as-required",
      description: "schedule_post of an approved post edited since answers approval_required instead of approval_stale",
      response: onFailure("schedule_post", (e) => e?.code === "approval_stale", (e, _c, r) => recoded(r, e, "approval_required")),
    }),
    audit("M29 · Scheduling: `already_scheduled` — a provider holds the post; withdraw each held destination", ["already-scheduled-locked/locked-destinations"], {
      id: "audit-mcp-held-post-upstream-409",
      description: "schedule_post of a post a provider holds answers upstream_409 without lockedDestinations instead of already_scheduled",
      response: onFailure(
        "schedule_post",
        (e) => e?.code === "already_scheduled" || e?.code === "post_already_scheduled",
        (_e, _c, r) => ({ ...withData(r, { ok: false, error: { code: "upstream_409", message: "Conflict.", retryable: false } }), isError: true }),
      ),
    }),
  ];
}
