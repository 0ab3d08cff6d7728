// A target file (YAML; conformance/targets/reference.yaml is the reference's): validated against its JSON Schema
// (generated/conformance/target-file.schema.json, made from target-schema.ts), `{ env: NAME }` read from the
// environment, and handed to the suites as typed (suites/rest/target.ts reads `rest:`, suites/mcp/target.ts `mcp:`).
import { readFileSync } from "node:fs";
import path from "node:path";
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import { parse } from "yaml";
import type { TargetFile as WrittenFile } from "../generated/conformance/target-file.js";
import { targetSchemaPath } from "./core/paths.js";
import { type Read, TargetError } from "./core/target-values.js";

/** A target file, read: each suite's section with its `{ env: NAME }` values read and its empty values left out. */
export type TargetFile = Read<WrittenFile>;

let validator: ValidateFunction | undefined;
const validate = (): ValidateFunction =>
  (validator ??= new Ajv2020({ allErrors: true, verbose: true, allowUnionTypes: true }).compile(JSON.parse(readFileSync(targetSchemaPath, "utf8")) as object));

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

/** A target file's data, checked against the schema (a TargetError with one line per problem) and read. */
export function parseTargetFile(data: unknown, where: string, env: NodeJS.ProcessEnv = process.env): TargetFile {
  const check = validate();
  if (!check(data ?? {})) throw new TargetError(problems(check.errors ?? []).map((p) => `${where}: ${p}`).join("\n"));
  return read(data ?? {}, { env, folder: path.dirname(where) }) as TargetFile;
}

/** Keys whose value is a file, resolved against the target file's folder. */
const pathKeys = new Set(["ca_file"]);

/** The validated data with `{ env: NAME }` read and null and "" (left out, or an unset variable) dropped. */
function read(value: unknown, at: { env: NodeJS.ProcessEnv; folder: string }, key = ""): unknown {
  if (value === null || value === "") return undefined;
  if (typeof value !== "object") return typeof value === "string" && pathKeys.has(key) ? path.resolve(at.folder, value) : value;
  // Valid data holds a mapping with the one key `env` only where a value may be read from the environment: the schema
  // has no other property named `env` (test/conformance-target-file.test.ts holds it to that).
  const entries = Object.entries(value);
  if (entries.length === 1 && entries[0]![0] === "env") return read(at.env[String(entries[0]![1])], at, key);
  return Object.fromEntries(entries.flatMap(([k, v]) => ((v = read(v, at, k)) === undefined ? [] : [[k, v]])));
}

/** ajv's errors as one line each, "mcp.profile: must be one of preview, all": the place in the file, then what is wrong. */
function problems(errors: readonly ErrorObject[]): string[] {
  // A value of several shapes (anyOf) that fits none is said once, by the anyOf (its definition's title says what
  // was expected), not once per shape it missed.
  const anyOfs = errors.filter((e) => e.keyword === "anyOf").map((e) => e.instancePath);
  const lines = errors
    .filter((e) => e.keyword === "anyOf" || !anyOfs.some((p) => e.instancePath === p || e.instancePath.startsWith(`${p}/`)))
    .map((e) => {
      const path = e.instancePath.slice(1).split("/").filter(Boolean).join(".");
      // An error of the whole file (e.g. a list where the mapping of sections belongs) is placed as "the file".
      const place = path || "the file";
      const key = (k: string) => (path ? `${path}.${k}` : k);
      switch (e.keyword) {
        case "additionalProperties": {
          const known = Object.keys((e.parentSchema as { properties?: object }).properties ?? {});
          return `${key(String(e.params.additionalProperty))}: unknown key (known: ${known.join(", ")})`;
        }
        case "anyOf":
          return `${place}: must be ${String((e.parentSchema as { title?: string }).title)}`;
        case "enum":
          return `${place}: must be one of ${(e.params.allowedValues as unknown[]).filter((v) => v !== null).join(", ")}`;
        case "type":
          return `${place}: must be ${typeWords(String(e.params.type))}`;
        default:
          return `${place}: ${e.message}`;
      }
    });
  return [...new Set(lines)];
}

const typeWord: Record<string, string> = { object: "a mapping", string: "a string", boolean: "true or false", number: "a number", integer: "a whole number" };
const typeWords = (types: string): string =>
  types
    .split(",")
    .filter((t) => t !== "null")
    .map((t) => typeWord[t] ?? t)
    .join(" or ");
