// A target file (YAML; conformance/targets/reference.yaml is the reference's, its JSON Schema target-schema.ts):
// one section per suite, each read by its suite (suites/rest/target.ts: rest, suites/mcp/target.ts: mcp).
import { readFileSync } from "node:fs";
import { parse } from "yaml";
import { parseMcpSection, type McpTargetFile } from "./suites/mcp/target.js";
import { parseRestSection, type RestTargetFile } from "./suites/rest/target.js";
import { object, TargetError } from "./core/target-values.js";

/** A target file, read: the REST section's values, and the `mcp:` section when present. */
export interface TargetFile extends RestTargetFile {
  mcp?: McpTargetFile;
}

const sections = ["rest", "mcp"];

/** Reads a target file (YAML). Relative ca_file paths are resolved against the file's folder. */
export function loadTargetFile(file: string, env: NodeJS.ProcessEnv = process.env): TargetFile {
  let data: unknown;
  try {
    data = parse(readFileSync(file, "utf8"));
  } catch (err) {
    throw new TargetError(`cannot read target file ${file}: ${(err as Error).message}`);
  }
  return parseTargetFile(data, file, env);
}

export function parseTargetFile(data: unknown, where: string, env: NodeJS.ProcessEnv = process.env): TargetFile {
  const top = object(data, where);
  for (const key of Object.keys(top)) if (!sections.includes(key)) throw new TargetError(`${where}: unknown top-level key "${key}" (known: ${sections.join(", ")})`);
  const file: TargetFile = parseRestSection(top.rest, where, env);
  if (top.mcp !== undefined) file.mcp = parseMcpSection(top.mcp, where, env);
  return file;
}
