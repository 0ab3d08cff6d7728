// The MCP gateway as a target: its endpoint, the tokens to use, the profile of tools to expect, the triggers for
// paths a caller cannot force, and the seed's pace (scaled). Built from the `mcp:` section of a target file (its
// keys and defaults: the target file's JSON Schema, conformance/target-schema.ts; target-file.ts validates and
// reads it), the environment and flags, in rising precedence, into the runner's Target (with `mcp` set).
import type { McpSection } from "../../../generated/conformance/target-file.js";
import { defaultMcpCost, type McpCost } from "./cost.js";
import { wallClock } from "../../core/run-clock.js";
import { credentialsOf, type RunTarget, type RunTiming } from "../../core/run-target.js";
import { mcpTriggerSlots, type McpTriggers } from "./triggers.js";
import { checkedPace, clean, defaultConcurrency, defaultTiming, num, numbers, type Read, readCa, slotValues, TargetError, targetUrl } from "../../core/target-values.js";

export type McpProfile = NonNullable<McpTargetFile["profile"]>;
export type McpTokenKind = "normal" | "readonly" | "partner" | "otherTenant" | "expired" | "partnerUnconfigured";
export type McpTokens = Partial<Record<McpTokenKind, string>>;
export type { McpTriggers };


/** The common codes the common_errors slot is expanded with (rule family common-codes-meaning). */
export const commonErrorCodes = ["subscription_required", "writes_disabled", "internal_error", "upstream_timeout", "upstream_unavailable", "upstream_identity_failed", "identity_provider_unavailable"] as const;
/** The statuses the upstream_status slot is expanded with, one per member of upstream-status-retryable. */
export const upstreamStatuses = { "4xx": 409, "429": 429, "5xx": 503 } as const;

/** The tokens the common_errors and upstream_status slots expand to (secrets, like every token). */
export function situationTokens(t: McpTriggers): { common: Map<string, string>; upstream: Map<string, string> } {
  const common = new Map(t.commonErrors ? commonErrorCodes.map((c) => [c, t.commonErrors!.replaceAll("{code}", c)] as const) : []);
  const upstream = new Map(t.upstreamStatus ? Object.entries(upstreamStatuses).map(([m, st]) => [m, t.upstreamStatus!.replaceAll("{status}", String(st))] as const) : []);
  return { common, upstream };
}

export interface McpInputs {
  /** The brand the post lifecycles run on; found through get_workspaces and list_brands when not given. */
  brandId?: string;
  /** A website the target can build a profile from (create_profile). */
  website: string;
  /** Whether publish_post_now may really publish (posts go live on the brand's accounts). */
  allowPublishing: boolean;
  /** A public https address of a usable logo image (upload_brand_logo); the logo checks are skipped without one. */
  logoUrl?: string;
}

export interface McpTiming {
  timeScale: number;
  batchPollFirstMs: number;
  batchPollMs: number;
  batchPollMaxMs: number;
  batchGiveUpMs: number;
  buildPollMs: number;
  buildDeadlineMs: number;
  endingPollMs: number;
  endingDeadlineMs: number;
  jobPollMs: number;
  jobDeadlineMs: number;
}

export interface McpTarget {
  /** The MCP endpoint (Streamable HTTP). */
  endpoint: URL;
  /** The endpoint's path relative to the runner target's base URL (the endpoint's folder). */
  path: string;
  profile: McpProfile;
  tokens: McpTokens;
  triggers: McpTriggers;
  inputs: McpInputs;
  timing: McpTiming;
  /** What the run may spend beyond the shared batches (mcp.cost). */
  cost: McpCost;
}

/** The seed's pace and durations, in the target's seconds (scaled by time_scale). */
export const defaultMcpTiming = {
  time_scale: 1,
  batch_poll_first_seconds: 5,
  batch_poll_seconds: 15,
  batch_poll_max_seconds: 30,
  batch_give_up_seconds: 900,
  build_poll_seconds: 60,
  build_deadline_seconds: 2400,
  ending_poll_seconds: 30,
  ending_deadline_seconds: 900,
  job_poll_seconds: 5,
  job_deadline_seconds: 600,
  // Real seconds, not scaled: the seed recommends 150 s (some writes take up to about 120 s).
  request_timeout_seconds: 150,
  budget_seconds: 3600,
} as const;

/** Deadlines never shrink below these real durations, however small the time scale. */
// Generous: at a tiny time scale on a loaded machine a healthy target must not miss them; only a target that
// never finishes waits them out.
export const mcpDeadlineFloorsMs = { batch: 8_000, build: 8_000, ending: 5_000, job: 5_000, budget: 60_000 };

