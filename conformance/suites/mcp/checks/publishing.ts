// Scheduling and publishing: pre-flight refusals with their codes and counts, `platforms` acting on a subset,
// bookings held by a provider (already_scheduled with lockedDestinations, publish_post_now skipping them,
// unschedule_platform withdrawing them), reschedule_posts answering per entry, publish_post_now results per
// destination and its safe repetition, and provider refusals (schedule_failed, failed destinations) from the
// target's triggers. Every post is approved as it reads before it is booked, so workspaces that require approval
// take part too; every booking is withdrawn at the end.
import type { RuleId } from "../../../../generated/rules.js";
import type { RuleRef } from "../../../core/judge.js";
import type { AnsweredOutput } from "../answers.js";
import type { RunContext } from "../../../core/check.js";
import { destinationCodes, destinationRetryable, publishReasonCodes } from "../contract.js";
import type { McpContext } from "../extension.js";
import { expectError, expectOk, okData } from "../expect.js";
import { expectContractFields } from "../fields.js";
import { approveAsSeen, editCaption, goneOut, heldDestinations, platformsOf, show, unbook, unknownId, viewPost, wellFormedError, type McpCheck } from "./common.js";
import { claimPost } from "./batch-scenario.js";

const group = "mcp-publishing";

/** Publish result reasons the seed ties to status skipped (rule publish-reason-status/<reason>). */
const skippedReasons = ["already_published", "held_by_provider", "not_requested"];

/**
 * publish_post_now's results: one per destination, well formed (rule publish-results/<part>); returns them by
 * platform. `reasons`: the publish-reason-status members the calling check judges.
 */
function expectResults(ctx: RunContext, data: AnsweredOutput<"publish_post_now"> | undefined, platforms: readonly string[], id: string, judge: { reasons?: readonly string[] } = {}) {
  const rule = (part: string): RuleId => `publish-results/${part}`;
  const results = Array.isArray(data?.publishResults) ? data.publishResults : [];
  const by = new Map(results.map((r) => [r?.platform, r]));
  ctx.expect(
    results.length === platforms.length && platforms.every((p) => by.has(p)),
    rule("one-per-destination"),
    `post ${id}: publishResults name ${show(results.map((r) => r?.platform))}, the post's destinations are ${show(platforms)}`,
  );
  for (const r of results) {
    if (r?.status === "published") {
      ctx.expect(r.reason === undefined || r.reason === null, rule("published-no-reason"), `post ${id} ${r.platform}: published with a reason ${show(r.reason)}`);
      continue;
    }
    if (!ctx.expect(wellFormedError(r?.reason), rule("reason-codes"), `post ${id} ${r?.platform}: status ${show(r?.status)} without a well-formed reason: ${show(r?.reason)}`)) continue;
    const code = r?.reason?.code as string;
    if (r.status === "failed") {
      const want = destinationRetryable(code);
      ctx.expect(destinationCodes.has(code) || want !== undefined, rule("reason-codes"), `post ${id} ${r.platform}: failed with ${code}, not a per-destination code`);
    } else ctx.expect(publishReasonCodes.has(code), rule("reason-codes"), `post ${id} ${r.platform}: ${r.status} with reason ${code}, not a publish result reason`);
    if (skippedReasons.includes(code) && judge.reasons?.includes(code))
      ctx.expect(r.status === "skipped", `publish-reason-status/${code}`, `post ${id} ${r.platform}: reason ${code} came with status ${show(r.status)}, the seed gives skipped`);
  }
  return by;
}

/** The claimed post, approved as it reads; its view and destinations. */
async function readyPost(ctx: RunContext, m: McpContext, purpose: string, rule: RuleRef): Promise<{ id: string; view: AnsweredOutput<"view_post">; platforms: string[] }> {
  const id = await claimPost(ctx, m, purpose);
  const view = await approveAsSeen(ctx, m, id, rule);
  return { id, view, platforms: platformsOf(view) };
}

/** Puts a trigger into one destination's caption (the post stays approved as it then reads). */
async function withTrigger(ctx: RunContext, m: McpContext, id: string, view: AnsweredOutput<"view_post">, trigger: string, rule: RuleId): Promise<string | undefined> {
  const d = (view.destinations ?? []).find((x) => typeof x?.text === "string" && x.text !== "");
  if (!d) return undefined;
  await editCaption(ctx, m, id, `${d.text} ${trigger}`, rule, d.platform);
  await approveAsSeen(ctx, m, id, rule);
  return d.platform as string;
}

