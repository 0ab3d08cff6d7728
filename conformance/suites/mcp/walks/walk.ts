// Runs the steps of one MCP walk with the check's SDK session: each step's tools/call, every answer judged by the
// assertions of the scripted checks (conventions, envelope, contract shape: conformance/suites/mcp/expect.ts) and by the
// model's predictions (model.ts), the model updated from what the gateway showed. Clients the walk made are
// erased when it ends, failing or not (the suite leaves nothing behind).
import type { RuleId } from "../../../../generated/rules.js";
import { brandUnderTest } from "../checks/brand-under-test.js";
import { unbook, unknownId, unknownUuid } from "../checks/common.js";
import { mcpWalksId } from "../checks/walks.js";
import type { CallOutcome } from "../client.js";
import type { ToolInputs, ToolName } from "../../../../generated/mcp/types.js";
import { errorOf, expectError, expectOk, expectRan, okData } from "../expect.js";
import type { McpCheckContext, McpContext } from "../extension.js";
import type { McpTokenKind } from "../target.js";
import type { Collecting, WalkKind, Walker } from "../../../core/walks/engine.js";
import {
  judgeBatch,
  judgeBrandList,
  judgeCreatedBatch,
  judgeDeactivation,
  judgeDecision,
  judgeDeletion,
  judgePostView,
  judgeProfile,
  judgeWorkspaces,
  type BatchModel,
  type BrandIds,
  type ClientModel,
  type PostModel,
} from "./model.js";
import { blockedIn, gateOf, judgeLocked, judgePostStatus, learnEdit, lockedCodes } from "./booking.js";
import { describeMcpStep, mainBrand, mcpFocusOf, mcpReplayFormat, planMcpWalk, type McpAbilities, type McpStep } from "./steps.js";

/** What the target lets a walk do (steps.ts). */
export function abilitiesOf(m: McpContext): McpAbilities {
  const t = m.target;
  return { clients: !!t.tokens.partner && t.profile === "all" && t.cost.builds, batches: t.cost.extraBatches, otherTenant: !!t.tokens.otherTenant };
}

/** A number per client made in a run, so that each walk and each replay of it makes clients of its own. */
const clientNumber = (m: McpContext): number => ++m.run.once("walk-clients", () => ({ made: 0 })).made;
const refused = ["not_found", "forbidden"] as const;

/** The contract's platform lists hold at least one name. */
const nonEmpty = <T>(xs: T[]): xs is [T, ...T[]] => xs.length > 0;

class McpWalk implements Walker<McpStep> {
  readonly clients = new Map<string, ClientModel>();
  readonly batches = new Map<string, BatchModel>();
  readonly posts = new Map<string, PostModel>();
  /** Posts the walk asked to book: what they hold is withdrawn when it ends (the suite leaves nothing booked). */
  readonly scheduled = new Set<PostModel>();
  readonly m: McpContext;
  readonly can: McpAbilities;
  constructor(readonly ctx: Collecting<McpCheckContext>) {
    this.m = ctx.mcp;
    this.can = abilitiesOf(this.m);
  }

  call<N extends ToolName>(tool: N, args: ToolInputs[N], as: McpTokenKind = "normal"): Promise<CallOutcome<N>> {
    return this.m.session.callRaw(tool, args as Record<string, unknown>, as);
  }

  /** The brand under test, when the gateway has one the suite can use. */
  async main(): Promise<BrandIds | undefined> {
    const b = await brandUnderTest(this.m);
    return b.brandId ? { label: mainBrand, brandId: b.brandId, ...(b.companyId ? { companyId: b.companyId } : {}) } : undefined;
  }

  /** A post of a batch, once the walk has seen it created (`x1#2`: slot 2 of batch x1). */
  post(label: string): PostModel | undefined {
    const known = this.posts.get(label);
    if (known) return known;
    const [batch, slot] = label.split("#");
    const b = this.batches.get(batch ?? "");
    const id = b?.posts.get(Number(slot) - 1);
    if (!id) return undefined;
    const digest = b!.digests.get(Number(slot) - 1);
    // The item's digest is the one view_post shows (digest-agrees-across-views): a reviewer may approve by it.
    const platforms = b!.platforms?.get(Number(slot) - 1);
    const p: PostModel = { label, id, ...(digest !== undefined ? { digest, digestFrom: "batch" as const } : {}), ...(platforms ? { platforms } : {}) };
    this.posts.set(label, p);
    return p;
  }

