// What a build that is not ready holds up, on a client of its own whose build failed (mcp.triggers.website_fails_build;
// a failed build stays failed until create_profile is repeated, so nothing here races the build): every generating
// tool the seed names is refused with profile_not_ready (retryable), and a draft with the caller's own caption,
// connecting an account, scheduling and publishing go on as if the profile were ready.
import type { RunContext } from "../../../core/check.js";
import type { CallOutcome } from "../client.js";
import { describeCall, errorOf, expectError, expectOk, okData } from "../expect.js";
import type { McpContext } from "../extension.js";
import { exampleInput } from "../probes.js";
import { eraseClient, familyMembers, newClient, settledBuild, signIn, textChannel } from "./clients.js";
import { approveAsSeen, show, type McpCheck } from "./common.js";

const refusal = "profile-not-ready-refusal";
const notHeld = "not-ready-does-not-hold";

/**
 * The input that makes `tool` generate for the client: the contract's example with the client's brand and post put
 * in; create_draft with a prompt (with its own caption it is not held up, which is the other rule).
 */
function generatingInput(tool: string, brandId: string, postId: string | null | undefined, run: string): Record<string, unknown> | undefined {
  if (tool === "create_draft") return { brandId, prompt: `Conformance run ${run}: a warm welcome to the new shop.` };
  const input = exampleInput(tool);
  if ("brandId" in input) input.brandId = brandId;
  for (const k of ["postId", "id"]) if (k in input) {
    if (!postId) return undefined;
    input[k] = postId;
  }
  if ("count" in input) input.count = 1;
  return input;
}

/** A call that must not be held up by the build: a success, or a refusal for any reason but profile_not_ready. */
function notHeldUp(ctx: RunContext, o: CallOutcome, member: string, mustSucceed: boolean): any {
  if (mustSucceed) {
    const d = expectOk(ctx, o, `${notHeld}/${member}`);
    if (d) ctx.expect(true, `${notHeld}/${member}`, `${describeCall(o)} went through`);
    return d;
  }
  ctx.expect(errorOf(o)?.code !== "profile_not_ready", `${notHeld}/${member}`, `${describeCall(o)}: held up by the build`);
  return okData(o);
}

/** rule: profile-not-ready-refusal/<tool> — every tool of the family, refused for the client while `state`. */
async function refuseAll(ctx: RunContext, m: McpContext, brandId: string, postId: string | null | undefined, state: string, stillSo?: () => Promise<boolean>): Promise<void> {
  for (const tool of familyMembers(refusal)) {
    const input = generatingInput(tool, brandId, postId, m.run.id);
    if (!input) {
      ctx.note(`${tool} needs a post and the client has none: not judged while ${state}`);
      continue;
    }
    const o = await m.session.callRaw(tool, input, "partner");
    // A build that ended around the call says nothing of the refusal (a slow run can outlast a slow build).
    if (stillSo && !(await stillSo())) return ctx.note(`the build was no longer ${state} after ${tool}: it and the tools after it are not judged while ${state}`);
    const e = expectError(ctx, o, { code: "profile_not_ready", rule: `${refusal}/${tool}` });
    if (e?.code === "profile_not_ready") ctx.expect(e.retryable === true, `${refusal}/${tool}`, `${tool} while ${state}: profile_not_ready with retryable ${show(e.retryable)}`);
  }
}

/**
 * The same refusals while a build runs, on a client whose build outlasts the run (mcp.triggers.website_builds_slowly;
 * without it a build may end mid-way, so the building state is left to mcp-profile-not-ready-while-building).
 */
async function whileBuilding(ctx: RunContext, m: McpContext): Promise<void> {
  const slow = m.slot("mcp.triggers.website_builds_slowly", "optional");
  if (!slow) return ctx.note("the refusals are not tried while building: no website whose build outlasts the run (mcp.triggers.website_builds_slowly)");
  const c = await newClient(ctx, m, "not-ready-building", slow);
  try {
    const status = async () => okData(await m.session.call("get_profile", { brandId: c.brandId }, "partner"))?.onboarding?.status;
    if ((await status()) !== "building") return ctx.note("the slow build was not building when looked at: the refusals are not tried while building");
    const draft = okData(await m.session.call("create_draft", { brandId: c.brandId, caption: `Conformance run ${m.run.id}: while building.` }, "partner"));
    await refuseAll(ctx, m, c.brandId, draft?.id ?? draft?.postId, "building", async () => (await status()) === "building");
    const after = await status();
    if (after !== "building") ctx.note(`the slow build was ${show(after)} after the refusals`);
  } finally {
    await eraseClient(ctx, m, c.brandId);
  }
}

