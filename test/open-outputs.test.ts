// "Compatible" means one thing to the breaking-change gate and to the validators consumers import: a change the
// gate lets through (a new output enum value) must pass the validators an existing consumer already runs, and the
// validators built from the changed contract; inputs stay closed. Also the transform itself (open-output.ts).
import { describe, expect, it } from "vitest";
import { diffMcp } from "../scripts/breaking/mcp-diff.js";
import { verdict } from "../scripts/breaking/classify.js";
import { loadDefs, loadTools, type ToolSource } from "../scripts/lib/mcp-source.js";
import { toolsManifest, toolValidatorSchemas } from "../scripts/lib/mcp.js";
import { openOutput } from "../lib/open-output.js";
import { outputValidators, resultValidators, inputValidators } from "../generated/mcp/validators.js";
import { strictOutputValidators } from "../generated/mcp/validators-strict.js";
import { validators as restValidators } from "../generated/rest/validators.js";
import { real } from "./fixtures/breaking/support.js";

const newValue = "rebuilding";

/** The sources with one more value in profile.json's BuildStatus (create_profile's and get_profile's status). */
function withNewBuildStatus() {
  const defs = structuredClone(loadDefs()) as Map<string, any>;
  const buildStatus = defs.get("profile.json").$defs.BuildStatus;
  expect(buildStatus.enum).not.toContain(newValue);
  buildStatus.enum.push(newValue);
  return { tools: loadTools(), defs };
}

const createProfile = (tools: ToolSource[]) => tools.find((t) => t.name === "create_profile")!;

describe("an added output enum value", () => {
  const changed = withNewBuildStatus();
  const example = { ...createProfile(changed.tools).examples.validOutputs[0]!, status: newValue };

  it("is compatible to the breaking-change gate", () => {
    const head = toolsManifest(changed.tools, changed.defs);
    const changes = diffMcp({ tools: real.tools, errors: real.errors }, { tools: head as never, errors: real.errors });
    expect(changes.length).toBeGreaterThan(0);
    expect(changes.map((c) => [c.rule, c.kind])).toContainEqual(["response.enum-value-added", "compatible"]);
    expect(changes.filter((c) => c.kind !== "compatible")).toEqual([]);
    expect(verdict(changes, real.version, real.version).ok).toBe(true); // same version: no bump needed
  });

  it("passes the validators a consumer of the current version already has (output, result)", () => {
    expect(outputValidators.create_profile(example)).toBe(true);
    expect(resultValidators.create_profile({ data: example })).toBe(true);
  });

  it("passes the open validators built from the changed contract, and only the strict ones refuse it", () => {
    const open = toolValidatorSchemas(changed.tools, changed.defs, { open: true });
    expect(open.ajv.getSchema(open.refs.validateCreateProfileOutput!)!(example)).toBe(true);
    // Not vacuous: the documented shape (our mock's own bar) lists only the current values.
    expect(strictOutputValidators.create_profile(example)).toBe(false);
    expect(strictOutputValidators.create_profile({ ...example, status: "building" })).toBe(true);
  });

  it("leaves inputs closed: an unknown argument is still refused, old and new", () => {
    const args = { ...createProfile(changed.tools).examples.validInputs[0]!, rebuild: true };
    const open = toolValidatorSchemas(changed.tools, changed.defs, { open: true });
    expect(open.ajv.getSchema(open.refs.validateCreateProfileInput!)!(args)).toBe(false);
    expect(inputValidators.create_profile(args)).toBe(false);
  });
});

describe("what the consumers' validators accept", () => {
  it("MCP outputs: unknown fields, unknown enum values and unknown error codes (read by retryable)", () => {
    const ok = createProfile(loadTools()).examples.validOutputs[0]!;
    expect(outputValidators.create_profile({ ...ok, somethingNew: { nested: 1 } })).toBe(true);
    const unknownCode = { ok: false, error: { code: "brand_new_failure", message: "New.", retryable: false, newField: 1 } };
    expect(resultValidators.create_profile({ data: unknownCode })).toBe(true);
    // Still the contract: a wrong type or a missing required field is refused.
    expect(outputValidators.create_profile({ ...ok, status: 7 })).toBe(false);
    expect(resultValidators.create_profile({ data: { ok: false, error: { code: "x", message: "no flag" } } })).toBe(false);
  });

  it("REST: unknown response fields pass; enums stay closed in requests and responses (seed 000 promises new fields only)", () => {
    const brand = { ...(real.openapi as any).components.schemas.Brand.examples[0], somethingNew: true };
    expect(restValidators.Brand(brand)).toBe(true);
    expect(restValidators.Brand({ ...brand, status: "archived" })).toBe(false);
    expect(restValidators.CreateBrandRequest({ website: "https://www.harbourloaf.ie", archetype: "not_an_archetype" })).toBe(false);
  });
});

describe("the transform", () => {
  const schema = {
    type: "object",
    additionalProperties: false,
    properties: {
      status: { enum: ["a", "b"] },
      maybe: { enum: ["x", null] },
      if: { type: "string", enum: ["a property named if"] },
    },
    if: { properties: { status: { enum: ["a"] } } },
    then: { required: ["maybe"] },
    examples: [{ status: "a", additionalProperties: false }],
  };

  it("drops closed fields and enums in value positions, keeps conditions, examples and property names", () => {
    expect(openOutput(schema, { enums: true })).toEqual({
      type: "object",
      properties: {
        status: { type: "string", "x-open-enum": ["a", "b"] },
        maybe: { type: ["null", "string"], "x-open-enum": ["x", null] },
        if: { type: "string", "x-open-enum": ["a property named if"] },
      },
      if: { properties: { status: { enum: ["a"] } } },
      then: { required: ["maybe"] },
      examples: [{ status: "a", additionalProperties: false }],
    });
  });

  it("with enums: false opens fields only", () => {
    const opened = openOutput(schema, { enums: false }) as any;
    expect(opened.additionalProperties).toBeUndefined();
    expect(opened.properties.status).toEqual({ enum: ["a", "b"] });
  });
});
