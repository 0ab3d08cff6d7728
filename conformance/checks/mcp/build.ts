// Client creation and its build (create_profile, in development and partner-only): building at once, idempotent
// on externalId, building → ready, profile_not_ready meanwhile, a failed build restarted by a repeat, refused
// websites; and the approval a partner workspace requires.
import type { Check } from "../../check.js";
import type { CallOutcome } from "../../mcp/client.js";
import { describeCall, expectError, expectOk } from "../../mcp/expect.js";
import { okData } from "../../mcp/jobs.js";
import { mcpCheck, show } from "./common.js";

const group = "mcp-build";
const needs = ["mcp:partner-token", "mcp:profile-all"] as const;

export const buildChecks: Check[] = [
  mcpCheck({
    id: "mcp-create-profile-building",
    description: "create_profile with a new externalId answers at once: ids, created true, status building",
    rules: ["create-profile-building"],
    group,
    needs,
    async run(ctx, m) {
      const rule = "create-profile-building";
      const t = await m.jobs.build("main");
      if (!t.created) return ctx.skip(t.problem ?? "create_profile was not called");
      const d = expectOk(ctx, t.created, rule);
      if (!d) return;
      ctx.expect(typeof d.brandId === "string" && typeof d.companyId === "string", rule, `create_profile answered ids ${show(d.brandId)}, ${show(d.companyId)}`);
      ctx.expect(d.created === true, rule, `a new externalId answered created ${show(d.created)}`);
      ctx.expect(d.status === "building" || (d.status === "failed" && typeof d.error === "string"), rule, `a new profile answered status ${show(d.status)}${d.error ? ` (${d.error})` : ""}`);
    },
  }),
  mcpCheck({
    id: "mcp-create-profile-idempotent",
    description: "create_profile repeated with the same externalId answers the first profile, created false, and makes no workspace",
    rules: ["create-profile-idempotent"],
    group,
    needs,
    async run(ctx, m) {
      const rule = "create-profile-idempotent";
      const t = await m.jobs.build("main");
      if (!t.brandId || !t.repeat) return ctx.skip(t.problem ?? "no profile was made");
      const again = expectOk(ctx, t.repeat, rule);
      if (again) {
        ctx.expect(again.brandId === t.brandId && again.companyId === t.companyId, rule, `the repeat answered ${show([again.brandId, again.companyId])}, the first call ${show([t.brandId, t.companyId])}`);
        ctx.expect(again.created === false, rule, `the repeat answered created ${show(again.created)}`);
      }
      const q = expectOk(ctx, t.repeatQuery!, rule);
      if (q) ctx.expect(q.totalCount === 0, rule, `a workspace named as the repeat was made: ${describeCall(t.repeatQuery!)}`);
      if (t.after) {
        const after = expectOk(ctx, t.after, rule);
        if (after) ctx.expect(after.created === false && after.brandId === t.brandId && after.status === "ready", rule, `a repeat once ready answered ${show(after)}`);
      }
    },
  }),
  mcpCheck({
    id: "mcp-build-completes",
    description: "A build goes building → ready, as get_profile's onboarding shows",
    rules: ["build-completes"],
    group,
    needs,
    async run(ctx, m) {
      const rule = "build-completes";
      const t = await m.jobs.build("main");
      if (!t.brandId) return ctx.skip(t.problem ?? "no profile was made");
      for (const o of t.polls) expectOk(ctx, o, rule);
      ctx.expect(t.outcome === "ready", rule, `profile ${t.brandId}: the build ended ${t.outcome}${t.problem ? ` (${t.problem})` : ""}${t.settled ? `: ${show(t.settled)}` : ""}`);
      const statuses = t.polls.map((o) => okData(o)?.onboarding?.status);
      ctx.expect(statuses.slice(0, -1).every((s) => s === "building"), rule, `profile ${t.brandId} went through ${show(statuses)} before it settled`);
    },
  }),
  mcpCheck({
    id: "mcp-profile-not-ready-while-building",
    description: "While a build runs, readiness has profile_not_ready and create_posts is refused with profile_not_ready (retryable)",
    rules: ["profile-not-ready-blocker", "profile-not-ready-refusal"],
    group,
    needs,
    async run(ctx, m) {
      const t = await m.jobs.build("main");
      if (!t.during?.profile || !t.during.createPosts) return ctx.skip(t.problem ?? "nothing was asked while the build ran");
      const p = expectOk(ctx, t.during.profile, "profile-not-ready-blocker");
      if (p?.onboarding?.status !== "building" && p?.onboarding?.status !== "failed")
        ctx.skip(`the build was ${show(p?.onboarding?.status)} before it could be looked at`);
      ctx.expect(
        p.readiness?.canGenerate === false && Array.isArray(p.readiness?.blockers) && p.readiness.blockers.includes("profile_not_ready"),
        "profile-not-ready-blocker",
        `while building, readiness is ${show(p.readiness)}`,
      );
      const after = okData(t.during.profileAfter)?.onboarding?.status;
      if (after !== "building" && after !== "failed")
        return ctx.note(`the build was ${show(after)} right after create_posts: whether it ran while building is not known, so it is not judged`);
      expectError(ctx, t.during.createPosts, { code: "profile_not_ready", rule: "profile-not-ready-refusal" });
    },
  }),
  mcpCheck({
    id: "mcp-failed-build-retried",
    description: "A failed build is retried by repeating create_profile: building again, created false, then ready",
    rules: ["failed-build-retried-by-repeat", "build-completes"],
    group,
    needs: [...needs, "trigger:mcp-website-fails-build"],
    async run(ctx, m) {
      const rule = "failed-build-retried-by-repeat";
      const t = await m.jobs.build("fails");
      if (!t.brandId) return ctx.skip(t.problem ?? "no profile was made");
      if (!ctx.expect(t.outcome === "failed", "build-completes", `the failing website's build ended ${t.outcome} (${show(t.settled)})`)) return;
      ctx.expect(typeof t.settled?.error === "string" && t.settled.error.length > 0, "build-completes", `a failed build has onboarding ${show(t.settled)}, expected an error code`);
      const restart = expectOk(ctx, t.restart!, rule);
      if (!restart) return;
      ctx.expect(restart.status === "building" && restart.created === false && restart.brandId === t.brandId, rule, `the repeat after the failure answered ${show(restart)}`);
      ctx.expect(t.restartOutcome === "ready", rule, `the restarted build ended ${t.restartOutcome}`);
    },
  }),
  mcpCheck({
    id: "mcp-website-refused",
    description: "A social profile as website is refused with invalid_website_url and nothing is created",
    rules: ["website-refused"],
    group,
    needs,
    async run(ctx, m) {
      const rule = "website-refused";
      const externalId = `conformance-${m.jobs.run}-refused`;
      const e = expectError(ctx, await m.session.call("create_profile", { websiteUrl: `https://www.instagram.com/conformance${m.jobs.run}`, name: `Conformance refused ${m.jobs.run}`, externalId }, "partner"), {
        code: "invalid_website_url",
        rule,
      });
      if (e && "websiteRefusal" in e) ctx.expect(e.websiteRefusal === "BLOCKED_DOMAIN", rule, `a social profile was refused as ${show(e.websiteRefusal)}, expected BLOCKED_DOMAIN`);
      // Nothing was made: the same externalId with a good website makes a new profile (then it is erased).
      const made = expectOk(ctx, await m.session.call("create_profile", { websiteUrl: m.target.inputs.website, name: `Conformance refused ${m.jobs.run}`, externalId }, "partner"), rule);
      if (!made) return;
      ctx.expect(made.created === true, rule, `after a refusal, the same externalId answered created ${show(made.created)}: the refused call made something`);
      if (typeof made.brandId === "string") await m.session.call("delete_profile", { brandId: made.brandId, confirm: true }, "partner");
    },
  }),
  mcpCheck({
    id: "mcp-approval-required",
    description: "In a partner workspace, scheduling a post with no approval recorded is refused with approval_required",
    rules: ["approval-required"],
    group,
    needs,
    async run(ctx, m) {
      const rule = "approval-required";
      const t = await m.jobs.readyBuild(ctx);
      const s = m.session;
      const created = okData(await s.call("create_posts", { brandId: t.brandId, brief: "Conformance run: opening week specials.", count: 1, includeImage: false }, "partner"));
      if (!created?.batchId) return ctx.skip("create_posts in the new profile did not answer a batch");
      const tm = m.target.timing;
      let postId: string | undefined;
      const r = await m.jobs.poll(
        "check",
        `batch ${created.batchId}: waiting for a post`,
        () => s.call("get_post_batch_status", { batchId: created.batchId }, "partner"),
        (o: CallOutcome) => !okData(o) || okData(o).settled === true,
        (elapsed) => m.jobs.batchInterval(elapsed, 0),
        tm.batchGiveUpMs,
        (text) => ctx.waiting(text),
      );
      postId = okData(r.outcomes.at(-1))?.items?.find((i: any) => typeof i?.postId === "string")?.postId;
      if (!postId) return ctx.skip("the new profile's batch made no post");
      expectError(ctx, await s.call("schedule_post", { id: postId, scheduledAt: m.jobs.future(60) }, "partner"), { code: "approval_required", rule });
      const left = okData(await s.call("get_post_status", { id: postId }, "partner"));
      ctx.expect(!(left?.platformResults ?? []).some((p: any) => p?.status === "scheduled"), rule, `post ${postId} was booked though approval was required`);
    },
  }),
];
