// REST outputs: TypeSpec → OpenAPI 3.1 (yaml + json), TS types and standalone validators of its schemas.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import YAML from "yaml";
import { createAjv } from "./ajv.js";
import { hashBanner, jsonBannerKey, bannerText } from "./banner.js";
import { binPath, runNode } from "../../lib/run.js";
import { restSpecDir } from "../../lib/paths.js";
import { collectExtensionKeys, reachableDefs, rewriteRefs, type Json, type JsonObject } from "../../lib/schema-walk.js";
import { openOutput } from "../../lib/open-output.js";
import { standaloneModule } from "./standalone.js";
import { typesFromDefs } from "./schema-types.js";

export type GeneratedFiles = Map<string, string>;

/** Compiles spec/rest with --warn-as-error into a temporary folder and returns the OpenAPI document. */
export function compileTypeSpec(): JsonObject {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), "ideas-contract-tsp-"));
  try {
    runNode(binPath("@typespec/compiler", "tsp"), ["compile", restSpecDir, "--warn-as-error", "--output-dir", out], "tsp compile");
    const found = findFile(out, "openapi.yaml");
    if (!found) throw new Error(`tsp compile wrote no openapi.yaml under ${out}`);
    return YAML.parse(fs.readFileSync(found, "utf8")) as JsonObject;
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
  }
}

function findFile(dir: string, name: string): string | undefined {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isFile() && entry.name === name) return full;
    if (entry.isDirectory()) {
      const hit = findFile(full, name);
      if (hit) return hit;
    }
  }
  return undefined;
}

/** The document's component schemas as a $defs bag, refs rewritten to "#/$defs/…". */
export function componentDefs(openapi: JsonObject): Record<string, Json> {
  const schemas = ((openapi.components as JsonObject | undefined)?.schemas ?? {}) as JsonObject;
  const rewritten = rewriteRefs(schemas, (ref) => ref.replace("#/components/schemas/", "#/$defs/")) as JsonObject;
  // ajv does not know OpenAPI's discriminator mapping; the anyOf/oneOf it sits beside carries the rule.
  for (const schema of Object.values(rewritten)) {
    if (schema && typeof schema === "object" && !Array.isArray(schema)) delete (schema as JsonObject).discriminator;
  }
  return rewritten;
}

/**
 * The component schemas with every response-only one open to unknown fields (seed 000, Conventions 5 and
 * Versioning 4: new fields can appear in responses). Only fields: seed 000 promises nothing about new enum
 * values, so response enums stay closed. Request schemas stay as written; a component both sides use cannot
 * be both, so one the transform would change fails generation.
 */
export function openResponseDefs(openapi: JsonObject, defs: Record<string, Json>): Record<string, Json> {
  const requests: Json[] = [];
  const responses: Json[] = [];
  for (const ops of Object.values((openapi.paths ?? {}) as JsonObject)) {
    for (const op of Object.values(ops as JsonObject)) {
      if (!op || typeof op !== "object" || Array.isArray(op)) continue;
      requests.push((op as JsonObject).requestBody ?? null, (op as JsonObject).parameters ?? null);
      responses.push((op as JsonObject).responses ?? null);
    }
  }
  const local = (v: Json) => rewriteRefs(v, (ref) => ref.replace("#/components/schemas/", "#/$defs/"));
  const requestSide = reachableDefs(requests.map(local), defs);
  const out = { ...defs };
  for (const name of reachableDefs(responses.map(local), defs)) {
    const opened = openOutput(defs[name]!, { enums: false });
    if (JSON.stringify(opened) === JSON.stringify(defs[name])) continue;
    if (requestSide.has(name)) throw new Error(`spec/rest: ${name} closes its fields and is used in requests and responses; give responses their own model`);
    out[name] = opened;
  }
  return out;
}

/** `OperationId`: every operationId of the OpenAPI document, in its order (checks and mocks switch over it). */
function operationIdType(openapi: JsonObject): string {
  const ids: string[] = [];
  for (const ops of Object.values((openapi.paths ?? {}) as JsonObject))
    for (const op of Object.values(ops as JsonObject))
      if (op && typeof op === "object" && !Array.isArray(op) && typeof (op as JsonObject).operationId === "string") ids.push((op as JsonObject).operationId as string);
  return `\n/** Every operation of the REST API, by its operationId. */\nexport type OperationId = ${ids.map((id) => JSON.stringify(id)).join(" | ")};\n`;
}

export const restSchemaId = "ideas-contract:/rest/schemas.json";

/** Writes the REST outputs and returns the OpenAPI document (without banner) for later steps. */
export async function generateRest(files: GeneratedFiles): Promise<JsonObject> {
  const compiled = compileTypeSpec();
  const openapi: JsonObject = { [jsonBannerKey]: bannerText, ...compiled };
  files.set("generated/openapi/openapi.yaml", hashBanner + YAML.stringify(openapi, { lineWidth: 0 }));
  files.set("generated/openapi/openapi.json", JSON.stringify(openapi, null, 2) + "\n");

  const defs = componentDefs(compiled);
  files.set("generated/rest/types.d.ts", (await typesFromDefs(defs)) + operationIdType(compiled));

  const ajv = createAjv({ standalone: true, annotations: collectExtensionKeys(defs) });
  ajv.addSchema({ $id: restSchemaId, $defs: openResponseDefs(compiled, defs) });
  const names = Object.keys(defs).sort();
  const refs = Object.fromEntries(names.map((n) => [`validate${n}`, `${restSchemaId}#/$defs/${n}`]));
  const mod = standaloneModule(ajv, refs, [
    {
      mapName: "validators",
      doc: "Every REST schema's validator, keyed by its name in components.schemas.",
      entries: names.map((n) => [n, `validate${n}`]),
    },
  ], { module: "./types.js", typeOf: Object.fromEntries(names.map((n) => [`validate${n}`, `T.${n}`])) });
  files.set("generated/rest/validators.js", mod.js);
  files.set("generated/rest/validators.d.ts", mod.dts);
  return compiled;
}
