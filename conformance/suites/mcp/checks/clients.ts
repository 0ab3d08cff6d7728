// Clients a scenario makes for itself with the partner token (create_profile), so that changing state (failing
// builds, deactivation, deletion) never disturbs the shared brand: made, followed to the end of their build,
// given an account when the target lets the suite sign in (mcp.triggers.connect_account), and erased at the end.
import type { FamilyId } from "../../../../generated/rules.js";
import type { AnsweredOutput } from "../answers.js";
import type { RunContext } from "../../../core/check.js";
import type { ApiResponse } from "../../../core/http.js";
import type { CallOutcome } from "../client.js";
import type { McpContext } from "../extension.js";
import { mcpCatalogue } from "../catalogue.js";
import type { RuleCatalogue } from "../../../core/rules.js";
import { pollCall, show } from "./common.js";
import { describeCall, okData } from "../expect.js";

export interface Client {
  brandId: string;
  /** As create_profile answered it. */
  companyId?: string | null;
  /** create_profile's first answer. */
  created: CallOutcome<"create_profile">;
}

/** The members of a family of spec/rules/mcp.yaml (from the contract where it lists them): what a check iterates. */
export function familyMembers(family: FamilyId): string[] {
  const rules = (catalogue ??= mcpCatalogue()).families.get(family);
  if (!rules) throw new Error(`spec/rules/mcp.yaml has no family ${family}`);
  return rules.map((r) => r.member!);
}
let catalogue: RuleCatalogue | undefined;

/** A new client of the partner, its externalId unique to the run and `key`; skips the check when none is made. */
export async function newClient(ctx: RunContext, m: McpContext, key: string, websiteUrl = m.slot("mcp.inputs.website")): Promise<Client> {
  const created = await m.session.call("create_profile", { websiteUrl, name: `Conformance ${key} ${m.run.id}`, externalId: `conformance-${m.run.id}-${key}` }, "partner");
  const d = okData(created);
  if (typeof d?.brandId !== "string") return ctx.skip(`create_profile made no client of the check's own (${key}): ${describeCall(created)}`);
  return { brandId: d.brandId, companyId: d.companyId, created };
}

/** Erases a client the check made (cleanup: the suite leaves nothing behind); notes when it cannot. */
export async function eraseClient(ctx: RunContext, m: McpContext, brandId: string): Promise<void> {
  if (!okData(await m.session.call("delete_profile", { brandId, confirm: true }, "partner"))) ctx.note(`cleanup: could not erase client ${brandId}`);
}

/** Follows a client's build (get_profile, at the seed's pace) until it is no longer building; the last profile read. */
export async function settledBuild(ctx: RunContext, m: McpContext, brandId: string): Promise<{ profile: AnsweredOutput<"get_profile">; polls: CallOutcome<"get_profile">[] }> {
  const t = m.target.timing;
  const r = await pollCall(ctx, m, `build of ${brandId}`, () => m.session.call("get_profile", { brandId }, "partner"), (o) => okData(o)?.onboarding?.status !== "building", t.buildPollMs, t.buildDeadlineMs);
  const profile = okData(r.outcomes.at(-1));
  if (!r.finished || !profile) return ctx.skip(`the build of client ${brandId} did not settle: ${show(profile?.onboarding ?? r.outcomes.at(-1)?.data)}`);
  return { profile, polls: r.outcomes };
}

/**
 * Signs in on a connect link (create_connect_link's url) as the client would, as the target's connect_account.
 * Returns why it could not (no such account, a link off the target's URL, a refused page), or undefined once done.
 */
export async function signIn(ctx: RunContext, m: McpContext, url: unknown, account = m.slot("mcp.triggers.connect_account", "optional")): Promise<string | undefined> {
  if (!account) return "no account the suite may sign in with on a connect link (mcp.triggers.connect_account)";
  if (typeof url !== "string") return `create_connect_link gave no link: ${show(url)}`;
  const at = new URL(url);
  at.searchParams.set("account", account);
  const page = await m.session.http.open(at);
  if (!page) return `the connect link ${at.origin}${at.pathname} is not under the target's URL: the client signs in there`;
  return page.status === 200 ? undefined : `opening the connect link as ${account} answered ${page.status}`;
}

/**
 * A channel whose posts need no picture (a caption alone publishes), so that a draft with the caller's own caption
 * can be booked: connect links the scenarios mint name it.
 */
export const textChannel = "facebook";

/** Gives a client an account on the text channel (a connect link, signed in); skips the check when the suite cannot sign in. */
export async function connectAccount(ctx: RunContext, m: McpContext, brandId: string, account = m.slot("mcp.triggers.connect_account", "optional")): Promise<void> {
  const why = await signIn(ctx, m, okData(await m.session.call("create_connect_link", { brandId, platform: textChannel }, "partner"))?.url, account);
  if (why) ctx.skip(why);
}
