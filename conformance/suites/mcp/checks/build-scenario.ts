// The profile builds the partner checks look at: create_profile once per run and key with the partner token,
// followed to ready or failed. The main build also records what the gateway says while it runs (get_profile,
// create_posts, a repeat with the same externalId); the failing build is repeated to restart it.
import type { CreateProfileInput, Onboarding } from "../../../../generated/mcp/types.js";
import type { RunContext } from "../../../core/check.js";
import type { Answered } from "../answers.js";
import { describeCall, type CallOutcome } from "../client.js";
import { okData } from "../expect.js";
import type { McpContext } from "../extension.js";
import type { PollResult } from "../run.js";
import type { McpTokenKind } from "../target.js";
import { BudgetExceeded } from "../../../core/http.js";

export interface BuildTrack {
  key: string;
  request: CreateProfileInput;
  created?: CallOutcome<"create_profile">;
  brandId?: string;
  companyId?: string;
  /** get_profile, create_posts and get_profile again right after create_profile, while the build runs. */
  during?: { profile?: CallOutcome<"get_profile">; createPosts?: CallOutcome<"create_posts">; profileAfter?: CallOutcome<"get_profile"> };
  /** create_profile repeated at once with the same externalId but another name and website. */
  repeat?: CallOutcome<"create_profile">;
  /** get_workspaces with the repeat's name (it must match nothing). */
  repeatQuery?: CallOutcome<"get_workspaces">;
  /** get_workspaces with the first call's name after the repeat (at most the client's own workspace). */
  firstQuery?: CallOutcome<"get_workspaces">;
  polls: CallOutcome<"get_profile">[];
  /** First settled onboarding (ready or failed). */
  settled?: Answered<Onboarding> | null;
  outcome: BuildOutcome;
  /** For a failed build: the repeat that restarts it, and its polls to the end. */
  restart?: CallOutcome<"create_profile">;
  restartPolls: CallOutcome<"get_profile">[];
  restartOutcome?: BuildOutcome;
  /** create_profile once more after the end. */
  after?: CallOutcome<"create_profile">;
  problem?: string;
}

type BuildOutcome = "ready" | "failed" | "timeout" | "error";
export type SharedBuild = "main" | "fails";

/**
 * A shared build as soon as create_profile answered and what is read at once was read (not waiting for the build):
 * for checks whose calls the build does not hold up. Made once per run and key; sharedBuild follows the same track.
 */
export function startedBuild(m: McpContext, key: SharedBuild): Promise<BuildTrack> {
  return m.run.once(`build-started:${key}`, () => startBuild(m, key));
}

/** A shared build, made once per run and key and followed to its end. */
export function sharedBuild(m: McpContext, key: SharedBuild): Promise<BuildTrack> {
  return m.run.once(`build:${key}`, async () => followBuild(m, await startedBuild(m, key)));
}

const onboarding = (o: CallOutcome<"get_profile">) => okData(o)?.onboarding?.status;

function settle(r: PollResult<CallOutcome<"get_profile">>): BuildOutcome {
  const last = r.outcomes.at(-1);
  if (!r.finished) return "timeout";
  if (!last || !okData(last)) return "error";
  return onboarding(last) === "ready" ? "ready" : onboarding(last) === "failed" ? "failed" : "error";
}

async function startBuild(m: McpContext, key: SharedBuild): Promise<BuildTrack> {
  const run = m.run;
  const s = run.session;
  const website = key === "fails" ? (m.slot("mcp.triggers.website_fails_build", "optional") ?? "") : m.slot("mcp.inputs.website");
  const request = { websiteUrl: website, name: `Conformance ${key} ${run.id}`, externalId: `conformance-${run.id}-${key}` };
  const track: BuildTrack = { key, request, polls: [], restartPolls: [], outcome: "error" };
  const as: McpTokenKind = "partner";
  try {
    track.created = await s.call("create_profile", request, as);
    const created = okData(track.created);
    const brandId = created?.brandId;
    if (!created || typeof brandId !== "string") {
      track.problem = `create_profile did not answer a profile: ${describeCall(track.created)}`;
      return track;
    }
    track.brandId = brandId;
    track.companyId = created.companyId ?? undefined;
    if (key === "main") {
      track.during = {
        profile: await s.call("get_profile", { brandId }, as),
        createPosts: await s.call("create_posts", { brandId, brief: "Conformance run: opening week.", count: 1 }, as),
      };
      // Read once more: create_posts is judged only when the build was running before and after it.
      track.during.profileAfter = await s.call("get_profile", { brandId }, as);
      const otherName = `Conformance repeat ${run.id}`;
      track.repeat = await s.call("create_profile", { websiteUrl: m.slot("mcp.inputs.website").replace(/^(https?:\/\/)?/, "https://repeat."), name: otherName, externalId: request.externalId, allowTeamPhotos: true }, as);
      track.repeatQuery = await s.call("get_workspaces", { query: otherName }, as);
      track.firstQuery = await s.call("get_workspaces", { query: request.name }, as);
    }
    return track;
  } catch (err) {
    if (err instanceof BudgetExceeded) throw err;
    track.problem = run.redact((err as Error).message);
    return track;
  }
}

/** Follows a started build to ready or failed; a failing build is repeated to restart it and followed again. */
async function followBuild(m: McpContext, track: BuildTrack): Promise<BuildTrack> {
  const run = m.run;
  const s = run.session;
  const { key, request, brandId } = track;
  if (!brandId) return track;
  const waitKey = `build:${key}`;
  const as: McpTokenKind = "partner";
  try {
    const created = okData(track.created);
    const t = m.target.timing;
    const follow = (label: string) =>
      run.poll(`profile ${brandId} (${key}): ${label}`, () => s.call("get_profile", { brandId }, as), (o) => !okData(o) || onboarding(o) !== "building", () => t.buildPollMs, t.buildDeadlineMs, (text) => run.waiting(waitKey, text));
    if (created?.status === "failed") {
      track.outcome = "failed";
      track.settled = { status: "failed", error: created.error };
    } else {
      const r = await follow("building → ready or failed");
      track.polls.push(...r.outcomes);
      track.outcome = settle(r);
      track.settled = okData(r.outcomes.at(-1))?.onboarding;
      if (track.outcome === "timeout") track.problem = `profile ${brandId} was still building after ${(r.elapsedMs / 1000).toFixed(1)} s`;
      if (track.outcome === "error") track.problem = `get_profile while building: ${describeCall(r.outcomes.at(-1) ?? track.created!)}`;
    }
    if (key === "fails" && track.outcome === "failed") {
      track.restart = await s.call("create_profile", request, as);
      if (okData(track.restart)?.status === "building") {
        const r = await follow("restarted: building → ready");
        track.restartPolls.push(...r.outcomes);
        track.restartOutcome = settle(r);
      }
    }
    if (track.outcome === "ready" || track.restartOutcome === "ready") track.after = await s.call("create_profile", request, as);
    return track;
  } catch (err) {
    if (err instanceof BudgetExceeded) throw err;
    track.problem = run.redact((err as Error).message);
    return track;
  } finally {
    run.waiting(waitKey, null);
  }
}
