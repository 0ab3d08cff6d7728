// Every reply judged wherever it appears (issue 25, pattern 1). A check's own replies are judged as they come back
// (by the observer the MCP session's context sets, suites/mcp/extension.ts); these two checks reach the rest: the
// replies the shared scenarios got (the brand under test, the batches, the builds), judged once here, and the read
// tools called in every read variant with every token kind the target gives, so a field wrong only in one view is
// caught by the contract's output shape.
import { listOf } from "../../../core/answered.js";
import type { RunContext } from "../../../core/check.js";
import { judgeReply, okData } from "../expect.js";
import type { McpContext } from "../extension.js";
import type { McpTokenKind } from "../target.js";
import { byId, type McpCheck } from "./common.js";
import { batchMissing, sharedBatch } from "./batch-scenario.js";

const group = "mcp-conventions";

/** The token kinds the target gives that read (the normal one always). */
const readingTokens = (m: McpContext): McpTokenKind[] => (["normal", "readonly", "partner", "otherTenant"] as const).filter((k) => k === "normal" || !!m.target.tokens[k]);

/** Every read of the profile family one token can make: workspaces (plain, limited, by query), brands, profiles with and without scopes. */
async function readEveryVariant(m: McpContext, as: McpTokenKind): Promise<void> {
  const s = m.session;
  const [all] = await Promise.all([s.call("get_workspaces", {}, as), s.call("get_workspaces", { limit: 1 }, as)]);
  const workspaces = byId(okData(all)?.workspaces).slice(0, 3);
  const name = workspaces.find((w) => typeof w?.name === "string" && w.name.length > 0)?.name as string | undefined;
  if (name) await s.call("get_workspaces", { query: name.slice(0, 200) }, as);
  const lists = await Promise.all(workspaces.map((w) => s.callRaw("list_brands", { workspaceId: w.id }, as)));
  const brands = lists.flatMap((l) => byId(okData(l)?.brands).slice(0, 3)).filter((b) => typeof b?.id === "string");
  await Promise.all(brands.flatMap((b) => [false, true].map((includeScopes) => s.callRaw("get_profile", { brandId: b.id, includeScopes }, as))));
}

/** The main batch, its first posts and their status, read by one token (an other tenant's read is a refusal, judged too). */
async function readPosts(m: McpContext, as: McpTokenKind, batchId: string, postIds: string[]): Promise<void> {
  const s = m.session;
  await Promise.all([s.call("get_post_batch_status", { batchId }, as), ...postIds.flatMap((id) => [s.call("view_post", { id }, as), s.call("get_post_status", { id }, as)])]);
}

export const everyReplyChecks: McpCheck[] = [
  {
    id: "mcp-shared-replies",
    description: "Every reply the shared scenarios got (the brand under test, the batches, the builds) is judged by the call rules: conventions, the contract's output shape, the envelope and its structured fields",
    // The call rules only (every MCP check's incidental, mcpRegistered): the replies are whatever the shared scenarios received.
    rules: [],
    group,
    async run(ctx) {
      const m = ctx.mcp;
      // The main batch first: every run makes it, and while it is followed the other checks start what they share.
      const main = await sharedBatch(m, "main");
      let judged = 0;
      do {
        await m.run.sharedEnded();
        for (; judged < m.run.replies.length; judged++) judgeReply(ctx, m.run.replies[judged]!);
        // A scenario that started while the last ones were judged is waited for too.
      } while (judged < m.run.replies.length);
      // Nothing judged is no pass: the target's answers left nothing to judge (failing the rule they broke, if any).
      if (judged === 0) batchMissing(ctx, main, "the shared scenarios got no reply to judge");
      ctx.note(`${judged} replies of the shared scenarios judged`);
    },
  },
  {
    id: "mcp-read-variants",
    description: "The read tools in every read variant (get_workspaces plain, limited and by query; get_profile with and without includeScopes; the main batch, its posts and their status) with every token kind the target gives, each reply judged by the contract's output shape",
    rules: [],
    group,
    async run(ctx) {
      const m = ctx.mcp;
      const tokens = readingTokens(m);
      await Promise.all(tokens.map((as) => readEveryVariant(m, as)));
      const t = await sharedBatch(m, "main");
      const postIds = listOf(t.last?.items)
        .map((i) => i?.postId)
        .filter((id): id is string => typeof id === "string")
        .slice(0, 2);
      if (!t.batchId) return ctx.note(`the main batch is missing (${t.problem ?? t.outcome}): its reads in every token kind were not made`);
      await Promise.all(tokens.map((as) => readPosts(m, as, t.batchId!, postIds)));
    },
  },
];