export const defaultMcpInputs = { website: "https://www.example.com" };

/** Environment variables for the tokens (ignored for the embedded reference, whose tokens are known). */
export const mcpTokenEnv: Record<McpTokenKind, string> = {
  normal: "MCP_TOKEN",
  readonly: "MCP_READONLY_TOKEN",
  partner: "MCP_PARTNER_TOKEN",
  otherTenant: "MCP_OTHER_TENANT_TOKEN",
  expired: "MCP_EXPIRED_TOKEN",
  partnerUnconfigured: "MCP_PARTNER_UNCONFIGURED_TOKEN",
};

/**
 * The variable a reproduction names for a token the target file gives as a trigger (mcp.triggers.<key>, with
 * `slot` for the code or status a template token stands for): the command does not read it, the user sets it.
 */
export const mcpTriggerTokenEnv = (key: string, slot?: string): string => `MCP_TRIGGER_${[key, slot].filter(Boolean).join("_").toUpperCase().replace(/[^A-Z0-9]+/g, "_")}`;

/** The `mcp:` section of a target file, read (target-file.ts). */
export type McpTargetFile = Read<NonNullable<McpSection>>;
type WrittenTokens = NonNullable<McpTargetFile["tokens"]>;

/** Each token of `mcp.tokens` by its name in code. */
export const tokenKeys: { readonly [K in keyof Required<WrittenTokens>]: McpTokenKind } = {
  normal: "normal",
  readonly: "readonly",
  partner: "partner",
  other_tenant: "otherTenant",
  expired: "expired",
  partner_unconfigured: "partnerUnconfigured",
};

/** Every slot of the `mcp:` section a rule of spec/rules/mcp.yaml may name (`mcp.tokens.…`, `mcp.triggers.…`, `mcp.inputs.…`). */
export const mcpTargetSlots: readonly string[] = [
  ...Object.keys(tokenKeys).map((k) => `mcp.tokens.${k}`),
  ...Object.keys(mcpTriggerSlots).map((k) => `mcp.triggers.${k}`),
  ...["brand_id", "website", "allow_publishing"].map((k) => `mcp.inputs.${k}`),
];

/** A profile given as a flag (--mcp-profile); the target file's is checked by its schema. */
export function parseProfile(value: unknown, where: string): McpProfile | undefined {
  if (value === undefined || value === null) return undefined;
  if (value !== "preview" && value !== "all") throw new TargetError(`${where} must be preview or all, got ${JSON.stringify(value)}`);
  return value;
}

/** The triggers of the `mcp:` section, by their names in code. */
export const mcpTriggersOf = (file: McpTargetFile | undefined): McpTriggers => slotValues<keyof typeof mcpTriggerSlots>(file?.triggers);

/** What the `mcp:` section lets a run spend (mcp.cost over its defaults). */
export function mcpCostOf(file: McpTargetFile | undefined): McpCost {
  const c = file?.cost ?? {};
  return { renders: c.renders ?? defaultMcpCost.renders, extraBatches: c.extra_batches ?? defaultMcpCost.extraBatches, builds: c.builds ?? defaultMcpCost.builds, mainBatchPosts: c.main_batch_posts ?? defaultMcpCost.mainBatchPosts };
}

/** What flags (or a caller of runConformance) set for the MCP suite. */
export interface McpOverrides {
  mcpUrl?: string;
  mcpProfile?: McpProfile;
  timeScale?: number;
  concurrency?: number;
  budgetSeconds?: number;
  requestTimeoutSeconds?: number;
  insecure?: boolean;
  mcpTokens?: McpTokens;
  mcpTriggers?: McpTriggers;
}

/** The MCP suite's target: the run's part (its `url` is the endpoint's folder, so the origin guard works as for REST) and the gateway's own. */
export interface McpRunTarget extends RunTarget {
  timing: RunTiming;
  mcp: McpTarget;
}

/**
 * The target as the clients and the checks hold it: the gateway without the target file's inputs and triggers, which
 * a check reads only through ctx.slot (so a check cannot reach them through its session either).
 */
export type McpRunTargetView = Omit<McpRunTarget, "mcp"> & { mcp: Omit<McpTarget, "inputs" | "triggers"> };

