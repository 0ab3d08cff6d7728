// The tool tour: every tool of the contract that the target lists, called successfully at least once with the
// token it needs (partner-only tools with the partner token), so the result conventions (data in
// structuredContent, the same payload as text, the live output schema, the contract's output shape) are judged for
// every tool. The tour works only on what it makes itself: its own drafts and library pictures on the run's brand,
// and (with a partner token) a client of its own for branding, connecting and ending, so no other check's post or
// brand changes. mcp-success-conventions drives it.
import type { RunContext } from "../../../core/check.js";
import type { CallOutcome } from "../client.js";
import { contractTools } from "../contract.js";
import { describeCall, expectOk, forTool, okData, R } from "../expect.js";
import type { McpContext } from "../extension.js";
import type { McpTokenKind } from "../target.js";
import { eraseClient } from "./clients.js";
import { heldDestinations, pollCall, unbook } from "./common.js";
import { openHeadlessConnect } from "./connecting.js";
import { batchPicture } from "./batch-scenario.js";
import { brandIdOrSkip, brandUnderTest } from "./brand-under-test.js";

/** One run of the tour: which tools answered a success, and why the others were not called. */
export class Tour {
  readonly called = new Set<string>();
  readonly left = new Map<string, string>();

  constructor(
    readonly ctx: RunContext,
    readonly m: McpContext,
    /** The contract tools the run's tokens see in tools/list. */
    readonly listed: ReadonlySet<string>,
  ) {}

  /** A call that must succeed (judged by every result convention); its payload, or undefined. */
  async call(tool: string, args: Record<string, unknown>, as: McpTokenKind = "normal"): Promise<any> {
    if (!this.listed.has(tool)) return undefined;
    return this.judge(await this.m.session.callRaw(tool, args, as));
  }

  /** Judges an outcome the tour got some other way (the last poll of a job). */
  judge(o: CallOutcome): any {
    const d = expectOk(this.ctx, o, forTool(R.structured, o.tool));
    if (d === undefined) this.left.set(o.tool, `its call failed: ${describeCall(o)}`);
    else this.called.add(o.tool);
    return d;
  }

  /** Says why a tool is not called (the first reason wins). */
  skip(tool: string, why: string): void {
    if (!this.left.has(tool)) this.left.set(tool, why);
  }
}

/** Posts on the run's brand: a library picture, two drafts of the tour's own, their edits, renders and bookings. */
async function posts(t: Tour): Promise<void> {
  const { ctx, m } = t;
  const brandId = await brandIdOrSkip(ctx, m);
  const brand = await brandUnderTest(m);
  await t.call("get_profile", { brandId });
  if (brand.companyId) await t.call("list_brands", { workspaceId: brand.companyId });
  await t.call("get_brand_style", { brandId });

  // A picture of the gateway's own making (a public address it serves), taken into the library by address.
  const renders = m.target.cost.renders;
  if (!renders) for (const tool of ["generate_image", "regenerate_post_image", "get_generation_job"]) t.skip(tool, "it renders a picture (allowed by mcp.cost.renders: true in the target file)");
  const art = renders ? await t.call("generate_image", { brandId, prompt: "Conformance tour: a loaf on a wooden board." }) : undefined;
  // Without renders, a picture the shared main batch already made (it spends nothing more).
  const source = typeof art?.imageUrl === "string" ? art.imageUrl : await batchPicture(m);
  const upload = source ? await t.call("upload_image", { brandId, sourceUrl: source }) : undefined;
  if (!upload) t.skip("upload_image", "no picture address to upload (generate_image gave none, and the main batch showed none)");
  const mediaIds = typeof upload?.mediaId === "string" ? [upload.mediaId] : [];

  const draft = await t.call("create_draft", { brandId, caption: "Conformance tour: fresh sourdough every morning.", ...(mediaIds.length ? { mediaIds } : {}) });
  const id: string | undefined = draft?.postId;
  if (typeof id !== "string") {
    for (const tool of ["view_post", "get_post_status", "update_post", "generate_caption", "regenerate_post_image", "get_generation_job", "approve_post", "schedule_post", "unschedule_platform", "reschedule_posts", "publish_post_now", "unpublish_post"])
      t.skip(tool, "create_draft made no post to work on");
  } else {
    await t.call("view_post", { id });
    await t.call("get_post_status", { id });
    await t.call("update_post", { id, caption: "Conformance tour: fresh sourdough every morning, edited." });
    await t.call("generate_caption", { postId: id });
    if (renders) {
      const job = await t.call("regenerate_post_image", { postId: id });
      if (typeof job?.jobId === "string") {
        const timing = m.target.timing;
        const busy: readonly unknown[] = ["queued", "running"];
        const settled = (o: CallOutcome<"get_generation_job">) => !busy.includes(okData(o)?.status);
        const r = await pollCall(ctx, m, `render ${job.jobId} of the tour's draft`, () => m.session.call("get_generation_job", { jobId: job.jobId }), settled, timing.jobPollMs, timing.jobDeadlineMs);
        const last = r.outcomes.at(-1);
        if (last) t.judge(last);
      } else t.skip("get_generation_job", "regenerate_post_image started no render");
    }
    // After the render ended: a second one at once would be image_generation_in_progress.
    if (renders) await t.call("generate_image", { postId: id, prompt: "Conformance tour: the same loaf, sliced." });
    await bookings(t, id);
  }

  const second = await t.call("create_draft", { brandId, caption: "Conformance tour: a draft to reject and delete." });
  if (typeof second?.postId === "string") {
    await t.call("reject_post", { id: second.postId, reason: "Conformance tour: rejected on purpose." });
    await t.call("delete_post", { id: second.postId });
  } else for (const tool of ["reject_post", "delete_post"]) t.skip(tool, "create_draft made no second post");

  if (!m.target.cost.extraBatches) {
    for (const tool of ["create_posts", "get_post_batch_status"]) t.skip(tool, "the tour's own batch generates a post (allowed by mcp.cost.extra_batches: true in the target file)");
    return;
  }
  const batch = await t.call("create_posts", { brandId, brief: "Conformance tour: one post about rye bread.", count: 1, includeImage: false });
  if (typeof batch?.batchId === "string") await t.call("get_post_batch_status", { batchId: batch.batchId });
  else t.skip("get_post_batch_status", "create_posts made no batch");
}


