// Ending a client (in development, partner-only): deactivation and deletion reported by calling again, deletion
// sticky (deleted, never not_found), and confirm true only. Each check makes its own client with create_profile.
import type { RuleId } from "../../../../generated/rules.js";
import { truthy, type AnsweredOutput } from "../answers.js";
import { sleep } from "../../../core/http.js";
import type { CallOutcome } from "../client.js";
import { describeCall, expectError, expectOk, expectRefusedFirst, okData } from "../expect.js";
import { expectContractFields } from "../fields.js";
import { newClient } from "./clients.js";
import { pollCall, show, unknownUuid, type McpCheck } from "./common.js";

const group = "mcp-ending";
// Every check here may start a profile build (create_profile): allowed by mcp.cost.builds.
const needs = ["mcp:profile-all", "mcp:cost-builds"] as const;

export const endingChecks: McpCheck[] = [
  {
    id: "mcp-deactivation-progress",
    description: "deactivate_profile: deactivation_scheduled, progress on repeat, then deactivated; the profile is inactive",
    rules: ["deactivation-progress", "deactivate-output-fields", "deactivation-effects/profile-inactive"],
    spend: () => ({ builds: 1 }),
    group,
    needs,
    async run(ctx) {
      const m = ctx.mcp;
      const rule = (member: string): RuleId => `deactivation-progress/${member}`;
      const { brandId, companyId } = await newClient(ctx, m, "deactivate");
      const call = () => m.session.call("deactivate_profile", { brandId }, "partner");
      const first = expectOk(ctx, await call(), rule("first-call"));
      if (!first) return;
      ctx.expect(first.status === "deactivation_scheduled" || first.status === "deactivated", rule("first-call"), `the first call answered status ${show(first.status)}`);
      ctx.expect(first.companyId === companyId, rule("company-id"), `deactivate_profile answered companyId ${show(first.companyId)}, expected ${companyId}`);
      const t = m.target.timing;
      const r = await pollCall(ctx, m, `deactivation of ${brandId}`, call, (o) => !okData(o) || okData(o)?.status !== "deactivation_scheduled", t.endingPollMs, t.endingDeadlineMs);
      const seen = [first, ...r.outcomes.map((o) => expectOk(ctx, o, rule("ends-deactivated")))].filter(truthy);
      for (const d of seen) expectContractFields(ctx, "deactivate-output-fields", "deactivate_profile", "DeactivateProfileOutput", d, `deactivate_profile ${brandId}`);
      const statuses = seen.map((d) => d.status);
      ctx.expect(statuses.at(-1) === "deactivated", rule("ends-deactivated"), `deactivation went ${show(statuses)}${r.finished ? "" : " and had not finished by the deadline"}`);
      const counts = seen.map((d) => d.unscheduledPosts);
      ctx.expect(counts.every((c, i) => typeof c === "number" && c >= 0 && (i === 0 || c >= Number(counts[i - 1]))), rule("unscheduled-monotonic"), `unscheduledPosts went ${show(counts)}`);
      // "final once deactivated": asked once more, the same count. (Whether the status sticks on repeats is the
      // walks' to judge, deactivation-progress/ends-deactivated: a walk-only mutant proves they do.)
      const ended = seen.at(-1);
      if (ended?.status === "deactivated") {
        const again = expectOk(ctx, await call(), rule("unscheduled-monotonic"));
        if (again) ctx.expect(again.unscheduledPosts === ended.unscheduledPosts, rule("unscheduled-monotonic"), `deactivated with unscheduledPosts ${show(ended.unscheduledPosts)} (final once deactivated), asked again: ${show(again.unscheduledPosts)}`);
      }
      const effect = "deactivation-effects/profile-inactive";
      const p = expectOk(ctx, await m.session.call("get_profile", { brandId }, "partner"), effect);
      if (p) ctx.expect(p.isActive === false && (p.readiness?.blockers ?? []).includes("brand_inactive"), effect, `after deactivation get_profile shows isActive ${show(p.isActive)}, blockers ${show(p.readiness?.blockers)}`);
      // Every profile of the workspace: its brand list shows it inactive too.
      const listed = typeof companyId === "string" ? expectOk(ctx, await m.session.call("list_brands", { workspaceId: companyId }, "partner"), effect) : undefined;
      const item = (listed?.brands ?? []).find((b) => b?.id === brandId);
      if (listed) ctx.expect(item?.isActive === false, effect, `after deactivation list_brands of ${companyId} shows ${show(item)}`);
    },
  },
  {
    id: "mcp-deletion-progress",
    description: "delete_profile: deleted true, deletion_scheduled, then deleted; later calls keep answering deleted, never not_found",
    rules: ["deletion-progress", "deleted-sticky", "delete-output-fields"],
    spend: () => ({ builds: 1 }),
    group,
    needs,
    async run(ctx) {
      const m = ctx.mcp;
      const { brandId, companyId } = await newClient(ctx, m, "delete");
      const call = () => m.session.call("delete_profile", { brandId, confirm: true }, "partner");
      const first = expectOk(ctx, await call(), "deletion-progress/first-call");
      if (!first) return;
      expectContractFields(ctx, "delete-output-fields", "delete_profile", "DeleteProfileOutput", first, `delete_profile ${brandId}`);
      ctx.expect(first.deleted === true && first.companyId === companyId, "deletion-progress/first-call", `the first call answered ${show(first)}`);
      ctx.expect(first.status === "deletion_scheduled" || first.status === "deleted", "deletion-progress/first-call", `the first call answered status ${show(first.status)}`);
      const t = m.target.timing;
      const r = await pollCall(ctx, m, `deletion of ${brandId}`, call, (o) => !okData(o) || okData(o)?.status !== "deletion_scheduled", t.endingPollMs, t.endingDeadlineMs);
      const last = r.outcomes.at(-1);
      if (last) expectOk(ctx, last, "deletion-progress/ends-deleted");
      const lastData = last ? okData(last) : first;
      if (!ctx.expect(lastData?.status === "deleted" && lastData.deleted === true, "deletion-progress/ends-deleted", `deletion ended with ${last ? describeCall(last) : show(first)}`)) return;
      // Sticky: looked at again, twice, an interval apart.
      for (let i = 0; i < 2; i++) {
        ctx.waiting(`deleted ${brandId}: look ${i + 1} after it finished`);
        await sleep(t.endingPollMs, undefined, m.session.http.target.clock);
        const again = await call();
        const d = okData(again);
        ctx.expect(d?.status === "deleted" && d.deleted === true, "deleted-sticky", `after deletion: ${describeCall(again)}`);
      }
      ctx.waiting(null);
    },
  },
  {
    id: "mcp-delete-confirm-true",
    description: "delete_profile with confirm other than true is refused before it runs; with a brandId that never named a profile it answers not_found",
    rules: ["delete-confirm-true", "delete-unknown-not-found"],
    group,
    needs,
    async run(ctx) {
      const m = ctx.mcp;
      expectRefusedFirst(ctx, await m.session.callRaw("delete_profile", { brandId: unknownUuid(), confirm: false }, "partner"), "delete-confirm-true/false");
      expectRefusedFirst(ctx, await m.session.callRaw("delete_profile", { brandId: unknownUuid() }, "partner"), "delete-confirm-true/missing");
      expectError(ctx, await m.session.call("delete_profile", { brandId: unknownUuid(), confirm: true }, "partner"), { code: "not_found", rule: "delete-unknown-not-found" });
    },
  },
];
