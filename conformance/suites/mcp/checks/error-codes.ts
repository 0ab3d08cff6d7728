// Codes a caller can provoke with drafts of its own (create_draft with a caption spends no AI allowance): a tool's own
// bad_request with its invalidFields paths, platform_not_connected, a live post refused with already_published /
// post_already_published, a booked one with post_already_scheduled, reddit_options_required; upload_image's
// source_not_https and source_not_public. Each refusal's envelope, retryable and structured fields are judged for its code. Every draft
// is deleted, every booking withdrawn.
import type { RuleId } from "../../../../generated/rules.js";
import { CheckSkipped, type RunContext } from "../../../core/check.js";
import type { CallOutcome } from "../client.js";
import { errorOf, expectError, expectOk } from "../expect.js";
import type { McpContext } from "../extension.js";
import { approveAsSeen, madeId, platformsOf, show, unbook, unknownId, type McpCheck } from "./common.js";
import { FEED, feedPost } from "./drafts.js";
import { unconnectedBrand } from "./fields.js";
import { brandIdOrSkip, brandUnderTest } from "./brand-under-test.js";

const group = "mcp-errors";
/** The members of the per-code families a check provokes itself. */
const perCode = (...codes: string[]): RuleId[] => codes.flatMap((c): RuleId[] => [`retryable-per-catalogue/${c}`, `error-structured-fields/${c}`]);
/** A dotted input path: an argument name, then names or array indexes (reddit.subreddit, platforms.0). */
const dottedPath = /^[A-Za-z_][A-Za-z0-9_]*(\.(?:[A-Za-z_][A-Za-z0-9_]*|\d+))*$/;

/** A draft of the brand with the caller's caption (no generation); skips the check when none can be made. */
async function draft(ctx: RunContext, m: McpContext, purpose: string, rule: RuleId, extra: Record<string, unknown> = {}): Promise<string> {
  const brandId = await brandIdOrSkip(ctx, m);
  const d = expectOk(ctx, await m.session.call("create_draft", { brandId, caption: `Conformance run ${m.run.id}: ${purpose}.`, ...extra }), rule);
  const id = madeId(ctx, "create_draft", d);
  return id;
}

/**
 * Schedules or publishes a post; when pre-flight blocks some destinations (a draft has no picture), again with the
 * others only. Returns the last outcome and the destinations asked for.
 */
async function goOut<N extends "schedule_post" | "publish_post_now">(m: McpContext, tool: N, id: string, platforms: string[], extra: Record<string, unknown> = {}): Promise<{ o: CallOutcome<N>; asked: string[] }> {
  const o = await m.session.callRaw(tool, { id, ...extra });
  const e = errorOf(o);
  if (e?.code !== "schedule_preflight_failed") return { o, asked: platforms };
  const blocked = new Set((Array.isArray(e.blockedDestinations) ? e.blockedDestinations : []).map((b: { platform?: unknown } | null) => b?.platform));
  const rest = platforms.filter((p) => !blocked.has(p));
  if (!rest.length) return { o, asked: [] };
  return { o: await m.session.callRaw(tool, { id, ...extra, platforms: rest }), asked: rest };
}

/**
 * Input a write tool may refuse after its schema took it (the seed shows neither tool's inputs, so accepting is fine
 * too): a destination named with nothing to apply to it (update_post), a time already past (schedule_post, only
 * where the target file allows publishing: a gateway may send such a post at once). A refusal is judged by the
 * envelope rules of its code as it comes back (retryable, structured fields); a bad_request names what it refused.
 */
async function siblingRefusals(ctx: RunContext, m: McpContext): Promise<void> {
  const id = await feedPost(ctx, m, "", "bad-request-own");
  const calls: CallOutcome[] = [await m.session.call("update_post", { id, platform: FEED })];
  if (m.slot("mcp.inputs.allow_publishing", "optional")) calls.push(await m.session.call("schedule_post", { id, scheduledAt: new Date(m.run.clock.now() - 86_400_000).toISOString().replace(/\.\d{3}Z$/, "Z") }));
  for (const o of calls) {
    const e = errorOf(o);
    if (e?.code === "bad_request")
      ctx.expect(Array.isArray(e.invalidFields) && e.invalidFields.length > 0 && e.invalidFields.every((f: unknown) => typeof f === "string"), "bad-request-own", `${o.tool}'s bad_request has invalidFields ${show(e.invalidFields)}; expected the refused paths`);
  }
  if (calls.length > 1 && !calls[1]!.result?.isError) await unbook(ctx, m, id);
}

