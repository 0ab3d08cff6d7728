// The MCP model: what seed 001 fixes about the state each view of the gateway shows, and nothing the reference
// chooses. For a client the walk made: its ids (create_profile's answer, the same in every later view), its
// build (once seen ready it stays ready; while building or failed nothing generates), its ending (a state seen
// never moves back: deactivated stays deactivated, deleted stays deleted, unscheduledPosts never goes down;
// once deleted it is gone from every view), and its name once a repeat of create_profile sent another (a repeat
// changes nothing, whatever else it sends). For a batch: what create_posts answered (brand, company, count), its
// posts once created, settled for good once seen settled. For a post: its contentDigest (the same while nothing
// changed it, another after an edit) and its approval (the digest approve_post recorded, read back by later
// views while the content stays). Every prediction names its rule of spec/rules/mcp.yaml.
import type { AnsweredOutput } from "../answers.js";
import { learnDecision, platformsIn, type Expect, type PostBooking } from "./booking.js";

export type { Expect };

const show = (v: unknown) => {
  const s = JSON.stringify(v);
  return s === undefined ? "undefined" : s.length > 200 ? `${s.slice(0, 200)}…` : s;
};

export type Ending = "scheduled" | "done";

export interface ClientModel {
  label: string;
  externalId: string;
  brandId: string;
  companyId: string;
  /** The build was seen ready: it stays ready. */
  readySeen?: boolean;
  /** The brand's name as first read (get_profile's brandName or list_brands' name). */
  name?: string;
  /** A repeat of create_profile sent another name since the name was read: the name must not have moved. */
  renamedRepeat?: boolean;
  /** The names repeats of create_profile sent: no second workspace may come of them. */
  repeatNames?: string[];
  deactivation?: Ending;
  /** unscheduledPosts as last answered. */
  unscheduled?: number;
  deletion?: Ending;
}

/** A brand a walk reads but did not make (the brand under test): only its ids are fixed. */
export interface BrandIds {
  label: string;
  brandId: string;
  companyId?: string;
}

export interface BatchModel {
  label: string;
  batchId: string;
  brandId: string;
  /** As create_posts answered it (judged there; what the batch's reads must repeat). */
  companyId?: string | null;
  count: number;
  settledSeen?: boolean;
  /** Slot index → postId, once seen created. */
  posts: Map<number, string>;
  /** Slot index → the contentDigest its item last showed (an item field in development: when a target gives one). */
  digests: Map<number, string>;
  /** Slot index → the destinations its item last named. */
  platforms?: Map<number, string[]>;
}

export interface PostModel extends PostBooking {
  label: string;
  id: string;
  /** The contentDigest of the walk's last view_post (or, before any, of its batch item). */
  digest?: string | null;
  /** Where that digest was read. */
  digestFrom?: "view" | "batch";
  /** An edit went through since that view: the next view shows another digest, and that digest is outdated. */
  edited?: boolean;
  /** The decision recorded while the content stayed as approved or rejected (cleared by an edit). */
  approval?: { decision: "approved" | "rejected"; digest: string | null | undefined };
  deleted?: boolean;
}

/**
 * Judges get_profile of a client (an answer, or the failure once it was erased) and learns from it. `data`
 * undefined: the call failed (the caller judged the envelope); only an erased client may fail.
 */
export function judgeProfile(j: Expect, c: ClientModel | BrandIds, p: AnsweredOutput<"get_profile">, where: string, includeScopes: boolean | undefined): void {
  j.expect(p.brandId === c.brandId && (c.companyId === undefined || p.companyId === c.companyId), "client-ids-agree/get-profile", `${where}: get_profile shows brandId ${show(p.brandId)}, companyId ${show(p.companyId)}; ${c.label} was ${show([c.brandId, c.companyId])}`);
  if (!includeScopes) {
    const scoped = (Array.isArray(p.channels) ? p.channels : []).filter((ch) => ch?.scopes !== null && ch?.scopes !== undefined);
    j.expect(scoped.length === 0, "channel-scopes-on-request/without-include-scopes", `${where}: without includeScopes, channels ${show(scoped.map((ch) => ch.platform))} show scopes`);
  }
  if (!("externalId" in c)) return;
  const status = p.onboarding?.status;
  if (c.readySeen) j.expect(status === "ready", "build-completes", `${where}: the build of ${c.label} was seen ready, now onboarding is ${show(p.onboarding)}`);
  if (status === "ready") c.readySeen = true;
  // A finished build makes the generation tools usable: profile_not_ready is gone (other blockers may remain).
  if (status === "ready")
    j.expect(!(Array.isArray(p.readiness?.blockers) && p.readiness.blockers.includes("profile_not_ready")), "build-completes", `${where}: the build of ${c.label} is ready, yet readiness is ${show(p.readiness)}`);
  if (status === "building" || status === "failed") {
    const blockers: unknown[] = Array.isArray(p.readiness?.blockers) ? p.readiness.blockers : [];
    j.expect(p.readiness?.canGenerate === false && blockers.includes("profile_not_ready"), `profile-not-ready-blocker/${status}`, `${where}: the build is ${status}, readiness is ${show(p.readiness)}`);
  }
  if (c.deactivation === "done") {
    const blockers: unknown[] = Array.isArray(p.readiness?.blockers) ? p.readiness.blockers : [];
    j.expect(p.isActive === false && blockers.includes("brand_inactive"), "deactivation-effects/profile-inactive", `${where}: ${c.label} was seen deactivated, get_profile shows isActive ${show(p.isActive)}, blockers ${show(blockers)}`);
  }
  judgeName(j, c, p.brandName, where, "get_profile's brandName");
}

