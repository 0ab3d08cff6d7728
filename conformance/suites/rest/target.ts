// The target of a run: where it is, the tokens to use, the triggers for paths a caller cannot force, and the
// timing to keep. Built from a target file (YAML), environment variables and flags, in rising precedence.
//
// Target file (see conformance/targets/reference.yaml for the reference server's):
//   rest:
//     url: https://api.example.com           # the base URL; paths start with /v1
//     tokens: { team: …, other_team: …, expired: … }
//     triggers: { website_fails_read: …, focus_fails_batch: …, focus_server_error: …, rate_limited_token: … }
//     inputs: { website: …, other_website: … }
//     timing: { time_scale, brand_poll_seconds, batch_poll_seconds, brand_ready_deadline_seconds,
//               batch_done_deadline_seconds, request_timeout_seconds, answer_within_seconds, budget_seconds }
//     concurrency: 4
//     tls: { insecure: false, ca_file: … }
// Any string value may be written `{ env: NAME }` to read it from the environment instead.
import { readFileSync } from "node:fs";
import path from "node:path";
import { parse } from "yaml";
import { wallClock } from "../../core/run-clock.js";
import { credentialsOf, type RunTarget, type RunTiming } from "../../core/run-target.js";
import { type TriggerSlot, bool, checkedPace, clean, defaultConcurrency, defaultInputs, defaultTiming, deadlineFloorsMs, num, object, onlyKeys, readCa, readSlots, str, type SlotValues, TargetError, targetUrl } from "../../core/target-values.js";

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
 * reference's value (the mock's magic input, mock/rest/magic.ts). The parser, the checks' typed triggers,
 * docs/target-triggers.md and the reference's target file (`npm run generate`) all come from it.
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

type Raw = Record<string, unknown>;

/** The keys of the `rest:` section and of its mappings (the parser and the target file's JSON Schema read them here). */
export const restSectionKeys: Record<"rest" | "tokens" | "triggers" | "inputs" | "timing" | "tls", readonly string[]> = {
  rest: ["url", "tokens", "triggers", "inputs", "timing", "concurrency", "tls"],
  tokens: ["team", "other_team", "expired"],
  triggers: Object.keys(restTriggerSlots),
  inputs: ["website", "other_website"],
  timing: Object.keys(defaultTiming),
  tls: ["insecure", "ca_file"],
};

const known = (obj: Raw, section: keyof typeof restSectionKeys, where: string) => onlyKeys(obj, restSectionKeys[section], where);

/** The `rest:` section of a target file, read (target-file.ts reads the whole file). */
export interface RestTargetFile {
  url?: string;
  tokens: Tokens;
  triggers: Triggers;
  inputs: Partial<{ website: string; otherWebsite: string }>;
  timing: Partial<Record<keyof typeof defaultTiming, number>>;
  concurrency?: number;
  tls: { insecure?: boolean; caFile?: string };
}

/** The `rest:` section (`section`, absent or a mapping) of the target file `where`. */
export function parseRestSection(section: unknown, where: string, env: NodeJS.ProcessEnv = process.env): RestTargetFile {
  const rest = object(section, `${where}: rest`);
  known(rest, "rest", `${where}: rest`);
  const tokens = object(rest.tokens, `${where}: rest.tokens`);
  known(tokens, "tokens", `${where}: rest.tokens`);
  const triggers = object(rest.triggers, `${where}: rest.triggers`);
  known(triggers, "triggers", `${where}: rest.triggers`);
  const inputs = object(rest.inputs, `${where}: rest.inputs`);
  known(inputs, "inputs", `${where}: rest.inputs`);
  const timing = object(rest.timing, `${where}: rest.timing`);
  known(timing, "timing", `${where}: rest.timing`);
  const tls = object(rest.tls, `${where}: rest.tls`);
  known(tls, "tls", `${where}: rest.tls`);
  const at = (k: string) => `${where}: rest.${k}`;
  const out: RestTargetFile = {
    url: str(rest.url, at("url"), env),
    tokens: {
      team: str(tokens.team, at("tokens.team"), env),
      otherTeam: str(tokens.other_team, at("tokens.other_team"), env),
      expired: str(tokens.expired, at("tokens.expired"), env),
    },
    triggers: readSlots(triggers, restTriggerSlots, (key) => at(`triggers.${key}`), env),
    inputs: {},
    timing: {},
    concurrency: num(rest.concurrency, at("concurrency")),
    tls: {},
  };
  const website = str(inputs.website, at("inputs.website"), env);
  const otherWebsite = str(inputs.other_website, at("inputs.other_website"), env);
  if (website !== undefined) out.inputs.website = website;
  if (otherWebsite !== undefined) out.inputs.otherWebsite = otherWebsite;
  for (const key of Object.keys(defaultTiming) as (keyof typeof defaultTiming)[]) {
    const n = num(timing[key], at(`timing.${key}`));
    if (n !== undefined) out.timing[key] = n;
  }
  const insecure = bool(tls.insecure, at("tls.insecure"));
  if (insecure !== undefined) out.tls.insecure = insecure;
  const ca = str(tls.ca_file, at("tls.ca_file"), env);
  if (ca !== undefined) out.tls.caFile = path.resolve(path.dirname(where), ca);
  return out;
}

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
  const file = options.file ?? { tokens: {}, triggers: {}, inputs: {}, timing: {}, tls: {} };
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
  const tokens: Tokens = { ...clean(file.tokens), ...envTokens, ...clean(o.tokens ?? {}) };
  const triggers: Triggers = { ...clean(file.triggers), ...clean(o.triggers ?? {}) };

  const t = { ...defaultTiming, ...file.timing };
  const scale = o.timeScale ?? t.time_scale;
  const concurrency = o.concurrency ?? file.concurrency ?? defaultConcurrency;
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
  const ca = readCa(file.tls.caFile, "tls.ca_file");
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
    inputs: { ...defaultInputs, ...clean(file.inputs) },
    timing,
    concurrency,
    tls: { insecure: o.insecure ?? file.tls.insecure ?? false, ...(ca ? { ca } : {}) },
    secrets,
    clock: wallClock,
  };
}
