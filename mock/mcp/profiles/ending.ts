// Ending a client: deactivate_profile and delete_profile. Both run "in the background" for a few (time-scaled)
// minutes; the mock has no scheduler, so due work is finished by settle(), which the gateway runs before every
// tool call and page request of either domain (deletion calls the posts domain's erase then).
import { ToolError, type PostsApi, type ToolContext } from "../context.js";
import { between } from "../../rest/hash.js";
import type { DeactivateProfileOutput, DeleteProfileOutput } from "../../../generated/mcp/types.js";
import { minute } from "./ids.js";
import { requirePartner, type ProfilesStore, type WorkspaceState } from "./store.js";

/** Virtual minutes the background work of ending a workspace takes (2–5, fixed per workspace). */
const workMinutes = (ws: WorkspaceState, kind: string) => between(2, 5, kind, ws.id);

/** Every profile inactive, every account disconnected, the plan gone. */
function shutDown(store: ProfilesStore, ws: WorkspaceState): void {
  for (const brand of store.brandsOf(ws)) {
    brand.isActive = false;
    for (const c of brand.channels) {
      c.state = "disconnected";
      c.tokenExpiresAt = null;
    }
  }
  ws.membershipType = null;
}

/** Finishes the background work that has ended by `now`. */
export function settle(store: ProfilesStore, now: number, posts: PostsApi): void {
  for (const ws of [...store.ending]) {
    const d = ws.deactivation;
    if (d && !d.finished && now >= d.endsAt) {
      // A last sweep catches anything booked between the first call and the end.
      for (const id of ws.brandIds) d.unscheduledPosts += posts.withdrawScheduled(id);
      d.finished = true;
    }
    if (ws.deletion && now >= ws.deletion.endsAt) {
      for (const id of ws.brandIds) posts.erase(id);
      store.erase(ws);
    } else if (!ws.deletion && (!d || d.finished)) {
      store.ending.delete(ws);
    }
  }
}

// rule: deactivation-progress deactivate-output-fields deactivation-effects external-billing-refused
export function deactivateProfile(store: ProfilesStore, args: Record<string, any>, ctx: ToolContext): DeactivateProfileOutput {
  requirePartner(ctx.principal);
  const brand = store.brandFor(ctx.principal, args.brandId as string);
  const ws = store.workspaceOf(brand);
  if (ws.externalBilling) throw new ToolError("external_billing_workspace", "This workspace pays for its own subscription; it must be cancelled outside the API. Nothing changed.");
  const now = ctx.clock.now();
  if (!ws.deactivation) {
    let unscheduledPosts = 0;
    for (const id of ws.brandIds) unscheduledPosts += ctx.posts.withdrawScheduled(id);
    shutDown(store, ws);
    ws.deactivation = { startedAt: now, endsAt: now + ctx.clock.work(workMinutes(ws, "deactivation") * minute), unscheduledPosts, finished: false };
    store.ending.add(ws);
  }
  const d = ws.deactivation;
  return { companyId: ws.id, status: d.finished ? "deactivated" : "deactivation_scheduled", unscheduledPosts: d.unscheduledPosts };
}

// rule: deletion-progress deleted-sticky delete-output-fields delete-unknown-not-found external-billing-refused
export function deleteProfile(store: ProfilesStore, args: Record<string, any>, ctx: ToolContext): DeleteProfileOutput {
  requirePartner(ctx.principal);
  const brandId = args.brandId as string;
  const tomb = store.erased.get(brandId);
  if (tomb) {
    if (tomb.tenant !== ctx.principal.tenant) throw new ToolError("forbidden", `Profile ${brandId} is not one of yours.`);
    return { companyId: tomb.companyId, deleted: true, status: "deleted" };
  }
  const brand = store.brands.get(brandId);
  if (!brand) throw new ToolError("not_found", `No profile ${brandId}, and none was deleted with that id.`);
  const ws = store.workspaceOf(brand);
  if (ws.tenant !== ctx.principal.tenant) throw new ToolError("forbidden", `Profile ${brandId} is not one of yours.`);
  if (ws.externalBilling) throw new ToolError("external_billing_workspace", "This workspace pays for its own subscription; it must be cancelled outside the API. Nothing changed.");
  if (!ws.deletion) {
    const now = ctx.clock.now();
    shutDown(store, ws);
    ws.deletion = { startedAt: now, endsAt: now + ctx.clock.work(workMinutes(ws, "deletion") * minute) };
    store.ending.add(ws);
  }
  return { companyId: ws.id, deleted: true, status: "deletion_scheduled" };
}
