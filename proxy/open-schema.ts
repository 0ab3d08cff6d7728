// Output judged "open to additions" as seed 001 allows (Conventions 7: new fields, enum values and codes): a
// result is checked against the contract's output schema and against a copy with every `enum` and every
// `additionalProperties: false` removed. Failing only the strict one means additions (a note); failing the open
// one is a violation. Enums inside `if` stay: they decide which branch applies (settled iff ready/partial/failed).
import { compileLive } from "../conformance/suites/mcp/contract.js";

/** A deep copy of a schema with enums (outside `if`) and closed objects opened. */
export function openSchema(schema: unknown, underIf = false): unknown {
  if (Array.isArray(schema)) return schema.map((s) => openSchema(s, underIf));
  if (!schema || typeof schema !== "object") return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === "enum" && !underIf) continue;
    if ((k === "additionalProperties" || k === "unevaluatedProperties") && v === false) continue;
    out[k] = openSchema(v, underIf || k === "if");
  }
  return out;
}

const opened = new WeakMap<object, unknown>();

function problems(schema: unknown, data: unknown): string[] {
  const v = compileLive(schema);
  if (v instanceof Error) return [`the schema does not compile: ${v.message}`];
  if (v(data)) return [];
  const lines = (v.errors ?? [])
    .filter((e) => !["anyOf", "oneOf", "if"].includes(e.keyword))
    .map((e) => `${e.instancePath || "(root)"} ${e.message ?? "is invalid"}${e.keyword === "enum" ? ` (${JSON.stringify(e.params.allowedValues).slice(0, 120)})` : ""}`);
  return [...new Set(lines)].slice(0, 5);
}

/** Violations (breaks the open schema) and additions (breaks only the strict one) of data against a schema. */
export function judgeOpen(schema: object, data: unknown): { violations: string[]; additions: string[] } {
  const strict = problems(schema, data);
  if (!strict.length) return { violations: [], additions: [] };
  let open = opened.get(schema);
  if (open === undefined) opened.set(schema, (open = openSchema(schema)));
  const loose = problems(open, data);
  return loose.length ? { violations: loose, additions: [] } : { violations: [], additions: strict };
}
