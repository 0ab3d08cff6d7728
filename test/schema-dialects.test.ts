// conformance/suites/mcp/schema-dialects.ts: each advertised schema compiled in the dialect it names, a schema invalid in
// its own dialect (or naming no dialect we know) an Error, never a throw; and the SDK client's validator provider,
// which must not break tools/list on such a schema.
import { describe, expect, it } from "vitest";
import { liveOutputError } from "../conformance/suites/mcp/client.js";
import { compileSchema, dialectOf, draft04AsDraft07, schemaInvalidity } from "../conformance/suites/mcp/schema-dialects.js";

const compiled = (schema: unknown) => {
  const v = compileSchema(schema);
  if (v instanceof Error) throw v;
  return v;
};

describe("schema dialects", () => {
  it("names the dialect of each $schema form a server writes", () => {
    expect(dialectOf("http://json-schema.org/draft-07/schema#")).toBe("draft-07");
    expect(dialectOf("https://json-schema.org/draft-07/schema")).toBe("draft-07");
    expect(dialectOf("http://json-schema.org/draft-06/schema#")).toBe("draft-06");
    expect(dialectOf("https://json-schema.org/draft/2019-09/schema")).toBe("2019-09");
    expect(dialectOf("https://json-schema.org/draft/2020-12/schema#")).toBe("2020-12");
    expect(dialectOf("http://json-schema.org/draft-04/schema#")).toBe("draft-04");
    expect(dialectOf("http://json-schema.org/draft-03/schema#")).toBeUndefined();
    expect(dialectOf("https://example.com/my-dialect")).toBeUndefined();
  });

  it("judges draft-07 by draft-07's words: definitions, dependencies, tuple items", () => {
    for (const named of [{ $schema: "http://json-schema.org/draft-07/schema#" }, { $schema: "https://json-schema.org/draft-07/schema" }, {}]) {
      const v = compiled({ ...named, type: "object", definitions: { Id: { type: "string", minLength: 1 } }, properties: { id: { $ref: "#/definitions/Id" }, pair: { type: "array", items: [{ type: "string" }, { type: "integer" }], additionalItems: false } }, dependencies: { a: ["b"] } });
      expect(v({ id: "x", pair: ["a", 1] })).toBe(true);
      expect(v({ id: "" })).toBe(false);
      expect(v({ pair: ["a", "b"] })).toBe(false);
      expect(v({ pair: ["a", 1, 2] })).toBe(false);
      expect(v({ a: 1 }), `dependencies ignored with ${JSON.stringify(named)}`).toBe(false);
    }
  });

  it("judges draft-06, 2019-09 and 2020-12 each by its own validator", () => {
    expect(compiled({ $schema: "http://json-schema.org/draft-06/schema#", type: "object", properties: { n: { const: 1 } } })({ n: 2 })).toBe(false);
    const v2019 = compiled({ $schema: "https://json-schema.org/draft/2019-09/schema", type: "object", dependentRequired: { a: ["b"] }, $defs: { N: { type: "integer" } }, properties: { n: { $ref: "#/$defs/N" } } });
    expect(v2019({ a: 1, b: 2, n: 3 })).toBe(true);
    expect(v2019({ a: 1 })).toBe(false);
    expect(v2019({ n: "3" })).toBe(false);
    const v2020 = compiled({ $schema: "https://json-schema.org/draft/2020-12/schema", type: "array", prefixItems: [{ type: "string" }], items: false });
    expect(v2020(["a"])).toBe(true);
    expect(v2020(["a", "b"])).toBe(false);
    // No $schema, written in 2020-12's words: 2020-12.
    expect(compiled({ type: "array", prefixItems: [{ type: "string" }], items: false })(["a", 1])).toBe(false);
  });

  it("judges draft-04 by draft-04's words: boolean exclusive bounds, id, definitions", () => {
    const v = compiled({ $schema: "http://json-schema.org/draft-04/schema#", id: "urn:example:count", type: "object", definitions: { N: { type: "integer", minimum: 1, maximum: 20, exclusiveMaximum: true } }, properties: { count: { $ref: "#/definitions/N" } }, required: ["count"] });
    expect(v({ count: 19 })).toBe(true);
    expect(v({ count: 20 }), "exclusiveMaximum true excludes the maximum").toBe(false);
    expect(v({ count: 0 })).toBe(false);
    expect(v({})).toBe(false);
    // draft-04's exclusiveMaximum is a boolean: a number there is not valid draft-04.
    expect(compileSchema({ $schema: "http://json-schema.org/draft-04/schema#", type: "integer", exclusiveMaximum: 5 })).toBeInstanceOf(Error);
    expect(schemaInvalidity({ $schema: "http://json-schema.org/draft-04/schema#", type: "integer", maximum: 5, exclusiveMaximum: true })).toBeUndefined();
  });

  it("translates draft-04 to draft-07 when ajv-draft-04 is not installed, never refusing more than draft-04 does", () => {
    expect(draft04AsDraft07({ id: "urn:x", type: "object", properties: { id: { type: "string" }, n: { type: "number", maximum: 5, exclusiveMaximum: true, minimum: 0, exclusiveMinimum: false } }, required: ["id"] })).toEqual({
      $id: "urn:x",
      type: "object",
      properties: { id: { type: "string" }, n: { type: "number", exclusiveMaximum: 5, minimum: 0 } },
      required: ["id"],
    });
    // Keywords draft-06 added mean nothing in draft-04: dropped, so they refuse nothing.
    expect(draft04AsDraft07({ type: "string", const: "a" })).toEqual({ type: "string" });
  });

  it("returns why a schema is not valid in its own dialect, naming the dialect, instead of throwing", () => {
    const bad = compileSchema({ $schema: "http://json-schema.org/draft-07/schema#", type: "object", properties: { x: { type: 5 } } });
    expect(bad).toBeInstanceOf(Error);
    expect((bad as Error).message).toMatch(/^not valid JSON Schema draft-07: .*type/);
    // The same mistake under 2019-09 and with no $schema (neither 2020-12 nor draft-07 takes it).
    expect(compileSchema({ $schema: "https://json-schema.org/draft/2019-09/schema", type: "object", properties: { x: { type: 5 } } })).toBeInstanceOf(Error);
    const unnamed = compileSchema({ type: "object", properties: { x: { type: 5 } } });
    expect((unnamed as Error).message).toMatch(/2020-12.*names no \$schema.*draft-07/);
    expect((compileSchema({ $schema: "http://json-schema.org/draft-03/schema#", type: "object" }) as Error).message).toMatch(/its \$schema names "http:\/\/json-schema.org\/draft-03\/schema#", no dialect the suite compiles/);
    expect((compileSchema({ $schema: 7, type: "object" }) as Error).message).toMatch(/\$schema is not a string/);
    expect(compileSchema("object")).toBeInstanceOf(Error);
  });

  it("tells a schema its own dialect refuses by the meta-schema alone, as compiling does", () => {
    expect(schemaInvalidity({ $schema: "http://json-schema.org/draft-07/schema#", type: "object", definitions: { D: { type: "string" } }, dependencies: { a: ["b"] } })).toBeUndefined();
    expect(schemaInvalidity({ type: "array", items: [{ type: "string" }] })).toBeUndefined();
    expect(schemaInvalidity({ $schema: "http://json-schema.org/draft-07/schema#", properties: { x: { type: 5 } } })).toMatch(/^not valid JSON Schema draft-07: schema is invalid: data\/properties\/x\/type/);
    expect(schemaInvalidity({ $schema: "https://example.com/mine", type: "object" })).toMatch(/no dialect the suite compiles/);
  });

  it("compiles each distinct schema once", () => {
    const schema = { $schema: "http://json-schema.org/draft-07/schema#", type: "object", properties: { once: { type: "string" } } };
    expect(compileSchema(schema)).toBe(compileSchema(structuredClone(schema)));
  });

  it("judges a result by the live schema in its dialect (liveOutputError, used by the suite's client and the proxy)", () => {
    const schema = { $schema: "http://json-schema.org/draft-07/schema#", type: "object", required: ["data"] };
    expect(liveOutputError(schema, { data: 1 })).toBeUndefined();
    expect(liveOutputError(schema, {})).toMatchObject({ kind: "output-schema", message: expect.stringMatching(/data/) });
    // A live schema that is no valid JSON Schema is the schema rule's failure, named as such.
    expect(liveOutputError({ type: "object", properties: { x: { type: 5 } } }, { x: 1 })?.message).toMatch(/the schema is/);
  });
});
