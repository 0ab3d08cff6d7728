// Conventions: results and failures in the seed's shape, arguments refused before a tool runs (unknown ones,
// schema violations, non-UUID brand ids), unknown tools, statelessness, argument names, letter case of
// destinations and UTC times.
import type { RuleId } from "../../../../generated/rules.js";
import { toolsCall } from "../client.js";
import type { RunContext } from "../../../core/check.js";
import { contractTool, type ContractTool } from "../contract.js";
import { describeCall, expectError, expectOk, expectRefusedFirst, forTool, isEnvelope, okData } from "../expect.js";
import type { McpContext } from "../extension.js";
import { probeInput, tokenFor } from "../probes.js";
import { expectRefusal, liveSchemaRefuses, refusedFirstRule } from "../refusal.js";
import { runTour } from "./tour.js";
import { idArgs, isLower, isUpper, platformsOf, probeOf, show, unknownId, viewPost, type McpCheck } from "./common.js";
import { claimPost, doneBatch } from "./batch-scenario.js";
import { brandIdOrSkip, brandOrSkip } from "./brand-under-test.js";

/** The contract tools a token of the run sees in tools/list (partner-only ones only with a partner token). */
export async function reachable(m: McpContext): Promise<ContractTool[]> {
  const live = new Set((await m.session.tools("normal")).map((t) => t.name));
  if (m.target.tokens.partner) for (const t of await m.session.tools("partner")) live.add(t.name);
  return [...contractTool.values()].filter((t) => live.has(t.name) && (!t.meta.partnerOnly || m.target.tokens.partner));
}

/** Erases a profile a probe made after all (a gateway that ran a call it should have refused). */
export async function eraseIfMade(m: McpContext, data: unknown): Promise<void> {
  const made = (data as { brandId?: unknown } | undefined)?.brandId;
  if (typeof made === "string" && m.target.tokens.partner) await m.session.call("delete_profile", { brandId: made, confirm: true }, "partner");
}

/** A time `days` ahead, on the minute. */
function aheadOnTheMinute(m: McpContext, days: number): Date {
  const d = new Date(m.run.clock.now() + days * 86_400_000);
  d.setUTCSeconds(0, 0);
  return d;
}

/** update_post with a scheduledAt as sent; the answer must be the same instant, in UTC (rule times-to-utc/<member>). */
async function expectUtc(ctx: RunContext, m: McpContext, id: string, at: Date, sent: string, member: "z" | "numeric-offset"): Promise<void> {
  const rule: RuleId = `times-to-utc/${member}`;
  const d = expectOk(ctx, await m.session.call("update_post", { id, scheduledAt: sent }), rule);
  if (!d) return;
  // update_post's answer and get_post_status are not shown by the seed: the time is judged where they show it.
  const shown: [string, unknown][] = [];
  if (typeof d.scheduledAt === "string") shown.push(["update_post", d.scheduledAt]);
  const status = okData(await m.session.call("get_post_status", { id }));
  if (typeof status?.scheduledAt === "string") shown.push(["get_post_status", status.scheduledAt]);
  if (!shown.length) ctx.note(`${member}: no answer shows post ${id}'s time (update_post and get_post_status hold no scheduledAt), so it is not judged`);
  for (const [tool, back] of shown) {
    ctx.expect(Date.parse(back as string) === at.getTime(), rule, `${tool}: sent ${sent}, got back ${show(back)}; expected ${at.toISOString()}`);
    ctx.expect(/(Z|[+-]00:?00)$/i.test(back as string), rule, `${tool}: scheduledAt ${show(back)} is not in UTC`);
  }
}

const group = "mcp-conventions";
/** Tools that take brandId as a UUID: the seed's three, then the connect tools that continue create_connect_link's flow. */
const uuidTools = ["create_connect_link", "deactivate_profile", "delete_profile", "complete_connect", "get_connect_options"];

/** An id no gateway could have issued: path characters, a space, a query and a fragment. */
const malformedId = (m: McpContext) => `../conformance ${m.run.id}?x=1#`;