/** The MCP suite's target from its section of the target file, the environment (mcpTokenEnv) and the overrides. */
export function resolveMcpTarget(options: { file?: McpTargetFile; overrides?: McpOverrides; env?: NodeJS.ProcessEnv; embeddedUrl?: URL }): McpRunTarget {
  const file = options.file ?? {};
  const o = options.overrides ?? {};
  const env = options.env ?? process.env;
  const embedded = options.embeddedUrl !== undefined;
  const raw = options.embeddedUrl?.href ?? o.mcpUrl ?? file.url;
  if (!raw) throw new TargetError("no MCP target: give --mcp-url, or a target file with mcp.url");
  const endpoint = targetUrl(raw, "the MCP URL");
  const cut = endpoint.pathname.replace(/\/+$/, "").lastIndexOf("/");
  const base = new URL(endpoint.origin + endpoint.pathname.slice(0, cut + 1));
  const relPath = endpoint.pathname.slice(cut) + endpoint.search;

  const envTokens: McpTokens = embedded
    ? {}
    : clean(Object.fromEntries(Object.entries(mcpTokenEnv).map(([kind, name]) => [kind, env[name]])) as McpTokens);
  const written: McpTokens = Object.fromEntries(Object.entries(file.tokens ?? {}).map(([key, value]) => [tokenKeys[key as keyof WrittenTokens], value]));
  const tokens: McpTokens = { ...written, ...envTokens, ...clean(o.mcpTokens ?? {}) };
  const triggers: McpTriggers = { ...mcpTriggersOf(file), ...clean(o.mcpTriggers ?? {}) };

  const t = numbers(defaultMcpTiming, file.timing);
  const scale = o.timeScale ?? t.time_scale;
  const concurrency = o.concurrency ?? num(file.concurrency) ?? defaultConcurrency;
  checkedPace(scale, concurrency);
  const ms = (seconds: number) => seconds * 1000 * scale;
  const floor = (seconds: number, min: number) => Math.max(ms(seconds), min);
  const mcpTiming: McpTiming = {
    timeScale: scale,
    batchPollFirstMs: ms(t.batch_poll_first_seconds),
    batchPollMs: ms(t.batch_poll_seconds),
    batchPollMaxMs: ms(t.batch_poll_max_seconds),
    batchGiveUpMs: floor(t.batch_give_up_seconds, mcpDeadlineFloorsMs.batch),
    buildPollMs: ms(t.build_poll_seconds),
    buildDeadlineMs: floor(t.build_deadline_seconds, mcpDeadlineFloorsMs.build),
    endingPollMs: ms(t.ending_poll_seconds),
    endingDeadlineMs: floor(t.ending_deadline_seconds, mcpDeadlineFloorsMs.ending),
    jobPollMs: ms(t.job_poll_seconds),
    jobDeadlineMs: floor(t.job_deadline_seconds, mcpDeadlineFloorsMs.job),
  };
  const ca = readCa(file.tls?.ca_file, "mcp.tls.ca_file");
  const inputs = file.inputs ?? {};
  const situations = situationTokens(triggers);
  // The downstream-auth slot is a token too: kept out of every output like the others.
  const secrets = [...Object.values(tokens), ...situations.common.values(), ...situations.upstream.values(), triggers.partnerDownstreamAuthFails].filter((s): s is string => typeof s === "string" && s.length > 0);
  return {
    url: base,
    embedded,
    credentials: credentialsOf(tokens, mcpTokenEnv),
    timing: {
      timeScale: scale,
      requestTimeoutMs: (o.requestTimeoutSeconds ?? t.request_timeout_seconds) * 1000,
      answerWithinMs: defaultTiming.answer_within_seconds * 1000,
      budgetMs: o.budgetSeconds !== undefined ? o.budgetSeconds * 1000 : Math.max(ms(t.budget_seconds), mcpDeadlineFloorsMs.budget),
    },
    concurrency,
    tls: { insecure: o.insecure ?? file.tls?.insecure ?? false, ...(ca ? { ca } : {}) },
    secrets,
    clock: wallClock,
    mcp: {
      endpoint,
      path: relPath,
      profile: o.mcpProfile ?? file.profile ?? "preview",
      tokens,
      triggers,
      inputs: { website: inputs.website ?? defaultMcpInputs.website, allowPublishing: inputs.allow_publishing ?? false, ...(inputs.brand_id ? { brandId: inputs.brand_id } : {}), ...(inputs.logo_url ? { logoUrl: inputs.logo_url } : {}) },
      timing: mcpTiming,
      cost: mcpCostOf(file),
    },
  };
}
