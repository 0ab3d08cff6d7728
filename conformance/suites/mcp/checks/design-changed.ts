// The approval gate's design check: a post whose design changed after its approval (provoked through the target's
// design_changed trigger) is refused by schedule_post and publish_post_now with design_changed_after_approval, and
// nothing goes out.
import { expectError } from "../expect.js";
import { goneOut, unbook, type McpCheck } from "./common.js";
import { FEED, feedPost } from "./drafts.js";

export const designChangedChecks: McpCheck[] = [
  {
    id: "mcp-design-changed-after-approval",
    description: "A post whose design changed after approval is refused by schedule_post and publish_post_now with design_changed_after_approval, and nothing is sent",
    rules: ["design-changed-after-approval"],
    group: "mcp-approval",
    optionalSlots: { "mcp.inputs.allow_publishing": "publish_post_now is called too only where publishing is allowed (posts go live)" },
    async run(ctx) {
      const m = ctx.mcp;
      const rule = "design-changed-after-approval";
      const id = await feedPost(ctx, m, ctx.slot("mcp.triggers.design_changed"), rule);
      expectError(ctx, await m.session.call("schedule_post", { id, scheduledAt: m.run.clock.future(38), platforms: [FEED] }), { code: "design_changed_after_approval", rule });
      if (m.slot("mcp.inputs.allow_publishing", "optional")) expectError(ctx, await m.session.call("publish_post_now", { id, platforms: [FEED] }), { code: "design_changed_after_approval", rule });
      const out = await goneOut(m, id);
      ctx.expect(out.length === 0, rule, `post ${id} was refused with design_changed_after_approval, yet ${out.join(", ")}`);
      if (out.length) await unbook(ctx, m, id);
    },
  },
];
