// The REST suite (seed 000, the Ideas REST service): its checks, catalogue, target, reference, probe, needs and slots.
import { extendContext } from "../../core/check.js";
import type { CheckContext, RestNeed } from "./check.js";
import { restChecks } from "./checks/index.js";
import { startReference } from "../../core/embedded.js";
import { Fixtures } from "./fixtures.js";
import { apiClient, Transport } from "../../core/http.js";
import { judgeReplyHere, judgingReplies } from "./replies.js";
import { restRulesPath } from "../../core/paths.js";
import { probeRest } from "./probe.js";
import { restSlots } from "./slots.js";
import type { ConformanceSuite, SuiteEnv, SuiteSession } from "../../core/suite.js";
import { defaultWalks } from "./walks/defaults.js";
import { restWalksCheck, restWalksId, type WalkOptions } from "./walks/check.js";
import { restReplayFormat, type Step } from "./walks/steps.js";
import { resolveTarget, type RestTargetFile, type Target, type TargetOverrides } from "./target.js";

/**
 * Why a REST need is not met by the target (undefined when it is met); "stateful" is decided by the probe, the
 * target-file slots by the runner (slots.ts).
 */
function unmetNeed(need: RestNeed, target: Target): string | undefined {
  switch (need) {
    case "token":
      return target.tokens.team ? undefined : "no token of the team under test (IDEAS_TOKEN, or rest.tokens.team in the target file)";
    case "https":
      return target.url.protocol === "https:" ? undefined : `the target is plain HTTP (${target.url.origin}); the check applies to HTTPS targets only`;
    default:
      return undefined;
  }
}

/** A REST run: one transport for every request, the shared fixtures, and whether the target keeps state (asked once). */
function openRest(env: SuiteEnv<Target>): SuiteSession<CheckContext, RestNeed> {
  const transport = new Transport(env.target, env.redactor, env.signal);
  const fixtures = new Fixtures({ ...env, transport });
  let found: { stateful: boolean; reason: string } | undefined;
  return {
    context(_check, base) {
      // Every reply is judged as it comes back, into the check it is for (replies.ts; the check runs judgingInto its context).
      const api = apiClient(transport, (text) => base.note(text), judgeReplyHere);
      return { ctx: extendContext(base, { target: env.target, api, fixtures }), requests: () => api.requests };
    },
    async unready(check) {
      if (!check.needs?.includes("stateful")) return undefined;
      const s = await fixtures.statefulness();
      if (!found) {
        found = { stateful: s.stateful, reason: s.reason };
        env.emit({ type: "stateful", ...found });
      }
      if (s.stateful) return undefined;
      return s.rule ? { rule: s.rule, why: `needs a brand the target keeps, and the target broke ${s.rule}: ${s.reason}` } : s.reason;
    },
    requests: () => transport.requestCount,
    stateful: () => found,
    close: () => transport.close(),
  };
}

export const restSuite: ConformanceSuite<CheckContext, Target, RestNeed, { rest?: RestTargetFile }, "rest"> = {
  id: "rest",
  title: "Ideas REST API",
  rulesPath: restRulesPath,
  checks: restChecks,
  urls: (o, file) => ({ ...(typeof o.restUrl === "string" && o.restUrl ? { flag: o.restUrl } : {}), ...(file?.rest?.url ? { file: file.rest.url } : {}) }),
  resolveTarget: ({ file, overrides, env, embeddedUrl }) =>
    resolveTarget({ ...(file?.rest ? { file: file.rest } : {}), overrides: overrides as TargetOverrides, env, ...(embeddedUrl ? { embeddedUrl } : {}) }),
  startEmbedded: (options) => startReference("rest", options),
  summary: (target) => ({ url: target.url.href }),
  probe: probeRest,
  unmetNeed,
  slots: restSlots,
  walks: {
    checkId: restWalksId,
    defaults: defaultWalks,
    replayFormat: restReplayFormat,
    // A replay's steps were read as this format's: conformance/replay.ts checks each against the REST operations.
    check: (plan) => judgingReplies(restWalksCheck(plan as WalkOptions<Step>)),
  },
  open: openRest,
};