/** A name shown for a client: the one first read, when a repeat of create_profile sent another since. */
function judgeName(j: Expect, c: ClientModel, name: unknown, where: string, what: string): void {
  if (c.name === undefined) {
    if (typeof name === "string" && !c.renamedRepeat) c.name = name;
    return;
  }
  if (c.renamedRepeat)
    j.expect(name === c.name, "create-profile-idempotent/other-arguments-ignored", `${where}: ${what} is ${show(name)}, but ${c.label} was ${show(c.name)} before create_profile was repeated with another name (a repeat changes nothing, whatever else it sends)`);
}

/** Judges list_brands of a brand's workspace (answered), and learns the client's name from it. */
export function judgeBrandList(j: Expect, c: ClientModel | BrandIds, l: AnsweredOutput<"list_brands">, where: string): void {
  const item = (Array.isArray(l.brands) ? l.brands : []).find((b) => b?.id === c.brandId);
  j.expect(!!item, "client-ids-agree/list-brands", `${where}: list_brands of workspace ${show(c.companyId)} does not list ${c.label} (${c.brandId})`);
  if (c.companyId !== undefined) j.expect(l.workspaceId === c.companyId, "list-brands/workspace-id", `${where}: list_brands answered workspaceId ${show(l.workspaceId)}, asked for ${show(c.companyId)}`);
  if (!("externalId" in c) || !item) return;
  j.expect(l.needsUserChoice === false, "list-brands-client-workspace", `${where}: list_brands of client workspace ${c.companyId} answered needsUserChoice ${show(l.needsUserChoice)}`);
  if (c.deactivation === "done") j.expect(item.isActive === false, "deactivation-effects/profile-inactive", `${where}: ${c.label} was seen deactivated, list_brands shows isActive ${show(item.isActive)}`);
  judgeName(j, c, item.name, where, "list_brands' name");
}

/** Judges get_workspaces of the partner: its live clients listed, its erased ones not (when the list is whole). */
export function judgeWorkspaces(j: Expect, clients: readonly ClientModel[], w: AnsweredOutput<"get_workspaces">, where: string): void {
  if (typeof w.totalCount === "number" && w.totalCount > (Array.isArray(w.workspaces) ? w.workspaces.length : 0)) return;
  const ids = new Set((Array.isArray(w.workspaces) ? w.workspaces : []).map((x) => x?.id));
  const listed = Array.isArray(w.workspaces) ? w.workspaces : [];
  const known = new Set<unknown>(clients.map((c) => c.companyId));
  for (const c of clients) {
    if (!c.deletion) j.expect(ids.has(c.companyId), "workspaces-partner-clients", `${where}: get_workspaces does not list the workspace ${c.companyId} of client ${c.label}`);
    if (c.repeatNames?.length && !c.deletion) {
      // A repeat never makes a second workspace: none named as the client's own or as a repeat sent, beside it.
      const own = listed.find((x) => x?.id === c.companyId)?.name;
      const names = new Set<unknown>([own, ...c.repeatNames]);
      const second = listed.filter((x) => x?.id !== c.companyId && !known.has(x?.id) && typeof x?.name === "string" && names.has(x.name));
      j.expect(second.length === 0, "create-profile-idempotent/no-second-workspace", `${where}: create_profile was repeated for ${c.label} (workspace ${c.companyId}), and get_workspaces lists another workspace like it: ${show(second.map((x) => [x?.id, x?.name]))}`);
    }
    if (c.deletion === "done") j.expect(!ids.has(c.companyId), "erased-client-gone/get-workspaces", `${where}: client ${c.label} was seen deleted, get_workspaces still lists its workspace ${c.companyId}`);
  }
}

