// Post batches: create_posts answers queued with a slot per post; get_post_batch_status followed at the seed's
// pace through queued → generating → settled, counts agreeing with items, pictures landing after the copy; partial
// and failed batches; a resent call is a new batch; the brand's default destination kept; stories need media.
import type { RuleId } from "../../../../generated/rules.js";
import type { CreatePostsInput } from "../../../../generated/mcp/types.js";
import type { RunContext } from "../../../core/check.js";
import { expectedRetryable, itemErrorCodes } from "../contract.js";
import { describeCall, errorOf, expectError, expectOk, expectRan, expectRefusedFirst, isEnvelope, okData } from "../expect.js";
import { expectRefusal, refusedFirstRule } from "../refusal.js";
import type { McpContext } from "../extension.js";
import { show, unknownId, unknownUuid, wellFormedError, type McpCheck } from "./common.js";
import { type BatchPayload, type BatchTrack, batchMissing, followNewBatch, sharedBatch } from "./batch-scenario.js";
import { brandIdOrSkip, brandUnderTest, storyDestinationsOf } from "./brand-under-test.js";

const group = "mcp-batch";
const statuses = ["queued", "generating", "partial", "ready", "failed"];
const terminal = ["partial", "ready", "failed"];

/** Every batch payload of a track (the create answer's items are checked apart). */
const payloads = (t: BatchTrack): BatchPayload[] => [...t.polls, ...(t.again ? [t.again] : [])].flatMap((o) => okData(o) ?? []);

async function started(ctx: RunContext, m: McpContext, key: "main" | "partial" | "fails"): Promise<BatchTrack> {
  const t = await sharedBatch(m, key);
  if (!t.created) return t.rule ? batchMissing(ctx, t, `the ${key} batch`) : ctx.skip(t.problem ?? "no batch was asked for");
  return t;
}

/** A batch's counts against its items (rule batch-counts-consistent, one member per count). */
function expectCounts(ctx: RunContext, b: BatchPayload, where: string): void {
  const rule = (member: string): RuleId => `batch-counts-consistent/${member}`;
  const items = Array.isArray(b?.items) ? b.items : [];
  const n = (...s: unknown[]) => items.filter((i) => s.includes(i?.status)).length;
  ctx.expect(items.length === b.requestedCount, rule("items-requested"), `${where}: ${items.length} items for requestedCount ${show(b.requestedCount)}`);
  ctx.expect(b.createdCount === n("created"), rule("created"), `${where}: createdCount ${show(b.createdCount)}, ${n("created")} items created`);
  ctx.expect(b.failedCount === n("failed", "skipped"), rule("failed-skipped"), `${where}: failedCount ${show(b.failedCount)}, ${n("failed", "skipped")} items failed or skipped`);
  ctx.expect(b.pendingCount === n("pending", "generating"), rule("pending-generating"), `${where}: pendingCount ${show(b.pendingCount)}, ${n("pending", "generating")} items pending or generating`);
}

/**
 * A batch of a check's own (copy only, no pictures) whose brief carries trigger markers, followed until it settles;
 * undefined when no marker is given. Shared by the checks that ask for the same key.
 */
async function ownBatch(ctx: RunContext, m: McpContext, key: string, markers: string[], count: number): Promise<BatchTrack | undefined> {
  if (!markers.length) return undefined;
  // mcp.cost is a run setting (what the run may spend), not a target-file slot: it sizes the run, it provokes nothing.
  if (!m.target.cost.extraBatches) {
    ctx.note(`batch ${key} not made: it generates posts of its own (mcp.cost.extra_batches)`);
    return undefined;
  }
  const brandId = await brandIdOrSkip(ctx, m);
  const request = { brandId, brief: `Conformance run: ${key}. ${markers.join(" ")}`, count, includeImage: false };
  return m.run.once(`batch:${key}`, () => followNewBatch(m, key, request, m.run.session, `batch:${key}`, false));
}

