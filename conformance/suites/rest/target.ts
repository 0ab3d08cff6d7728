// The REST suite's target: where it is, the tokens to use, the triggers for paths a caller cannot force, and the
// timing to keep. Built from the `rest:` section of a target file (its keys and defaults: the target file's JSON
// Schema, conformance/target-schema.ts; target-file.ts validates and reads it), environment variables and flags,
// in rising precedence.
import type { RestSection } from "../../../generated/conformance/target-file.js";
import { wallClock } from "../../core/run-clock.js";
import { credentialsOf, type RunTarget, type RunTiming } from "../../core/run-target.js";
import { type Read, type TriggerSlot, checkedPace, clean, defaultConcurrency, defaultInputs, defaultTiming, deadlineFloorsMs, num, numbers, readCa, slotValues, type SlotValues, TargetError, targetUrl } from "../../core/target-values.js";

/** The environment variable of each REST token name (the command reads the first three; see restTriggerEnv). */
export const restTokenEnv = { team: "IDEAS_TOKEN", "other-team": "IDEAS_OTHER_TEAM_TOKEN", expired: "IDEAS_EXPIRED_TOKEN", "rate-limited": "IDEAS_RATE_LIMITED_TOKEN" } as const;

export { checkedPace, clean, defaultConcurrency, defaultInputs, defaultTiming, deadlineFloorsMs, readCa, TargetError, targetUrl };

export interface Tokens {
  team?: string;
  otherTeam?: string;
  expired?: string;
}

/**
 * The REST target file's triggers (rest.triggers): the one list of them, with what each makes the target do and the
 * reference's value (the mock's magic input, mock/rest/magic.ts). The target file's schema, the checks' typed
 * triggers, docs/target-triggers.md and the reference's target file (`npm run generate`) all come from it.
 */
export const restTriggerSlots = {
  website_fails_read: { what: "A website the target fails to read (its brand goes reading → failed).", reference: "https://closed.invalid" },
  focus_fails_batch: { what: "A focus that makes a batch fail (thinking → failed).", reference: "[fail] Make this batch fail." },
  focus_server_error: { what: "A focus that makes POST /v1/ideas answer 500.", reference: "[server-error] Fail on the server's side." },
  rate_limited_token: { what: "A token with a rate limit low enough to hit with a few requests.", reference: "test_rate_limited" },
} as const satisfies Record<string, TriggerSlot>;

export type Triggers = SlotValues<keyof typeof restTriggerSlots>;

export interface Timing extends RunTiming {
  brandPollMs: number;
  batchPollMs: number;
  brandReadyDeadlineMs: number;
  batchDoneDeadlineMs: number;
}

/** The REST suite's target: the run's part, plus its tokens, triggers, inputs and the seed's pace. */
export interface Target extends RunTarget {
  tokens: Tokens;
  triggers: Triggers;
  inputs: { website: string; otherWebsite: string };
  timing: Timing;
}

/** What the flags (or a caller of runConformance) set; every field optional. */
export interface TargetOverrides {
  restUrl?: string;
  timeScale?: number;
  concurrency?: number;
  /** Overall budget in real seconds (not scaled). */
  budgetSeconds?: number;
  /** Per-request timeout in real seconds. */
  requestTimeoutSeconds?: number;
  insecure?: boolean;
  tokens?: Tokens;
  triggers?: Triggers;
}

/** The `rest:` section of a target file, read (target-file.ts). */
export type RestTargetFile = Read<NonNullable<RestSection>>;

/**
 * The target from a target file, the environment (IDEAS_TOKEN, IDEAS_OTHER_TEAM_TOKEN, IDEAS_EXPIRED_TOKEN;
 * ignored for the embedded reference, whose tokens are known) and overrides, in rising precedence.
 */
export function resolveTarget(options: {
  file?: RestTargetFile;
  overrides?: TargetOverrides;
  env?: NodeJS.ProcessEnv;
  /** Set when the suite started the reference server: its URL. */
  embeddedUrl?: URL;
}): Target {
  const file = options.file ?? {};
  const o = options.overrides ?? {};
  const env = options.env ?? process.env;
  const embedded = options.embeddedUrl !== undefined;
  const rawUrl = options.embeddedUrl?.href ?? o.restUrl ?? file.url;
  if (!rawUrl) throw new TargetError("no target: give --rest-url, or a target file with rest.url");
  const url = targetUrl(rawUrl, "the target URL");
  url.search = "";
  // A base URL that ends in /v1 is taken as the API root's parent: paths already start with /v1.
  url.pathname = url.pathname.replace(/\/v1\/?$/, "/").replace(/\/?$/, "/");

  const envTokens: Tokens = embedded
    ? {}
    : clean({ team: env.IDEAS_TOKEN, otherTeam: env.IDEAS_OTHER_TEAM_TOKEN, expired: env.IDEAS_EXPIRED_TOKEN });
  const written = file.tokens ?? {};
  const tokens: Tokens = { ...clean({ team: written.team, otherTeam: written.other_team, expired: written.expired }), ...envTokens, ...clean(o.tokens ?? {}) };
  const triggers: Triggers = { ...slotValues(file.triggers), ...clean(o.triggers ?? {}) };

  const t = numbers(defaultTiming, file.timing);
  const scale = o.timeScale ?? t.time_scale;
  const concurrency = o.concurrency ?? num(file.concurrency) ?? defaultConcurrency;
  checkedPace(scale, concurrency);
  const ms = (seconds: number) => seconds * 1000 * scale;
  const timing: Timing = {
    timeScale: scale,
    brandPollMs: ms(t.brand_poll_seconds),
    batchPollMs: ms(t.batch_poll_seconds),
    brandReadyDeadlineMs: Math.max(ms(t.brand_ready_deadline_seconds), deadlineFloorsMs.brandReady),
    batchDoneDeadlineMs: Math.max(ms(t.batch_done_deadline_seconds), deadlineFloorsMs.batchDone),
    requestTimeoutMs: (o.requestTimeoutSeconds ?? t.request_timeout_seconds) * 1000,
    answerWithinMs: t.answer_within_seconds * 1000,
    budgetMs: o.budgetSeconds !== undefined ? o.budgetSeconds * 1000 : Math.max(ms(t.budget_seconds), deadlineFloorsMs.budget),
  };
  const ca = readCa(file.tls?.ca_file, "tls.ca_file");
  const secrets = [tokens.team, tokens.otherTeam, tokens.expired, triggers.rateLimitedToken].filter(
    (s): s is string => typeof s === "string" && s.length > 0,
  );
  return {
    url,
    embedded,
    tokens,
    triggers,
    credentials: credentialsOf(
      { team: tokens.team, "other-team": tokens.otherTeam, expired: tokens.expired, "rate-limited": triggers.rateLimitedToken },
      restTokenEnv,
    ),
    inputs: { website: file.inputs?.website ?? defaultInputs.website, otherWebsite: file.inputs?.other_website ?? defaultInputs.otherWebsite },
    timing,
    concurrency,
    tls: { insecure: o.insecure ?? file.tls?.insecure ?? false, ...(ca ? { ca } : {}) },
    secrets,
    clock: wallClock,
  };
}
