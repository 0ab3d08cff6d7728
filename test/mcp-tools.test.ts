// The MCP tool sources: every tool of the seed present once, files well-formed, examples honest,
// seed limits enforced at their boundaries, and the generated validators agreeing with the sources.
import { describe, expect, it } from "vitest";
import fs from "node:fs";
import { checkToolSource } from "../scripts/lib/check-mcp-tool.js";
import { toolsDir } from "../scripts/lib/mcp-source.js";
import * as generated from "../generated/mcp/validators.js";
import { sourceAjv, toolByName, tools, withValue } from "./support/mcp-sources.js";

/** The seed's tool table (26) and the five other tools it names. */
const seedTools = {
  create_profile: { status: "in_development", partnerOnly: true, writes: true },
  get_profile: { status: "preview", partnerOnly: false, writes: false },
  get_workspaces: { status: "preview", partnerOnly: false, writes: false },
  list_brands: { status: "preview", partnerOnly: false, writes: false },
  deactivate_profile: { status: "in_development", partnerOnly: true, writes: true },
  delete_profile: { status: "in_development", partnerOnly: true, writes: true },
  get_brand_style: { status: "in_development", partnerOnly: false, writes: false },
  update_brand_style: { status: "in_development", partnerOnly: false, writes: true },
  upload_brand_logo: { status: "in_development", partnerOnly: false, writes: true },
  create_connect_link: { status: "preview", partnerOnly: false, writes: true },
  get_connect_options: { status: "in_development", partnerOnly: false, writes: false },
  complete_connect: { status: "in_development", partnerOnly: false, writes: true },
  create_posts: { status: "preview", partnerOnly: false, writes: true },
  get_post_batch_status: { status: "preview", partnerOnly: false, writes: false },
  view_post: { status: "preview", partnerOnly: false, writes: false },
  update_post: { status: "preview", partnerOnly: false, writes: true },
  generate_caption: { status: "preview", partnerOnly: false, writes: true },
  regenerate_post_image: { status: "preview", partnerOnly: false, writes: true },
  get_generation_job: { status: "preview", partnerOnly: false, writes: false },
  approve_post: { status: "preview", partnerOnly: false, writes: true },
  reject_post: { status: "preview", partnerOnly: false, writes: true },
  schedule_post: { status: "preview", partnerOnly: false, writes: true },
  reschedule_posts: { status: "preview", partnerOnly: false, writes: true },
  publish_post_now: { status: "preview", partnerOnly: false, writes: true },
  unschedule_platform: { status: "preview", partnerOnly: false, writes: true },
  get_post_status: { status: "preview", partnerOnly: false, writes: false },
  create_draft: { status: "preview", partnerOnly: false, writes: true },
  delete_post: { status: "preview", partnerOnly: false, writes: true },
  generate_image: { status: "preview", partnerOnly: false, writes: true },
  upload_image: { status: "preview", partnerOnly: false, writes: true },
  unpublish_post: { status: "preview", partnerOnly: false, writes: true },
} as const;

// Looked up by a tool name read from the sources, so typed as a plain record.
type Validators = Readonly<Record<string, generated.ValidateFunction>>;
const inputValidators = generated.inputValidators as Validators;
const outputValidators = generated.outputValidators as Validators;
const resultValidators = generated.resultValidators as Validators;

describe("the tool set", () => {
  it("holds every tool the seed names, each exactly once, and nothing else", () => {
    expect(tools.map((t) => t.name).sort()).toEqual(Object.keys(seedTools).sort());
    expect(tools).toHaveLength(31);
  });

  it.each(Object.entries(seedTools))("%s has the seed's status, partner flag and scopes", (name, seed) => {
    const tool = toolByName.get(name)!;
    expect(tool.status).toBe(seed.status);
    expect(tool.partnerOnly).toBe(seed.partnerOnly);
    expect(tool.readOnlyHint).toBe(!seed.writes);
    expect([...tool.scopes].sort()).toEqual(seed.writes ? ["mcp:read", "mcp:write"] : ["mcp:read"]);
  });
});

describe("each tool file", () => {
  const ajv = sourceAjv();
  const files = fs.readdirSync(toolsDir).filter((f) => f.endsWith(".json"));

  it.each(files)("%s is well-formed and its examples behave as they say", (file) => {
    const tool = toolByName.get(file.replace(/\.json$/, ""))!;
    expect(checkToolSource(ajv, tool, file)).toEqual([]);
  });

  it.each(tools.map((t) => [t.name, t] as const))("%s: the generated validators agree with its examples", (name, tool) => {
    for (const input of tool.examples.validInputs) expect(inputValidators[name]!(input)).toBe(true);
    for (const bad of tool.examples.invalidInputs) {
      const validate = inputValidators[name]!;
      expect(validate(bad.input), bad.reason).toBe(false);
      expect(validate.errors?.map((e) => [e.keyword, e.instancePath])).toContainEqual([bad.keyword, bad.instancePath]);
    }
    for (const output of tool.examples.validOutputs) {
      expect(outputValidators[name]!(output)).toBe(true);
      expect(resultValidators[name]!({ data: output })).toBe(true);
    }
  });

  it.each(tools.map((t) => [t.name, t] as const))("%s: results admit the error envelope, and cancelled only for writes", (name, tool) => {
    const validate = resultValidators[name]!;
    expect(validate({ data: { ok: false, error: { code: "internal_error", message: "Try again.", retryable: true } } })).toBe(true);
    expect(validate({ data: { ok: false, error: { code: "internal_error", message: "no flag" } } })).toBe(false);
    expect(validate({ data: { cancelled: true, changed: false } })).toBe(tool.scopes.includes("mcp:write"));
    expect(validate({ notData: {} })).toBe(false);
  });
});