/** The batch whose slots fail with each item error code (mcp.triggers.brief_item_fails), and one created slot. */
const itemFailsBatch = (ctx: RunContext, m: McpContext) => {
  const t = m.slot("mcp.triggers.brief_item_fails", "optional");
  return ownBatch(ctx, m, "item-fails", t ? itemErrorCodes.map((c) => t.replaceAll("{code}", c)) : [], itemErrorCodes.length + 1);
};
/** A batch whose allowance runs out part way, so that its later slots end skipped. */
const runsOutBatch = (ctx: RunContext, m: McpContext) => ownBatch(ctx, m, "allowance-runs-out", markers(m.slot("mcp.triggers.brief_allowance_runs_out", "optional")), 2);
/** A batch that moves one phase per read (queued, then generating). */
const stepwiseBatch = (ctx: RunContext, m: McpContext) => ownBatch(ctx, m, "stepwise", markers(m.slot("mcp.triggers.brief_stepwise", "optional")), 1);
/** A trigger's marker as the markers of a brief: none when the target file leaves it unset. */
function markers(marker: string | undefined): string[] {
  return marker ? [marker] : [];
}

export const batchChecks: McpCheck[] = [
  {
    id: "mcp-create-posts-count-edge-accepted",
    description: "create_posts takes a count of 20, the most the seed allows (the shared main batch at mcp.cost.main_batch_posts 20)",
    rules: ["limit-create-posts-edge-accepted"],
    group,
    async run(ctx) {
      const m = ctx.mcp;
      const rule = "limit-create-posts-edge-accepted/count-max";
      const t = await sharedBatch(m, "main");
      if (t.request.count !== 20) ctx.skip(`the main batch asks for ${show(t.request.count)} posts (mcp.cost.main_batch_posts); 20 is the edge`);
      if (!t.created) return t.rule ? batchMissing(ctx, t, "the main batch") : ctx.skip(t.problem ?? "no batch was asked for");
      if (expectRan(ctx, t.created, rule)) expectOk(ctx, t.created, rule);
    },
  },
  {
    id: "mcp-create-posts-queued",
    description: "create_posts answers a queued batch with one pending item per post, indexed from 0, as get_post_batch_status then shows it",
    rules: ["create-posts-queued", "create-posts-matches-status", "generation-in-background/create_posts", "include-image-default"],
    group,
    async run(ctx) {
      const m = ctx.mcp;
      const rule = (member: string): RuleId => `create-posts-queued/${member}`;
      const t = await started(ctx, m, "main");
      const b = expectOk(ctx, t.created!, rule("batch-id"));
      if (!b) return;
      const count = t.request.count as number;
      ctx.expect(typeof b.batchId === "string" && b.batchId.length > 0, [rule("batch-id"), "generation-in-background/create_posts"], `batchId ${show(b.batchId)}`);
      // No mediaIds and no includeImage sent: pictures are on by default, and the answer says so when it reports it.
      if (!("includeImage" in t.request) && !("mediaIds" in t.request) && "includeImage" in b)
        ctx.expect(b.includeImage === true, "include-image-default/create_posts", `includeImage after defaults is ${show(b.includeImage)}; with no mediaIds it is on`);
      ctx.expect(b.brandId === t.request.brandId && typeof b.companyId === "string", rule("ids"), `brandId ${show(b.brandId)} (sent ${show(t.request.brandId)}), companyId ${show(b.companyId)}`);
      ctx.expect(b.status === "queued", rule("status-queued"), `status ${show(b.status)}, expected queued`);
      ctx.expect(b.requestedCount === count, rule("requested-count"), `requestedCount ${show(b.requestedCount)} for count ${count}`);
      const items = Array.isArray(b.items) ? b.items : [];
      // One pending item per slot, indexes 0 up; the seed states no order of the list, so indexes are compared as a set.
      const indexes = (list: readonly { index?: unknown }[]) => list.map((i) => i?.index).sort((x, y) => Number(x) - Number(y));
      ctx.expect(items.length === count && show(indexes(items)) === show(Array.from({ length: count }, (_v, k) => k)) && items.every((i) => i?.status === "pending"), rule("items-pending"), `items ${show(items)}; expected ${count} pending, index 0 up`);
      // Two views of one batch: the create answer and the first status read.
      const read = okData(t.polls[0]);
      if (!read) return batchMissing(ctx, t, "the batch was never read");
      const same = (member: string, a: unknown, c: unknown) => ctx.expect(show(a) === show(c), `create-posts-matches-status/${member}`, `batch ${b.batchId}: create_posts answered ${member} ${show(a)}, get_post_batch_status ${show(c)}`);
      same("brand-id", b.brandId, read.brandId);
      same("company-id", b.companyId, read.companyId);
      same("requested-count", b.requestedCount, read.requestedCount);
      same("item-indexes", indexes(items), indexes(Array.isArray(read.items) ? read.items : []));
    },
  },
  {
    id: "mcp-batch-status-values",
    description: "Every batch read has settled exactly when its status is ready, partial or failed",
    rules: ["batch-status-values"],
    spend: ({ triggers, cost }) => ({ posts: triggers.briefStepwise && cost.extraBatches ? 1 : 0 }),
    group,
    optionalSlots: {
      "mcp.triggers.brief_fails": "the failed batch's statuses are judged too where it is given",
      "mcp.triggers.brief_partial": "the partial batch's statuses are judged too where it is given",
      "mcp.triggers.brief_stepwise": "the queued and generating phases are made certain where it is given",
    },
    async run(ctx) {
      const m = ctx.mcp;
      // The main batch; a stepwise one (queued, generating); the partial and failed ones where triggers make them.
      const tracks = [await started(ctx, m, "main"), await stepwiseBatch(ctx, m)];
      if (m.slot("mcp.triggers.brief_partial", "optional")) tracks.push(await sharedBatch(m, "partial"));
      if (m.slot("mcp.triggers.brief_fails", "optional")) tracks.push(await sharedBatch(m, "fails"));
      for (const t of tracks) {
        if (!t) continue;
        if (!payloads(t).length) ctx.note(`batch ${t.key} (${t.batchId ?? "?"}) could not be read: ${t.problem}`);
        for (const b of payloads(t)) {
          // An unknown status is allowed (output enums are open); its settled meaning is not known, so it is not judged.
          if (typeof b.status !== "string" || !statuses.includes(b.status)) continue;
          ctx.expect(b.settled === terminal.includes(b.status), `batch-status-values/${b.status}`, `batch ${t.batchId}: settled ${show(b.settled)} with status ${show(b.status)}`);
        }
      }
    },
  },
  {
    id: "mcp-batch-counts-consistent",
    description: "Every read of a batch has counts that agree with its items",
    rules: ["batch-counts-consistent"],
    group,
    async run(ctx) {
      const m = ctx.mcp;
      const t = await started(ctx, m, "main");
      for (const [i, b] of payloads(t).entries()) expectCounts(ctx, b, `batch ${t.batchId} read ${i + 1} (${b.status})`);
    },
  },
  {
    id: "mcp-batch-settles",
    description: "A batch settles when polled at the seed's pace within the give-up time, and every later read stays settled",
    rules: ["batch-settles", "batch-stays-settled"],
    group,
    async run(ctx) {
      const m = ctx.mcp;
      const t = await started(ctx, m, "main");
      for (const o of t.polls) expectOk(ctx, o, "batch-settles/within-give-up");
      if (!ctx.expect(t.outcome === "done" || t.outcome === "settled", "batch-settles/within-give-up", `batch ${t.batchId ?? "?"}: ${t.problem ?? t.outcome}`)) return;
      // Every read after the first settled one, and one more look later, stays settled with the same status.
      const first = okData(t.polls[t.settledIndex!]);
      for (const o of [...t.polls.slice(t.settledIndex! + 1), ...(t.again ? [t.again] : [])]) {
        const later = expectOk(ctx, o, "batch-stays-settled");
        ctx.expect(later?.settled === true && later?.status === first?.status, "batch-stays-settled", `batch ${t.batchId} changed after settling (${show(first?.status)}): ${describeCall(o)}`);
      }
    },
  },
  {
    id: "mcp-settled-copy-only",
    description: "Once settled no item is pending or generating; imagesPendingCount counts the created items whose picture still renders",
    rules: ["settled-copy-only"],
    group,
    async run(ctx) {
      const m = ctx.mcp;
      const t = await started(ctx, m, "main");
      if (t.settledIndex === undefined) return ctx.skip(`the batch did not settle: ${t.problem ?? t.outcome}`);
      for (const b of t.polls.slice(t.settledIndex).map(okData)) {
        if (!b) continue;
        const items = b.items ?? [];
        const busy = items.filter((i) => i?.status === "pending" || i?.status === "generating");
        ctx.expect(busy.length === 0, "settled-copy-only/no-busy-items", `batch ${t.batchId} is settled (${b.status}) with items ${busy.map((i) => `${i.index}:${i.status}`).join(", ")} still pending`);
        const created = items.filter((i) => i?.status === "created");
        // imagePending is optional: the count is held against the items only when each created one says.
        if (created.some((i) => i?.imagePending === undefined)) continue;
        const rendering = created.filter((i) => i?.imagePending === true).length;
        ctx.expect((b.imagesPendingCount ?? 0) === rendering, "settled-copy-only/images-pending-count", `batch ${t.batchId}: imagesPendingCount ${show(b.imagesPendingCount)}, ${rendering} created items with imagePending`);
      }
    },
  },
  {
    id: "mcp-pictures-land",
    description: "Pictures seen rendering land: imagePending false with the picture, imagesPendingCount 0, a new contentDigest",
    rules: ["pictures-land"],
    spend: ({ triggers, cost }) => (triggers.picturesHeld && cost.extraBatches ? { posts: 1, pictures: 1 } : {}),
    group,
    optionalSlots: { "mcp.triggers.pictures_held": "pictures kept rendering until read make the case certain where it is given" },
    async run(ctx) {
      const m = ctx.mcp;
      const rule = (member: string): RuleId => `pictures-land/${member}`;
      // With mcp.triggers.pictures_held a one-post batch of its own keeps its picture rendering until it is read
      // settled, so a picture is always seen landing; otherwise the main batch, when one was seen rendering.
      const held = m.target.cost.extraBatches ? m.slot("mcp.triggers.pictures_held", "optional") : undefined;
      const request = { brandId: await brandIdOrSkip(ctx, m), brief: `Conformance run: a picture seen landing. ${held}`, count: 1 };
      const t = held ? await followNewBatch(m, "pictures-held", request, m.session, "check:pictures-held") : await started(ctx, m, "main");
      if (t.outcome !== "done") return ctx.fail(rule("count-zero"), `batch ${t.batchId ?? "?"}: ${t.problem ?? `ended ${t.outcome}`}`);
      if (!t.picturesSeenRendering.size) return ctx.skip("no picture was ever seen rendering: there was nothing to see land");
      const end = okData(t.polls.at(-1));
      ctx.expect((end?.imagesPendingCount ?? 0) === 0, rule("count-zero"), `batch ${t.batchId} ended with imagesPendingCount ${show(end?.imagesPendingCount)}`);
      for (const [postId, before] of t.picturesSeenRendering) {
        const item = (end?.items ?? []).find((i) => i?.postId === postId);
        // imagePending is optional: an item without it is judged by the post's own pictures once landed (view_post).
        const landed = item?.imagePending === undefined && item ? (t.picturesAfter.get(postId) ?? 0) > 0 : item?.imagePending === false && (item?.hasMedia === true || (item?.imageUrls ?? []).length > 0);
        ctx.expect(landed, rule("image-pending-false"), `post ${postId}: after landing the item is ${show(item)}${t.picturesAfter.has(postId) ? ` and view_post shows ${t.picturesAfter.get(postId)} pictures` : ""}`);
        const after = t.digestAfter.get(postId);
        ctx.expect(after !== undefined && after !== null && after !== before, rule("digest-changes"), `post ${postId}: contentDigest ${show(before)} while rendering and ${show(after)} once landed; it must change`);
      }
    },
  },
  {
    id: "mcp-batch-items",
    description: "Created items carry a postId and uppercase destinations; failed and skipped ones no postId and a well-formed error",
    rules: ["batch-items", "batch-items-failed", "item-error-retryable"],
    optionalSlots: { "mcp.triggers.brief_allowance_runs_out": "later items ending skipped are provoked where it is given", "mcp.triggers.brief_item_fails": "each item error code is provoked where it is given", "mcp.triggers.brief_partial": "the main batch and its own item-failing batches are judged without the partial one" },
    spend: ({ triggers, cost }) => ({ posts: cost.extraBatches ? (triggers.briefItemFails ? itemErrorCodes.length + 1 : 0) + (triggers.briefAllowanceRunsOut ? 2 : 0) : 0 }),
    group,
    async run(ctx) {
      const m = ctx.mcp;
      const rule = "batch-items";
      // The main and partial batches, and batches of its own where triggers make items fail with each code or skip.
      const partial = ctx.slot("mcp.triggers.brief_partial", "optional");
      const tracks = [await sharedBatch(m, "main"), ...(partial ? [await sharedBatch(m, "partial")] : []), await itemFailsBatch(ctx, m), await runsOutBatch(ctx, m)];
      let seen = 0;
      const problems: string[] = [];
      for (const t of tracks) {
        if (!t) continue;
        const b = t.settledIndex === undefined ? undefined : okData(t.polls.at(-1));
        if (!b) {
          problems.push(`${t.key}: ${t.problem ?? t.outcome}`);
          continue;
        }
        for (const i of b.items ?? []) {
          seen++;
          const at = `batch ${t.batchId} item ${i?.index}`;
          const asked = typeof i?.index === "number" ? itemErrorCodes[i.index] : undefined;
          if (t.key === "item-fails" && typeof asked === "string") {
            // rule: item-error-retryable/<code>: slot <index> was asked to fail with the index-th code.
            const code = asked;
            ctx.expect(i.status === "failed" && i.error?.code === code && i.error?.retryable === expectedRetryable({ code }), `item-error-retryable/${code}`, `${at}: asked to fail with ${code}, it is ${show({ status: i.status, error: i.error })}`);
          }
          if (i?.status === "created") {
            ctx.expect(typeof i.postId === "string" && i.postId.length > 0, rule, `${at}: created without a postId`);
            ctx.expect(Array.isArray(i.platforms) && i.platforms.length > 0, rule, `${at}: created with platforms ${show(i.platforms)}`);
          } else if (i?.status === "failed" || i?.status === "skipped") {
            // rule: batch-items-failed/<status> (a skipped slot needs a run-out allowance: judged when one is seen)
            const failedRule: RuleId = `batch-items-failed/${i.status}`;
            ctx.expect(i.postId === null || i.postId === undefined, failedRule, `${at}: ${i.status} with postId ${show(i.postId)}`);
            const error = i.error;
            if (ctx.expect(wellFormedError(error), failedRule, `${at}: ${i.status} with error ${show(error)}`) && wellFormedError(error)) {
              const want = expectedRetryable(error);
              if (want !== undefined && itemErrorCodes.includes(error.code))
                ctx.expect(error.retryable === want, `item-error-retryable/${error.code}`, `${at}: ${error.code} has retryable ${error.retryable}, the catalogue says ${want}`);
            }
          }
        }
      }
      if (!seen) return ctx.skip(`no batch settled to look at (${problems.join("; ")})`);
    },
  },
  {
    id: "mcp-batch-partial",
    description: "A batch some of whose slots fail ends partial, the failed items with errors",
    rules: ["batch-partial-or-failed/partial", "batch-counts-consistent"],
    group,
    async run(ctx) {
      const m = ctx.mcp;
      const rule = "batch-partial-or-failed/partial";
      const t = await started(ctx, m, "partial");
      if (t.settledIndex === undefined) return ctx.fail(rule, `the partial batch did not settle: ${t.problem ?? t.outcome}`);
      const b = okData(t.polls[t.settledIndex]);
      ctx.expect(b?.status === "partial", rule, `a batch with failing slots settled as ${show(b?.status)}`);
      ctx.expect((b?.createdCount ?? 0) > 0 && (b?.failedCount ?? 0) > 0, rule, `the partial batch has createdCount ${show(b?.createdCount)}, failedCount ${show(b?.failedCount)}`);
      expectCounts(ctx, b!, `partial batch ${t.batchId}`);
    },
  },
  {
    id: "mcp-batch-failed",
    description: "A batch whose every slot fails ends failed with an error and no post",
    rules: ["batch-partial-or-failed/failed", "batch-failed-says-why"],
    group,
    optionalSlots: { "mcp.triggers.brief_partial": "the family's slot provokes its partial member; the failed one needs brief_fails" },
    async run(ctx) {
      const m = ctx.mcp;
      const rule = "batch-partial-or-failed/failed";
      const t = await started(ctx, m, "fails");
      if (t.settledIndex === undefined) return ctx.fail(rule, `the failing batch did not settle: ${t.problem ?? t.outcome}`);
      const b = okData(t.polls[t.settledIndex]);
      ctx.expect(b?.status === "failed", rule, `a batch whose slots all fail settled as ${show(b?.status)}`);
      // error is optional (seed 001): its presence is our reading, judged apart.
      ctx.expect(typeof b?.error === "string" && b.error.length > 0, "batch-failed-says-why", `the failed batch has error ${show(b?.error)}`);
      ctx.expect(b?.createdCount === 0 && (b?.items ?? []).every((i) => !i?.postId), rule, `the failed batch made posts: ${show(b?.items)}`);
    },
  },
  {
    id: "mcp-create-posts-repeat",
    description: "The same create_posts sent twice makes two batches; each post keeps the brand's default destination",
    rules: ["create-posts-repeat-new-batch", "default-destination-kept"],
    needs: ["mcp:cost-extra-batches"],
    spend: () => ({ posts: 2 }),
    group,
    async run(ctx) {
      const m = ctx.mcp;
      const brand = await brandUnderTest(m);
      const brandId = await brandIdOrSkip(ctx, m);
      const def: string | null = brand.profile?.defaultPlatform ?? null;
      const others = (brand.profile?.generationPlatforms ?? []).map((p: string) => p.toUpperCase()).filter((p: string) => p !== def);
      const [asked] = others;
      const request: CreatePostsInput = { brandId, brief: "Conformance run: the same brief, sent twice.", count: 1, includeImage: false, ...(asked !== undefined ? { platforms: [asked] } : {}) };
      const first = await followNewBatch(m, "repeat", request, m.session, `check:repeat`, false);
      const second = expectOk(ctx, await m.session.call("create_posts", request), "create-posts-repeat-new-batch");
      const a = okData(first.created);
      if (!a || !second) return ctx.fail("create-posts-repeat-new-batch", `create_posts failed: ${first.problem ?? ""}`);
      ctx.expect(typeof second.batchId === "string" && second.batchId !== a.batchId, "create-posts-repeat-new-batch", `the same call twice answered batch ${show(a.batchId)} and ${show(second.batchId)}; expected two batches`);
      if (!def || !others.length) {
        ctx.note("the brand has no default destination and another connected one: the default-destination rule was not looked at");
        return;
      }
      const item = (okData(first.polls.at(-1))?.items ?? []).find((i) => i?.status === "created");
      if (!item) return ctx.skip(`the batch made no post: ${first.problem ?? ""}`);
      // Read as the contract has them (a list): a post without one fails the check as it did before.
      const platforms = item.platforms!;
      ctx.expect(platforms.includes(def!) && platforms.includes(others[0]!), "default-destination-kept", `asked for ${others[0]}; the post has ${show(item.platforms)}, without the default ${def}`);
    },
  },
  {
    id: "mcp-stories-need-media",
    description: "create_posts for stories only and without mediaIds is refused with media_required",
    rules: ["stories-need-media"],
    group,
    async run(ctx) {
      const m = ctx.mcp;
      const brand = await brandUnderTest(m);
      const brandId = await brandIdOrSkip(ctx, m);
      const { stories, stated } = storyDestinationsOf(brand.profile);
      const story = stories[0];
      if (typeof story !== "string") return ctx.skip("the brand has no story destination");
      const o = await m.session.call("create_posts", { brandId, brief: "Conformance run: a story with no picture.", count: 1, platforms: [story.toUpperCase()] });
      // A story read off the brand's channels (storyDestinations left out, as it may be) the gateway may not take.
      const refused = errorOf(o)?.code;
      if (!stated && (refused === "platform_not_supported" || refused === "platform_not_connected")) return ctx.skip(`the brand lists no storyDestinations, and ${story.toUpperCase()} (from its channels) is refused with ${refused}`);
      expectError(ctx, o, { code: "media_required", rule: "stories-need-media" });
      ctx.expect(!okData(o)?.batchId, "stories-need-media", `a batch was made: ${describeCall(o)}`);
    },
  },
  {
    id: "mcp-create-posts-limits",
    description: "create_posts refuses (before it runs where its schema states the limit) a count, a brief and mediaIds beyond each side of their limits, and mediaIds with includeImage true, and takes each at its edge; reschedule_posts likewise for its moves",
    rules: ["limit-create-posts-count", "limit-create-posts-brief", "limit-create-posts-media-ids", "limit-reschedule-moves", "media-ids-with-include-image-refused", "limit-edge-accepted", `${refusedFirstRule}/create_posts`, `${refusedFirstRule}/reschedule_posts`],
    group,
    async run(ctx) {
      const m = ctx.mcp;
      const brandId = await brandIdOrSkip(ctx, m);
      const s = m.session;
      const base = { brandId, brief: "Conformance run: never made.", count: 1, includeImage: false };
      // rule: limit-create-posts-count/<side>, limit-create-posts-brief/<side>
      await expectRefusal(ctx, m, await s.call("create_posts", { ...base, count: 0 }), "limit-create-posts-count/min");
      await expectRefusal(ctx, m, await s.call("create_posts", { ...base, count: 21 }), "limit-create-posts-count/max");
      await expectRefusal(ctx, m, await s.call("create_posts", { ...base, brief: "" }), "limit-create-posts-brief/min");
      await expectRefusal(ctx, m, await s.call("create_posts", { ...base, brief: "b".repeat(4001) }), "limit-create-posts-brief/max");
      const { includeImage: _omit, ...withoutImage } = base;
      await expectRefusal(ctx, m, await s.call("create_posts", { ...withoutImage, mediaIds: Array.from({ length: 11 }, () => unknownId()) }), "limit-create-posts-media-ids");
      // mediaIds with includeImage true: refused before the tool runs or with bad_request; no batch either way.
      const both = await s.call("create_posts", { ...base, includeImage: true, mediaIds: [unknownId()] });
      const refusedFirst = !!both.error || (both.result?.isError === true && !isEnvelope(both.data));
      ctx.expect(refusedFirst || errorOf(both)?.code === "bad_request", "media-ids-with-include-image-refused", `${describeCall(both)}: expected a refusal`);
      ctx.expect(!okData(both)?.batchId, "media-ids-with-include-image-refused", `a batch was made: ${describeCall(both)}`);
      const move = () => ({ postId: unknownId(), scheduledAt: m.run.clock.future(40) });
      await expectRefusal(ctx, m, await s.callRaw("reschedule_posts", { moves: [] }), "limit-reschedule-moves/min");
      await expectRefusal(ctx, m, await s.callRaw("reschedule_posts", { moves: Array.from({ length: 26 }, move) }), "limit-reschedule-moves/max");
      // rule: limit-edge-accepted/<edge>: the last value each limit takes, on a brand nobody issued (nothing is made).
      const nobody = { ...base, brandId: unknownUuid() };
      const { includeImage: _no, ...nobodyWithoutImage } = nobody;
      await Promise.all(
        (
          [
            ["create-posts-count-min", "create_posts", { ...nobody, count: 1 }],
            ["create-posts-count-max", "create_posts", { ...nobody, count: 20 }],
            ["create-posts-brief-min", "create_posts", { ...nobody, brief: "b" }],
            ["create-posts-brief-max", "create_posts", { ...nobody, brief: "b".repeat(4000) }],
            ["create-posts-media-ids-max", "create_posts", { ...nobodyWithoutImage, mediaIds: Array.from({ length: 10 }, () => unknownId()) }],
            ["reschedule-moves-min", "reschedule_posts", { moves: [move()] }],
            ["reschedule-moves-max", "reschedule_posts", { moves: Array.from({ length: 25 }, move) }],
          ] as const
        ).map(async ([edge, tool, args]) => expectRan(ctx, await s.callRaw(tool, args), `limit-edge-accepted/${edge}`)),
      );
    },
  },
  {
    id: "mcp-create-posts-generation-refusals",
    description: "create_posts with the allowance used up is refused with usage_limit_exceeded and resetDate, and a failing generation with ai_generation_failed; neither makes a batch",
    rules: ["create-posts-allowance-refused", "create-posts-ai-failure"],
    group,
    optionalSlots: { "mcp.triggers.brief_allowance_exhausted": "each refusal runs when its own trigger is given", "mcp.triggers.brief_ai_fails": "each refusal runs when its own trigger is given" },
    async run(ctx) {
      const m = ctx.mcp;
      const exhausted = ctx.slot("mcp.triggers.brief_allowance_exhausted", "optional");
      const fails = ctx.slot("mcp.triggers.brief_ai_fails", "optional");
      if (!exhausted && !fails) return ctx.skip("no brief that uses the allowance up or fails generation (mcp.triggers.brief_allowance_exhausted, brief_ai_fails)");
      const brandId = await brandIdOrSkip(ctx, m);
      for (const [rule, marker, code] of [
        ["create-posts-allowance-refused/usage_limit_exceeded", exhausted, "usage_limit_exceeded"],
        ["create-posts-ai-failure/ai_generation_failed", fails, "ai_generation_failed"],
      ] as const) {
        if (!marker) continue;
        const o = await m.session.call("create_posts", { brandId, brief: `Conformance run: refused. ${marker}`, count: 1, includeImage: false });
        const e = expectError(ctx, o, { code, rule });
        if (e && code === "usage_limit_exceeded") ctx.expect(typeof e.resetDate === "string" && !Number.isNaN(Date.parse(e.resetDate)), rule, `usage_limit_exceeded with resetDate ${show(e.resetDate)}`);
        ctx.expect(!okData(o)?.batchId, rule, `a batch was made: ${describeCall(o)}`);
      }
    },
  },
];
