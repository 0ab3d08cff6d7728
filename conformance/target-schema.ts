// The target file's JSON Schema: the one description of the file (every key, its type, default and meaning).
// `npm run generate` writes it to generated/conformance/target-file.schema.json, which the suite validates a
// file with (target-file.ts) and editors complete against, and generates its types from it
// (generated/conformance/target-file.d.ts, one type per definition below). The triggers come from the suites'
// trigger tables, the defaults from the constants the suites run with.
import { defaultMcpCost } from "./suites/mcp/cost.js";
import { defaultMcpInputs, defaultMcpTiming, mcpTokenEnv } from "./suites/mcp/target.js";
import { mcpTriggerSlots } from "./suites/mcp/triggers.js";
import { restTokenEnv, restTriggerSlots } from "./suites/rest/target.js";
import { defaultConcurrency, defaultInputs, defaultTiming, type TriggerSlot } from "./core/target-values.js";

type Schema = Record<string, unknown>;

const ref = (name: string): Schema => ({ $ref: `#/$defs/${name}` });
const text = (description: string, more: Schema = {}): Schema => ({ ...ref("Text"), description, ...more });
const positive = (value: number, description?: string): Schema => ({ ...ref("Positive"), ...(description ? { description } : {}), default: value });
/** A timing mapping: each key's default from `defaults`. */
const timing = (description: string, defaults: Readonly<Record<string, number>>): Schema =>
  mapping(description, Object.fromEntries(Object.entries(defaults).map(([key, value]) => [key, positive(value, key === "time_scale" ? "Real seconds per second of the target's time." : undefined)])));
const flag = (description: string, value: boolean): Schema => ({ type: ["boolean", "null"], description, default: value });

/** A mapping of exactly these keys (or nothing: an empty YAML key reads as null). */
const mapping = (description: string, properties: Record<string, Schema>): Schema => ({ type: ["object", "null"], additionalProperties: false, description, properties });

const triggers = (description: string, slots: Readonly<Record<string, TriggerSlot>>): Schema =>
  mapping(description, Object.fromEntries(Object.entries(slots).map(([key, slot]) => [key, text(slot.what)])));

const token = (what: string, variable: string): Schema => text(`${what} $${variable} overrides it.`);

const tlsSection = mapping("How to reach an HTTPS target.", {
  insecure: flag("Accept any certificate (a test target's self-signed one).", false),
  ca_file: text("A CA certificate (PEM) to trust besides the system's; relative to the target file's folder."),
});

const restSection = mapping("The Ideas REST API under test (suites/rest/target.ts reads it).", {
  url: { ...ref("Url"), description: "The base URL; paths start with /v1 (a URL ending in /v1 is taken as its parent)." },
  tokens: mapping("The tokens the checks use.", {
    team: token("The team under test.", restTokenEnv.team),
    other_team: token("Another team: cross-tenant checks expect 403.", restTokenEnv["other-team"]),
    expired: token("An expired token: expect 401.", restTokenEnv.expired),
  }),
  triggers: triggers("Inputs that make the target take a path a caller cannot force.", restTriggerSlots),
  inputs: mapping("Values the checks send.", {
    website: text("A website the target can read.", { default: defaultInputs.website }),
    other_website: text("A second website the target can read.", { default: defaultInputs.otherWebsite }),
  }),
  timing: timing(`The target's pace, in seconds of its time (scaled by time_scale) but for request_timeout_seconds and answer_within_seconds (real seconds).`, defaultTiming),
  concurrency: { ...ref("Count"), description: "Checks run at once.", default: defaultConcurrency },
  tls: ref("Tls"),
});

