// Ending a client, effect by effect, on clients of its own. None of it waits for a build: connecting an account, a
// draft with the caller's own caption and booking are not held up by one (not-ready-does-not-hold), and nothing in
// the seed refuses to end a client whose build runs, so the ending starts at once and a run is not a build longer.
// mcp-deactivation-effects (with an account, mcp.triggers.connect_account): a booked post and a plain draft are
// made; after deactivate_profile the booking is withdrawn keeping its date, the account is gone, the posts are kept,
// the profile says it is inactive in both views and refuses to publish; after delete_profile the posts are gone.
// mcp-inactive-refuses-generation: a client deactivated while it builds refuses every generating tool once its
// build is ready (before, profile_not_ready would hide whether inactivity is refused).
import type { RuleId } from "../../../../generated/rules.js";
import { truthy, type AnsweredOutput } from "../answers.js";
import type { RunContext } from "../../../core/check.js";
import type { CallOutcome } from "../client.js";
import { describeCall, expectError, expectOk, okData } from "../expect.js";
import type { McpContext } from "../extension.js";
import { connectAccount, eraseClient, newClient, settledBuild, type Client } from "./clients.js";
import { caseCaption, draft } from "./drafts.js";
import { approveAsSeen, heldDestinations, pollCall, show, viewPost, type McpCheck } from "./common.js";
import { expectProfileConsistent, profileConsistencyRules } from "./profiles.js";
import { batchPicture } from "./batch-scenario.js";

const effect = (member: string): RuleId => `deactivation-effects/${member}`;
const as = "partner" as const;

/** The calls that generate for a client, each as a tool and its input. */
const generatingCalls = (brandId: string, postId: string, run: string): [string, Record<string, unknown>][] => [
  ["create_posts", { brandId, brief: `Conformance run ${run}: after the end.`, count: 1, includeImage: false }],
  ["create_draft", { brandId, prompt: `Conformance run ${run}: after the end.` }],
  ["generate_caption", { postId }],
  ["generate_image", { brandId, prompt: `Conformance run ${run}: after the end.` }],
  ["regenerate_post_image", { postId }],
];

/** The calls that publish a post, each as a tool and its input. */
const publishingCalls = (postId: string, when: string): [string, Record<string, unknown>][] => [
  ["schedule_post", { id: postId, scheduledAt: when }],
  ["publish_post_now", { id: postId }],
];

/** Calls a client's ending tool until it reports `done` (at the seed's pace); the last answer. */
async function untilDone<N extends "deactivate_profile" | "delete_profile">(ctx: RunContext, m: McpContext, label: string, call: () => Promise<CallOutcome<N>>, done: string, rule: RuleId): Promise<AnsweredOutput<N>> {
  const t = m.target.timing;
  const r = await pollCall(ctx, m, label, call, (o) => !okData(o) || okData(o)?.status === done, t.endingPollMs, t.endingDeadlineMs);
  const last = r.outcomes.at(-1);
  const d = last ? okData(last) : undefined;
  if (d?.status !== done) return ctx.fail(rule, `${label} did not reach ${done}: ${last ? describeCall(last) : "no answer"}`);
  return d;
}

/** A draft with the caller's own caption (and pictures from the library, if given): not held up by a build; its id. */
const ownDraft = (ctx: RunContext, m: McpContext, brandId: string, n: number, rule: RuleId, mediaIds: string[] = []) =>
  draft(ctx, m, brandId, { caption: caseCaption(m, `before the end, ${n}`), ...(mediaIds.length ? { mediaIds } : {}) }, rule, as);

/**
 * A picture the shared main batch made, uploaded to the client's library (upload is not held up by a build): its
 * media id, or undefined when there is none to take.
 */
async function uploadedBatchPicture(m: McpContext, brandId: string): Promise<string | undefined> {
  const source = await batchPicture(m);
  const mediaId = source ? okData(await m.session.call("upload_image", { brandId, sourceUrl: source }, as))?.mediaId : undefined;
  return typeof mediaId === "string" ? mediaId : undefined;
}

/** The HTTP status of a picture address on the target's origin; undefined for one elsewhere (not fetched). */
/** A picture address's status, fetched without a token as a client would (nothing is sent off the target). */
const pictureStatus = async (m: McpContext, url: string) => (await m.session.http.open(new URL(url)))?.status;