export const publishingChecks: McpCheck[] = [
  {
    id: "mcp-preflight-refusal",
    description: "A caption over one destination's limit is refused at pre-flight (caption_too_long with its counts) and nothing is booked; `platforms` without it books the rest only",
    rules: [
      "preflight-codes/caption_too_long",
      "preflight-counts/caption_too_long",
      "platforms-subset/schedule_post",
      ...["platform", "code", "characterCount", "characterLimit"].map((f): RuleId => `blocked-destination-fields/${f}`),
    ],
    group,
    async run(ctx) {
      const m = ctx.mcp;
      const code = "preflight-codes/caption_too_long";
      const id = await claimPost(ctx, m, "the pre-flight check");
      const view = await viewPost(ctx, m, id, code);
      // Limits compared as answered (the fields check judges their type).
      const limitOf = (d: { characterLimit?: number | null } | null | undefined) => d?.characterLimit as number;
      const limited = (view.destinations ?? []).filter((d) => limitOf(d) > 0 && d.text !== "");
      const tight = limited.sort((a, b) => limitOf(a) - limitOf(b))[0];
      const roomy = (view.destinations ?? []).filter((d) => d !== tight && (d?.characterLimit === 0 || limitOf(d) > limitOf(tight)) && d.text !== "");
      if (!tight || !roomy.length) return ctx.skip(`post ${id} has no two captioned destinations with different caption limits (${show(view.destinations?.map((d) => [d?.platform, d?.characterLimit]))})`);
      // Longer than the tightest limit, within the others: written, then refused at pre-flight for that destination.
      const caption = `${tight.text} ${"Conformance run. ".repeat(Math.ceil(limitOf(tight) / 17))}`.slice(0, limitOf(tight) + 20);
      await editCaption(ctx, m, id, caption, code);
      await approveAsSeen(ctx, m, id, code);
      const e = expectError(ctx, await m.session.call("schedule_post", { id, scheduledAt: m.run.clock.future(30) }), { code: "schedule_preflight_failed", rule: code });
      const blocked = Array.isArray(e?.blockedDestinations) ? e.blockedDestinations : [];
      // Each entry by the contract (platform and a code; the set of codes is open, so an unknown one is no failure).
      for (const b of blocked) expectContractFields(ctx, "blocked-destination-fields", "schedule_post", "BlockedDestination", b, `blockedDestinations entry ${show(b)}`);
      const tooLong = blocked.find((b) => b?.platform === tight.platform && b?.code === "caption_too_long");
      if (e) {
        ctx.expect(!!tooLong, code, `a ${[...caption].length}-character caption on ${tight.platform} (limit ${tight.characterLimit}) is not blocked as caption_too_long: ${show(blocked)}`);
        ctx.expect(!blocked.some((b) => roomy.some((r) => r.platform === b?.platform && b?.code === "caption_too_long")), code, `caption_too_long for a destination that takes the caption: ${show(blocked)}`);
      }
      if (tooLong)
        ctx.expect(
          tooLong.characterCount === [...caption].length && tooLong.characterLimit === tight.characterLimit,
          "preflight-counts/caption_too_long",
          `caption_too_long on ${tight.platform} reports ${show({ characterCount: tooLong.characterCount, characterLimit: tooLong.characterLimit })}, expected ${[...caption].length} over ${tight.characterLimit}`,
        );
      const out = await goneOut(m, id);
      ctx.expect(out.length === 0, code, `a pre-flight refusal booked ${out.join(", ")}`);
      if (out.length) await unbook(ctx, m, id);

      // The destinations that pass, named with `platforms`, book alone.
      const others = roomy.map((d) => d.platform as string) as [string, ...string[]];
      const subset = "platforms-subset/schedule_post";
      const booked = expectOk(ctx, await m.session.call("schedule_post", { id, scheduledAt: m.run.clock.future(30), platforms: others }), subset);
      if (booked) {
        ctx.expect(show([...(booked.scheduledDestinations ?? [])].sort()) === show([...others].sort()), subset, `schedule_post with platforms ${show(others)} booked ${show(booked.scheduledDestinations)}`);
        const held = (await heldDestinations(m, id)).map((h) => h.platform);
        ctx.expect(!held.includes(tight.platform as string), subset, `${tight.platform} was left out of platforms and is booked anyway`);
      }
      await unbook(ctx, m, id);
    },
  },
  {
    id: "mcp-already-scheduled-locked",
    description: "Booking a booked post again answers already_scheduled with each held platform and platformPostId; unschedule_platform withdraws each",
    rules: ["already-scheduled-locked", "reject-booked-locked"],
    group,
    async run(ctx) {
      const m = ctx.mcp;
      const rule = "already-scheduled-locked/locked-destinations";
      const withdraw = "already-scheduled-locked/unschedule-withdraws";
      const { id } = await readyPost(ctx, m, "the booking lock check", rule);
      const first = expectOk(ctx, await m.session.call("schedule_post", { id, scheduledAt: m.run.clock.future(30) }), rule);
      if (!first) return;
      const held = await heldDestinations(m, id);
      const e = expectError(ctx, await m.session.call("schedule_post", { id, scheduledAt: m.run.clock.future(31) }), { code: ["already_scheduled", "post_already_scheduled"], rule });
      const locked = Array.isArray(e?.lockedDestinations) ? e.lockedDestinations : [];
      if (e)
        ctx.expect(
          held.length > 0 && held.every((h) => locked.some((l) => l?.platform === h.platform && l?.platformPostId === h.platformPostId)),
          rule,
          `lockedDestinations ${show(locked)} do not name what get_post_status holds: ${show(held)}`,
        );
      // reject_post of a booked post: refused, its lockedDestinations without platformPostId (read get_post_status).
      const seen = await viewPost(ctx, m, id, "reject-booked-locked");
      const r = expectError(ctx, await m.session.call("reject_post", { id, reason: "Conformance run: too late.", contentDigest: seen.contentDigest as string }), {
        code: ["already_scheduled", "post_already_scheduled"],
        rule: "reject-booked-locked",
      });
      if (r) ctx.expect((r.lockedDestinations ?? []).every((l) => !("platformPostId" in l)), "reject-booked-locked", `reject_post's lockedDestinations ${show(r.lockedDestinations)} carry platformPostId`);
      for (const l of locked.length ? locked : held) {
        const w = expectOk(ctx, await m.session.call("unschedule_platform", { id, platform: l.platform as string, platformPostId: l.platformPostId as string }), withdraw);
        if (w) ctx.expect(w.unscheduled === true && w.platform === l.platform, withdraw, `unschedule_platform ${l.platform} answered ${show(w)}`);
      }
      const left = await heldDestinations(m, id);
      ctx.expect(left.length === 0, withdraw, `after withdrawing every locked destination, still held: ${show(left)}`);
    },
  },
  {
    id: "mcp-publish-held-by-provider",
    description: "publish_post_now skips every destination booked for a time with held_by_provider and publishes none of them",
    rules: ["held-by-provider", "publish-results/one-per-destination", "publish-results/reason-codes", "publish-reason-status/held_by_provider"],
    group,
    async run(ctx) {
      const m = ctx.mcp;
      const rule = "held-by-provider";
      const { id, platforms } = await readyPost(ctx, m, "the held booking check", rule);
      if (!expectOk(ctx, await m.session.call("schedule_post", { id, scheduledAt: m.run.clock.future(30) }), rule)) return;
      const held = (await heldDestinations(m, id)).map((h) => h.platform);
      const data = expectOk(ctx, await m.session.call("publish_post_now", { id }), rule);
      if (data) {
        const by = expectResults(ctx, data, platforms, id, { reasons: ["held_by_provider"] });
        for (const p of held)
          ctx.expect(by.get(p)?.status === "skipped" && by.get(p)?.reason?.code === "held_by_provider", rule, `booked destination ${p}: publish_post_now answered ${show(by.get(p))}`);
      }
      await unbook(ctx, m, id);
    },
  },
  {
    id: "mcp-reschedule-per-entry",
    description: "reschedule_posts answers one move per entry (in order); a stale approval or an unknown post fails its entry only",
    rules: ["reschedule-per-entry", "reschedule-moves-in-order", "approval-stale/reschedule_posts"],
    group,
    async run(ctx) {
      const m = ctx.mcp;
      const rule = "reschedule-per-entry/one-per-entry";
      const good = await readyPost(ctx, m, "reschedule_posts (a good entry)", rule);
      const stale = await readyPost(ctx, m, "reschedule_posts (a stale entry)", rule);
      await editCaption(ctx, m, stale.id, `${stale.view.postText ?? ""} (edited after approval)`.trim(), rule);
      const missing = unknownId();
      const when = m.run.clock.future(32);
      const data = expectOk(ctx, await m.session.call("reschedule_posts", { moves: [{ postId: good.id, scheduledAt: when }, { postId: stale.id, scheduledAt: when }, { postId: missing, scheduledAt: when }] }), rule);
      if (data) {
        const answered = Array.isArray(data.moves) ? data.moves : [];
        const asked = [good.id, stale.id, missing];
        const named = answered.map((x) => x?.postId);
        // One move per entry (the seed's), in the request's order (ours). Moves that name no post (their fields are
        // not shown) can only be matched by position.
        const byName = named.some((n) => typeof n === "string");
        ctx.expect(answered.length === asked.length && (!byName || asked.every((p) => named.filter((n) => n === p).length === 1)), rule, `moves name ${show(named)}, the request ${show(asked)}`);
        if (byName) ctx.expect(show(named) === show(asked), "reschedule-moves-in-order", `moves name ${show(named)}, in another order than the request ${show(asked)}`);
        const moves = byName ? asked.map((p) => answered.find((x) => x?.postId === p)) : answered;
        ctx.expect(moves[0]?.ok === true && !moves[0]?.error, "reschedule-per-entry/others-run", `the good entry answered ${show(moves[0])}`);
        for (const [i, codes, also] of [
          [1, ["approval_stale"], "approval-stale/reschedule_posts"],
          [2, ["not_found", "forbidden"], undefined],
        ] as [number, string[], RuleId | undefined][]) {
          const e = moves[i]?.error;
          ctx.expect(moves[i]?.ok === false && wellFormedError(e) && codes.includes(e.code), ["reschedule-per-entry/failing-entry-error", ...(also ? [also] : [])], `entry ${i} should fail with ${codes.join(" or ")}: ${show(moves[i])}`);
        }
        ctx.expect((await heldDestinations(m, good.id)).length > 0, "reschedule-per-entry/others-run", `the good entry answered ok but get_post_status holds nothing for ${good.id}`);
        ctx.expect((await goneOut(m, stale.id)).length === 0, "approval-stale/reschedule_posts", `the stale entry ${stale.id} was booked anyway`);
      }
      await unbook(ctx, m, good.id);
      await unbook(ctx, m, stale.id);
    },
  },
  {
    id: "mcp-publish-results",
    description: "publish_post_now answers one result per destination (not_requested outside platforms); repeating it publishes only what is not live",
    rules: ["publish-results", "publish-repeat-safe", "platforms-subset/publish_post_now", "publish-reason-status/not_requested", "publish-reason-status/already_published"],
    group,
    async run(ctx) {
      const m = ctx.mcp;
      const { id, platforms } = await readyPost(ctx, m, "the publish check", "publish-results/one-per-destination");
      const [first, ...rest] = platforms;
      if (!first) return ctx.skip(`post ${id} has no destination`);
      const reasons = { reasons: ["not_requested", "already_published"] };
      const subset = "platforms-subset/publish_post_now";
      const one = expectOk(ctx, await m.session.call("publish_post_now", { id, platforms: [first] }), "publish-results/one-per-destination");
      if (!one) return;
      const by1 = expectResults(ctx, one, platforms, id, reasons);
      ctx.expect(["published", "pending"].includes(by1.get(first)?.status as string), subset, `the named destination ${first} answered ${show(by1.get(first))}`);
      for (const p of rest)
        ctx.expect(by1.get(p)?.status === "skipped" && by1.get(p)?.reason?.code === "not_requested", subset, `${p}, not named in platforms, answered ${show(by1.get(p))}`);
      const all = expectOk(ctx, await m.session.call("publish_post_now", { id }), "publish-repeat-safe");
      if (!all) return;
      const by2 = expectResults(ctx, all, platforms, id, reasons);
      if (by1.get(first)?.status === "published")
        ctx.expect(by2.get(first)?.status === "skipped" && by2.get(first)?.reason?.code === "already_published", "publish-repeat-safe", `the repeat answered ${show(by2.get(first))} for live ${first}`);
      for (const p of rest) ctx.expect(["published", "pending"].includes(by2.get(p)?.status as string), "publish-repeat-safe", `the repeat left ${p} ${show(by2.get(p))}`);
      const again = expectOk(ctx, await m.session.call("publish_post_now", { id }), "publish-repeat-safe");
      if (again) {
        const by3 = expectResults(ctx, again, platforms, id, reasons);
        for (const p of platforms)
          if (by2.get(p)?.status === "published" || by1.get(p)?.status === "published")
            ctx.expect(by3.get(p)?.status === "skipped" && by3.get(p)?.reason?.code === "already_published", "publish-repeat-safe", `a third call answered ${show(by3.get(p))} for live ${p}`);
      }
    },
  },
  {
    id: "mcp-publish-failed-destination",
    description: "A destination the provider refuses is reported failed with a per-destination code and its retryable; the others still publish",
    rules: ["publish-failed-destination", "publish-results"],
    group,
    async run(ctx) {
      const m = ctx.mcp;
      const rule = "publish-failed-destination";
      const { id, view, platforms } = await readyPost(ctx, m, "the refused publish check", rule);
      const refused = await withTrigger(ctx, m, id, view, ctx.slot("mcp.triggers.caption_refused"), rule);
      if (!refused) return ctx.skip(`post ${id} has no captioned destination to refuse`);
      const data = expectOk(ctx, await m.session.call("publish_post_now", { id }), rule);
      if (!data) return;
      const by = expectResults(ctx, data, platforms, id);
      const r = by.get(refused);
      ctx.expect(r?.status === "failed" && destinationCodes.has(r?.reason?.code as string), rule, `${refused} with a refused caption answered ${show(r)}`);
      for (const p of platforms.filter((p) => p !== refused)) ctx.expect(["published", "pending"].includes(by.get(p)?.status as string), rule, `${p} did not publish beside the refused one: ${show(by.get(p))}`);
      const status = okData(await m.session.call("get_post_status", { id }));
      const pr = (status?.platformResults ?? []).find((x) => x?.platform === refused);
      ctx.expect(pr?.status === "failed" && wellFormedError(pr?.error), rule, `get_post_status reports the refused ${refused} as ${show(pr)}`);
    },
  },
  ...(["refused", "refused-once"] as const).map((kind) : McpCheck =>
    ({
      id: kind === "refused" ? "mcp-schedule-failed-final" : "mcp-schedule-failed-retry",
      description:
        kind === "refused"
          ? "A destination refused for good answers schedule_failed, not retryable, with refusedDestinations and scheduledDestinations"
          : "A destination refused once answers schedule_failed, retryable; the retry books only the outstanding destination",
      rules: kind === "refused" ? ["schedule-failed-rule"] : ["schedule-failed-retry"],
      group,
      async run(ctx) {
        const m = ctx.mcp;
        const rule = kind === "refused" ? "schedule-failed-rule/refused-destinations" : "schedule-failed-retry";
        const member = (part: string): RuleId => (kind === "refused" ? `schedule-failed-rule/${part}` : "schedule-failed-retry");
        const { id, view, platforms } = await readyPost(ctx, m, `schedule_failed (${kind})`, rule);
        const trigger = ctx.slot(kind === "refused" ? "mcp.triggers.caption_refused" : "mcp.triggers.caption_refused_once");
        const refused = await withTrigger(ctx, m, id, view, trigger, rule);
        if (!refused || platforms.length < 2) return ctx.skip(`post ${id} needs two destinations, one with a caption (has ${show(platforms)})`);
        const when = m.run.clock.future(33);
        const e = expectError(ctx, await m.session.call("schedule_post", { id, scheduledAt: when }), { code: "schedule_failed", rule });
        if (e) {
          const refusedList = Array.isArray(e.refusedDestinations) ? e.refusedDestinations : [];
          ctx.expect(refusedList.some((d) => d?.platform === refused && typeof d?.code === "string"), rule, `refusedDestinations ${show(e.refusedDestinations)} does not name ${refused}`);
          const others = platforms.filter((p) => p !== refused);
          ctx.expect(Array.isArray(e.scheduledDestinations) && others.every((p) => e.scheduledDestinations?.includes(p)), member("scheduled-destinations"), `scheduledDestinations ${show(e.scheduledDestinations)}, expected ${show(others)}`);
          if (kind === "refused") ctx.expect(e.retryable === false, member("not-retryable"), `a destination refused with ${show(refusedList.map((d) => d?.code))} answered retryable ${show(e.retryable)}`);
          else if (e.retryable === true) {
            // The retry books the outstanding destination; the bookings already made stay as they are.
            const before = new Map((await heldDestinations(m, id)).map((h) => [h.platform, h.platformPostId]));
            expectOk(ctx, await m.session.call("schedule_post", { id, scheduledAt: when }), rule);
            const after = new Map((await heldDestinations(m, id)).map((h) => [h.platform, h.platformPostId]));
            ctx.expect(platforms.every((p) => after.has(p)), rule, `after the retry get_post_status holds ${show([...after.keys()])}, the post has ${show(platforms)}`);
            for (const [p, booking] of before)
              ctx.expect(after.get(p) === booking, rule, `the retry booked ${p} again (platformPostId ${show(booking)} → ${show(after.get(p))}); only ${refused} was outstanding`);
          } else ctx.expect(false, rule, `a destination refused once (${show(refusedList.map((d) => d?.code))}) answered retryable ${show(e.retryable)}`);
        }
        await unbook(ctx, m, id);
      },
    }),
  ),
  {
    id: "mcp-schedule-failed-codes",
    description: "A destination the provider refuses with each lasting per-destination code answers schedule_failed with the seed's retryable, and get_post_status reports the code with its own",
    // The lasting codes only: a transient one refuses a first attempt only (mcp-destination-codes-retryable tries those).
    rules: [...destinationCodes].filter((c) => destinationRetryable(c) === false).flatMap((c): RuleId[] => [`schedule-failed-retryable/${c}`, `destination-code-retryable/${c}`]),
    group,
    async run(ctx) {
      const m = ctx.mcp;
      const template = ctx.slot("mcp.triggers.caption_refused_code");
      const lasting = [...destinationCodes].filter((c) => destinationRetryable(c) === false);
      const { id, view } = await readyPost(ctx, m, "schedule_failed per code", lasting.map((c): RuleId => `schedule-failed-retryable/${c}`));
      const d = (view.destinations ?? []).find((x) => typeof x?.text === "string" && x.text !== "");
      if (!d) return ctx.skip(`post ${id} has no captioned destination to refuse`);
      const when = m.run.clock.future(34);
      // A transient code refuses a destination's first attempt only: one destination tries every lasting code in turn.
      const notRetryable = new Set(["media_invalid", "channel_not_connected", "channel_needs_reauth", "content_rejected"]);
      for (const code of lasting) {
        await editCaption(ctx, m, id, `${d.text} ${template.replaceAll("{code}", code)}`, `schedule-failed-retryable/${code}`, d.platform);
        await approveAsSeen(ctx, m, id, `schedule-failed-retryable/${code}`);
        // rule: schedule-failed-retryable/<code>, destination-code-retryable/<code>
        const e = expectError(ctx, await m.session.call("schedule_post", { id, scheduledAt: when }), { code: "schedule_failed", rule: `schedule-failed-retryable/${code}` });
        if (e) {
          const named = (e.refusedDestinations ?? []).some((r) => r?.platform === d.platform && r?.code === code);
          ctx.expect(named, `schedule-failed-retryable/${code}`, `refusedDestinations ${show(e.refusedDestinations)} does not name ${d.platform} with ${code}`);
          ctx.expect(e.retryable === !notRetryable.has(code), `schedule-failed-retryable/${code}`, `a destination refused with ${code} made schedule_failed retryable ${show(e.retryable)}`);
        }
        const pr = (okData(await m.session.call("get_post_status", { id }))?.platformResults ?? []).find((x) => x?.platform === d.platform);
        if (pr?.error) ctx.expect(pr.error.code === code && pr.error.retryable === destinationRetryable(code), `destination-code-retryable/${code}`, `get_post_status reports ${d.platform} as ${show(pr.error)}`);
      }
      await unbook(ctx, m, id);
    },
  },
];
