// Outputs judged field by field by the contract (whatever the gateway advertises in tools/list): workspaces and
// brands, the profile with its channels and readiness, a batch as create_posts and get_post_batch_status answer it,
// and a post as view_post and get_post_status show it. One case per field of the contract's object schema.
import { listOf } from "../../../core/answered.js";
import type { RuleId } from "../../../../generated/rules.js";
import { truthy } from "../answers.js";
import type { RunContext } from "../../../core/check.js";
import { expectError, expectOk, okData } from "../expect.js";
import { expectContractFields } from "../fields.js";
import type { McpContext } from "../extension.js";
import { approveAsSeen, byId, heldDestinations, show, viewPost, type McpCheck } from "./common.js";
import { batchMissing, doneBatch, followNewBatch, sharedBatch } from "./batch-scenario.js";
import { brandIdOrSkip } from "./brand-under-test.js";
import { familyMembers } from "./clients.js";

const group = "mcp-fields";

/** A brand the normal token reaches with no channel listed, or undefined. */
export async function unconnectedBrand(m: McpContext): Promise<string | undefined> {
  const ws = okData(await m.session.call("get_workspaces", {}));
  for (const w of listOf(ws?.workspaces).slice(0, 5)) {
    if (typeof w?.id !== "string") continue;
    for (const b of listOf(okData(await m.session.call("list_brands", { workspaceId: w.id }))?.brands).filter((b) => b?.isActive).slice(0, 5)) {
      if (typeof b?.id !== "string") continue;
      const p = okData(await m.session.call("get_profile", { brandId: b.id }));
      if (p && listOf(p.channels).length === 0) return b.id;
    }
  }
  return undefined;
}

/**
 * create_posts for a brand with no connected channel answers connectionWarning (one post, no picture), and the post
 * it makes cannot be scheduled: approved first, so only the missing account can be why.
 */
async function expectConnectionWarning(ctx: RunContext, m: McpContext): Promise<void> {
  const rule = "create-posts-output-fields/connectionWarning";
  if (!m.target.cost.extraBatches) return ctx.note("connectionWarning was not looked at: it needs a batch of its own (mcp.cost.extra_batches)");
  const brandId = await unconnectedBrand(m);
  if (!brandId) return ctx.note("no brand without a connected channel: connectionWarning was not looked at");
  const request = { brandId, brief: "Conformance run: posts before any account is connected.", count: 1, includeImage: false };
  const t = await followNewBatch(m, `unconnected:${m.run.id}`, request, m.session, undefined, false);
  const b = expectOk(ctx, t.created!, [rule, "connection-warning"]);
  if (!b) return;
  expectContractFields(ctx, "create-posts-output-fields", "create_posts", "PostBatch", b, `create_posts ${b.batchId} for unconnected brand ${brandId}`);
  ctx.expect(typeof b.connectionWarning === "string" && b.connectionWarning.length > 0, [rule, "connection-warning"], `brand ${brandId} has no connected channel; create_posts answered connectionWarning ${show(b.connectionWarning)}`);
  // rule: connection-warning (its posts cannot be scheduled until an account is connected)
  const postId = listOf(t.last?.items).find((i) => typeof i?.postId === "string")?.postId as string | undefined;
  if (!postId) return ctx.note(`the batch for unconnected brand ${brandId} made no post (${t.problem ?? t.outcome}): scheduling it was not tried`);
  await approveAsSeen(ctx, m, postId, "connection-warning");
  expectError(ctx, await m.session.call("schedule_post", { id: postId, scheduledAt: m.run.clock.future(30) }), { rule: "connection-warning" });
  ctx.expect((await heldDestinations(m, postId)).length === 0, "connection-warning", `post ${postId} of a brand with no connected channel shows a booking`);
  await m.session.call("delete_post", { id: postId });
}