  async profile(brand: ClientModel | BrandIds, where: string, includeScopes?: boolean): Promise<void> {
    const o = await this.call("get_profile", { brandId: brand.brandId, ...(includeScopes === undefined ? {} : { includeScopes }) }, "externalId" in brand ? "partner" : "normal");
    const c = "externalId" in brand ? brand : undefined;
    if (c?.deletion === "done") return void expectError(this.ctx, o, { code: refused, rule: "erased-client-gone/get-profile" });
    // While an erasure runs, what a read shows is not fixed: only the conventions are judged.
    if (c?.deletion) return void (okData(o) ?? expectError(this.ctx, o, { rule: "deletion-progress/ends-deleted" }));
    const p = expectOk(this.ctx, o, "client-ids-agree/get-profile");
    if (p) judgeProfile(this.ctx, brand, p, where, includeScopes);
  }

  async brandList(brand: ClientModel | BrandIds, where: string): Promise<boolean> {
    if (!brand.companyId) return false;
    const c = "externalId" in brand ? brand : undefined;
    const o = await this.call("list_brands", { workspaceId: brand.companyId }, c ? "partner" : "normal");
    if (c?.deletion === "done") {
      // Any error is what the seed says (no code is named): the envelope judged, the rule holds.
      const rule = "erased-client-gone/list-brands";
      if (expectError(this.ctx, o, { rule })) this.ctx.expect(true, rule, "");
      return true;
    }
    if (c?.deletion) return void (okData(o) ?? expectError(this.ctx, o, { rule: "deletion-progress/ends-deleted" })), true;
    const l = expectOk(this.ctx, o, "client-ids-agree/list-brands");
    if (l) judgeBrandList(this.ctx, brand, l, where);
    return true;
  }

  async deactivate(c: ClientModel, where: string): Promise<CallOutcome> {
    const rule = c.deactivation === undefined ? "deactivation-progress/first-call" : "deactivation-progress/ends-deactivated";
    const o = await this.call("deactivate_profile", { brandId: c.brandId }, "partner");
    const d = expectOk(this.ctx, o, rule);
    if (d) judgeDeactivation(this.ctx, c, d, where);
    return o;
  }

  async erase(c: ClientModel, where: string): Promise<CallOutcome> {
    const rule = c.deletion === "done" ? "deleted-sticky" : c.deletion ? "deletion-progress/ends-deleted" : "deletion-progress/first-call";
    const o = await this.call("delete_profile", { brandId: c.brandId, confirm: true }, "partner");
    const d = expectOk(this.ctx, o, rule);
    if (d) judgeDeletion(this.ctx, c, d, where);
    return o;
  }

  async batch(b: BatchModel, where: string): Promise<CallOutcome> {
    const o = await this.call("get_post_batch_status", { batchId: b.batchId });
    const s = expectOk(this.ctx, o, "create-posts-matches-status/brand-id");
    if (s) judgeBatch(this.ctx, b, s, where);
    return o;
  }

  async view(p: PostModel, where: string): Promise<void> {
    const o = await this.call("view_post", { id: p.id });
    if (p.deleted) return void expectError(this.ctx, o, { code: refused, rule: "delete-post" });
    const v = expectOk(this.ctx, o, "view-post-fields/id-post-id");
    if (v) judgePostView(this.ctx, p, v, where);
  }