/** Judges an answer of deactivate_profile and learns the ending's progress. */
export function judgeDeactivation(j: Expect, c: ClientModel, d: AnsweredOutput<"deactivate_profile">, where: string): void {
  const first = c.deactivation === undefined;
  j.expect(d.companyId === c.companyId, "deactivation-progress/company-id", `${where}: deactivate_profile answered companyId ${show(d.companyId)}, the client's is ${c.companyId}`);
  j.expect(d.status === "deactivation_scheduled" || d.status === "deactivated", first ? "deactivation-progress/first-call" : "deactivation-progress/ends-deactivated", `${where}: deactivate_profile answered status ${show(d.status)}`);
  if (c.deactivation === "done") j.expect(d.status === "deactivated", "deactivation-progress/ends-deactivated", `${where}: ${c.label} was seen deactivated, now deactivate_profile answers ${show(d.status)} (a state seen never moves back)`);
  if (typeof c.unscheduled === "number")
    j.expect(typeof d.unscheduledPosts === "number" && d.unscheduledPosts >= c.unscheduled, "deactivation-progress/unscheduled-monotonic", `${where}: unscheduledPosts went from ${c.unscheduled} to ${show(d.unscheduledPosts)}`);
  // "final once deactivated": a count seen with deactivated does not move on any later call.
  if (c.deactivation === "done" && typeof c.unscheduled === "number")
    j.expect(d.unscheduledPosts === c.unscheduled, "deactivation-progress/unscheduled-monotonic", `${where}: ${c.label} was seen deactivated with unscheduledPosts ${c.unscheduled} (final once deactivated), now ${show(d.unscheduledPosts)}`);
  if (typeof d.unscheduledPosts === "number") c.unscheduled = d.unscheduledPosts;
  if (d.status === "deactivated") c.deactivation = "done";
  else c.deactivation ??= "scheduled";
}

/** Judges an answer of delete_profile (confirm true) and learns the ending's progress. */
export function judgeDeletion(j: Expect, c: ClientModel, d: AnsweredOutput<"delete_profile">, where: string): void {
  const rule = c.deletion === "done" ? "deleted-sticky" : c.deletion ? "deletion-progress/ends-deleted" : "deletion-progress/first-call";
  j.expect(d.deleted === true && d.companyId === c.companyId, rule, `${where}: delete_profile answered deleted ${show(d.deleted)}, companyId ${show(d.companyId)} (the client's is ${c.companyId})`);
  j.expect(d.status === (c.deletion === "done" ? "deleted" : d.status) && (d.status === "deletion_scheduled" || d.status === "deleted"), rule, `${where}: ${c.label}${c.deletion === "done" ? " was seen deleted, and" : ""} delete_profile answers status ${show(d.status)}`);
  if (d.status === "deleted") c.deletion = "done";
  else c.deletion ??= "scheduled";
}

/** Judges create_posts' answer: queued, the brand sent, one pending item per slot. */
export function judgeCreatedBatch(j: Expect, b: AnsweredOutput<"create_posts">, brandId: string, count: number, where: string): void {
  j.expect(typeof b.batchId === "string" && b.batchId.length > 0, "create-posts-queued/batch-id", `${where}: batchId ${show(b.batchId)}`);
  j.expect(b.brandId === brandId && typeof b.companyId === "string", "create-posts-queued/ids", `${where}: brandId ${show(b.brandId)} (sent ${brandId}), companyId ${show(b.companyId)}`);
  j.expect(b.status === "queued", "create-posts-queued/status-queued", `${where}: status ${show(b.status)}, expected queued`);
  j.expect(b.requestedCount === count, "create-posts-queued/requested-count", `${where}: requestedCount ${show(b.requestedCount)}, count sent ${count}`);
  const items = Array.isArray(b.items) ? b.items : [];
  // Each item carries its index (the seed fixes no order of the list): the indexes are 0..count-1, each once.
  const indexes = new Set(items.map((it) => it?.index));
  const slots = Array.from({ length: count }, (_, i) => i).every((i) => indexes.has(i));
  j.expect(items.length === count && slots && items.every((it) => it?.status === "pending"), "create-posts-queued/items-pending", `${where}: items ${show(items.map((it) => [it?.index, it?.status]))}, expected ${count} pending, indexes 0 to ${count - 1}`);
}