const mcpSection = mapping("The Partner Tool Gateway (MCP) under test (suites/mcp/target.ts reads it).", {
  url: { ...ref("Url"), description: "The Streamable HTTP endpoint itself." },
  profile: { enum: ["preview", "all", null], default: "preview", description: "preview: the Preview tools only; all: the tools in development too." },
  tokens: mapping("The tokens the checks use.", {
    normal: token("A signed-in user with mcp:read and mcp:write.", mcpTokenEnv.normal),
    readonly: token("mcp:read only: writes get 403 insufficient_scope.", mcpTokenEnv.readonly),
    partner: token("A partner: sees the partner-only tools.", mcpTokenEnv.partner),
    other_tenant: token("Another tenant: the others' ids are refused.", mcpTokenEnv.otherTenant),
    expired: token("An expired token: 401.", mcpTokenEnv.expired),
    partner_unconfigured: token("A partner with no configuration: partner_not_found on every call.", mcpTokenEnv.partnerUnconfigured),
  }),
  triggers: triggers("Inputs that make the gateway take a path a caller cannot force.", mcpTriggerSlots),
  inputs: mapping("Values the checks send.", {
    brand_id: text("The brand the post lifecycles run on; found through get_workspaces and list_brands when not given."),
    website: text("A website the target can build a profile from (create_profile).", { default: defaultMcpInputs.website }),
    allow_publishing: flag("Whether publish_post_now may really publish (posts go live on the brand's accounts).", false),
    logo_url: text("A public https address of a usable logo image (upload_brand_logo); the logo checks are skipped without one."),
  }),
  timing: timing(`The gateway's pace (the seed's, by default), in seconds of its time (scaled by time_scale) but for request_timeout_seconds (real seconds).`, defaultMcpTiming),
  concurrency: { ...ref("Count"), description: "Checks run at once.", default: defaultConcurrency },
  tls: ref("Tls"),
  cost: mapping("What the run may spend of the tenant's AI allowance beyond the shared batches (suites/mcp/cost.ts).", {
    renders: flag("Picture renders on request (regenerate_post_image).", defaultMcpCost.renders),
    extra_batches: flag("Batches a check makes for itself (repeats, triggers, a brand with no connected channel).", defaultMcpCost.extraBatches),
    builds: flag("Profile builds (create_profile).", defaultMcpCost.builds),
    main_batch_posts: {
      type: ["integer", "null"],
      minimum: 1,
      maximum: 20,
      default: defaultMcpCost.mainBatchPosts,
      description: "Posts of the shared main batch, with pictures (create_posts' count): one per check that changes a post.",
    },
  }),
});

/** The target file's definitions, by the name of the type generated for each. */
export const targetFileDefs: Record<string, Schema> = {
  TargetFile: {
    type: "object",
    additionalProperties: false,
    description: "Where an implementation is, the tokens to use, the triggers for situations a caller cannot force, its timing and what a run may spend (conformance/README.md).",
    properties: { rest: ref("RestSection"), mcp: ref("McpSection") },
  },
  RestSection: restSection,
  McpSection: mcpSection,
  Tls: tlsSection,
  // The titles are what an error says a value must be (target-file.ts).
  Text: { title: "a string or { env: NAME }", description: "A string, or { env: NAME } to read it from the environment.", anyOf: [{ type: ["string", "null"] }, ref("EnvRef")] },
  Url: {
    title: "an http(s) URL without credentials, or { env: NAME }",
    description: "An http(s) URL (no user or password in it: give tokens instead), or { env: NAME }.",
    anyOf: [{ type: ["string", "null"], pattern: "^https?://[^\\s/?#@]+([/?#]\\S*)?$" }, ref("EnvRef")],
  },
  EnvRef: { type: "object", required: ["env"], additionalProperties: false, description: "Read from the environment variable NAME (unset or empty: as if left out).", properties: { env: { type: "string", minLength: 1 } } },
  Positive: { title: "a positive number", description: "A positive number.", anyOf: [{ type: ["number", "null"], exclusiveMinimum: 0 }, { type: "string", pattern: "^\\s*(?=[\\d.]*[1-9])\\d*\\.?\\d+([eE][-+]?\\d+)?\\s*$" }] },
  Count: { title: "a whole number ≥ 1", description: "A whole number, at least 1.", anyOf: [{ type: ["integer", "null"], minimum: 1 }, { type: "string", pattern: "^\\s*0*[1-9]\\d*\\s*$" }] },
};

/** The JSON Schema (2020-12) of a conformance target file. */
export function targetFileSchema(comment: string): Schema {
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    $comment: comment,
    title: "ideas-contract conformance target file",
    ...targetFileDefs.TargetFile,
    $defs: Object.fromEntries(Object.entries(targetFileDefs).filter(([name]) => name !== "TargetFile")),
  };
}
