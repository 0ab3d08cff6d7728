// What the MCP suite knows of the gateway's contract: the tools of generated/mcp/tools.json with their status,
// partner-only flag and scopes, the examples of spec/mcp/tools/*.json (valid inputs and outputs, invalid inputs),
// and the error catalogue. Live schemas (from the target's tools/list) are compiled in the dialect they name
// (schema-dialects.ts), once per distinct schema per process, and the same compiled validators serve the SDK client.
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import type { jsonSchemaValidator, JsonSchemaType, JsonSchemaValidator } from "@modelcontextprotocol/sdk/validation";
import { catalogue, expectedRetryable } from "../../../generated/mcp/errors.js";
import { mcpToolSpecsDir, mcpToolsJsonPath } from "./paths.js";
import { compileSchema } from "./schema-dialects.js";
import type { McpProfile } from "./target.js";

export { catalogue, expectedRetryable };

const metaKey = "ideas-contract/contract";

export interface ContractMeta {
  status: "preview" | "in_development";
  partnerOnly: boolean;
  scopes: string[];
  errors: string[];
  /** documented: the seed shows the tool's shape; partly_inferred or inferred: our design where it does not. */
  source?: "documented" | "partly_inferred" | "inferred";
  /** Parts still in development: input.<field>, output.<path>. */
  inDevelopment?: string[];
}

export interface ContractTool {
  name: string;
  inputSchema: Record<string, any>;
  outputSchema: Record<string, any>;
  annotations?: { readOnlyHint?: boolean };
  meta: ContractMeta;
  examples: {
    validInputs: Record<string, unknown>[];
    validOutputs: unknown[];
    invalidInputs: { input: Record<string, unknown>; reason: string; keyword: string; instancePath: string }[];
  };
}

function loadTools(): ContractTool[] {
  const manifest = JSON.parse(readFileSync(mcpToolsJsonPath, "utf8")) as { tools: any[] };
  const specs = new Map<string, any>();
  for (const f of readdirSync(mcpToolSpecsDir).filter((f) => f.endsWith(".json"))) {
    const spec = JSON.parse(readFileSync(path.join(mcpToolSpecsDir, f), "utf8"));
    specs.set(spec.name, spec);
  }
  return manifest.tools.map((t) => {
    const ex = specs.get(t.name)?.examples ?? {};
    return {
      name: t.name,
      inputSchema: t.inputSchema,
      outputSchema: t.outputSchema,
      annotations: t.annotations,
      meta: t._meta[metaKey] as ContractMeta,
      examples: { validInputs: ex.validInputs ?? [], validOutputs: ex.validOutputs ?? [], invalidInputs: ex.invalidInputs ?? [] },
    };
  });
}

export const contractTools: readonly ContractTool[] = loadTools();
export const contractTool = new Map(contractTools.map((t) => [t.name, t]));

/** The contract tools a token should see for a profile: preview ones, or all; partner-only ones for partners. */
export function expectedTools(profile: McpProfile, partner: boolean): ContractTool[] {
  return contractTools.filter((t) => (profile === "all" || t.meta.status === "preview") && (partner || !t.meta.partnerOnly));
}

/** Whether a valid input example uses an input still in development (left out for the preview profile). */
export function usesInDevelopmentInput(tool: ContractTool, input: Record<string, unknown>): boolean {
  const dev = (tool.meta.inDevelopment ?? []).filter((p) => p.startsWith("input.")).map((p) => p.slice("input.".length));
  return Object.keys(input).some((k) => dev.includes(k));
}

// ---- The error catalogue -------------------------------------------------------------------------------------

const entries = catalogue as readonly { code: string; kind: string; retryable?: boolean | "varies"; fields?: string[]; aliases?: string[] }[];
const byKind = (kind: string) => entries.filter((e) => e.kind === kind);

export const preflightCodes = new Set(byKind("preflight").map((e) => e.code));
export const destinationCodes = new Set(byKind("destination").map((e) => e.code));
export const publishReasonCodes = new Set(byKind("publish_reason").map((e) => e.code));
export const buildFailureCodes = new Set(byKind("build_failure").map((e) => e.code));
export const readinessBlockers = new Set(byKind("readiness_blocker").map((e) => e.code));
export const channelHealth = new Set(byKind("channel_health").map((e) => e.code));

/** The codes a batch item's error may carry, in the contract's order (get_post_batch_status' $defs/ItemError: the
 * code examples of spec/mcp/defs/post.json); the item-fails batch asks its slot i for the i-th. */
export const itemErrorCodes: readonly string[] = (() => {
  const codes = contractTool.get("get_post_batch_status")?.outputSchema.$defs?.ItemError?.properties?.code?.examples;
  if (!Array.isArray(codes) || !codes.length || !codes.every((c) => typeof c === "string")) throw new Error("the contract's get_post_batch_status output has no $defs/ItemError code examples");
  return codes;
})();