export const errorCodeChecks: McpCheck[] = [
  {
    id: "mcp-own-bad-request",
    description:
      "Input that passes the schema but that the tool refuses (mediaIds naming no picture) answers bad_request with invalidFields as dotted paths, and fieldErrors per field when given; so does any such refusal of update_post and schedule_post",
    rules: ["bad-request-own", "invalid-fields-paths", ...perCode("bad_request")],
    group,
    optionalSlots: { "mcp.inputs.allow_publishing": "publish_post_now is called too only where publishing is allowed (posts go live)" },
    async run(ctx) {
      const m = ctx.mcp;
      const brandId = await brandIdOrSkip(ctx, m);
      // A target with no brand to make such a post on leaves only the main case (not a reason to skip it).
      await siblingRefusals(ctx, m).catch((err: unknown) => (err instanceof CheckSkipped ? ctx.note(`update_post and schedule_post not tried: ${err.reason}`) : Promise.reject(err)));
      const o = await m.session.call("create_draft", { brandId, caption: `Conformance run ${m.run.id}: never made.`, mediaIds: [unknownId(), unknownId()] });
      if (errorOf(o)?.code === "not_found") return ctx.skip("unknown mediaIds answered not_found, not the tool's own bad_request: nothing to judge");
      const e = expectError(ctx, o, { code: "bad_request", rule: "bad-request-own" });
      const made = (o.data as any)?.id;
      if (typeof made === "string") await m.session.call("delete_post", { id: made });
      if (!e) return;
      const fields: unknown[] = Array.isArray(e.invalidFields) ? e.invalidFields : [];
      ctx.expect(fields.length > 0 && fields.every((f) => typeof f === "string"), "bad-request-own", `bad_request has invalidFields ${show(e.invalidFields)}; expected the refused paths`);
      if ("fieldErrors" in e)
        ctx.expect(
          Array.isArray(e.fieldErrors) && e.fieldErrors.every((f) => typeof f?.field === "string" && typeof f?.message === "string"),
          "bad-request-own",
          `fieldErrors ${show(e.fieldErrors)}: expected {field, message} entries`,
        );
      // rule: invalid-fields-paths: both ids are unknown, so both are named, by index.
      ctx.expect(fields.every((f) => typeof f === "string" && dottedPath.test(f)), "invalid-fields-paths", `invalidFields ${show(fields)} are not dotted paths`);
      ctx.expect(["mediaIds.0", "mediaIds.1"].every((p) => fields.includes(p)), "invalid-fields-paths", `two unknown mediaIds gave invalidFields ${show(fields)}; expected mediaIds.0 and mediaIds.1`);
    },
  },
  {
    id: "mcp-platform-not-connected",
    description: "A draft for a supported destination the brand has no live connection to is refused with platform_not_connected, naming it and what is connected",
    rules: perCode("platform_not_connected"),
    group,
    async run(ctx) {
      const m = ctx.mcp;
      const brandId = await brandIdOrSkip(ctx, m);
      const caption = `Conformance run ${m.run.id}: never made.`;
      // The destinations the gateway publishes to, as its own refusal lists them.
      const nowhere = errorOf(await m.session.call("create_draft", { brandId, caption, platforms: ["CONFORMANCE_NOWHERE"] }));
      const supported: string[] = Array.isArray(nowhere?.supportedPlatforms) ? nowhere.supportedPlatforms : [];
      const profile = (await brandUnderTest(m)).profile;
      // Any listed channel may still count as connected (a token about to expire does): only absent ones are tried.
      const connected = new Set<string>((profile?.channels ?? []).map((c) => String(c?.platform).toUpperCase()));
      const candidate = supported.find((p) => !connected.has(p) && !connected.has(p.replace(/_STORIES$/, "")) && !/STORIES|REDDIT/.test(p));
      if (!candidate) return ctx.skip(`no supported destination without a connection to try (supported ${show(supported)})`);
      const o = await m.session.call("create_draft", { brandId, caption, platforms: [candidate] });
      const e = expectError(ctx, o, { code: "platform_not_connected", rule: "error-structured-fields/platform_not_connected" });
      const made = (o.data as any)?.id;
      if (typeof made === "string") await m.session.call("delete_post", { id: made });
      if (e && Array.isArray(e.unavailablePlatforms))
        ctx.expect(e.unavailablePlatforms.includes(candidate), "error-structured-fields/platform_not_connected", `unavailablePlatforms ${show(e.unavailablePlatforms)} does not name ${candidate}`);
    },
  },
  {
    id: "mcp-live-post-refusals",
    description: "A post with a live destination refuses edits and deletion with post_already_published, and scheduling with already_published (or the other), naming the live destinations",
    rules: perCode("post_already_published", "already_published"),
    group,
    // Other checks meet these codes without publishing; this one makes a post live to be refused.
    requiredSlots: { "mcp.inputs.allow_publishing": "the post goes live (publish_post_now)" },
    async run(ctx) {
      const m = ctx.mcp;
      const rule = "error-structured-fields/post_already_published";
      const id = await draft(ctx, m, "a post that goes live", rule);
      const view = await approveAsSeen(ctx, m, id, rule);
      const { o, asked } = await goOut(m, "publish_post_now", id, platformsOf(view));
      const out = expectOk(ctx, o, rule);
      const live = (out?.publishResults ?? []).filter((r) => r?.status === "published").map((r) => r.platform);
      if (!live.length) return ctx.skip(`publishing draft ${id} put nothing live (asked ${show(asked)}): ${show(out?.publishResults)}`);
      const names = (e: Record<string, any> | undefined, r: RuleId) =>
        e && ctx.expect(Array.isArray(e.publishedPlatforms) && live.every((p) => e.publishedPlatforms.includes(p)), r, `publishedPlatforms ${show(e.publishedPlatforms)}; live: ${show(live)}`);
      const either = ["post_already_published", "already_published"];
      names(expectError(ctx, await m.session.call("update_post", { id, caption: "Conformance run: an edit of a live post." }), { code: "post_already_published", rule }), rule);
      names(expectError(ctx, await m.session.call("delete_post", { id }), { code: either, rule }), rule);
      const e = expectError(ctx, await m.session.call("schedule_post", { id, scheduledAt: m.run.clock.future(30) }), { code: either, rule: "error-structured-fields/already_published" });
      names(e, `error-structured-fields/${e?.code === "post_already_published" ? "post_already_published" : "already_published"}`);
    },
  },
  {
    id: "mcp-booked-post-refusals",
    description: "A post a provider holds booked refuses deletion with post_already_scheduled (or already_scheduled), naming each held destination with its platformPostId",
    rules: perCode("post_already_scheduled"),
    group,
    async run(ctx) {
      const m = ctx.mcp;
      const rule = "error-structured-fields/post_already_scheduled";
      const id = await draft(ctx, m, "a post to book", rule);
      try {
        const view = await approveAsSeen(ctx, m, id, rule);
        const { o, asked } = await goOut(m, "schedule_post", id, platformsOf(view), { scheduledAt: m.run.clock.future(45) });
        if (!expectOk(ctx, o, rule)) return;
        const e = expectError(ctx, await m.session.call("delete_post", { id }), { code: ["post_already_scheduled", "already_scheduled"], rule });
        if (e && Array.isArray(e.lockedDestinations))
          ctx.expect(
            e.lockedDestinations.every((d) => typeof d?.platform === "string" && typeof d?.platformPostId === "string") && asked.every((p) => e.lockedDestinations?.some((d) => d?.platform === p)),
            rule,
            `lockedDestinations ${show(e.lockedDestinations)}; booked: ${show(asked)}`,
          );
      } finally {
        await unbook(ctx, m, id);
        await m.session.call("delete_post", { id });
      }
    },
  },
  {
    id: "mcp-reddit-options-required-draft",
    description: "A draft for REDDIT without reddit options is refused with reddit_options_required (on a brand where REDDIT is not refused as unconnected first)",
    rules: ["retryable-per-catalogue/reddit_options_required"],
    group,
    async run(ctx) {
      const m = ctx.mcp;
      const rule = "retryable-per-catalogue/reddit_options_required";
      // The brand under test, else one with no channel at all (its destinations are provisional, not refused).
      for (const brandId of [await brandIdOrSkip(ctx, m), await unconnectedBrand(m)]) {
        if (!brandId) continue;
        const o = await m.session.call("create_draft", { brandId, caption: `Conformance run ${m.run.id}: never made.`, platforms: ["REDDIT"] });
        const made = (o.data as any)?.id;
        if (typeof made === "string") await m.session.call("delete_post", { id: made });
        if (errorOf(o)?.code === "platform_not_connected") continue;
        expectError(ctx, o, { code: "reddit_options_required", rule });
        return;
      }
      ctx.skip("REDDIT was refused as not connected on every brand tried: reddit_options_required not reached");
    },
  },
  {
    id: "mcp-upload-refusals",
    description: "upload_image refuses a sourceUrl that is not https with source_not_https, and a private address with source_not_public; nothing is saved",
    rules: ["retryable-per-catalogue/source_not_https", "retryable-per-catalogue/source_not_public"],
    group,
    async run(ctx) {
      const m = ctx.mcp;
      const brandId = await brandIdOrSkip(ctx, m);
      for (const [code, sourceUrl] of [
        ["source_not_https", `http://www.example.com/conformance-${m.run.id}.jpg`],
        ["source_not_public", `https://127.0.0.1/conformance-${m.run.id}.jpg`],
      ] as const) {
        const o = await m.session.call("upload_image", { brandId, sourceUrl });
        expectError(ctx, o, { code, rule: `retryable-per-catalogue/${code}` });
        ctx.expect(!(o.data as any)?.mediaId, `retryable-per-catalogue/${code}`, `upload_image saved ${show((o.data as any)?.mediaId)} from ${sourceUrl}`);
      }
    },
  },
];