  async step(step: McpStep, where: string): Promise<boolean> {
    const { ctx, m } = this;
    switch (step.op) {
      case "create-client": {
        if (!this.can.clients) return false;
        const n = clientNumber(m);
        const externalId = `walk-${m.run.id}-${n}`;
        const o = await this.call("create_profile", { websiteUrl: m.slot("mcp.inputs.website"), name: `Walk ${m.run.id} ${step.client} ${n}`, externalId }, "partner");
        const d = expectOk(ctx, o, "create-profile-building/ids");
        if (!d) return true;
        const { brandId, companyId } = d;
        if (!ctx.expect(typeof brandId === "string" && typeof companyId === "string", "create-profile-building/ids", `${where}: create_profile answered ids ${JSON.stringify([brandId, companyId])}`)) return true;
        if (typeof brandId !== "string" || typeof companyId !== "string") return true;
        this.clients.set(step.client, { label: step.client, externalId, brandId, companyId });
        ctx.expect(d.created === true, "create-profile-building/created", `${where}: a new externalId answered created ${JSON.stringify(d.created)}`);
        ctx.expect(d.status === "building" || (d.status === "failed" && typeof d.error === "string"), "create-profile-building/status", `${where}: a new client's build is ${JSON.stringify(d.status)}`);
        return true;
      }
      case "repeat-client": {
        const c = this.clients.get(step.client);
        if (!c) return false;
        const website = step.renamed ? m.slot("mcp.inputs.website").replace(/^(https?:\/\/)?/, "https://repeat.") : m.slot("mcp.inputs.website");
        const name = step.renamed ? `Walk renamed ${m.run.id} ${step.client}` : `Walk ${m.run.id} ${step.client}`;
        (c.repeatNames ??= []).push(name);
        const o = await this.call("create_profile", { websiteUrl: website, name, externalId: c.externalId }, "partner");
        const d = expectOk(ctx, o, "create-profile-idempotent/same-ids");
        if (!d) return true;
        ctx.expect(d.brandId === c.brandId && d.companyId === c.companyId, ["create-profile-idempotent/same-ids", ...(step.renamed ? (["create-profile-idempotent/other-arguments-ignored"] as const) : [])], `${where}: the repeat answered ${JSON.stringify([d.brandId, d.companyId])}, the first call ${JSON.stringify([c.brandId, c.companyId])}`);
        ctx.expect(d.created === false, "create-profile-idempotent/created-false", `${where}: the repeat answered created ${JSON.stringify(d.created)}`);
        if (c.readySeen && !c.deletion) ctx.expect(d.status === "ready", "create-profile-idempotent/current-state", `${where}: the build of ${c.label} was seen ready, the repeat answered ${JSON.stringify(d.status)}`);
        if (step.renamed) c.renamedRepeat = true;
        return true;
      }
      case "get-profile": {
        const brand = step.brand === mainBrand ? await this.main() : this.clients.get(step.brand);
        if (!brand) return false;
        await this.profile(brand, where, step.includeScopes);
        return true;
      }
      case "list-brands": {
        const brand = step.brand === mainBrand ? await this.main() : this.clients.get(step.brand);
        return brand ? this.brandList(brand, where) : false;
      }
      case "get-workspaces": {
        const partner = this.clients.size > 0;
        const o = await this.call("get_workspaces", { limit: 200 }, partner ? "partner" : "normal");
        const w = expectOk(ctx, o, partner ? "workspaces-partner-clients" : "client-ids-agree/list-brands");
        if (w && partner) judgeWorkspaces(ctx, [...this.clients.values()], w, where);
        return true;
      }
      case "deactivate": {
        const c = this.clients.get(step.client);
        // Deactivating a client being erased is not fixed by the seed: left out.
        if (!c || c.deletion) return false;
        await this.deactivate(c, where);
        return true;
      }
      case "delete-client": {
        const c = this.clients.get(step.client);
        if (!c) return false;
        await this.erase(c, where);
        return true;
      }
      case "create-batch": {
        const main = this.can.batches ? await this.main() : undefined;
        if (!main) return false;
        const o = await this.call("create_posts", { brandId: main.brandId, brief: `Stateful walk ${m.run.id}: a week of posts about fresh bread (${step.batch}).`, count: step.count, includeImage: false });
        const b = expectOk(ctx, o, "create-posts-queued/batch-id");
        if (!b || typeof b.batchId !== "string") return true;
        const others = [...this.batches.values()].map((x) => x.batchId);
        ctx.expect(!others.includes(b.batchId), "create-posts-repeat-new-batch", `${where}: create_posts answered batch ${b.batchId}, which an earlier call of the walk made`);
        judgeCreatedBatch(ctx, b, main.brandId, step.count, where);
        this.batches.set(step.batch, { label: step.batch, batchId: b.batchId, brandId: main.brandId, companyId: b.companyId, count: step.count, posts: new Map(), digests: new Map() });
        return true;
      }
      case "get-batch": {
        const b = this.batches.get(step.batch);
        if (!b) return false;
        await this.batch(b, where);
        return true;
      }
      case "view-post": {
        const p = this.post(step.post);
        if (!p) return false;
        await this.view(p, where);
        return true;
      }
      case "edit-post": {
        const p = this.post(step.post);
        if (!p || p.deleted) return false;
        const o = await this.call("update_post", { id: p.id, caption: step.caption });
        // Whether a booked post's caption can change is not fixed (the provider holds it): only the conventions.
        const edited = p.booking === "booked" ? expectRan(ctx, o, "digest-follows-content/caption") && okData(o) : expectOk(ctx, o, "digest-follows-content/caption");
        if (edited) {
          p.edited = true;
          learnEdit(p);
        }
        return true;
      }
      case "approve":
      case "reject": {
        const p = this.post(step.post);
        if (!p || p.deleted || p.digest === undefined) return false;
        const tool = step.op === "approve" ? "approve_post" : "reject_post";
        const args = { id: p.id, contentDigest: p.digest, ...(step.op === "reject" ? { reason: "Stateful walk: not this week." } : {}) };
        // The digest as the walk read it, null included (a target that showed none): sent as it was shown.
        const o = await this.m.session.callRaw(tool, args);
        // An edit since the walk's last view: the digest it holds is outdated, and the decision records nothing.
        if (p.edited) return void expectError(ctx, o, { code: "post_content_changed", rule: `approve-outdated-digest/${tool}` }), true;
        // A booked post cannot be rejected: the provider holds it (its lockedDestinations carry no platformPostId).
        if (step.op === "reject" && p.booking === "booked") return void expectError(ctx, o, { code: lockedCodes, rule: "reject-booked-locked" }), true;
        const d = expectOk(ctx, o, step.op === "approve" ? "approve-records-digest/answer" : "approval-decision-values/rejected");
        if (d) judgeDecision(ctx, p, step.op === "approve" ? "approved" : "rejected", d, where);
        return true;
      }
      case "delete-post": {
        const p = this.post(step.post);
        if (!p || p.deleted) return false;
        const o = await this.call("delete_post", { id: p.id });
        if (p.booking === "booked") return void expectError(ctx, o, { code: lockedCodes, rule: "delete-post" }), true;
        if (expectOk(ctx, o, "delete-post")) p.deleted = true;
        return true;
      }
      case "schedule":
        return this.schedule(step.post, step.days, where);
      case "reschedule":
        return this.reschedule(step.post, step.days, where);
      case "unschedule": {
        const p = this.post(step.post);
        if (!p || p.deleted) return false;
        const held = await this.status(p, where);
        for (const h of held ?? []) {
          const rule = "already-scheduled-locked/unschedule-withdraws";
          const w = expectOk(ctx, await this.call("unschedule_platform", { id: p.id, ...h }), rule);
          if (w) ctx.expect(w.unscheduled === true && w.platform === h.platform, rule, `${where}: unschedule_platform ${h.platform} of ${p.label} answered ${JSON.stringify(w)}`);
        }
        if (held?.length || p.booking === "booked") p.booking = "withdrawn";
        return true;
      }
      case "post-status": {
        const p = this.post(step.post);
        if (!p || p.deleted) return false;
        await this.status(p, where);
        return true;
      }
      case "wait":
        await this.wait(where);
        return true;
      case "unknown-id": {
        if (step.tool === "delete_profile") {
          if (!this.can.clients) return false;
          expectError(ctx, await this.call("delete_profile", { brandId: unknownUuid(), confirm: true }, "partner"), { code: "not_found", rule: "delete-unknown-not-found" });
          return true;
        }
        const arg = step.tool === "get_profile" ? "brandId" : step.tool === "view_post" ? "id" : "batchId";
        expectError(ctx, await this.m.session.callRaw(step.tool, { [arg]: step.tool === "get_profile" ? unknownUuid() : unknownId() }), { code: refused, rule: `unknown-id-refused/${step.tool}` });
        return true;
      }
      case "other-tenant": {
        if (!this.can.otherTenant) return false;
        if (step.tool === "get_profile") {
          const brand = step.brand === mainBrand ? await this.main() : this.clients.get(step.brand ?? "");
          if (!brand) return false;
          expectError(ctx, await this.call("get_profile", { brandId: brand.brandId }, "otherTenant"), { code: refused, rule: "cross-tenant-refused/get_profile" });
          return true;
        }
        const p = this.post(step.post ?? "");
        if (!p || p.deleted) return false;
        const rule: RuleId = `cross-tenant-refused/${step.tool}`;
        const args = step.tool === "view_post" ? { id: p.id } : { id: p.id, caption: "Another tenant's caption." };
        expectError(ctx, await this.m.session.callRaw(step.tool, args, "otherTenant"), { code: refused, rule });
        // Refused, so nothing changed: the post as this tenant reads it is still what the model says.
        if (step.tool === "update_post" && p.digest !== undefined && !p.edited) {
          const v = expectOk(ctx, await this.call("view_post", { id: p.id }), rule);
          if (v) ctx.expect(v.contentDigest === p.digest, rule, `${where}: after another tenant's refused update_post, the contentDigest of ${p.label} moved from ${JSON.stringify(p.digest)} to ${JSON.stringify(v.contentDigest)}`);
        }
        return true;
      }
    }
  }

