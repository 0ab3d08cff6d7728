// Every input field of every tool sent with each JSON type it does not take (issue 25, pattern 3; a gateway may
// coerce one type and not another, so each is a case of its own): refused before the tool runs, with no
// envelope (Conventions 2). The fields and their types come from the live input schemas (the
// live list is right where it differs from the contract), so a new tool or field gets its cases without an edit.
import type { Tool } from "@modelcontextprotocol/sdk/types.js";

import { isObject, valueAtPointer } from "../../../core/answered.js";
import { expectRefusedFirst } from "../expect.js";
import { tokenFor } from "../probes.js";
import { probeOf, type McpCheck } from "./common.js";
import { eraseIfMade, reachable } from "./conventions.js";

/** A value of each JSON type (integers count as numbers). */
const valueOfType: Record<string, unknown> = { string: "conformance", number: 7, boolean: true, object: {}, array: [], null: null };

type Schema = Record<string, any>;

/** The JSON types a property schema takes, following local $refs and anyOf/oneOf; undefined when it does not say. */
export function typesTaken(schema: Schema | undefined, root: Schema, depth = 0): Set<string> | undefined {
  if (!schema || typeof schema !== "object" || depth > 8) return undefined;
  if (typeof schema.$ref === "string" && schema.$ref.startsWith("#/")) {
    const target = valueAtPointer(root, schema.$ref);
    const { $ref: _ref, ...rest } = schema;
    return typesTaken({ ...(isObject(target) ? target : {}), ...rest }, root, depth + 1);
  }
  const named = (t: string) => (t === "integer" ? "number" : t);
  if (typeof schema.type === "string") return new Set([named(schema.type)]);
  if (Array.isArray(schema.type)) return new Set(schema.type.map(named));
  const branches = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(branches)) {
    const out = new Set<string>();
    for (const b of branches) {
      const t = typesTaken(b, root, depth + 1);
      if (!t) return undefined;
      t.forEach((x) => out.add(x));
    }
    return out;
  }
  const values = "const" in schema ? [schema.const] : Array.isArray(schema.enum) ? schema.enum : undefined;
  if (values) return new Set(values.map((v: unknown) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v)));
  return undefined;
}

const wrongTypes = ["string", "number", "boolean", "array", "object", "null"];
/**
 * The wrong types of a field in order: the one a lenient gateway would most likely coerce first (a number for a
 * string, a string for anything else), then the others in a fixed order.
 */
const wrongTypesInOrder = (taken: Set<string>): string[] => (taken.has("string") ? wrongTypes.slice(1) : wrongTypes).filter((t) => !taken.has(t));

/**
 * The (field, wrong value) cases of a live tool's input schema: `perField` wrong types for each field (every one by
 * default), the likeliest coercion first.
 */
export function wrongTypeCases(tool: Tool, perField = wrongTypes.length): { field: string; type: string; value: unknown }[] {
  const schema = tool.inputSchema as Schema;
  return Object.entries((schema.properties ?? {}) as Record<string, Schema>).flatMap(([field, prop]) => {
    const taken = typesTaken(prop, schema);
    if (!taken) return [];
    return wrongTypesInOrder(taken)
      .slice(0, perField)
      .map((type) => ({ field, type, value: valueOfType[type] }));
  });
}

export const wrongTypeChecks: McpCheck[] = [
  {
    id: "mcp-wrong-types-refused-first",
    description: "Every input field of every tool, sent with each JSON type its live input schema does not take (string, number, boolean, array, object, null), is refused before the tool runs, with no envelope",
    rules: ["schema-violation-refused-first"],
    group: "mcp-conventions",
    async run(ctx) {
      const m = ctx.mcp;
      const live = new Map<string, Tool>();
      for (const t of await m.session.tools("normal")) live.set(t.name, t);
      if (m.target.tokens.partner) for (const t of await m.session.tools("partner")) if (!live.has(t.name)) live.set(t.name, t);
      await Promise.all(
        (await reachable(m)).flatMap((t) => {
          const tool = live.get(t.name);
          if (!tool) return [];
          // A valid input whose ids name nothing (create_profile: the run's own externalId), one field made wrong.
          const valid = probeOf(m, t.name);
          return wrongTypeCases(tool).map(async (c) => {
            const o = await m.session.callRaw(t.name, { ...valid, [c.field]: c.value }, tokenFor(t));
            expectRefusedFirst(ctx, o, `schema-violation-refused-first/${t.name}`);
            await eraseIfMade(m, o.data);
          });
        }),
      );
    },
  },
];
