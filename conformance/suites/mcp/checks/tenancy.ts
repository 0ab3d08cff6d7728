// Tenancy: another tenant's token reaches none of the brand, its workspace, its batches or its posts — reads and
// writes alike are refused with not_found or forbidden, and the refused writes change nothing.
import { expectError, expectOk } from "../expect.js";
import { platformsOf, show, viewPost, type McpCheck } from "./common.js";
import { claimPost, doneBatch } from "./batch-scenario.js";
import { brandOrSkip } from "./brand-under-test.js";

const group = "mcp-tenancy";
const refused = ["not_found", "forbidden"] as const;

export const tenancyChecks: McpCheck[] = [
  {
    id: "mcp-cross-tenant-refused",
    description: "Another tenant's token gets not_found or forbidden for the brand, workspace, batch and post, and its writes change nothing",
    rules: ["cross-tenant-refused", "cross-tenant-not-listed", "list-brands-foreign-forbidden"],
    group,
    optionalSlots: { "mcp.inputs.allow_publishing": "publish_post_now is called too only where publishing is allowed (posts go live)" },
    async run(ctx) {
      const m = ctx.mcp;
      const rule = "cross-tenant-refused/view_post";
      const brand = await brandOrSkip(ctx, m);
      if (!brand.companyId) return ctx.fail("contract-output-shape/get_profile", `get_profile of brand ${brand.brandId} answered no companyId: ${show(brand.profile)}`);
      const batch = await doneBatch(ctx, m);
      const id = await claimPost(ctx, m, "the cross-tenant check");
      const before = await viewPost(ctx, m, id, rule);
      const s = m.session;
      const other = "otherTenant" as const;

      const listed = expectOk(ctx, await s.call("get_workspaces", {}, other), "cross-tenant-not-listed");
      if (listed) ctx.expect(!(listed.workspaces ?? []).some((w) => w?.id === brand.companyId), "cross-tenant-not-listed", `get_workspaces as another tenant lists workspace ${brand.companyId}`);
      const reads: [string, Record<string, unknown>][] = [
        ["get_profile", { brandId: brand.brandId }],
        ["list_brands", { workspaceId: brand.companyId }],
        ["get_post_batch_status", { batchId: batch.batchId }],
        ["view_post", { id }],
        ["get_post_status", { id }],
      ];
      const writes: [string, Record<string, unknown>][] = [
        ["update_post", { id, caption: "Conformance run: written by another tenant." }],
        ["approve_post", { id, contentDigest: before.contentDigest }],
        ["reject_post", { id, reason: "Conformance run: another tenant's review.", contentDigest: before.contentDigest }],
        ["schedule_post", { id, scheduledAt: m.run.clock.future(30) }],
        ["unschedule_platform", { id, platform: platformsOf(before)[0] ?? "INSTAGRAM", platformPostId: `conformance-${m.run.id}` }],
        ["generate_caption", { postId: id }],
        ["regenerate_post_image", { postId: id }],
        ["delete_post", { id }],
        ["create_posts", { brandId: brand.brandId, brief: "Conformance run: another tenant's brief.", count: 1, includeImage: false }],
        ["create_draft", { brandId: brand.brandId, caption: "Conformance run: another tenant's draft." }],
        // publish_post_now would put the post live should the gateway let it through: only where publishing is allowed.
        ...(m.slot("mcp.inputs.allow_publishing", "optional") ? ([["publish_post_now", { id }]] as [string, Record<string, unknown>][]) : []),
      ];
      const live = new Set((await s.tools("normal")).map((t) => t.name));
      for (const [tool, args] of [...reads, ...writes, ["get_brand_style", { brandId: brand.brandId }] as [string, Record<string, unknown>]])
        if (live.has(tool)) expectError(ctx, await s.callRaw(tool, args, other), { code: refused, rule: `cross-tenant-refused/${tool}` });
      // list_brands of a workspace that is not the caller's: forbidden, by the seed's own words.
      expectError(ctx, await s.call("list_brands", { workspaceId: brand.companyId }, other), { code: "forbidden", rule: "list-brands-foreign-forbidden" });

      const after = await viewPost(ctx, m, id, rule);
      ctx.expect(
        after.contentDigest === before.contentDigest && show(after.approval) === show(before.approval),
        ["cross-tenant-refused/update_post", "cross-tenant-refused/approve_post", "cross-tenant-refused/reject_post"],
        `post ${id} changed after another tenant's refused writes: digest ${show(before.contentDigest)} → ${show(after.contentDigest)}, approval ${show(after.approval)}`,
      );
    },
  },
];
