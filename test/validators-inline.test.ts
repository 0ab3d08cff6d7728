// The generated validators carry ajv's runtime helpers and ajv-formats' checks inside them (bundled at generation
// time). They must answer exactly as ajv with ajv-formats does when it compiles the same schemas at run time:
// same verdict and same errors, on the contract's examples and on the fuzz corpus (sampled values and every
// single-constraint breakage of them, plus hostile values).
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { createAjv, type Ajv } from "../scripts/lib/ajv.js";
import { loadDefs, loadTools } from "../scripts/lib/mcp-source.js";
import { strictOptions, toolValidatorSchemas } from "../scripts/lib/mcp.js";
import { componentDefs, openResponseDefs, restSchemaId } from "../scripts/lib/rest.js";
import { collectExtensionKeys, type JsonObject } from "../lib/schema-walk.js";
import * as rest from "../generated/rest/validators.js";
import * as mcp from "../generated/mcp/validators.js";
import * as mcpStrict from "../generated/mcp/validators-strict.js";
import { mcpToolsJsonPath, openapiJsonPath } from "../lib/contract/documents.js";
import { breakages, hugeString, resolverFor, sample, type Schema } from "./support/fuzz.js";

type Fn = (data: unknown) => boolean;
type Inlined = Record<string, unknown>;

const hostile: unknown[] = [null, 0, -1.5, "", hugeString, [], {}, [{}], { __proto__: null }, JSON.parse('{"__proto__": {"x": 1}}'), true];

/** Valid samples, their breakages and the examples of one schema, as distinct JSON texts. */
function corpus(schema: Schema, root: unknown, examples: unknown[]): unknown[] {
  const resolve = resolverFor(root);
  const base = sample(schema, resolve);
  const values = [...examples, base, ...hostile, ...breakages(schema, base, resolve).map((b) => b.value)];
  for (const ex of examples) if (ex && typeof ex === "object") values.push(...breakages(schema, ex, resolve).map((b) => b.value));
  return [...new Map(values.map((v) => [JSON.stringify(v) ?? "undefined", v])).values()];
}

/** Verdicts seen, so a corpus that only holds valid (or only invalid) values cannot pass unnoticed. */
const seen = { valid: 0, invalid: 0 };

/** Runs both and compares verdicts and errors; returns how many values were compared. */
function compare(label: string, inlined: unknown, runtime: Fn & { errors?: unknown }, values: unknown[]): number {
  const fn = inlined as Fn & { errors?: unknown };
  expect(typeof fn, `${label} is exported`).toBe("function");
  for (const value of values) {
    const a = fn(value);
    const b = runtime(value);
    seen[b ? "valid" : "invalid"]++;
    if (a !== b || JSON.stringify(fn.errors) !== JSON.stringify(runtime.errors)) {
      expect({ label, value, inlined: [a, fn.errors] }).toEqual({ label, value, inlined: [b, runtime.errors] });
    }
  }
  return values.length;
}

describe("the inlined validators answer as ajv with ajv-formats", () => {
  it("REST: every component schema", () => {
    const openapi = JSON.parse(fs.readFileSync(openapiJsonPath, "utf8")) as JsonObject;
    const defs = componentDefs(openapi);
    const ajv: Ajv = createAjv({ annotations: collectExtensionKeys(defs) });
    ajv.addSchema({ $id: restSchemaId, $defs: openResponseDefs(openapi, defs) });
    let compared = 0;
    for (const [name, schema] of Object.entries(defs)) {
      const runtime = ajv.getSchema(`${restSchemaId}#/$defs/${name}`)!;
      const examples = ((schema as JsonObject).examples as unknown[] | undefined) ?? [];
      compared += compare(name, (rest as Inlined)[`validate${name}`], runtime, corpus(schema as Schema, { $defs: defs }, examples));
    }
    expect(compared).toBeGreaterThan(500);
    expect(seen.valid).toBeGreaterThan(50);
    expect(seen.invalid).toBeGreaterThan(100);
  });

  it("MCP: every tool's input, output and result, open and strict", () => {
    const tools = loadTools();
    const defs = loadDefs();
    const manifest = JSON.parse(fs.readFileSync(mcpToolsJsonPath, "utf8")) as { tools: { name: string; inputSchema: Schema; outputSchema: Schema }[] };
    const open = toolValidatorSchemas(tools, defs, { open: true });
    const strict = toolValidatorSchemas(tools, defs, strictOptions);
    let compared = 0;
    for (const tool of tools) {
      const listed = manifest.tools.find((t) => t.name === tool.name)!;
      const inputs = corpus(listed.inputSchema, listed.inputSchema, [...tool.examples.validInputs, ...tool.examples.invalidInputs.map((i) => i.input)]);
      const payload = Object.entries(listed.outputSchema.$defs).find(([n]) => n.endsWith("Output"))![1] as Schema;
      const outputs = corpus(payload, listed.outputSchema, tool.examples.validOutputs);
      const results = [...outputs.map((data) => ({ data })), ...corpus(listed.outputSchema, listed.outputSchema, [])];
      for (const [name, values] of Object.entries({ Input: inputs, Output: outputs, Result: results })) {
        const fn = `validate${tool.name.replace(/(^|_)([a-z0-9])/g, (_m, _s, c: string) => c.toUpperCase())}${name}`;
        compared += compare(`${tool.name} ${name}`, (mcp as Inlined)[fn], open.ajv.getSchema(open.refs[fn]!)!, values);
        if (name !== "Input") compared += compare(`${tool.name} ${name} (strict)`, (mcpStrict as Inlined)[fn], strict.ajv.getSchema(strict.refs[fn]!)!, values);
      }
    }
    expect(compared).toBeGreaterThan(2000);
    expect(seen.valid).toBeGreaterThan(500);
    expect(seen.invalid).toBeGreaterThan(500);
  });
});
