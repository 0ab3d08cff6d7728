// Test access to the MCP sources, with one ajv that knows the shared defs and the tool-file meta-schema.
import { createAjv } from "../../scripts/lib/ajv.js";
import { addDefs, loadDefs, loadToolFileSchema, loadTools, type ToolSource } from "../../scripts/lib/mcp-source.js";

export const tools: ToolSource[] = loadTools();
export const toolByName = new Map(tools.map((t) => [t.name, t]));

export function sourceAjv() {
  const ajv = createAjv();
  addDefs(ajv, loadDefs());
  ajv.addSchema(loadToolFileSchema(), "tool-file");
  return ajv;
}

/** A copy of `base` with the value at a dotted path ("a.b.0") replaced. */
export function withValue(base: Record<string, unknown>, dotted: string, value: unknown): Record<string, unknown> {
  const copy = structuredClone(base);
  const keys = dotted.split(".");
  let node: Record<string, unknown> = copy;
  for (let i = 0; i < keys.length - 1; i++) {
    const key = keys[i]!;
    node[key] ??= /^\d+$/.test(keys[i + 1]!) ? [] : {};
    node = node[key] as Record<string, unknown>;
  }
  node[keys.at(-1)!] = value;
  return copy;
}