/** A client with an account, a booked post and a draft with a picture, made while its build runs. */
async function prepare(ctx: RunContext, m: McpContext, c: Client) {
  const s = m.session;
  await connectAccount(ctx, m, c.brandId);
  const mediaId = await uploadedBatchPicture(m, c.brandId);
  const booked = await ownDraft(ctx, m, c.brandId, 1, effect("content-kept"));
  const kept = await ownDraft(ctx, m, c.brandId, 2, effect("content-kept"), mediaId ? [mediaId] : []);
  await approveAsSeen(ctx, m, booked, effect("posts-withdrawn"), as);
  if (!expectOk(ctx, await s.call("schedule_post", { id: booked, scheduledAt: m.run.clock.future(30) }, as), effect("posts-withdrawn"))) return ctx.fail(effect("posts-withdrawn"), "the post could not be booked; nothing to withdraw");
  if (!(await heldDestinations(m, booked, as)).length) return ctx.fail(effect("posts-withdrawn"), `post ${booked} shows no booking after schedule_post`);
  return { booked, kept };
}

async function run(ctx: RunContext, m: McpContext): Promise<void> {
  const s = m.session;
  const c = await newClient(ctx, m, "effects");
  try {
    const { booked, kept } = await prepare(ctx, m, c);
    const statusBefore = okData(await s.call("get_post_status", { id: booked }, as));
    const views = { [booked]: await viewPost(ctx, m, booked, effect("content-kept"), as), [kept]: await viewPost(ctx, m, kept, effect("content-kept"), as) };
    // The kept draft's pictures, fetched now: only an address that resolves before the end can be seen to stop.
    const pictures: string[] = [];
    for (const url of (views[kept]!.imageUrls ?? []).filter((u: unknown): u is string => typeof u === "string")) {
      const status = await pictureStatus(m, url);
      if (status === undefined) ctx.note(`picture ${url} is not on the target's origin: not fetched`);
      else if (status === 200) pictures.push(url);
      else ctx.note(`picture ${url} answered ${status} before the client was ended: not judged`);
    }

    const deactivate = () => s.call("deactivate_profile", { brandId: c.brandId }, as);
    const ended = await untilDone(ctx, m, `deactivation of ${c.brandId}`, deactivate, "deactivated", effect("posts-withdrawn"));

    // rule: deactivation-effects/posts-withdrawn, dates-kept
    ctx.expect((await heldDestinations(m, booked, as)).length === 0, effect("posts-withdrawn"), `post ${booked} still holds a booking after deactivation`);
    ctx.expect(typeof ended.unscheduledPosts === "number" && ended.unscheduledPosts >= 1, effect("posts-withdrawn"), `deactivation withdrew a booked post and reports unscheduledPosts ${show(ended.unscheduledPosts)}`);
    const statusAfter = expectOk(ctx, await s.call("get_post_status", { id: booked }, as), effect("dates-kept"));
    if (statusAfter) ctx.expect(typeof statusBefore?.scheduledAt === "string" && statusAfter.scheduledAt === statusBefore.scheduledAt, effect("dates-kept"), `post ${booked} was booked for ${show(statusBefore?.scheduledAt)}; after deactivation it shows ${show(statusAfter.scheduledAt)}`);
    // rule: deactivation-effects/content-kept
    for (const [id, before] of Object.entries(views)) {
      const after = await viewPost(ctx, m, id, effect("content-kept"), as);
      ctx.expect(after.postText === before.postText && show(after.imageUrls) === show(before.imageUrls), effect("content-kept"), `post ${id} changed with deactivation: ${show({ postText: before.postText, imageUrls: before.imageUrls })} → ${show({ postText: after.postText, imageUrls: after.imageUrls })}`);
    }
    // Pictures are kept too: their addresses still resolve.
    for (const url of pictures) {
      const status = await pictureStatus(m, url);
      ctx.expect(status === 200, effect("content-kept"), `after deactivation, picture ${url} answers ${status}`);
    }

    // rule: deactivation-effects/channels-removed; both views of the ended profile (readiness-consistent/brand_inactive).
    const p = expectOk(ctx, await s.call("get_profile", { brandId: c.brandId }, as), effect("channels-removed"));
    if (!p) return;
    const live = (p.channels ?? []).filter((ch) => ch?.health !== "disconnected");
    ctx.expect(live.length === 0 && (p.generationPlatforms ?? []).length === 0, effect("channels-removed"), `after deactivation get_profile shows channels ${show(p.channels)} and generationPlatforms ${show(p.generationPlatforms)}`);
    expectProfileConsistent(ctx, p, `get_profile ${c.brandId} after deactivation`);
    // The workspace as create_profile answered it (unchecked there: sent as it came).
    const item = (okData(await s.callRaw("list_brands", { workspaceId: c.companyId }, as))?.brands ?? []).find((b) => b?.id === c.brandId);
    ctx.expect(item?.isActive === false && item.publishReadiness !== "ready", "readiness-consistent/brand_inactive", `after deactivation list_brands shows ${show(item)}, get_profile isActive ${show(p.isActive)}`);

    // rule: inactive-refuses-work — publishing (which a build never holds up) is refused for an inactive client.
    for (const [tool, input] of publishingCalls(kept, m.run.clock.future(31))) {
      const o = await s.callRaw(tool, input, as);
      expectError(ctx, o, { rule: "inactive-refuses-work" });
    }
    ctx.expect((await heldDestinations(m, kept, as)).length === 0, "inactive-refuses-work", `an inactive client's post ${kept} was booked`);

    // rule: deletion-erases — once the erasure finished, its posts read as unknown ids.
    await untilDone(ctx, m, `deletion of ${c.brandId}`, () => s.call("delete_profile", { brandId: c.brandId, confirm: true }, as), "deleted", "deletion-erases");
    for (const [tool, args] of [
      ["view_post", { id: booked }],
      ["get_post_status", { id: kept }],
    ] as [string, Record<string, unknown>][])
      expectError(ctx, await s.callRaw(tool, args, as), { code: "not_found", rule: "deletion-erases" });
    // rule: deletion-pictures-stop-resolving
    if (!pictures.length) ctx.note("no picture of the client resolved on the target's origin before the end, so none could be seen to stop (deletion-pictures-stop-resolving not judged)");
    for (const url of pictures) {
      const status = await pictureStatus(m, url);
      ctx.expect(status !== undefined && (status < 200 || status > 299), "deletion-pictures-stop-resolving", `after the erasure, picture ${url} still answers ${status}`);
    }
  } finally {
    await eraseClient(ctx, m, c.brandId);
  }
}