  /** get_post_status of a post the walk knows, judged; what it shows booked (undefined: the call failed). */
  async status(p: PostModel, where: string): Promise<{ platform: string; platformPostId: string }[] | undefined> {
    const s = expectOk(this.ctx, await this.call("get_post_status", { id: p.id }), "already-scheduled-locked/locked-destinations");
    return s ? judgePostStatus(this.ctx, p, s, where) : undefined;
  }

  /** schedule_post: refused by the gate or the lock when the walk's own calls fix it; otherwise booked or not, as the target decides. */
  async schedule(label: string, days: number, where: string): Promise<boolean> {
    const { ctx } = this;
    const p = this.post(label);
    if (!p || p.deleted) return false;
    const args = { id: p.id, scheduledAt: this.m.run.clock.future(days) };
    this.scheduled.add(p);
    // A booked post is asked again for what it booked: with other destinations too, the call books those (a retry).
    let o = await this.call("schedule_post", p.booking === "booked" && p.bookedWith ? { ...args, platforms: p.bookedWith } : args);
    const gate = gateOf(p, "schedule_post");
    if (gate) return void expectError(ctx, o, gate), true;
    if (p.booking === "booked") {
      const e = expectError(ctx, o, { code: lockedCodes, rule: "already-scheduled-locked/locked-destinations" });
      if (e) judgeLocked(ctx, p, e, where);
      return true;
    }
    // A post without pictures may be blocked at pre-flight on some destinations: book the others, as the seed advises.
    const rule = p.booking === "withdrawn" ? "already-scheduled-locked/unschedule-withdraws" : "platforms-subset/schedule_post";
    expectRan(ctx, o, rule);
    const blocked = blockedIn(errorOf(o));
    const rest = (p.platforms ?? []).filter((x) => !blocked.includes(x));
    const subset = blocked.length && nonEmpty(rest) ? rest : undefined;
    if (subset) expectRan(ctx, (o = await this.call("schedule_post", { ...args, platforms: subset })), rule);
    const code = errorOf(o)?.code;
    if (p.booking === "withdrawn") ctx.expect(!lockedCodes.includes(code), rule, `${where}: every booked destination of ${p.label} was withdrawn, and schedule_post answers ${JSON.stringify(code)}`);
    if (okData(o)) [p.booking, p.bookedWith] = ["booked", subset];
    return true;
  }