/** Judges get_post_batch_status against what create_posts answered and earlier reads showed; learns posts and settling. */
export function judgeBatch(j: Expect, m: BatchModel, s: AnsweredOutput<"get_post_batch_status">, where: string): void {
  const agree = (member: string, field: "brandId" | "companyId" | "requestedCount", want: unknown) =>
    j.expect(s[field] === want, `create-posts-matches-status/${member}`, `${where}: get_post_batch_status shows ${field} ${show(s[field])}, create_posts answered ${show(want)}`);
  agree("brand-id", "brandId", m.brandId);
  agree("company-id", "companyId", m.companyId);
  agree("requested-count", "requestedCount", m.count);
  if (m.settledSeen) j.expect(s.settled === true, "batch-settles/stays-settled", `${where}: batch ${m.label} was seen settled, now settled is ${show(s.settled)} (status ${show(s.status)})`);
  if (s.settled === true) m.settledSeen = true;
  for (const it of Array.isArray(s.items) ? s.items : []) {
    const known = typeof it?.index === "number" ? m.posts.get(it.index) : undefined;
    if (known !== undefined) j.expect(it.postId === known, "batch-items", `${where}: slot ${it.index} of batch ${m.label} showed post ${known}, now ${show(it.postId)}`);
    else if (it?.status === "created" && typeof it.postId === "string" && typeof it.index === "number") m.posts.set(it.index, it.postId);
    if (typeof it?.index !== "number" || !m.posts.has(it.index)) continue;
    if (typeof it.contentDigest === "string") m.digests.set(it.index, it.contentDigest);
    const platforms = platformsIn(it);
    if (platforms) (m.platforms ??= new Map()).set(it.index, platforms);
  }
}

/** Judges view_post of a post the walk knows (answered) and learns its digest. */
export function judgePostView(j: Expect, p: PostModel, v: AnsweredOutput<"view_post">, where: string): void {
  j.expect(v.id === p.id && v.postId === p.id, "view-post-fields/id-post-id", `${where}: view_post of ${p.id} shows id ${show(v.id)}, postId ${show(v.postId)}`);
  if (p.digest !== undefined) {
    if (p.edited) j.expect(v.contentDigest !== p.digest, "digest-follows-content/caption", `${where}: the caption of ${p.label} changed, its contentDigest is still ${show(v.contentDigest)}`);
    else if (p.digestFrom === "batch")
      j.expect(v.contentDigest === p.digest, "digest-agrees-across-views/get_post_batch_status", `${where}: get_post_batch_status showed ${p.label} with contentDigest ${show(p.digest)}, view_post shows ${show(v.contentDigest)} and nothing changed it`);
    else j.expect(v.contentDigest === p.digest, "digest-follows-content/stable", `${where}: nothing changed ${p.label} since it read contentDigest ${show(p.digest)}, now ${show(v.contentDigest)}`);
  }
  if (p.approval?.decision === "approved" && !p.edited)
    j.expect(
      v.approval?.decision === "approved" && v.approval?.contentDigest === p.approval.digest,
      "approve-records-digest/read-back",
      `${where}: ${p.label} was approved with digest ${show(p.approval.digest)} and has not changed since; view_post shows approval ${show(v.approval)}`,
    );
  if (p.approval?.decision === "rejected" && !p.edited)
    j.expect(v.approval?.decision === "rejected", "approval-decision-values/rejected", `${where}: ${p.label} was rejected and has not changed since; view_post shows approval ${show(v.approval)}`);
  if (p.edited) delete p.approval;
  p.platforms = platformsIn(v) ?? p.platforms;
  p.digest = v.contentDigest;
  p.digestFrom = "view";
  p.edited = false;
}

/** Judges the answer of approve_post or reject_post with the digest the walk saw (not outdated), and learns the decision. */
export function judgeDecision(j: Expect, p: PostModel, decision: "approved" | "rejected", d: AnsweredOutput<"approve_post" | "reject_post">, where: string): void {
  if (decision === "approved")
    j.expect(d.approval?.decision === "approved" && d.approval?.contentDigest === p.digest, "approve-records-digest/answer", `${where}: approve_post with digest ${show(p.digest)} recorded ${show(d.approval)}`);
  else j.expect(d.approval?.decision === "rejected", "approval-decision-values/rejected", `${where}: reject_post recorded ${show(d.approval)}`);
  p.approval = { decision, digest: p.digest };
  learnDecision(p, decision);
}