/**
 * A client deactivated while it builds, then asked to generate once its build is ready: every generating tool is
 * refused. Deactivation and the build run side by side, so this takes about one build.
 */
async function inactiveGeneration(ctx: RunContext, m: McpContext): Promise<void> {
  const rule = "inactive-refuses-work";
  const c = await newClient(ctx, m, "inactive");
  try {
    // A post with a picture, so that regenerate_post_image has a picture to redo and can be refused only for the
    // client's state: a picture the shared main batch made, taken into the client's library (upload is not held
    // up by a build). Without one, regenerate_post_image is left out.
    const mediaId = await uploadedBatchPicture(m, c.brandId);
    const postId = await ownDraft(ctx, m, c.brandId, 1, rule, mediaId ? [mediaId] : []);
    await untilDone(ctx, m, `deactivation of ${c.brandId}`, () => m.session.call("deactivate_profile", { brandId: c.brandId }, as), "deactivated", rule);
    const { profile } = await settledBuild(ctx, m, c.brandId);
    // Only a ready build tells inactivity apart from profile_not_ready.
    if (profile.onboarding?.status !== "ready") return ctx.skip(`the deactivated client's build ended ${show(profile.onboarding)}: whether generating is refused for inactivity cannot be told apart`);
    for (const [tool, input] of generatingCalls(c.brandId, postId, m.run.id)) {
      if (tool === "regenerate_post_image" && !mediaId) {
        ctx.note("regenerate_post_image was not tried: no picture to put on the client's post (the main batch showed none, or upload_image saved none)");
        continue;
      }
      const o = await m.session.callRaw(tool, input, as);
      expectError(ctx, o, { rule });
    }
  } finally {
    await eraseClient(ctx, m, c.brandId);
  }
}

export const deactivationEffectChecks: McpCheck[] = [
  {
    id: "mcp-deactivation-effects",
    description: "On a client with an account and a booked post: deactivation withdraws the booking keeping its date, removes the account, keeps the posts and their pictures, and the inactive client refuses to publish; deletion then erases the posts, and their pictures stop resolving",
    rules: [effect("posts-withdrawn"), effect("dates-kept"), effect("channels-removed"), effect("content-kept"), "inactive-refuses-work", "deletion-erases", "deletion-pictures-stop-resolving", "readiness-consistent/brand_inactive", "readiness-consistent/all_channels_disconnected", "channel-health-publishes/disconnected"],
    incidental: profileConsistencyRules,
    group: "mcp-ending",
    needs: ["mcp:profile-all", "mcp:cost-builds"],
    spend: () => ({ builds: 1 }),
    optionalSlots: { "mcp.triggers.connect_account": "a post is booked on a connected account only where the suite may sign in" },
    run: (ctx) => run(ctx, ctx.mcp),
  },
  {
    id: "mcp-inactive-refuses-generation",
    description: "A client deactivated while it builds refuses every generating tool (create_posts, create_draft with a prompt, generate_caption, generate_image, regenerate_post_image) once its build is ready",
    rules: ["inactive-refuses-work"],
    group: "mcp-ending",
    needs: ["mcp:profile-all", "mcp:cost-builds"],
    spend: () => ({ builds: 1 }),
    run: (ctx) => inactiveGeneration(ctx, ctx.mcp),
  },
];
