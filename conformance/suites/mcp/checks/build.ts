// Client creation and its build (create_profile, in development and partner-only): building at once, idempotent
// on externalId, building → ready, profile_not_ready meanwhile, a failed build restarted by a repeat, refused
// websites; and the approval a partner workspace requires.
import type { RuleId } from "../../../../generated/rules.js";
import type { RunContext } from "../../../core/check.js";
import type { CallOutcome } from "../client.js";
import { buildFailureCodes } from "../contract.js";
import { describeCall, errorOf, expectError, expectOk, expectRan, expectRefusedFirst, okData } from "../expect.js";
import { expectRefusal, refusedFirstRule } from "../refusal.js";
import { expectContractFields } from "../fields.js";
import type { McpContext } from "../extension.js";
import { eraseClient, newClient } from "./clients.js";
import { madeId, show, type McpCheck } from "./common.js";
import { sharedBuild, startedBuild } from "./build-scenario.js";

const group = "mcp-build";
// Every check here may start a profile build (create_profile): allowed by mcp.cost.builds.
// The partner token is the slot of most of these checks' rules (mcp.tokens.partner); the others need it declared.
const needs = ["mcp:profile-all", "mcp:cost-builds"] as const;
const partnerNeeds = ["mcp:partner-token", ...needs] as const;

/**
 * get_profile, create_posts and get_profile again while a build runs: on a client of the check's own whose build
 * outlasts the run (mcp.triggers.website_builds_slowly), so nothing races the build; else what the shared build
 * saw right after create_profile.
 */
async function whileBuilding(ctx: RunContext, m: McpContext): Promise<{ profile?: CallOutcome<"get_profile">; createPosts?: CallOutcome<"create_posts">; profileAfter?: CallOutcome<"get_profile">; problem?: string }> {
  const slow = m.slot("mcp.triggers.website_builds_slowly", "optional");
  if (!slow) {
    const t = await sharedBuild(m, "main");
    return { ...t.during, ...(t.problem ? { problem: t.problem } : {}) };
  }
  const c = await newClient(ctx, m, "building", slow);
  try {
    const read = () => m.session.call("get_profile", { brandId: c.brandId }, "partner");
    const profile = await read();
    const createPosts = await m.session.call("create_posts", { brandId: c.brandId, brief: "Conformance run: opening week.", count: 1 }, "partner");
    return { profile, createPosts, profileAfter: await read() };
  } finally {
    await eraseClient(ctx, m, c.brandId);
  }
}