  /** reschedule_posts with one entry: one move for it, refused by the gate when the walk's own calls fix it. */
  async reschedule(label: string, days: number, where: string): Promise<boolean> {
    const { ctx } = this;
    const p = this.post(label);
    if (!p || p.deleted) return false;
    const rule = "reschedule-per-entry/one-per-entry";
    this.scheduled.add(p);
    const d = expectOk(ctx, await this.call("reschedule_posts", { moves: [{ postId: p.id, scheduledAt: this.m.run.clock.future(days) }] }), rule);
    if (!d) return true;
    const moves: unknown[] = Array.isArray(d.moves) ? d.moves : [];
    const move = (moves[0] ?? {}) as { postId?: unknown; ok?: unknown; error?: { code?: unknown } | null };
    if (!ctx.expect(moves.length === 1 && (move?.postId === undefined || move.postId === p.id), rule, `${where}: one entry for ${p.label} answered moves ${JSON.stringify(moves)}`)) return true;
    const gate = gateOf(p, "reschedule_posts");
    if (gate) ctx.expect(move.ok === false && move.error?.code === gate.code, gate.rule, `${where}: the gate must refuse ${p.label} with ${gate.code}; its move answered ${JSON.stringify(move)}`);
    else if (move.ok === true) [p.booking, p.bookedWith] = ["booked", undefined];
    return true;
  }