/**
 * The seed's limits table, restated: [tool, dotted path, the largest (or smallest) accepted value, the first refused].
 * Strings are given by length.
 */
type Boundary = [tool: string, path: string, accepted: unknown, refused: unknown];
const str = (n: number) => "x".repeat(n);
const ids = (n: number) => Array.from({ length: n }, (_, i) => `media-${i}`);
const moves = (n: number) => Array.from({ length: n }, (_, i) => ({ postId: `post-${i}`, scheduledAt: "2026-12-01T09:30:00Z" }));
const limits: Boundary[] = [
  ["create_posts", "count", 1, 0],
  ["create_posts", "count", 20, 21],
  ["create_posts", "brief", str(1), ""],
  ["create_posts", "brief", str(4000), str(4001)],
  ["create_posts", "mediaIds", ids(10), ids(11)],
  ["reschedule_posts", "moves", moves(25), moves(26)],
  ["reschedule_posts", "moves", moves(1), []],
  ["create_profile", "websiteUrl", "https://" + str(2040), "https://" + str(2041)],
  ["create_profile", "websiteUrl", "a", ""],
  ["create_profile", "name", str(1), ""],
  ["create_profile", "name", str(100), str(101)],
  ["create_profile", "externalId", str(1), ""],
  ["create_profile", "externalId", str(200), str(201)],
  ["get_workspaces", "query", str(1), ""],
  ["get_workspaces", "query", str(200), str(201)],
  ["get_workspaces", "limit", 1, 0],
  ["get_workspaces", "limit", 200, 201],
  ["delete_profile", "confirm", true, false],
  ["delete_profile", "brandId", "4f1c2b9e-5d0a-4c1e-9a55-3f7f0d6b2a11", "brand-123"],
  ["deactivate_profile", "brandId", "4f1c2b9e-5d0a-4c1e-9a55-3f7f0d6b2a11", "not-a-uuid"],
  ["create_connect_link", "brandId", "4f1c2b9e-5d0a-4c1e-9a55-3f7f0d6b2a11", "not-a-uuid"],
  ["create_posts", "platforms", ["INSTAGRAM"], ["instagram"]],
  ["create_posts", "scheduledAt", "2026-12-01T10:30:00+01:00", "2026-12-01 10:30"],
  ["create_posts", "scheduledAt", "2026-12-01T09:30:00Z", "2026-12-01T09:30:00"],
];

describe("seed limits at their boundaries", () => {
  it.each(limits)("%s %s: accepts %j…", (tool, path, accepted, refused) => {
    const validate = inputValidators[tool]!;
    const base = toolByName.get(tool)!.examples.validInputs[0]!;
    expect(validate(withValue(base, path, accepted)), JSON.stringify(validate.errors)).toBe(true);
    expect(validate(withValue(base, path, refused))).toBe(false);
  });

  it("create_posts refuses mediaIds together with includeImage: true, and takes either alone", () => {
    const validate = inputValidators.create_posts!;
    const base = { brandId: "b1", brief: "Autumn menu", count: 2 };
    expect(validate({ ...base, mediaIds: ["m1"] })).toBe(true);
    expect(validate({ ...base, includeImage: true })).toBe(true);
    expect(validate({ ...base, mediaIds: ["m1"], includeImage: false })).toBe(true);
    expect(validate({ ...base, mediaIds: ["m1"], includeImage: true })).toBe(false);
  });

  it("get_workspaces declares limit's default of 50 and includeScopes defaults to false", () => {
    const limit = (toolByName.get("get_workspaces")!.inputSchema.properties as Record<string, { default?: unknown }>).limit;
    expect(limit?.default).toBe(50);
    const scopes = (toolByName.get("get_profile")!.inputSchema.properties as Record<string, { default?: unknown }>).includeScopes;
    expect(scopes?.default).toBe(false);
  });

  it.each(tools.map((t) => t.name))("%s refuses an argument it does not take", (name) => {
    const base = toolByName.get(name)!.examples.validInputs[0]!;
    expect(inputValidators[name]!({ ...base, notAnArgument: 1 })).toBe(false);
  });
});