/** Approval, a booking moved and withdrawn, then (when allowed) publishing and taking the post down again. */
async function bookings(t: Tour, id: string): Promise<void> {
  const { ctx, m } = t;
  const view = await t.call("view_post", { id });
  if (typeof view?.contentDigest === "string") await t.call("approve_post", { id, contentDigest: view.contentDigest });
  else t.skip("approve_post", "view_post showed no contentDigest to approve");
  await t.call("schedule_post", { id, scheduledAt: m.run.clock.future(30) });
  const held = await heldDestinations(m, id);
  const first = held[0];
  if (first) await t.call("unschedule_platform", { id, platform: first.platform, platformPostId: first.platformPostId });
  else t.skip("unschedule_platform", "schedule_post left no destination held at a provider");
  await t.call("reschedule_posts", { moves: [{ postId: id, scheduledAt: m.run.clock.future(31) }] });
  await unbook(ctx, m, id);
  if (m.slot("mcp.inputs.allow_publishing", "optional")) await t.call("publish_post_now", { id });
  else t.skip("publish_post_now", "publishing is not allowed (mcp.inputs.allow_publishing)");
  // Answers per destination whether anything was live (the mock: skipped not_published when nothing is).
  await t.call("unpublish_post", { id });
}

/** With the partner token: a client of the tour's own, its look, a headless connect, then its end. */
async function client(t: Tour): Promise<void> {
  const { ctx, m } = t;
  const partnerTools = ["create_profile", "update_brand_style", "upload_brand_logo", "create_connect_link", "get_connect_options", "complete_connect", "deactivate_profile", "delete_profile"];
  if (!m.target.tokens.partner) {
    for (const tool of partnerTools) t.skip(tool, "the tour calls it on a client of its own, made with the partner token (none is configured)");
    return;
  }
  if (!m.target.cost.builds) {
    for (const tool of partnerTools) t.skip(tool, "the tour calls it on a client of its own, whose profile build is allowed by mcp.cost.builds: true in the target file");
    return;
  }
  const made = await t.call("create_profile", { websiteUrl: m.slot("mcp.inputs.website"), name: `Conformance tour ${m.run.id}`, externalId: `conformance-${m.run.id}-tour` }, "partner");
  if (typeof made?.brandId !== "string") {
    for (const tool of partnerTools) t.skip(tool, "create_profile made no client for the tour");
    return;
  }
  const brandId: string = made.brandId;
  try {
    await t.call("update_brand_style", { brandId, addColors: ["#0B3D91"] }, "partner");
    if (m.slot("mcp.inputs.logo_url", "optional")) await t.call("upload_brand_logo", { brandId, sourceUrl: m.slot("mcp.inputs.logo_url", "optional") }, "partner");
    else t.skip("upload_brand_logo", "no logo address (mcp.inputs.logo_url)");
    const session = await openHeadlessConnect(m, brandId, (tool, args) => t.call(tool, args, "partner"));
    if ("connectToken" in session) {
      const options = await t.call("get_connect_options", { brandId, connectToken: session.connectToken }, "partner");
      const option = Array.isArray(options?.options) ? options.options[0] : undefined;
      if (typeof option?.id === "string") await t.call("complete_connect", { brandId, connectToken: session.connectToken, optionId: option.id }, "partner");
      else t.skip("complete_connect", "get_connect_options listed no option");
    } else for (const tool of ["get_connect_options", "complete_connect"]) t.skip(tool, session.why);
    await t.call("deactivate_profile", { brandId }, "partner");
    if (await t.call("delete_profile", { brandId, confirm: true }, "partner")) return;
  } finally {
    if (!t.called.has("delete_profile")) await eraseClient(ctx, m, brandId);
  }
}

/** Runs the tour; notes every listed tool it did not call and why (the failures themselves are recorded already). */
export async function runTour(ctx: RunContext, m: McpContext, listed: ReadonlySet<string>): Promise<Tour> {
  const t = new Tour(ctx, m, listed);
  await t.call("get_workspaces", {});
  await posts(t);
  await client(t);
  for (const tool of contractTools) {
    if (t.called.has(tool.name)) continue;
    ctx.note(`tool tour: ${tool.name} not called successfully: ${listed.has(tool.name) ? (t.left.get(tool.name) ?? "the tour has no call for it") : "the target does not list it for the run's tokens"}`);
  }
  return t;
}