export const buildChecks: McpCheck[] = [
  {
    id: "mcp-create-profile-building",
    description: "create_profile with a new externalId answers at once: ids, created true, status building",
    rules: ["create-profile-building", "create-profile-output-fields"],
    group,
    needs,
    async run(ctx) {
      const m = ctx.mcp;
      const rule = (member: string): RuleId => `create-profile-building/${member}`;
      const t = await sharedBuild(m, "main");
      if (!t.created) return ctx.skip(t.problem ?? "create_profile was not called");
      const d = expectOk(ctx, t.created, rule("ids"));
      if (!d) return;
      expectContractFields(ctx, "create-profile-output-fields", "create_profile", "CreateProfileOutput", d, "create_profile");
      ctx.expect((d.status === "failed") === (typeof d.error === "string"), "create-profile-output-fields/error", `create_profile answered ${show({ status: d.status, error: d.error })}: error is there exactly when failed`);
      ctx.expect(typeof d.brandId === "string" && typeof d.companyId === "string", rule("ids"), `create_profile answered ids ${show(d.brandId)}, ${show(d.companyId)}`);
      ctx.expect(d.created === true, rule("created"), `a new externalId answered created ${show(d.created)}`);
      ctx.expect(d.status === "building" || (d.status === "failed" && typeof d.error === "string"), rule("status"), `a new profile answered status ${show(d.status)}${d.error ? ` (${d.error})` : ""}`);
    },
  },
  {
    id: "mcp-create-profile-idempotent",
    description: "create_profile repeated with the same externalId answers the first profile, created false, and makes no workspace",
    rules: ["create-profile-idempotent"],
    group,
    needs,
    async run(ctx) {
      const m = ctx.mcp;
      const rule = (member: string): RuleId => `create-profile-idempotent/${member}`;
      const t = await sharedBuild(m, "main");
      if (!t.brandId || !t.repeat) return ctx.skip(t.problem ?? "no profile was made");
      const again = expectOk(ctx, t.repeat, rule("same-ids"));
      if (again) {
        // The repeat sent another name and website: the first call's profile all the same.
        ctx.expect(again.brandId === t.brandId && again.companyId === t.companyId, [rule("same-ids"), rule("other-arguments-ignored")], `the repeat answered ${show([again.brandId, again.companyId])}, the first call ${show([t.brandId, t.companyId])}`);
        ctx.expect(again.created === false, rule("created-false"), `the repeat answered created ${show(again.created)}`);
      }
      const q = expectOk(ctx, t.repeatQuery!, rule("no-second-workspace"));
      if (q) ctx.expect(q.totalCount === 0, rule("no-second-workspace"), `a workspace named as the repeat was made: ${describeCall(t.repeatQuery!)}`);
      // Nor a copy of the first: the first call's (unique) name matches at most the client's own workspace.
      const first = t.firstQuery ? expectOk(ctx, t.firstQuery, rule("no-second-workspace")) : undefined;
      if (first) ctx.expect((first.totalCount ?? first.workspaces?.length ?? 0) <= 1, rule("no-second-workspace"), `after the repeat, more than one workspace is named as the first call: ${describeCall(t.firstQuery!)}`);
      if (t.after) {
        const after = expectOk(ctx, t.after, rule("current-state"));
        if (after) ctx.expect(after.created === false && after.brandId === t.brandId && after.status === "ready", rule("current-state"), `a repeat once ready answered ${show(after)}`);
      }
    },
  },
  {
    id: "mcp-build-completes",
    description: "A build goes building → ready, as get_profile's onboarding shows",
    rules: ["build-completes", "onboarding-fields"],
    group,
    needs,
    async run(ctx) {
      const m = ctx.mcp;
      const rule = "build-completes";
      const t = await sharedBuild(m, "main");
      if (!t.brandId) return ctx.skip(t.problem ?? "no profile was made");
      for (const o of t.polls) {
        const p = expectOk(ctx, o, rule);
        if (!p) continue;
        expectContractFields(ctx, "onboarding-fields", "get_profile", "Onboarding", p.onboarding, `get_profile ${t.brandId} onboarding`);
        ctx.expect((p.onboarding?.status === "failed") === (typeof p.onboarding?.error === "string"), "onboarding-fields/error", `get_profile ${t.brandId}: onboarding ${show(p.onboarding)}: error is there exactly when failed`);
      }
      ctx.expect(t.outcome === "ready", rule, `profile ${t.brandId}: the build ended ${t.outcome}${t.problem ? ` (${t.problem})` : ""}${t.settled ? `: ${show(t.settled)}` : ""}`);
      const statuses = t.polls.map((o) => okData(o)?.onboarding?.status);
      ctx.expect(statuses.slice(0, -1).every((s) => s === "building"), rule, `profile ${t.brandId} went through ${show(statuses)} before it settled`);
      // Ready, the generation tools are usable: profile_not_ready is gone (other blockers may remain).
      const settled = t.polls.length ? okData(t.polls[t.polls.length - 1]!) : undefined;
      if (settled?.onboarding?.status === "ready")
        ctx.expect(!(settled.readiness?.blockers ?? []).includes("profile_not_ready"), rule, `profile ${t.brandId} is ready, yet readiness is ${show(settled.readiness)}`);
    },
  },
  {
    id: "mcp-profile-not-ready-while-building",
    description: "While a build runs, readiness has profile_not_ready and create_posts is refused with profile_not_ready (retryable)",
    // A build seen failed here is judged in passing; mcp-build-failure-codes provokes the failed member on purpose.
    rules: ["profile-not-ready-blocker/building", "profile-not-ready-refusal/create_posts"],
    incidental: ["profile-not-ready-blocker/failed"],
    group,
    needs,
    // A client of its own building slowly, when the target gives such a website (else the shared build).
    spend: ({ triggers }) => ({ builds: triggers.websiteBuildsSlowly ? 1 : 0 }),
    optionalSlots: { "mcp.triggers.website_builds_slowly": "the refusals are tried while building only where a build outlasts the run" },
    async run(ctx) {
      const m = ctx.mcp;
      const during = await whileBuilding(ctx, m);
      if (!during.profile || !during.createPosts) return ctx.skip(during.problem ?? "nothing was asked while the build ran");
      const p = expectOk(ctx, during.profile, "profile-not-ready-blocker/building");
      const status = p?.onboarding?.status;
      if (!p || (status !== "building" && status !== "failed")) return ctx.skip(`the build was ${show(status)} before it could be looked at`);
      // rule: profile-not-ready-blocker/<building|failed>
      ctx.expect(
        p.readiness?.canGenerate === false && Array.isArray(p.readiness?.blockers) && p.readiness.blockers.includes("profile_not_ready"),
        `profile-not-ready-blocker/${status}`,
        `while ${status}, readiness is ${show(p.readiness)}`,
      );
      const after = okData(during.profileAfter)?.onboarding?.status;
      if (after !== "building" && after !== "failed")
        return ctx.note(`the build was ${show(after)} right after create_posts: whether it ran while building is not known, so it is not judged`);
      expectError(ctx, during.createPosts, { code: "profile_not_ready", rule: "profile-not-ready-refusal/create_posts" });
    },
  },
  {
    id: "mcp-failed-build-retried",
    description: "A failed build is retried by repeating create_profile: building again, created false, then ready",
    rules: ["failed-build-retried-by-repeat", "build-fails"],
    // The one code the trigger's website fails with, judged in passing; mcp-build-failure-codes provokes each.
    incidental: ["build-failure-codes"],
    group,
    needs: partnerNeeds,
    async run(ctx) {
      const m = ctx.mcp;
      const rule = "failed-build-retried-by-repeat";
      const t = await sharedBuild(m, "fails");
      if (!t.brandId) return ctx.skip(t.problem ?? "no profile was made");
      if (!ctx.expect(t.outcome === "failed", "build-fails", `the failing website's build ended ${t.outcome} (${show(t.settled)})`)) return;
      const code = t.settled?.error;
      ctx.expect(typeof code === "string" && code.length > 0, "build-fails", `a failed build has onboarding ${show(t.settled)}, expected an error code`);
      // rule: build-failure-codes/<code> (a code outside the catalogue is allowed: the set is open)
      const member: RuleId[] = typeof code === "string" && buildFailureCodes.has(code) ? [`build-failure-codes/${code}`] : [];
      const restart = expectOk(ctx, t.restart!, [rule, ...member]);
      if (!restart) return;
      ctx.expect(restart.status === "building" && restart.created === false && restart.brandId === t.brandId, [rule, ...member], `the repeat after the failure answered ${show(restart)}`);
      ctx.expect(t.restartOutcome === "ready", rule, `the restarted build ended ${t.restartOutcome}`);
    },
  },
  {
    id: "mcp-website-refused",
    description: "A social profile, an address that never resolves and a private address as website are each refused with invalid_website_url and its reason, and nothing is created",
    rules: ["website-refused", "website-refusal-reason"],
    spend: () => ({ builds: 1 }),
    group,
    needs,
    async run(ctx) {
      const m = ctx.mcp;
      const rule = "website-refused";
      const refusals = [
        ["BLOCKED_DOMAIN", `https://www.instagram.com/conformance${m.run.id}`],
        // .invalid never resolves (RFC 6761).
        ["URL_NOT_REACHABLE", `https://conformance-${m.run.id}.invalid`],
        ["URL_NOT_ALLOWED", "http://127.0.0.1/"],
      ] as const;
      for (const [reason, websiteUrl] of refusals) {
        // rule: website-refusal-reason/<reason>
        const externalId = `conformance-${m.run.id}-refused-${reason.toLowerCase()}`;
        const e = expectError(ctx, await m.session.call("create_profile", { websiteUrl, name: `Conformance refused ${m.run.id}`, externalId }, "partner"), {
          code: "invalid_website_url",
          rule: [rule, `website-refusal-reason/${reason}`],
        });
        // The seed leaves websiteRefusal out when the gateway does not know why; when given, it names the reason.
        if (e && "websiteRefusal" in e) ctx.expect(e.websiteRefusal === reason, `website-refusal-reason/${reason}`, `${websiteUrl} was refused as ${show(e.websiteRefusal)}, expected ${reason}`);
      }
      // Nothing was made: the first externalId with a good website makes a new profile (then it is erased).
      const externalId = `conformance-${m.run.id}-refused-blocked_domain`;
      const made = expectOk(ctx, await m.session.call("create_profile", { websiteUrl: m.slot("mcp.inputs.website"), name: `Conformance refused ${m.run.id}`, externalId }, "partner"), rule);
      if (!made) return;
      ctx.expect(made.created === true, rule, `after a refusal, the same externalId answered created ${show(made.created)}: the refused call made something`);
      if (typeof made.brandId === "string") await m.session.call("delete_profile", { brandId: made.brandId, confirm: true }, "partner");
    },
  },
  {
    id: "mcp-create-profile-inputs",
    description: "create_profile refuses each text input beyond each side of its length (before it runs where its schema states the limit), takes each at its edge, and takes a bare domain as website",
    rules: ["limit-create-profile-website-url", "limit-create-profile-name", "limit-create-profile-external-id", "limit-create-profile-edge-accepted", "create-profile-bare-domain", `${refusedFirstRule}/create_profile`],
    // The bare domain and the five edges each make a client (erased at once).
    spend: () => ({ builds: 6 }),
    group,
    needs,
    async run(ctx) {
      const m = ctx.mcp;
      const base = { websiteUrl: m.slot("mcp.inputs.website"), name: `Conformance limits ${m.run.id}`, externalId: `conformance-${m.run.id}-limits` };
      const erase = async (o: { data?: unknown }) => {
        const made = (o.data as { brandId?: unknown } | undefined)?.brandId;
        if (typeof made === "string") await m.session.call("delete_profile", { brandId: made, confirm: true }, "partner");
      };
      for (const [family, field, max] of [
        ["limit-create-profile-website-url", "websiteUrl", 2048],
        ["limit-create-profile-name", "name", 100],
        ["limit-create-profile-external-id", "externalId", 200],
      ] as const) {
        // rule: <family>/min, <family>/max. Should the gateway take one after all, what it made is erased.
        const long = field === "websiteUrl" ? `https://www.example.com/${"p".repeat(max)}` : "x".repeat(max + 1);
        for (const [side, value] of [["min", ""], ["max", long]] as const) {
          const o = await m.session.call("create_profile", { ...base, [field]: value }, "partner");
          await expectRefusal(ctx, m, o, `${family}/${side}`);
          await erase(o);
        }
      }
      // rule: limit-create-profile-edge-accepted/<edge>: each length at its edge is taken (what it made is erased).
      const key = `conformance-${m.run.id}-edge`;
      const site = "https://www.example.com/";
      for (const [edge, field, value, externalId] of [
        ["website-url-max", "websiteUrl", `${site}${"p".repeat(2048 - site.length)}`, `${key}-url`],
        ["name-min", "name", "N", `${key}-name-min`],
        ["name-max", "name", "N".repeat(100), `${key}-name-max`],
        ["external-id-min", "externalId", undefined, undefined],
        ["external-id-max", "externalId", undefined, `${key}-`.padEnd(200, "x")],
      ] as const) {
        // One character cannot say whose run it is: a letter drawn per run keeps runs apart as far as one can.
        const id = externalId ?? String.fromCharCode(97 + (parseInt(m.run.id.slice(-2), 36) % 26));
        const o = await m.session.call("create_profile", { ...base, externalId: id, ...(field === "externalId" ? {} : { [field]: value }) }, "partner");
        const rule: RuleId = `limit-create-profile-edge-accepted/${edge}`;
        if (expectRan(ctx, o, rule)) {
          const e = errorOf(o);
          const named = e?.code === "bad_request" && Array.isArray(e.invalidFields) && e.invalidFields.includes(field);
          ctx.expect(!named, rule, `${describeCall(o)}: ${field} of ${String(field === "externalId" ? id : value).length} characters, within the limit, refused as bad_request`);
        }
        await erase(o);
      }
      const bare = new URL(m.slot("mcp.inputs.website")).hostname;
      const o = await m.session.call("create_profile", { ...base, websiteUrl: bare, externalId: `conformance-${m.run.id}-bare` }, "partner");
      const d = expectOk(ctx, o, "create-profile-bare-domain");
      if (d) ctx.expect(typeof d.brandId === "string" && d.created === true, "create-profile-bare-domain", `a bare domain ${bare} answered ${show(d)}`);
      await erase(o);
    },
  },
  {
    id: "mcp-approval-required",
    description: "In a partner workspace, scheduling, publishing or moving a post with no approval recorded is refused with approval_required",
    rules: ["approval-required"],
    group,
    needs,
    optionalSlots: { "mcp.inputs.allow_publishing": "publish_post_now is called too only where publishing is allowed (posts go live)" },
    async run(ctx) {
      const m = ctx.mcp;
      const rule = "approval-required/schedule_post";
      // The shared client as soon as it exists: a draft with the caller's own caption is not held up by the build
      // (not-ready-does-not-hold), so this does not wait for it.
      const t = await startedBuild(m, "main");
      if (!t.brandId) return ctx.skip(t.problem ?? "create_profile made no client");
      const s = m.session;
      const d = expectOk(ctx, await s.call("create_draft", { brandId: t.brandId, caption: `Conformance run ${m.run.id}: opening week specials.` }, "partner"), rule);
      const postId = madeId(ctx, "create_draft", d);
      expectError(ctx, await s.call("schedule_post", { id: postId, scheduledAt: m.run.clock.future(60) }, "partner"), { code: "approval_required", rule });
      // rule: approval-required/publish_post_now (only where publishing is allowed), approval-required/reschedule_posts
      if (m.slot("mcp.inputs.allow_publishing", "optional"))
        expectError(ctx, await s.call("publish_post_now", { id: postId }, "partner"), { code: "approval_required", rule: "approval-required/publish_post_now" });
      const moved = expectOk(ctx, await s.call("reschedule_posts", { moves: [{ postId, scheduledAt: m.run.clock.future(61) }] }, "partner"), "approval-required/reschedule_posts");
      if (moved) ctx.expect(moved.moves?.[0]?.ok === false && moved.moves[0].error?.code === "approval_required", "approval-required/reschedule_posts", `reschedule_posts of a post with no decision answered ${show(moved.moves)}`);
      const left = okData(await s.call("get_post_status", { id: postId }, "partner"));
      ctx.expect(!(left?.platformResults ?? []).some((p) => p?.status === "scheduled"), ["approval-required/schedule_post", "approval-required/reschedule_posts"], `post ${postId} was booked though approval was required`);
    },
  },
  {
    id: "mcp-create-profile-trigger-refusals",
    description: "A website whose build cannot start answers failed with build_not_queued; a harmful one is refused as URL_UNSAFE, one refused for an unknown reason without websiteRefusal",
    rules: ["create-profile-not-queued", "website-refusal-unsafe", "website-refusal-unknown-left-out"],
    optionalSlots: {
      "mcp.triggers.website_fails_queue": "each refusal runs when its own website is given",
      "mcp.triggers.website_unsafe": "each refusal runs when its own website is given",
      "mcp.triggers.website_refused_unknown": "each refusal runs when its own website is given",
    },
    spend: ({ triggers }) => ({ builds: triggers.websiteFailsQueue ? 1 : 0 }),
    group,
    needs: partnerNeeds,
    async run(ctx) {
      const m = ctx.mcp;
      const [websiteFailsQueue, websiteUnsafe, websiteRefusedUnknown] = (["website_fails_queue", "website_unsafe", "website_refused_unknown"] as const).map((s) => ctx.slot(`mcp.triggers.${s}`, "optional"));
      if (!websiteFailsQueue && !websiteUnsafe && !websiteRefusedUnknown)
        return ctx.skip("no website that fails to queue, is harmful or is refused for an unknown reason (mcp.triggers.website_fails_queue, website_unsafe, website_refused_unknown)");
      const call = (websiteUrl: string, key: string) =>
        m.session.call("create_profile", { websiteUrl, name: `Conformance ${key} ${m.run.id}`, externalId: `conformance-${m.run.id}-${key}` }, "partner");
      if (websiteFailsQueue) {
        const rule = "create-profile-not-queued/build_not_queued";
        const d = expectOk(ctx, await call(websiteFailsQueue, "not-queued"), rule);
        if (d) {
          ctx.expect(d.status === "failed" && d.error === "build_not_queued", rule, `a build that cannot start answered ${show({ status: d.status, error: d.error })}`);
          if (typeof d.brandId === "string") await m.session.call("delete_profile", { brandId: d.brandId, confirm: true }, "partner");
        }
      }
      if (websiteUnsafe) {
        const e = expectError(ctx, await call(websiteUnsafe, "unsafe"), { code: "invalid_website_url", rule: "website-refusal-unsafe/URL_UNSAFE" });
        if (e) ctx.expect(e.websiteRefusal === "URL_UNSAFE", "website-refusal-unsafe/URL_UNSAFE", `a harmful website was refused as ${show(e.websiteRefusal)}`);
      }
      if (websiteRefusedUnknown) {
        const e = expectError(ctx, await call(websiteRefusedUnknown, "refused-unknown"), { code: "invalid_website_url", rule: "website-refusal-unknown-left-out/unknown" });
        if (e) ctx.expect(!("websiteRefusal" in e), "website-refusal-unknown-left-out/unknown", `a refusal for an unknown reason carries websiteRefusal ${show(e.websiteRefusal)}`);
      }
    },
  },
  {
    id: "mcp-external-billing-refused",
    description: "deactivate_profile and delete_profile of a workspace that pays its own plan answer external_billing_workspace and change nothing",
    rules: ["external-billing-refused"],
    spend: ({ triggers }) => ({ builds: triggers.externalBillingExternalId ? 1 : 0 }),
    group,
    needs: partnerNeeds,
    async run(ctx) {
      const m = ctx.mcp;
      const marker = ctx.slot("mcp.triggers.external_billing_external_id");
      const made = okData(await m.session.call("create_profile", { websiteUrl: m.slot("mcp.inputs.website"), name: `Conformance billing ${m.run.id}`, externalId: `${marker}-${m.run.id}` }, "partner"));
      if (typeof made?.brandId !== "string") return ctx.skip("create_profile made no client with that externalId");
      for (const [tool, args] of [
        ["deactivate_profile", { brandId: made.brandId }],
        ["delete_profile", { brandId: made.brandId, confirm: true }],
      ] as const) {
        // rule: external-billing-refused/<tool>
        expectError(ctx, await m.session.call(tool, args, "partner"), { code: "external_billing_workspace", rule: `external-billing-refused/${tool}` });
      }
      const p = expectOk(ctx, await m.session.call("get_profile", { brandId: made.brandId }, "partner"), "external-billing-refused/deactivate_profile");
      if (p) ctx.expect(p.isActive === true, "external-billing-refused/deactivate_profile", `after refused ending calls the profile has isActive ${show(p.isActive)}`);
    },
  },
];
