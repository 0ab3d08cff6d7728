// What a partner token reaches: get_workspaces lists its clients' workspaces and no one else's, list_brands of a
// client workspace needs no choice, onboarding shows only on profiles create_profile made, and a client whose
// access the gateway cannot get answers partner_downstream_auth_failed with the token still good.
import { toolsCall } from "../client.js";
import { expectOk, okData } from "../expect.js";
import { mcpTriggerTokenEnv } from "../target.js";
import { eraseClient, newClient } from "./clients.js";
import { byId, show, type McpCheck } from "./common.js";

const group = "mcp-profiles";

export const partnerWorkspaceChecks: McpCheck[] = [
  {
    id: "mcp-partner-workspaces",
    description: "With a partner token get_workspaces lists the partner's clients only, list_brands of a client workspace answers needsUserChoice false, and onboarding shows only on a profile create_profile made",
    rules: ["workspaces-partner-clients", "list-brands-client-workspace", "onboarding-only-from-create-profile"],
    group,
    needs: ["mcp:profile-all", "mcp:cost-builds"],
    spend: () => ({ builds: 1 }),
    async run(ctx) {
      const m = ctx.mcp;
      const s = m.session;
      const c = await newClient(ctx, m, "workspaces");
      try {
        const mine = expectOk(ctx, await s.call("get_workspaces", { limit: 200 }, "partner"), "workspaces-partner-clients");
        const users = okData(await s.call("get_workspaces", { limit: 200 }));
        if (!mine) return;
        const ids = (mine.workspaces ?? []).map((w) => w?.id);
        ctx.expect((mine.totalCount ?? 0) > 200 || ids.includes(c.companyId), "workspaces-partner-clients", `the partner's new client ${c.companyId} is not among its workspaces ${show(ids)}`);
        // A signed-in user's workspaces are not the partner's clients.
        const foreign = (users?.workspaces ?? []).map((w) => w?.id).filter((id) => ids.includes(id));
        ctx.expect(foreign.length === 0, "workspaces-partner-clients", `the partner token lists a signed-in user's workspaces ${show(foreign)}`);

        // rule: list-brands-client-workspace, on the check's own client only: the partner's other clients belong to
        // checks running at the same time, which may erase them between the two calls.
        const l = expectOk(ctx, await s.callRaw("list_brands", { workspaceId: c.companyId }, "partner"), "list-brands-client-workspace");
        if (l) ctx.expect(l.needsUserChoice === false, "list-brands-client-workspace", `list_brands of client workspace ${c.companyId} answered needsUserChoice ${show(l.needsUserChoice)} with ${show(l.brands?.length)} brands`);

        // rule: onboarding-only-from-create-profile — the client has it; the signed-in user's profiles have none.
        const made = expectOk(ctx, await s.call("get_profile", { brandId: c.brandId }, "partner"), "onboarding-only-from-create-profile");
        if (made) ctx.expect(typeof made.onboarding?.status === "string", "onboarding-only-from-create-profile", `a profile create_profile made shows onboarding ${show(made.onboarding)}`);
        for (const w of byId(users?.workspaces).slice(0, 3)) {
          for (const b of byId(okData(await s.callRaw("list_brands", { workspaceId: w.id }))?.brands).slice(0, 3)) {
            const p = expectOk(ctx, await s.callRaw("get_profile", { brandId: b.id }), "onboarding-only-from-create-profile");
            if (p) ctx.expect(!("onboarding" in p), "onboarding-only-from-create-profile", `profile ${b.id}, not made by create_profile, shows onboarding ${show(p.onboarding)}`);
          }
        }
      } finally {
        await eraseClient(ctx, m, c.brandId);
      }
    },
  },
  {
    id: "mcp-partner-downstream-auth-failed",
    description: "A partner client whose access the gateway cannot get answers every call with partner_downstream_auth_failed (retryable) in the envelope, and its token is still accepted",
    rules: ["partner-downstream-auth-failed", "retryable-per-catalogue/partner_downstream_auth_failed"],
    group,
    async run(ctx) {
      const m = ctx.mcp;
      const rule = "partner-downstream-auth-failed";
      const bearer = ctx.slot("mcp.triggers.partner_downstream_auth_fails");
      const token = { bearer, env: mcpTriggerTokenEnv("partner_downstream_auth_fails") };
      // A read that changes nothing, should the gateway let it through after all.
      const res = await m.session.raw(toolsCall("get_workspaces", {}), token);
      // The token is good: answered by the tool in the envelope, never refused at HTTP level.
      if (!ctx.expect(res.status === 200, rule, `get_workspaces with the token answered HTTP ${res.status}: the token was refused, expected an answer in the envelope`)) return;
      const result = res.body?.result;
      const error = result?.structuredContent?.data?.error;
      if (!ctx.expect(result?.isError === true && error?.code === "partner_downstream_auth_failed", rule, `get_workspaces answered ${show(result?.structuredContent ?? res.body)}`)) return;
      ctx.expect(error.retryable === true, [rule, "retryable-per-catalogue/partner_downstream_auth_failed"], `partner_downstream_auth_failed answered retryable ${show(error.retryable)}; the catalogue says true`);
      const list = await m.session.raw({ jsonrpc: "2.0", id: 2, method: "tools/list" }, token);
      ctx.expect(list.status === 200 && Array.isArray(list.body?.result?.tools), rule, `tools/list with the same token answered HTTP ${list.status}: the token should stay good`);
    },
  },
];