async function run(ctx: RunContext, m: McpContext): Promise<void> {
  const website = m.slot("mcp.triggers.website_fails_build");
  const c = await newClient(ctx, m, "not-ready", website);
  const s = m.session;
  const as = "partner" as const;
  try {
    const { profile } = await settledBuild(ctx, m, c.brandId);
    if (profile.onboarding?.status !== "failed") return ctx.skip(`the build of the failing website ended ${show(profile.onboarding)}`);
    ctx.expect(profile.readiness?.canGenerate === false && (profile.readiness?.blockers ?? []).includes("profile_not_ready"), "profile-not-ready-blocker/failed", `a failed build shows readiness ${show(profile.readiness)}`);

    // Connecting an account is not held up (and, where the suite may sign in, gives the client somewhere to publish).
    const link = notHeldUp(ctx, await s.call("create_connect_link", { brandId: c.brandId, platform: textChannel }, as), "create_connect_link", true);
    const cannotSignIn = link ? await signIn(ctx, m, link.url) : "no connect link";
    if (cannotSignIn) ctx.note(`scheduling and publishing are judged only as not held up by the build: ${cannotSignIn}`);
    const caption = (n: number) => `Conformance run ${m.run.id}: our own words, number ${n}.`;
    const draft = notHeldUp(ctx, await s.call("create_draft", { brandId: c.brandId, caption: caption(1) }, as), "create_draft", true);
    const postId: string | undefined = draft?.id ?? draft?.postId;

    await refuseAll(ctx, m, c.brandId, postId, "failed");
    await whileBuilding(ctx, m);

    // Scheduling and publishing: with an account and the client's approval they go through; without, whatever
    // refuses them, it is not the build.
    const connected = !cannotSignIn;
    if (postId) {
      if (connected) await approveAsSeen(ctx, m, postId, `${notHeld}/schedule_post`, as);
      notHeldUp(ctx, await s.call("schedule_post", { id: postId, scheduledAt: m.run.clock.future(30) }, as), "schedule_post", connected);
    }
    if (m.slot("mcp.inputs.allow_publishing", "optional")) {
      const other = okData(await s.call("create_draft", { brandId: c.brandId, caption: caption(2) }, as));
      const id = other?.id ?? other?.postId;
      if (typeof id === "string") {
        if (connected) await approveAsSeen(ctx, m, id, `${notHeld}/publish_post_now`, as);
        notHeldUp(ctx, await s.call("publish_post_now", { id }, as), "publish_post_now", connected);
      }
    }
    // Still failed: every refusal above was made while the build was failed.
    const after = okData(await s.call("get_profile", { brandId: c.brandId }, as));
    if (after?.onboarding?.status !== "failed") ctx.note(`the failed build was ${show(after?.onboarding)} at the end`);
  } finally {
    await eraseClient(ctx, m, c.brandId);
  }
}

export const profileNotReadyChecks: McpCheck[] = [
  {
    id: "mcp-profile-not-ready-refusals",
    description: "On a client whose build failed, every generating tool is refused with profile_not_ready (retryable); own-caption drafts, connecting, scheduling and publishing are not held up",
    rules: [refusal, notHeld, "profile-not-ready-blocker/failed"],
    group: "mcp-build",
    needs: ["mcp:profile-all", "mcp:cost-builds"],
    // Its rules are judged elsewhere on a build seen building too (build.ts); this check judges them on a failed one.
    requiredSlots: { "mcp.triggers.website_fails_build": "the client whose build failed, which every case is judged on" },
    // A client whose build fails, and one building slowly when the target gives such a website.
    spend: ({ triggers }) => ({ builds: triggers.websiteBuildsSlowly ? 2 : 1 }),
    optionalSlots: {
      "mcp.inputs.allow_publishing": "publish_post_now is called too only where publishing is allowed (posts go live)",
      "mcp.triggers.website_builds_slowly": "the refusals are tried while building only where a build outlasts the run",
      "mcp.triggers.connect_account": "an account is connected first only where the suite may sign in",
    },
    run: (ctx) => run(ctx, ctx.mcp),
  },
];