export const fieldChecks: McpCheck[] = [
  {
    id: "mcp-workspace-and-brand-fields",
    description: "get_workspaces and list_brands answer every field the contract gives their lists and items, with its type and nullability",
    rules: ["workspaces-output-fields", "workspace-item-fields", "list-brands-output-fields", "brand-item-fields"],
    group,
    async run(ctx) {
      const m = ctx.mcp;
      // rule: workspaces-output-fields, workspace-item-fields, list-brands-output-fields, brand-item-fields
      const ws = expectOk(ctx, await m.session.call("get_workspaces", {}), "workspaces-output-fields/workspaces");
      if (!ws) return;
      expectContractFields(ctx, "workspaces-output-fields", "get_workspaces", "GetWorkspacesOutput", ws, "get_workspaces");
      for (const w of byId(listOf(ws.workspaces)).slice(0, 3)) {
        expectContractFields(ctx, "workspace-item-fields", "get_workspaces", "WorkspaceItem", w, `workspace ${w?.id}`);
        if (typeof w?.id !== "string") continue;
        const list = expectOk(ctx, await m.session.call("list_brands", { workspaceId: w.id }), "list-brands-output-fields/brands");
        if (!list) continue;
        expectContractFields(ctx, "list-brands-output-fields", "list_brands", "ListBrandsOutput", list, `list_brands ${w.id}`);
        for (const b of byId(listOf(list.brands)).slice(0, 10)) expectContractFields(ctx, "brand-item-fields", "list_brands", "BrandItem", b, `brand ${b?.id}`);
      }
    },
  },
  {
    id: "mcp-profile-fields",
    description: "get_profile answers every field the contract gives a profile, its channels and its readiness, with and without includeScopes",
    // onboarding shows only on a profile create_profile made (mcp-build-failure-codes judges it there).
    rules: [...familyMembers("profile-fields").filter((f) => f !== "onboarding").map((f): RuleId => `profile-fields/${f}`), "channel-fields", "readiness-fields", "channel-scopes-on-request"],
    group,
    async run(ctx) {
      const m = ctx.mcp;
      // rule: profile-fields, channel-fields, readiness-fields
      const brandId = await brandIdOrSkip(ctx, m);
      for (const includeScopes of [false, true]) {
        const p = expectOk(ctx, await m.session.call("get_profile", { brandId, includeScopes }), "profile-fields/brandId");
        if (!p) continue;
        const where = `get_profile ${brandId}${includeScopes ? " with includeScopes" : ""}`;
        expectContractFields(ctx, "profile-fields", "get_profile", "Profile", p, where);
        expectContractFields(ctx, "readiness-fields", "get_profile", "Readiness", p.readiness, `${where} readiness`);
        for (const c of listOf(p.channels)) {
          expectContractFields(ctx, "channel-fields", "get_profile", "ProfileChannel", c, `${where} channel ${c?.platform}`);
          if (!includeScopes) ctx.expect(c?.scopes === null, "channel-scopes-on-request/without-include-scopes", `${where} channel ${c?.platform}: scopes ${show(c?.scopes)} without includeScopes`);
        }
      }
    },
  },
  {
    id: "mcp-batch-fields",
    description: "create_posts and every read of get_post_batch_status answer every field the contract gives a batch and its items",
    rules: ["create-posts-output-fields", "batch-output-fields", "batch-item-fields", "connection-warning"],
    // A one-post batch for a brand with no connected channel (connectionWarning).
    spend: ({ cost }) => ({ posts: cost.extraBatches ? 1 : 0 }),
    group,
    optionalSlots: { "mcp.triggers.brief_partial": "the partial batch is judged too where it is given" },
    async run(ctx) {
      const m = ctx.mcp;
      // rule: create-posts-output-fields, batch-output-fields, batch-item-fields
      const t = await sharedBatch(m, "main");
      const created = okData(t.created);
      if (!created) return batchMissing(ctx, t, "create_posts did not answer a batch");
      expectContractFields(ctx, "create-posts-output-fields", "create_posts", "PostBatch", created, `create_posts ${t.batchId}`);
      // The partial batch has no pictures: its items needing media and the batch's warnings show there.
      for (const track of [t, ...(m.slot("mcp.triggers.brief_partial", "optional") ? [await sharedBatch(m, "partial")] : [])])
        for (const [i, b] of track.polls.map(okData).filter(truthy).entries()) {
          const where = `batch ${track.batchId} read ${i + 1} (${b.status})`;
          expectContractFields(ctx, "batch-output-fields", "get_post_batch_status", "PostBatchStatus", b, where);
          for (const item of listOf(b.items)) expectContractFields(ctx, "batch-item-fields", "get_post_batch_status", "BatchItem", item, `${where} item ${item?.index}`);
        }
      await expectConnectionWarning(ctx, m);
    },
  },
  {
    id: "mcp-post-fields",
    description: "view_post and get_post_status answer every field the contract gives a post view, its destinations and pictures, and a post status",
    rules: ["post-view-fields", "destination-fields", "destination-image-fields", "post-status-fields"],
    group,
    async run(ctx) {
      const m = ctx.mcp;
      // rule: post-view-fields, destination-fields, destination-image-fields, post-status-fields
      const t = await doneBatch(ctx, m);
      const ids: string[] = listOf(t.last?.items).map((i) => i?.postId).filter((id): id is string => typeof id === "string").slice(0, 3);
      if (!ids.length) return ctx.skip("the main batch made no post");
      for (const id of ids) {
        const v = await viewPost(ctx, m, id, "post-view-fields/id");
        expectContractFields(ctx, "post-view-fields", "view_post", "PostView", v, `view_post ${id}`);
        for (const d of listOf(v.destinations)) {
          expectContractFields(ctx, "destination-fields", "view_post", "PostDestination", d, `view_post ${id} ${d?.platform}`);
          for (const img of listOf(d?.images)) expectContractFields(ctx, "destination-image-fields", "view_post", "DestinationImage", img, `view_post ${id} ${d?.platform} image`);
        }
        const s = expectOk(ctx, await m.session.call("get_post_status", { id }), "post-status-fields/id");
        if (s) expectContractFields(ctx, "post-status-fields", "get_post_status", "PostStatus", s, `get_post_status ${id}`);
      }
    },
  },
];