  /** Follows every build, ending and batch under way, at the seed's pace, judging every answer on the way. */
  async wait(where: string): Promise<void> {
    const { ctx, m } = this;
    const t = m.target.timing;
    const follow = async (label: string, read: () => Promise<CallOutcome>, done: (o: CallOutcome) => boolean, interval: number, deadline: number, rule: RuleId) => {
      const r = await m.run.poll(`${where}: ${label}`, read, done, () => interval, deadline, (text) => ctx.waiting(text));
      if (!r.finished) ctx.expect(false, rule, `${where}: ${label} had not ended after ${(deadline / 1000).toFixed(0)} s`);
    };
    const jobs: Promise<void>[] = [];
    for (const c of this.clients.values()) {
      if (c.deletion === "scheduled")
        jobs.push(follow(`deletion of ${c.label}`, () => this.erase(c, where), () => c.deletion === "done" || ctx.failed, t.endingPollMs, t.endingDeadlineMs, "deletion-progress/ends-deleted"));
      else if (c.deletion) continue;
      else if (c.deactivation === "scheduled")
        jobs.push(follow(`deactivation of ${c.label}`, () => this.deactivate(c, where), () => c.deactivation === "done" || ctx.failed, t.endingPollMs, t.endingDeadlineMs, "deactivation-progress/ends-deactivated"));
      else if (!c.readySeen && !c.deactivation) {
        let status: unknown;
        const read = async () => {
          const o = await this.call("get_profile", { brandId: c.brandId }, "partner");
          const p = expectOk(ctx, o, "client-ids-agree/get-profile");
          if (p) judgeProfile(ctx, c, p, where, undefined);
          status = p?.onboarding?.status;
          return o;
        };
        jobs.push(follow(`build of ${c.label}`, read, () => status !== "building" || ctx.failed, t.buildPollMs, t.buildDeadlineMs, "build-completes"));
      }
    }
    for (const b of this.batches.values())
      if (!b.settledSeen) jobs.push(follow(`batch ${b.label}`, () => this.batch(b, where), () => !!b.settledSeen || ctx.failed, t.batchPollFirstMs, t.batchGiveUpMs, "batch-settles/within-give-up"));
    await Promise.all(jobs);
  }

  /** Erases the clients the walk made and has not erased (cleanup; the walk's verdict is already in). */
  async close(): Promise<void> {
    for (const p of this.scheduled) if (!p.deleted) await unbook(this.ctx, this.m, p.id);
    for (const c of this.clients.values())
      if (!c.deletion && !okData(await this.call("delete_profile", { brandId: c.brandId, confirm: true }, "partner"))) this.ctx.note(`cleanup: could not erase walk client ${c.brandId}`);
  }
}

/** The MCP walks: planned by steps.ts, judged by model.ts. */
export const mcpWalkKind: WalkKind<McpStep, McpCheckContext> = {
  checkId: mcpWalksId,
  format: mcpReplayFormat,
  plan: (seed, walk, length, ctx) => planMcpWalk(seed, walk, length, abilitiesOf(ctx.mcp)),
  focus: (walk, ctx) => mcpFocusOf(walk, abilitiesOf(ctx.mcp))?.name,
  describe: describeMcpStep,
  waits: (s) => s.op === "wait",
  // What the plan counts as pending (steps.ts): a build, a deactivation, an erasure, a batch.
  startsWork: (s) => s.op === "create-client" || s.op === "deactivate" || s.op === "delete-client" || s.op === "create-batch",
  walker: (ctx) => new McpWalk(ctx),
  concurrency: (ctx) => ctx.mcp.run.concurrency,
};
