// MCP mutants only a walk can kill (test/walks-mutants.test.ts): the scripted checks alone let each one through,
// because no check reads the view it breaks after the change that breaks it. One per kind of miss: an effect on
// another view, a fact a later read forgets, a terminal state that does not stick on repeat, a list that keeps
// what was removed. Each call makes fresh instances (a mutant keeps what it saw of the run's brands and posts).
import type { Exchange } from "../rest/proxy.js";
import type { McpMutant } from "./catalogue.js";
import { type Call, dataOf, isSuccess, onResult, onTool, type Result, withData } from "./rewrite.js";


/** Runs every rewriter in turn (one watches, another rewrites). */
const chain =
  (...steps: NonNullable<McpMutant["response"]>[]): NonNullable<McpMutant["response"]> =>
  async (req, res, ctx) => {
    for (const step of steps) res = await step(req, res, ctx);
    return res;
  };

/** The reference's partner token (conformance/targets/reference.yaml). */
const partnerToken = "mcp_partner";

export function mcpWalkOnlyMutants(): McpMutant[] {
  const firstNames = new Map<string, string>();
  const renamed = new Map<string, string>();
  const approved = new Map<string, { digest: unknown; views: number }>();
  const deactivated = new Set<string>();
  const erased = new Set<string>();
  const withdrawn = new Map<string, { platform: string; platformPostId: string }[]>();
  return [
    {
      id: "walk-mcp-repeat-renames-brand",
      rule: "create-profile-idempotent/other-arguments-ignored",
      description: "create_profile repeated with another name answers the first profile, but renames the brand that get_profile and list_brands show (an effect on another view)",
      response: chain(
        onTool("create_profile", (d, c) => {
          if (d.created === true) firstNames.set(d.brandId, String(c.args.name));
          else if (d.created === false && firstNames.has(d.brandId) && c.args.name !== firstNames.get(d.brandId)) renamed.set(d.brandId, String(c.args.name));
          return d;
        }),
        onTool("get_profile", (d) => (renamed.has(d.brandId) ? { ...d, brandName: renamed.get(d.brandId) } : d)),
        onTool("list_brands", (d) => ({ ...d, brands: (d.brands ?? []).map((b) => (renamed.has(b?.id) ? { ...b, name: renamed.get(b.id) } : b)) })),
      ),
    },
    {
      id: "walk-mcp-approval-forgotten",
      rule: "approve-records-digest/read-back",
      description: "view_post shows an approval once; from the second view of the unchanged post on, the approval is gone, while a rejection recorded since shows as it is (a fact a later read forgets: approvals only)",
      response: chain(
        onTool("approve_post", (d, c) => (approved.set(String(c.args.id), { digest: d.approval?.contentDigest, views: 0 }), d)),
        onTool("view_post", (d) => {
          const a = approved.get(d.id);
          // Only the approval is forgotten: a rejection recorded since shows as it is.
          if (!a || d.contentDigest !== a.digest || d.approval?.decision !== "approved") return d;
          return ++a.views >= 2 ? { ...d, approval: null } : d;
        }),
      ),
    },
    {
      id: "walk-mcp-deactivation-unsticks",
      rule: "deactivation-progress/ends-deactivated",
      description: "deactivate_profile answers deactivated once; called again, it answers deactivation_scheduled (a terminal state that does not stick on repeat)",
      response: onTool("deactivate_profile", (d, c) => {
        const id = String(c.args.brandId);
        if (deactivated.has(id) && d.status === "deactivated") return { ...d, status: "deactivation_scheduled" };
        if (d.status === "deactivated") deactivated.add(id);
        return d;
      }),
    },
    {
      id: "walk-mcp-erased-workspace-listed",
      rule: "erased-client-gone/get-workspaces",
      description: "once delete_profile answers deleted, get_workspaces still lists the erased client's workspace (a list that keeps what was removed)",
      response: chain(
        onTool("delete_profile", (d) => (d.status === "deleted" && typeof d.companyId === "string" && erased.add(d.companyId), d)),
        // The partner's list only: its clients are the ones erased.
        onTool("get_workspaces", (d, _c, req) => {
          if (req.token !== partnerToken) return d;
          const listed = new Set((d.workspaces ?? []).map((w) => w?.id));
          const kept = [...erased].filter((id) => !listed.has(id)).map((id) => ({ id, name: "Erased client", slug: `erased-${id.slice(0, 8)}`, logo: null, role: "ADMIN", membershipType: null, numBrands: 1 }));
          return kept.length ? { ...d, workspaces: [...(d.workspaces ?? []), ...kept], totalCount: (d.totalCount ?? 0) + kept.length } : d;
        }),
      ),
    },
    {
      id: "walk-mcp-withdrawn-still-locked",
      rule: "already-scheduled-locked/unschedule-withdraws",
      description: "once unschedule_platform has withdrawn every booked destination of a post, schedule_post still answers already_scheduled for it, naming the withdrawn bookings (a list that keeps what was removed)",
      response: chain(
        onTool("unschedule_platform", (d, c) => {
          const id = String(c.args.id);
          if (d.unscheduled === true) withdrawn.set(id, [...(withdrawn.get(id) ?? []), { platform: String(c.args.platform), platformPostId: String(c.args.platformPostId) }]);
          if (Array.isArray(d.scheduledDestinations) && d.scheduledDestinations.length) withdrawn.delete(id);
          return d;
        }),
        onResult(
          (c, r) => c.name === "schedule_post" && isSuccess(r) && withdrawn.has(String(c.args.id)),
          (r, c) => {
            const error = { code: "already_scheduled", message: "A provider holds this post.", retryable: false, lockedDestinations: withdrawn.get(String(c.args.id)) };
            return { ...withData(r, { ok: false, error }), isError: true };
          },
        )!,
      ),
    },
  ];
}
