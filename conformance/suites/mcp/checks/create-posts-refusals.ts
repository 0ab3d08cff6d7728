// create_posts refused before anything is generated, one refusal per code, each answered without a batch; a named
// destination with no live connection refused with platform_not_connected naming what is and is not connected;
// and adding REDDIT to a post without and then with its reddit options.
import type { RuleId } from "../../../../generated/rules.js";
import type { RunContext } from "../../../core/check.js";
import type { CallOutcome } from "../client.js";
import type { McpContext } from "../extension.js";
import { expectError, expectOk, okData } from "../expect.js";
import { channelPosts, platformsOf, show, unknownId, viewPost, type McpCheck } from "./common.js";
import { brandPublishingTo, caseCaption, draft } from "./drafts.js";
import { brandIdOrSkip } from "./brand-under-test.js";

const group = "mcp-create-posts-refusals";
const refusal = (code: string): RuleId => `create-posts-refusal-no-batch/${code}`;

/** create_posts for one post of `brandId` with `extra`; judged as a refusal with `code` that made no batch. */
async function expectRefused(ctx: RunContext, m: McpContext, brandId: string, extra: Record<string, unknown>, code: string, rule: RuleId): Promise<Record<string, any> | undefined> {
  const o = await m.session.callRaw("create_posts", { brandId, brief: `Conformance run ${m.run.id}: never made.`, count: 1, includeImage: false, ...extra });
  const e = expectError(ctx, o, { code, rule });
  ctx.expect(!okData(o)?.batchId && !(e && "batchId" in e), rule, `create_posts refused with ${show(e?.code)} still answered a batch: ${show(o.data)}`);
  return e;
}

/** The destination's base channel (lowercase; stories publish through the feed channel). */
const channelOf = (platform: string) => platform.toLowerCase().replace(/_stories$/, "");

export const createPostsRefusalChecks: McpCheck[] = [
  {
    id: "mcp-create-posts-refusals",
    description: "create_posts with unknown library pictures, an unsupported destination, REDDIT without options or stories without media is refused with its code and makes no batch",
    rules: [refusal("bad_request"), refusal("platform_not_supported"), refusal("reddit_options_required"), refusal("media_required")],
    group,
    async run(ctx) {
      const m = ctx.mcp;
      const brandId = await brandPublishingTo(ctx, m, ["instagram"]);
      const bad = await expectRefused(ctx, m, brandId, { mediaIds: [unknownId()] }, "bad_request", refusal("bad_request"));
      if (bad) ctx.expect((bad.invalidFields ?? []).includes("mediaIds.0"), refusal("bad_request"), `bad_request for an unknown mediaIds entry names ${show(bad.invalidFields)}, not mediaIds.0`);
      const unsupported = await expectRefused(ctx, m, brandId, { platforms: ["CONFORMANCE_NOWHERE"] }, "platform_not_supported", refusal("platform_not_supported"));
      if (unsupported)
        ctx.expect((unsupported.unsupportedPlatforms ?? []).includes("CONFORMANCE_NOWHERE"), refusal("platform_not_supported"), `unsupportedPlatforms ${show(unsupported.unsupportedPlatforms)} does not name CONFORMANCE_NOWHERE`);
      await expectRefused(ctx, m, brandId, { platforms: ["INSTAGRAM_STORIES"] }, "media_required", refusal("media_required"));
      const reddit = await brandPublishingTo(ctx, m, ["reddit"]);
      await expectRefused(ctx, m, reddit, { platforms: ["REDDIT"] }, "reddit_options_required", refusal("reddit_options_required"));
    },
  },
  {
    id: "mcp-create-posts-not-connected",
    description: "create_posts naming a supported destination with no live connection is refused with platform_not_connected, naming unavailablePlatforms and connectedPlatforms",
    rules: ["create-posts-not-connected"],
    group,
    async run(ctx) {
      const m = ctx.mcp;
      const rule = "create-posts-not-connected";
      const brandId = await brandIdOrSkip(ctx, m);
      // The destinations the gateway publishes to, from its own refusal of one it does not.
      const o = await m.session.call("create_posts", { brandId, brief: "Conformance run: never made.", count: 1, platforms: ["CONFORMANCE_NOWHERE"] });
      const supported: string[] = okData(o) ? [] : ((o.data as any)?.error?.supportedPlatforms ?? []);
      const profile = okData(await m.session.call("get_profile", { brandId }));
      const connected = new Set<string>((profile?.channels ?? []).filter(channelPosts).map((c) => String(c.platform).toLowerCase()));
      // Not REDDIT: without its options a gateway may answer reddit_options_required first.
      const missing = supported.find((p) => typeof p === "string" && p !== "REDDIT" && !connected.has(channelOf(p)));
      if (!missing) return ctx.skip(`every destination the gateway names as supported (${show(supported)}) has a live connection on brand ${brandId}`);
      const e = await expectRefused(ctx, m, brandId, { platforms: [missing] }, "platform_not_connected", rule);
      if (e) {
        ctx.expect(Array.isArray(e.unavailablePlatforms) && e.unavailablePlatforms.includes(missing), rule, `unavailablePlatforms ${show(e.unavailablePlatforms)} does not name ${missing}`);
        ctx.expect(Array.isArray(e.connectedPlatforms) && e.connectedPlatforms.every((p: unknown) => typeof p === "string" && connected.has(channelOf(p))), rule, `connectedPlatforms ${show(e.connectedPlatforms)}; get_profile shows ${show([...connected])} connected`);
      }
    },
  },
  {
    id: "mcp-reddit-options-required",
    description: "update_post adding REDDIT without reddit options is refused with reddit_options_required and adds nothing; with reddit { subreddit } it is added",
    rules: ["reddit-options-required"],
    group,
    async run(ctx) {
      const m = ctx.mcp;
      const rule = "reddit-options-required";
      const brandId = await brandPublishingTo(ctx, m, ["reddit", "instagram"]);
      // Named destinations: left to the brand's defaults, a draft of a brand with Reddit connected might get REDDIT already.
      const id = await draft(ctx, m, brandId, { caption: caseCaption(m, "Reddit later"), platforms: ["INSTAGRAM"] }, rule);
      expectError(ctx, await m.session.call("update_post", { id, platforms: ["REDDIT"] }), { code: "reddit_options_required", rule });
      ctx.expect(!platformsOf(await viewPost(ctx, m, id, rule)).includes("REDDIT"), rule, `post ${id}: REDDIT was added although update_post was refused`);
      expectOk(ctx, await m.session.call("update_post", { id, platforms: ["REDDIT"], reddit: { subreddit: "bakeries" } }), rule);
      const reddit = (await viewPost(ctx, m, id, rule)).destinations?.find((d) => d?.platform === "REDDIT");
      ctx.expect(!!reddit, rule, `post ${id}: update_post with reddit options answered ok, yet view_post shows no REDDIT destination`);
    },
  },
];
