// What the MCP checks share: polling within a check at the seed's pace, post helpers and cleanup of bookings.
import type { RuleRef } from "../../../core/judge.js";
import { randomBytes } from "node:crypto";
import type { RunContext } from "../../../core/check.js";
import type { CallOutcome } from "../client.js";
import { describeCall, expectOk, okData, show } from "../expect.js";
import type { McpContext } from "../extension.js";
import { probeInput } from "../probes.js";
import type { McpTokenKind } from "../target.js";
import type { Answered, AnsweredOutput } from "../answers.js";
import type { ProfileChannel } from "../../../../generated/mcp/types.js";

export type { McpCheck } from "../extension.js";

/** An id nobody issued. */
export const unknownId = () => `conformance-unknown-${randomBytes(8).toString("hex")}`;
/** A UUID nobody issued (v4 shape). */
export const unknownUuid = () => {
  const h = randomBytes(16).toString("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
};

/** The arguments that name what a tool acts on. */
export const idArgs = ["id", "postId", "brandId", "batchId", "jobId", "workspaceId"];

/** A valid input of `tool` whose ids name nothing (UUIDs nobody issued): even a call that runs touches nothing real. */
export const probeOf = (m: McpContext, tool: string, overrides: Record<string, unknown> = {}): Record<string, unknown> =>
  Object.fromEntries(
    Object.entries(probeInput(tool, m.run.id, m.slot("mcp.inputs.website"), overrides)).map(([k, v]) => [k, idArgs.includes(k) && !(k in overrides) ? unknownUuid() : v]),
  );

/**
 * A list's items in id order: where the suite looks at a few of a list whose order the seed does not state
 * (workspaces, brands), it looks at the same ones whatever order the target lists them in.
 */
export const byId = <T extends { id?: unknown } | null | undefined>(items: readonly T[] | undefined | null): T[] =>
  (Array.isArray(items) ? [...items] : []).sort((a, b) => (String(a?.id) < String(b?.id) ? -1 : String(a?.id) > String(b?.id) ? 1 : 0));

/** Channel health values that publish (seed 001, channel health table). */
const publishingHealth = new Set<unknown>(["connected", "expiring_soon"]);
/**
 * Whether a get_profile channel can post now: its health publishes and the provider did not say no (canPost is
 * optional, the provider's verdict, and may be absent or null).
 */
export const channelPosts = (c: Answered<ProfileChannel> | null | undefined): boolean => c?.canPost !== false && publishingHealth.has(c?.health);

export const isUpper = (s: unknown) => typeof s === "string" && s === s.toUpperCase();
export const isLower = (s: unknown) => typeof s === "string" && s === s.toLowerCase();
export { show };

/** view_post's payload; fails the check (for `rule`) when it cannot be read. */
export async function viewPost(ctx: RunContext, m: McpContext, id: string, rule: RuleRef, as: McpTokenKind = "normal"): Promise<AnsweredOutput<"view_post">> {
  const v = expectOk(ctx, await m.session.call("view_post", { id }, as), rule);
  if (!v) return ctx.fail(rule, `view_post ${id} failed; cannot go on`);
  return v;
}

/** The destinations (platforms) of a post as view_post shows them. */
export const platformsOf = (view: AnsweredOutput<"view_post"> | undefined): string[] =>
  Array.isArray(view?.destinations) ? view.destinations.map((d) => d?.platform).filter((p): p is string => typeof p === "string") : [];

/** The destinations get_post_status reports as held at a provider (scheduled), with their platformPostId. */
export async function heldDestinations(m: McpContext, id: string, as: McpTokenKind = "normal"): Promise<{ platform: string; platformPostId: string }[]> {
  const s = okData(await m.session.call("get_post_status", { id }, as));
  const results = Array.isArray(s?.platformResults) ? s.platformResults : [];
  return results.flatMap((r) => (r?.status === "scheduled" && typeof r.platformPostId === "string" ? [{ platform: r.platform as string, platformPostId: r.platformPostId }] : []));
}

/** Withdraws every booking of a post (cleanup: the suite leaves nothing booked); notes what it could not undo. */
export async function unbook(ctx: RunContext, m: McpContext, id: string): Promise<void> {
  for (const h of await heldDestinations(m, id)) {
    const o = await m.session.call("unschedule_platform", { id, platform: h.platform, platformPostId: h.platformPostId });
    if (!okData(o)) ctx.note(`cleanup: could not withdraw ${h.platform} of post ${id}`);
  }
}

/** Polls a tool within a check until `done`, at `intervalMs`, up to `deadlineMs`; returns every outcome. */
export async function pollCall<O extends CallOutcome>(
  ctx: RunContext,
  m: McpContext,
  label: string,
  read: () => Promise<O>,
  done: (o: O) => boolean,
  intervalMs: number,
  deadlineMs: number,
): Promise<{ outcomes: O[]; finished: boolean }> {
  const r = await m.run.poll(label, read, done, () => intervalMs, deadlineMs, (text) => ctx.waiting(text));
  return { outcomes: r.outcomes, finished: r.finished };
}

/** The error of a move or item ({code, message, retryable}) is well formed. */
export const wellFormedError = (e: unknown): e is { code: string; message: string; retryable: boolean } =>
  !!e && typeof e === "object" && "code" in e && typeof e.code === "string" && "message" in e && typeof e.message === "string" && "retryable" in e && typeof e.retryable === "boolean";

/**
 * Records approval of the post as it reads now (view_post, then approve_post with that digest), so that a workspace
 * which requires approval lets the post through; fails the check (for `rule`) when it cannot. Returns the view.
 */
export async function approveAsSeen(ctx: RunContext, m: McpContext, id: string, rule: RuleRef, as: McpTokenKind = "normal"): Promise<AnsweredOutput<"view_post">> {
  const view = await viewPost(ctx, m, id, rule, as);
  const approved = expectOk(ctx, await m.session.call("approve_post", { id, contentDigest: view.contentDigest as string }, as), rule);
  if (!approved) return ctx.fail(rule, `approve_post ${id} with the digest view_post showed failed; cannot go on`);
  return view;
}

/** Changes a post's caption (on one destination, or all): the simplest change of digested content. */
export async function editCaption(ctx: RunContext, m: McpContext, id: string, caption: string, rule: RuleRef, platform?: string | null): Promise<void> {
  const o = await m.session.call("update_post", { id, caption, ...(platform ? { platform } : {}) });
  if (!expectOk(ctx, o, rule)) ctx.fail(rule, `update_post ${id} failed; cannot go on`);
}

/** The destinations of a post that hold a booking or are live, as get_post_status reports them. */
export async function goneOut(m: McpContext, id: string): Promise<string[]> {
  const s = okData(await m.session.call("get_post_status", { id }));
  const results = Array.isArray(s?.platformResults) ? s.platformResults : [];
  return results.filter((r) => ["scheduled", "published", "publishing"].includes(r?.status as string)).map((r) => `${r?.platform} ${r?.status}`);
}

/**
 * The id a tool the seed only names answered with (create_draft's post id, upload_image's mediaId). A success
 * without it breaks our design of that tool's output (inferred-output-shape/<tool>: drift against a real target),
 * never a reason to look away; a failed call (`data` undefined) was judged where it came back.
 */
export function madeId(ctx: RunContext, tool: string, data: any, keys: readonly string[] = ["id", "postId"]): string {
  const id: unknown = keys.map((k) => data?.[k]).find((v) => typeof v === "string");
  if (typeof id === "string") return id;
  if (data === undefined) return ctx.skip(`${tool} did not succeed`);
  return ctx.fail(`inferred-output-shape/${tool}`, `${tool} answered no ${keys.join(" or ")}: ${show(data)}`);
}
