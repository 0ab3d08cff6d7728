// Conventions: results and failures in the seed's shape, arguments refused before a tool runs (unknown ones,
// schema violations, non-UUID brand ids), unknown tools, statelessness, argument names, letter case of
// destinations and UTC times.
import type { Check } from "../../check.js";
import { toolsCall } from "../../mcp/client.js";
import { describeCall, expectError, expectOk, expectRefusedFirst, isEnvelope } from "../../mcp/expect.js";
import { okData } from "../../mcp/jobs.js";
import { isLower, isUpper, mcpCheck, platformsOf, show, unknownId, viewPost } from "./common.js";

const group = "mcp-conventions";

export const conventionChecks: Check[] = [
  mcpCheck({
    id: "mcp-stateless-tools-call",
    description: "A tools/call sent on its own, with no session or initialize before it, is answered",
    rules: ["stateless-requests"],
    group,
    async run(ctx, m) {
      const res = await m.session.raw(toolsCall("get_workspaces", {}), m.session.token("normal"));
      ctx.expect(res.status === 200, "stateless-requests", `a lone tools/call answered HTTP ${res.status}: ${res.text.slice(0, 200)}`);
      const body = res.body;
      ctx.expect(
        !!body?.result && (body.result.structuredContent !== undefined || Array.isArray(body.result.content)),
        "stateless-requests",
        `a lone tools/call did not get a tool result: ${res.text.slice(0, 300)}`,
      );
      ctx.expect(res.header("mcp-session-id") === undefined, "stateless-requests", "the gateway handed out an Mcp-Session-Id: it keeps sessions");
    },
  }),
  mcpCheck({
    id: "mcp-success-conventions",
    description: "Successes answer structuredContent {data}, the same payload as JSON text, valid for the live output schema, isError absent",
    rules: ["success-structured-data", "text-mirrors-data", "result-matches-output-schema"],
    group,
    async run(ctx, m) {
      const ws = expectOk(ctx, await m.session.call("get_workspaces", {}), "success-structured-data");
      ctx.expect(Array.isArray(ws?.workspaces), "success-structured-data", `get_workspaces' data holds no workspaces: ${show(ws)}`);
      const brandId = await m.jobs.brandId(ctx);
      expectOk(ctx, await m.session.call("get_profile", { brandId }), "success-structured-data");
      expectOk(ctx, await m.session.call("get_profile", { brandId, includeScopes: true }), "success-structured-data");
    },
  }),
  mcpCheck({
    id: "mcp-failure-conventions",
    description: "Failures answer isError true and the envelope, retryable as the catalogue says, with the code's structured fields",
    rules: ["failure-envelope", "retryable-per-catalogue", "error-structured-fields", "unknown-id-refused"],
    group,
    async run(ctx, m) {
      expectError(ctx, await m.session.call("get_profile", { brandId: unknownId() }), { code: ["not_found", "forbidden"], rule: "unknown-id-refused" });
      const brandId = await m.jobs.brandId(ctx);
      // A destination nobody publishes to: refused before anything is made.
      expectError(ctx, await m.session.call("create_posts", { brandId, brief: "Conformance run: never made.", count: 1, platforms: ["CONFORMANCE_NOWHERE"] }), {
        code: ["platform_not_supported", "bad_request"],
        rule: "failure-envelope",
      });
      // A library picture that does not exist.
      expectError(ctx, await m.session.call("create_posts", { brandId, brief: "Conformance run: never made.", count: 1, mediaIds: [unknownId()] }), {
        code: ["bad_request", "not_found"],
        rule: "failure-envelope",
      });
    },
  }),
  mcpCheck({
    id: "mcp-invalid-arguments-refused-first",
    description: "Unknown arguments and arguments breaking the input schema are refused before the tool runs, with no envelope, and change nothing",
    rules: ["unknown-argument-refused", "schema-violation-refused-first"],
    group,
    async run(ctx, m) {
      const s = m.session;
      expectRefusedFirst(ctx, await s.call("get_workspaces", { conformanceUnknown: true }), "unknown-argument-refused");
      expectRefusedFirst(ctx, await s.call("get_workspaces", { limit: 0 }), "schema-violation-refused-first");
      const brandId = await m.jobs.brandId(ctx);
      expectRefusedFirst(ctx, await s.call("create_posts", { brandId, brief: "Conformance run: never made.", count: 21 }), "schema-violation-refused-first");
      expectRefusedFirst(ctx, await s.call("create_posts", { brandId, brief: "Conformance run: never made.", count: 1, conformanceUnknown: 1 }), "unknown-argument-refused");
      const id = await m.jobs.claimPost(ctx, "refusals before the tool runs");
      const before = (await viewPost(ctx, m, id, "unknown-argument-refused")).contentDigest;
      expectRefusedFirst(ctx, await s.call("update_post", { id, caption: "Conformance run: an unknown argument goes with this.", conformanceUnknown: "x" }), "unknown-argument-refused");
      expectRefusedFirst(ctx, await s.call("update_post", { id, caption: 42 }), "schema-violation-refused-first");
      const after = (await viewPost(ctx, m, id, "unknown-argument-refused")).contentDigest;
      ctx.expect(after === before, ["unknown-argument-refused", "schema-violation-refused-first"], `post ${id} changed (digest ${before} → ${after}) though every update was refused`);
    },
  }),
  mcpCheck({
    id: "mcp-unknown-tool-fails",
    description: "Calling a tool the gateway does not have fails as an unknown tool, with no envelope",
    rules: ["unknown-tool-fails"],
    group,
    async run(ctx, m) {
      const o = await m.session.call(`conformance_no_such_tool_${m.jobs.run}`, {});
      const ok = o.error?.kind === "rpc" || (o.result?.isError === true && !isEnvelope(o.data));
      ctx.expect(ok, "unknown-tool-fails", `${describeCall(o)}: expected a failure as an unknown tool`);
    },
  }),
  mcpCheck({
    id: "mcp-uuid-brand-id",
    description: "create_connect_link refuses a brandId that is not a UUID before it runs",
    rules: ["uuid-brand-id"],
    group,
    async run(ctx, m) {
      const live = (await m.session.tools("normal")).find((t) => t.name === "create_connect_link");
      if (!live) return ctx.skip("create_connect_link is not listed");
      expectRefusedFirst(ctx, await m.session.call("create_connect_link", { brandId: `not-a-uuid-${m.jobs.run}` }), "uuid-brand-id");
    },
  }),
  mcpCheck({
    id: "mcp-post-id-argument-names",
    description: "Post tools take the post as id (view_post, approve_post, schedule_post, …) or postId (generate_caption, regenerate_post_image)",
    rules: ["post-id-argument-names"],
    group,
    async run(ctx, m) {
      const tools = new Map((await m.session.tools("normal")).map((t) => [t.name, t]));
      for (const [name, arg] of [
        ["view_post", "id"],
        ["approve_post", "id"],
        ["schedule_post", "id"],
        ["publish_post_now", "id"],
        ["update_post", "id"],
        ["generate_caption", "postId"],
        ["regenerate_post_image", "postId"],
      ] as const) {
        const t = tools.get(name);
        if (!t) continue;
        const required = (t.inputSchema as { required?: string[] }).required ?? [];
        ctx.expect(required.includes(arg), "post-id-argument-names", `${name} does not require ${arg} (requires ${required.join(", ") || "nothing"})`);
      }
      expectRefusedFirst(ctx, await m.session.call("view_post", { postId: unknownId() }), "post-id-argument-names");
    },
  }),
  mcpCheck({
    id: "mcp-destination-case",
    description: "Post destinations are uppercase; profile channels and storyDestinations are lowercase, and stories are never channels",
    rules: ["destination-case"],
    group,
    async run(ctx, m) {
      const b = await m.jobs.brand();
      if (!b.profile) return ctx.skip(`needs a brand: ${b.problem}`);
      const p = b.profile;
      for (const c of p.channels ?? []) {
        ctx.expect(isLower(c.platform), "destination-case", `channel ${show(c.platform)} is not lowercase`);
        ctx.expect(!/stories/i.test(String(c.platform)), "destination-case", `stories appear as a channel: ${show(c.platform)}`);
      }
      for (const s of p.storyDestinations ?? []) ctx.expect(isLower(s), "destination-case", `storyDestinations holds ${show(s)}, not lowercase`);
      for (const g of p.generationPlatforms ?? []) ctx.expect(isLower(g), "destination-case", `generationPlatforms holds ${show(g)}, not lowercase`);
      ctx.expect(p.defaultPlatform === null || isUpper(p.defaultPlatform), "destination-case", `defaultPlatform ${show(p.defaultPlatform)} is not uppercase`);
      const batch = await m.jobs.doneBatch(ctx);
      const items: any[] = batch.last?.items ?? [];
      for (const i of items) for (const d of i?.platforms ?? []) ctx.expect(isUpper(d), "destination-case", `batch item ${i.index} destination ${show(d)} is not uppercase`);
      const first = items.find((i) => typeof i?.postId === "string");
      if (first) for (const d of platformsOf(await viewPost(ctx, m, first.postId, "destination-case"))) ctx.expect(isUpper(d), "destination-case", `view_post destination ${show(d)} is not uppercase`);
    },
  }),
  mcpCheck({
    id: "mcp-times-to-utc",
    description: "A time sent with a numeric offset is answered as the same instant in UTC",
    rules: ["times-to-utc"],
    group,
    async run(ctx, m) {
      const id = await m.jobs.claimPost(ctx, "times in UTC");
      const local = new Date(m.jobs.targetNow() + 90 * 86_400_000);
      local.setUTCSeconds(0, 0);
      const sent = new Date(local.getTime() + 2 * 3_600_000).toISOString().replace(/\.\d{3}Z$/, "+02:00");
      const o = await m.session.call("update_post", { id, scheduledAt: sent });
      const d = expectOk(ctx, o, "times-to-utc");
      if (!d) return;
      const back = d.scheduledAt;
      ctx.expect(typeof back === "string" && Date.parse(back) === local.getTime(), "times-to-utc", `sent ${sent}, got back ${show(back)}; expected ${local.toISOString()}`);
      ctx.expect(typeof back === "string" && /(Z|[+-]00:?00)$/.test(back), "times-to-utc", `scheduledAt ${show(back)} is not in UTC`);
      const status = okData(await m.session.call("get_post_status", { id }));
      if (status && "scheduledAt" in status && status.scheduledAt !== null)
        ctx.expect(Date.parse(status.scheduledAt) === local.getTime(), "times-to-utc", `get_post_status has scheduledAt ${show(status.scheduledAt)}; expected ${local.toISOString()}`);
    },
  }),
];