/** The retryable flag of an image render code (get_generation_job), or undefined when unknown. */
export function renderRetryable(code: string): boolean | undefined {
  const e = entries.find((x) => x.kind === "image_render" && x.code === code);
  return typeof e?.retryable === "boolean" ? e.retryable : undefined;
}

/** The retryable flag of a per-destination code, or undefined when unknown. */
export function destinationRetryable(code: string): boolean | undefined {
  const e = entries.find((x) => x.kind === "destination" && x.code === code);
  return typeof e?.retryable === "boolean" ? e.retryable : undefined;
}

/** Fields the catalogue names that are optional by the seed's own words ("when known", "optionally", …). */
const optionalFields = new Set(["fieldErrors", "jobId", "websiteRefusal", "refusedDestinations", "scheduledDestinations", "supportedChannels", "supportedPlatforms"]);

/** The structured fields an error with this code must carry. */
export function requiredFields(code: string): string[] {
  const e = entries.find((x) => x.kind === "envelope" && x.code === code);
  return (e?.fields ?? []).filter((f) => !optionalFields.has(f));
}

// ---- Live schemas --------------------------------------------------------------------------------------------

/** A compiled validator of a schema in the dialect it names (schema-dialects.ts), or why it is not valid. */
export const compileLive = compileSchema;

/**
 * Problems of `data` against a live schema; [] when valid. A live schema that is not valid JSON Schema is the
 * schema rule's failure (mcp-tools-list-schemas): given `contract`, the tool's schema in our contract, the data is
 * judged against that instead, so the other rules are still judged.
 */
export function liveProblems(schema: unknown, data: unknown, contract?: unknown): string[] {
  let v = compileLive(schema);
  if (v instanceof Error && contract !== undefined) v = compileLive(contract);
  if (v instanceof Error) return [`the schema is ${v.message}`];
  if (v(data)) return [];
  return (v.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || "(root)"} ${e.message ?? "is invalid"}`);
}

/**
 * For the suite's SDK clients: every result passes, so the suite judges structuredContent against the live schema
 * itself (client.ts, liveOutputError) in the words the proxy uses; the SDK still requires structuredContent.
 */
export class PassThroughValidator implements jsonSchemaValidator {
  getValidator<T>(_schema: JsonSchemaType): JsonSchemaValidator<T> {
    return (input) => ({ valid: true, data: input as T, errorMessage: undefined });
  }
}

export const passThroughValidator = new PassThroughValidator();

// ---- Limits the seed documents (for the drift report and the boundary probes) ---------------------------------

export interface DocumentedLimit {
  tool: string;
  /** JSON pointer-ish path of the argument. */
  field: string;
  keyword: "maximum" | "minimum" | "maxLength" | "minLength" | "maxItems";
  value: number;
}

export const documentedLimits: DocumentedLimit[] = [
  { tool: "create_posts", field: "count", keyword: "minimum", value: 1 },
  { tool: "create_posts", field: "count", keyword: "maximum", value: 20 },
  { tool: "create_posts", field: "brief", keyword: "minLength", value: 1 },
  { tool: "create_posts", field: "brief", keyword: "maxLength", value: 4000 },
  { tool: "create_posts", field: "mediaIds", keyword: "maxItems", value: 10 },
  { tool: "reschedule_posts", field: "moves", keyword: "maxItems", value: 25 },
  { tool: "get_workspaces", field: "query", keyword: "minLength", value: 1 },
  { tool: "get_workspaces", field: "query", keyword: "maxLength", value: 200 },
  { tool: "get_workspaces", field: "limit", keyword: "minimum", value: 1 },
  { tool: "get_workspaces", field: "limit", keyword: "maximum", value: 200 },
  { tool: "create_profile", field: "websiteUrl", keyword: "maxLength", value: 2048 },
  { tool: "create_profile", field: "name", keyword: "maxLength", value: 100 },
  { tool: "create_profile", field: "externalId", keyword: "maxLength", value: 200 },
];

/** The value of a limit keyword on a top-level property of an input schema (following a local $ref once). */
export function limitOf(schema: Record<string, any> | undefined, field: string, keyword: string): number | undefined {
  let prop = schema?.properties?.[field];
  if (prop?.$ref && typeof prop.$ref === "string" && prop.$ref.startsWith("#/")) {
    const target = prop.$ref
      .slice(2)
      .split("/")
      .reduce((o: any, k: string) => o?.[k], schema);
    prop = { ...target, ...prop };
  }
  const v = prop?.[keyword];
  return typeof v === "number" ? v : undefined;
}
