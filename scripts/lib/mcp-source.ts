// Reads the hand-written MCP sources in spec/mcp/: tool files, shared defs, the error catalogue.
import fs from "node:fs";
import path from "node:path";
import { mcpSpecDir } from "../../lib/paths.js";
import type { Ajv } from "./ajv.js";

export type JsonSchema = Record<string, unknown>;

export interface InvalidInputExample {
  input: Record<string, unknown>;
  reason: string;
  keyword: string;
  instancePath: string;
}

export interface ToolSource {
  name: string;
  description: string;
  status: "preview" | "in_development";
  inDevelopment?: string[];
  partnerOnly: boolean;
  readOnlyHint: boolean;
  scopes: ("mcp:read" | "mcp:write")[];
  source: "documented" | "partly_inferred" | "inferred";
  sourceReason?: string;
  errors: string[];
  inputSchema: JsonSchema;
  output: JsonSchema;
  examples: {
    validInputs: Record<string, unknown>[];
    validOutputs: Record<string, unknown>[];
    invalidInputs: InvalidInputExample[];
  };
}

/** Base of the ids we give source files inside ajv, so relative $refs resolve the way they read on disk. */
export const sourceIdBase = "ideas-contract:/spec/mcp/";

export const toolsDir = path.join(mcpSpecDir, "tools");
export const defsDir = path.join(mcpSpecDir, "defs");

function readJson<T>(file: string): T {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8")) as T;
  } catch (err) {
    throw new Error(`${path.relative(mcpSpecDir, file)}: ${(err as Error).message}`);
  }
}

function jsonFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir).filter((f) => f.endsWith(".json")).sort();
}

export function loadTools(): ToolSource[] {
  return jsonFiles(toolsDir).map((f) => readJson<ToolSource>(path.join(toolsDir, f)));
}

/** Shared definition files by file name (e.g. "common.json"). */
export function loadDefs(): Map<string, JsonSchema> {
  return new Map(jsonFiles(defsDir).map((f) => [f, readJson<JsonSchema>(path.join(defsDir, f))]));
}

export function loadToolFileSchema(): JsonSchema {
  return readJson(path.join(mcpSpecDir, "tool-file.schema.json"));
}


/**
 * Registers every defs file under its source id, so tool schemas can $ref "../defs/x.json#/$defs/Y". A second
 * `base` (with a `transform`) registers another copy beside it, e.g. the open one output validators use.
 */
export function addDefs(ajv: Ajv, defs: Map<string, JsonSchema>, base = sourceIdBase, transform = (s: JsonSchema) => s): void {
  for (const [file, schema] of defs) {
    const { $schema: _ignored, ...rest } = schema;
    ajv.addSchema({ ...transform(rest), $id: `${base}defs/${file}` });
  }
}

/** Compiles a tool's schema part with the tool file's own location as base URI. */
export function compileToolSchema(ajv: Ajv, tool: ToolSource, part: "inputSchema" | "output") {
  // Both ids sit in tools/, so "../defs/…" resolves as it reads on disk.
  const suffix = part === "output" ? "output" : "input";
  return ajv.compile({ ...tool[part], $id: `${sourceIdBase}tools/${tool.name}.${suffix}.json` });
}