export const conventionChecks: McpCheck[] = [
  {
    id: "mcp-stateless-tools-call",
    description: "A tools/call sent on its own, with no session or initialize before it, is answered",
    rules: ["stateless-requests", "no-session-id"],
    group,
    async run(ctx) {
      const m = ctx.mcp;
      const res = await m.session.raw(toolsCall("get_workspaces", {}), m.session.credential("normal"));
      ctx.expect(res.status === 200, "stateless-requests", `a lone tools/call answered HTTP ${res.status}: ${res.text.slice(0, 200)}`);
      const body = res.body;
      ctx.expect(
        !!body?.result && (body.result.structuredContent !== undefined || Array.isArray(body.result.content)),
        "stateless-requests",
        `a lone tools/call did not get a tool result: ${res.text.slice(0, 300)}`,
      );
      ctx.expect(res.header("mcp-session-id") === undefined, "no-session-id", "the gateway handed out an Mcp-Session-Id (it answered without one all the same)");
    },
  },
  {
    id: "mcp-success-conventions",
    description: "Every tool of the contract, called successfully on a tour (partner-only ones with the partner token), answers structuredContent {data}, the same payload as JSON text, valid for the live output schema, isError absent",
    rules: ["success-structured-data", "text-mirrors-data", "result-matches-output-schema"],
    group,
    // The tour's renders (two generate_image, one regenerate_post_image), its one-post batch and its client's build,
    // each only when the target file allows that spend (the tour leaves the tool out otherwise, saying why).
    spend: ({ cost }) => ({ renders: cost.renders ? 3 : 0, posts: cost.extraBatches ? 1 : 0, builds: cost.builds ? 1 : 0 }),
    optionalSlots: {
      "mcp.inputs.logo_url": "the tour calls upload_brand_logo only where a logo address is given",
      "mcp.inputs.allow_publishing": "publish_post_now is called too only where publishing is allowed (posts go live)",
    },
    async run(ctx) {
      const m = ctx.mcp;
      const ws = expectOk(ctx, await m.session.call("get_workspaces", {}), "success-structured-data/get_workspaces");
      ctx.expect(Array.isArray(ws?.workspaces), "success-structured-data/get_workspaces", `get_workspaces' data holds no workspaces: ${show(ws)}`);
      const brandId = await brandIdOrSkip(ctx, m);
      expectOk(ctx, await m.session.call("get_profile", { brandId, includeScopes: true }), "success-structured-data/get_profile");
      // Every other tool: a tour over what the check makes itself (conformance/suites/mcp/checks/tour.ts).
      await runTour(ctx, m, new Set((await reachable(m)).map((t) => t.name)));
    },
  },
  {
    id: "mcp-failure-conventions",
    description: "Failures answer isError true and the envelope, retryable as the catalogue says, with the code's structured fields",
    rules: ["failure-envelope"],
    // Judged only when the gateway's schema lists the destinations it publishes to (then it refuses one first).
    incidental: ["schema-violation-refused-first/create_posts"],
    group,
    async run(ctx) {
      const m = ctx.mcp;
      expectError(ctx, await m.session.call("get_profile", { brandId: unknownId() }), { code: ["not_found", "forbidden"], rule: "failure-envelope/code" });
      const brandId = await brandIdOrSkip(ctx, m);
      // A destination nobody publishes to: refused before anything is made (by the input schema when it lists the
      // destinations the gateway publishes to: the live list is right).
      const nowhere = await m.session.call("create_posts", { brandId, brief: "Conformance run: never made.", count: 1, platforms: ["CONFORMANCE_NOWHERE"] });
      if (await liveSchemaRefuses(m, nowhere)) expectRefusedFirst(ctx, nowhere, "schema-violation-refused-first/create_posts");
      else expectError(ctx, nowhere, { code: ["platform_not_supported", "bad_request"], rule: "failure-envelope/code" });
      // A library picture that does not exist.
      expectError(ctx, await m.session.call("create_posts", { brandId, brief: "Conformance run: never made.", count: 1, mediaIds: [unknownId()] }), {
        code: ["bad_request", "not_found"],
        rule: "failure-envelope/code",
      });
    },
  },
  {
    id: "mcp-unknown-ids-refused",
    description: "Every tool that takes an id refuses one nobody issued with not_found (or forbidden)",
    rules: ["unknown-id-refused"],
    group,
    async run(ctx) {
      const m = ctx.mcp;
      const family = ["get_profile", "list_brands", "get_post_batch_status", "view_post", "get_post_status", "get_generation_job", "update_post", "approve_post", "reject_post", "schedule_post", "publish_post_now", "unschedule_platform", "create_posts", "generate_caption", "regenerate_post_image", "delete_post"];
      const live = new Set((await m.session.tools("normal")).map((t) => t.name));
      await Promise.all(
        family
          .filter((t) => live.has(t))
          .map(async (tool) => {
            // rule: unknown-id-refused/<tool>: an id of the usual shape nobody issued, then a malformed one.
            const rule: RuleId = `unknown-id-refused/${tool}`;
            const args = probeOf(m, tool);
            expectError(ctx, await m.session.callRaw(tool, args), { code: ["not_found", "forbidden"], rule });
            const malformed = Object.fromEntries(Object.entries(args).map(([k, v]) => [k, idArgs.includes(k) ? malformedId(m) : v]));
            const o = await m.session.callRaw(tool, malformed);
            // Names nothing either: refused with not_found or forbidden, or as bad input (in the envelope or before the tool runs).
            if (isEnvelope(o.data)) expectError(ctx, o, { code: ["not_found", "forbidden", "bad_request"], rule });
            else expectRefusedFirst(ctx, o, rule);
          }),
      );
    },
  },
  {
    id: "mcp-invalid-arguments-refused-first",
    description: "Every tool refuses an unknown argument, and an input breaking its advertised schema before it runs with no envelope, and changes nothing",
    rules: ["unknown-argument-refused", "schema-violation-refused-first", refusedFirstRule],
    group,
    async run(ctx) {
      const m = ctx.mcp;
      const s = m.session;
      for (const t of await reachable(m)) {
        // A valid input plus an argument no tool takes: the tool must not run (its ids name nothing should it run).
        const extra = await s.callRaw(t.name, { ...probeInput(t.name, m.run.id, m.slot("mcp.inputs.website")), conformanceUnknown: true }, tokenFor(t));
        await expectRefusal(ctx, m, extra, `unknown-argument-refused/${t.name}`);
        await eraseIfMade(m, extra.data);
        const bad = t.examples.invalidInputs[0];
        if (!bad) continue;
        const broken = await s.callRaw(t.name, bad.input, tokenFor(t));
        // Only an input the gateway's own schema refuses is a violation of it (the live list is right where it
        // is looser: input-schema-keeps-limits judges that).
        if (await liveSchemaRefuses(m, broken)) expectRefusedFirst(ctx, broken, `schema-violation-refused-first/${t.name}`);
        else ctx.note(`${t.name}: the live input schema takes the contract's invalid input (${bad.reason}), so it is no schema violation there`);
        await eraseIfMade(m, broken.data);
      }
      // Refused writes change nothing: a real post, written to with an unknown argument and with a wrong type.
      const id = await claimPost(ctx, m, "refusals before the tool runs");
      const before = (await viewPost(ctx, m, id, "unknown-argument-refused/update_post")).contentDigest;
      await expectRefusal(ctx, m, await s.callRaw("update_post", { id, caption: "Conformance run: an unknown argument goes with this.", conformanceUnknown: "x" }), "unknown-argument-refused/update_post");
      const wrongType = await s.callRaw("update_post", { id, caption: 42 });
      if (await liveSchemaRefuses(m, wrongType)) expectRefusedFirst(ctx, wrongType, "schema-violation-refused-first/update_post");
      const after = (await viewPost(ctx, m, id, "unknown-argument-refused/update_post")).contentDigest;
      ctx.expect(after === before, ["unknown-argument-refused/update_post", "schema-violation-refused-first/update_post"], `post ${id} changed (digest ${before} → ${after}) though every update was refused`);
    },
  },
  {
    id: "mcp-unknown-tool-fails",
    description: "Calling a tool the gateway does not have fails, outside the envelope",
    rules: ["unknown-tool-fails", "unknown-tool-no-envelope"],
    group,
    async run(ctx) {
      const m = ctx.mcp;
      const o = await m.session.callRaw(`conformance_no_such_tool_${m.run.id}`, {});
      const failed = o.error?.kind === "rpc" || o.result?.isError === true;
      ctx.expect(failed, "unknown-tool-fails", `${describeCall(o)}: expected a failure as an unknown tool`);
      if (failed) ctx.expect(!isEnvelope(o.data), "unknown-tool-no-envelope", `${describeCall(o)}: an unknown tool answered in the envelope`);
    },
  },
  {
    id: "mcp-uuid-brand-id",
    description: "Every tool that takes brandId as a UUID refuses another string before it runs",
    rules: ["uuid-brand-id", "uuid-brand-id-inferred", ...uuidTools.map((t): RuleId => `${refusedFirstRule}/${t}`)],
    group,
    async run(ctx) {
      const m = ctx.mcp;
      const seed = uuidTools.slice(0, 3);
      for (const t of (await reachable(m)).filter((t) => uuidTools.includes(t.name))) {
        // rule: uuid-brand-id/<tool>, uuid-brand-id-inferred/<tool>
        const rule: RuleId = `${seed.includes(t.name) ? "uuid-brand-id" : "uuid-brand-id-inferred"}/${t.name}`;
        await expectRefusal(ctx, m, await m.session.callRaw(t.name, probeInput(t.name, m.run.id, m.slot("mcp.inputs.website"), { brandId: `not-a-uuid-${m.run.id}` }), tokenFor(t)), rule);
      }
    },
  },
  {
    id: "mcp-post-id-argument-names",
    description: "Post tools take the post as id (view_post, approve_post, schedule_post, …) or postId (generate_caption, regenerate_post_image, generate_image)",
    rules: ["post-id-argument-names", "post-id-argument-inferred"],
    group,
    async run(ctx) {
      const m = ctx.mcp;
      const tools = new Map((await m.session.tools("normal")).map((t) => [t.name, t]));
      const seed: Record<string, string> = { view_post: "id", approve_post: "id", schedule_post: "id", generate_caption: "postId", regenerate_post_image: "postId" };
      const inferred: Record<string, string> = { publish_post_now: "id", update_post: "id", reject_post: "id", get_post_status: "id", unschedule_platform: "id", unpublish_post: "id", delete_post: "id", generate_image: "postId" };
      for (const [family, names] of [["post-id-argument-names", seed], ["post-id-argument-inferred", inferred]] as const)
        for (const [name, arg] of Object.entries(names)) {
          const t = tools.get(name);
          if (!t) continue;
          const schema = t.inputSchema as { required?: string[]; properties?: Record<string, unknown> };
          // generate_image acts on a post or on the library: postId is optional there.
          const ok = name === "generate_image" ? arg in (schema.properties ?? {}) : (schema.required ?? []).includes(arg);
          ctx.expect(ok, `${family}/${name}`, `${name} does not take the post as ${arg} (requires ${(schema.required ?? []).join(", ") || "nothing"})`);
        }
      expectRefusedFirst(ctx, await m.session.callRaw("view_post", { postId: unknownId() }), "post-id-argument-names/view_post");
    },
  },
  {
    id: "mcp-destination-case",
    description: "Post destinations are uppercase; profile channels and storyDestinations are lowercase, and stories are never channels",
    rules: ["destination-case", "story-destination-values"],
    group,
    async run(ctx) {
      const m = ctx.mcp;
      const p = (await brandOrSkip(ctx, m)).profile;
      for (const c of p.channels ?? []) {
        ctx.expect(isLower(c.platform), "destination-case/channels-lower", `channel ${show(c.platform)} is not lowercase`);
        ctx.expect(!/stories/i.test(String(c.platform)), "destination-case/stories-not-channels", `stories appear as a channel: ${show(c.platform)}`);
      }
      for (const s of p.storyDestinations ?? []) {
        ctx.expect(isLower(s), "destination-case/story-destinations-lower", `storyDestinations holds ${show(s)}, not lowercase`);
        // rule: story-destination-values/<value>: a story goes through its base connection, which must be there.
        if (s === "instagram_stories" || s === "facebook_stories") {
          const base = s.replace(/_stories$/, "");
          ctx.expect((p.channels ?? []).some((c) => c?.platform === base), `story-destination-values/${s}`, `storyDestinations holds ${s} without a ${base} channel`);
        }
      }
      for (const g of p.generationPlatforms ?? []) ctx.expect(isLower(g), "destination-case/generation-platforms-lower", `generationPlatforms holds ${show(g)}, not lowercase`);
      ctx.expect(p.defaultPlatform === null || isUpper(p.defaultPlatform), "destination-case/default-platform-upper", `defaultPlatform ${show(p.defaultPlatform)} is not uppercase`);
      const batch = await doneBatch(ctx, m);
      const items = batch.last?.items ?? [];
      for (const i of items) for (const d of i?.platforms ?? []) ctx.expect(isUpper(d), "destination-case/post-destinations-upper", `batch item ${i.index} destination ${show(d)} is not uppercase`);
      const first = items.find((i) => typeof i?.postId === "string");
      if (first)
        for (const d of platformsOf(await viewPost(ctx, m, first.postId as string, "destination-case/post-destinations-upper")))
          ctx.expect(isUpper(d), "destination-case/post-destinations-upper", `view_post destination ${show(d)} is not uppercase`);
    },
  },
  {
    id: "mcp-times-to-utc",
    description: "A time sent with Z or a numeric offset is answered as the same instant in UTC; one without a zone is refused",
    rules: ["times-to-utc", "time-without-zone-refused"],
    group,
    async run(ctx) {
      const m = ctx.mcp;
      const id = await claimPost(ctx, m, "times in UTC");
      const zulu = aheadOnTheMinute(m, 91);
      await expectUtc(ctx, m, id, zulu, zulu.toISOString().replace(/\.\d{3}Z$/, "Z"), "z");
      const local = aheadOnTheMinute(m, 90);
      const sent = new Date(local.getTime() + 2 * 3_600_000).toISOString().replace(/\.\d{3}Z$/, "+02:00");
      await expectUtc(ctx, m, id, local, sent, "numeric-offset");
      expectRefusedFirst(ctx, await m.session.call("update_post", { id, scheduledAt: local.toISOString().replace(/\.\d{3}Z$/, "") }), "time-without-zone-refused");
    },
  },
];
