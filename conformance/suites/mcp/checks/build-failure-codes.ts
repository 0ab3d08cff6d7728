// Each build failure code of the catalogue, provoked on a client of its own (mcp.triggers.website_fails_build_code):
// create_profile answers building (or failed at once, only for build_not_queued), the build ends failed with that
// code in onboarding.error, readiness holds profile_not_ready meanwhile, and a repeat restarts the build.
import type { RuleId } from "../../../../generated/rules.js";
import { truthy, type AnsweredOutput } from "../answers.js";
import type { RunContext } from "../../../core/check.js";
import { expectOk, okData } from "../expect.js";
import type { McpContext } from "../extension.js";
import { expectContractFields } from "../fields.js";
import { eraseClient, familyMembers, newClient, settledBuild } from "./clients.js";
import { show, type McpCheck } from "./common.js";
import { expectProfileConsistent, profileConsistencyRules } from "./profiles.js";

const family = "build-failure-codes";

/** One code: its own client, built from the website that fails with it, followed to the end and restarted. */
async function provoke(ctx: RunContext, m: McpContext, website: string, code: string): Promise<void> {
  const rule: RuleId = `${family}/${code}`;
  const c = await newClient(ctx, m, `fails-${code}`, website.replaceAll("{code}", code));
  try {
    const created = okData(c.created);
    expectContractFields(ctx, "create-profile-output-fields", "create_profile", "CreateProfileOutput", created, `create_profile ${c.brandId}`);
    // The error field is there exactly when the status is failed.
    // newClient skipped the check unless create_profile answered, so `created` is there.
    ctx.expect((created?.status === "failed") === (typeof created?.error === "string"), "create-profile-output-fields/error", `create_profile answered ${show({ status: created?.status, error: created?.error })}`);
    const { profile, polls } = await settledBuild(ctx, m, c.brandId);
    for (const p of polls.map(okData).filter(truthy)) {
      expectContractFields(ctx, "onboarding-fields", "get_profile", "Onboarding", p.onboarding, `get_profile ${c.brandId} onboarding`);
      ctx.expect((p.onboarding?.status === "failed") === (typeof p.onboarding?.error === "string"), "onboarding-fields/error", `get_profile ${c.brandId}: onboarding ${show(p.onboarding)}`);
    }
    expectContractFields(ctx, "profile-fields", "get_profile", "Profile", profile, `get_profile ${c.brandId}`);
    if (!ctx.expect(profile.onboarding?.status === "failed" && profile.onboarding.error === code, rule, `a website failing with ${code} ended its build with onboarding ${show(profile.onboarding)}`)) return;
    const r = profile.readiness;
    ctx.expect(r?.canGenerate === false && Array.isArray(r.blockers) && r.blockers.includes("profile_not_ready"), "profile-not-ready-blocker/failed", `a failed build (${code}) shows readiness ${show(r)}`);
    expectProfileConsistent(ctx, profile, `get_profile ${c.brandId}`);
    // The repeat with the same externalId (and another website) restarts the build.
    const again = expectOk(ctx, await m.session.call("create_profile", { websiteUrl: m.slot("mcp.inputs.website"), name: "Conformance repeat", externalId: `conformance-${m.run.id}-fails-${code}` }, "partner"), rule);
    if (again) ctx.expect(again.status === "building" && again.created === false && again.brandId === c.brandId, rule, `the repeat after a ${code} failure answered ${show(again)}`);
  } finally {
    await eraseClient(ctx, m, c.brandId);
  }
}

export const buildFailureChecks: McpCheck[] = [
  {
    id: "mcp-build-failure-codes",
    description: "Each build failure code, provoked on a client of its own, ends the build failed with that code in onboarding.error (profile_not_ready meanwhile), and a repeat of create_profile restarts it",
    rules: [family, "onboarding-fields", "create-profile-output-fields", "profile-fields/onboarding", "profile-not-ready-blocker/failed", "readiness-consistent/profile_not_ready"],
    // Judged in passing on every client it makes: the profile's other fields and its readiness.
    incidental: [...profileConsistencyRules, "profile-fields"],
    group: "mcp-build",
    needs: ["mcp:profile-all", "mcp:cost-builds"],
    // A client per build failure code, each built twice (failed, then restarted by a repeat).
    spend: ({ triggers }) => ({ builds: triggers.websiteFailsBuildCode ? 2 * familyMembers(family).length : 0 }),
    async run(ctx) {
      const m = ctx.mcp;
      const website = ctx.slot("mcp.triggers.website_fails_build_code");
      // rule: build-failure-codes/<code>, every code of the catalogue, all at once.
      const runs = await Promise.allSettled(familyMembers(family).map((code) => provoke(ctx, m, website, code)));
      // Every code ran to its end (and erased its client) before a skip or failure of one of them ends the check.
      const stopped = runs.find((r): r is PromiseRejectedResult => r.status === "rejected");
      if (stopped) throw stopped.reason;
    },
  },
];
