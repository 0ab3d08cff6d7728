// MCP outputs: the tools/list manifest (refs inlined), TS types and standalone validators of every tool.
import type { Ajv } from "./ajv.js";
import { createAjv } from "./ajv.js";
import { bannerText, jsonBannerKey } from "./banner.js";
import { addDefs, loadDefs, loadTools, sourceIdBase, type JsonSchema, type ToolSource } from "./mcp-source.js";
import { openOutput, openOutputKeywords, openOutputTypes } from "../../lib/open-output.js";
import { collectExtensionKeys, pascalCase, reachableDefs, rewriteRefs, type Json, type JsonObject } from "../../lib/schema-walk.js";
import { standaloneModule } from "./standalone.js";
import { typesFromDefs } from "./schema-types.js";
import type { GeneratedFiles } from "./rest.js";

/** Vendor key of our contract metadata in a tool's `_meta`, and of the manifest's own metadata. */
export const contractMetaKey = "ideas-contract/contract";

interface DefsIndex {
  /** def name → { file, schema } ; names are unique across defs files so the manifest can flatten them. */
  byName: Map<string, { file: string; schema: Json }>;
}

function indexDefs(defs: Map<string, JsonObject>): DefsIndex {
  const byName = new Map<string, { file: string; schema: Json }>();
  for (const [file, doc] of defs) {
    for (const [name, schema] of Object.entries((doc.$defs ?? {}) as JsonObject)) {
      const clash = byName.get(name);
      if (clash) throw new Error(`spec/mcp/defs: ${name} is defined in both ${clash.file} and ${file}; names must be unique`);
      byName.set(name, { file, schema });
    }
  }
  return { byName };
}

/** "../defs/x.json#/$defs/Y" (from a tool), "x.json#/$defs/Y" or "#/$defs/Y" (from defs file x.json) → "Y". */
function defName(ref: string, context: string): string {
  const m = /^(?:(?:\.\.\/defs\/)?([\w.-]+\.json))?#\/\$defs\/([\w.-]+)$/.exec(ref);
  if (!m) throw new Error(`${context}: unsupported $ref ${ref} (use ../defs/<file>.json#/$defs/<Name>)`);
  return m[2]!;
}

/** Schemas with every shared definition they need collected into one $defs, so a client needs nothing else. */
function inlineDefs(roots: Json[], context: string, index: DefsIndex): { roots: Json[]; defs: Record<string, Json> } {
  for (const schema of roots) {
    if (schema && typeof schema === "object" && !Array.isArray(schema) && "$defs" in schema) {
      throw new Error(`${context}: keep shared shapes in spec/mcp/defs/, not in a tool's own $defs`);
    }
  }
  const needed: string[] = [];
  const local = (ref: string, ctx: string) => {
    const name = defName(ref, ctx);
    if (!index.byName.has(name)) throw new Error(`${ctx}: $ref ${ref} names no definition in spec/mcp/defs`);
    needed.push(name);
    return `#/$defs/${name}`;
  };
  const rewritten = roots.map((schema) => rewriteRefs(schema, (ref) => local(ref, context)));
  const defs: Record<string, Json> = {};
  while (needed.length) {
    const name = needed.shift()!;
    if (name in defs) continue;
    const { file, schema: def } = index.byName.get(name)!;
    defs[name] = rewriteRefs(def, (ref) => local(ref, `defs/${file}`));
  }
  return { roots: rewritten, defs };
}

const writes = (tool: ToolSource) => tool.scopes.includes("mcp:write");
const commonRef = (name: string) => `../defs/common.json#/$defs/${name}`;

/** The structuredContent schema: { data: payload | error envelope | (for writes) cancelled }. */
function resultSchema(tool: ToolSource, payloadRef: string, defRef: (name: string) => string): JsonObject {
  const anyOf: Json[] = [{ $ref: payloadRef }, { $ref: defRef("ErrorEnvelope") }];
  if (writes(tool)) anyOf.push({ $ref: defRef("Cancelled") });
  return { type: "object", required: ["data"], properties: { data: { anyOf } } };
}

function manifestTool(tool: ToolSource, index: DefsIndex): JsonObject {
  const context = `tools/${tool.name}.json`;
  const input = inlineDefs([tool.inputSchema as Json], context, index);
  const alternatives = (writes(tool) ? ["ErrorEnvelope", "Cancelled"] : ["ErrorEnvelope"]).map((n) => ({ $ref: commonRef(n) }));
  const output = inlineDefs([tool.output as Json, ...alternatives], context, index);
  const payloadName = `${pascalCase(tool.name)}Output`;
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: { ...(input.roots[0] as JsonObject), ...(Object.keys(input.defs).length ? { $defs: sortKeys(input.defs) } : {}) },
    outputSchema: {
      ...resultSchema(tool, `#/$defs/${payloadName}`, (n) => `#/$defs/${n}`),
      $defs: sortKeys({ ...output.defs, [payloadName]: output.roots[0]! }),
    },
    annotations: { readOnlyHint: tool.readOnlyHint },
    _meta: {
      [contractMetaKey]: {
        status: tool.status,
        ...(tool.inDevelopment?.length ? { inDevelopment: tool.inDevelopment } : {}),
        partnerOnly: tool.partnerOnly,
        scopes: tool.scopes,
        source: tool.source,
        ...(tool.sourceReason ? { sourceReason: tool.sourceReason } : {}),
        errors: tool.errors,
      },
    },
  };
}

function sortKeys(obj: Record<string, Json>): Record<string, Json> {
  return Object.fromEntries(Object.entries(obj).sort(([a], [b]) => a.localeCompare(b)));
}

/** Where the open copies of the sources sit inside ajv; relative $refs between them resolve as on disk. */
const openIdBase = "ideas-contract:/spec/mcp-open/";

/**
 * An ajv holding every tool's input, payload and structuredContent schema, and the ref of each validator.
 * Inputs always use the sources as written (closed). With `open`, payloads, results and the error envelope use
 * copies opened by the seed's evolution rules (open-output.ts); without, they are the documented shapes.
 */
export function toolValidatorSchemas(
  tools: ToolSource[],
  defs: Map<string, JsonSchema>,
  options: { open: boolean; firstErrorOnly?: boolean },
): { ajv: Ajv; refs: Record<string, string> } {
  const sources = [...defs.values(), ...tools.map((t) => [t.inputSchema, t.output])] as Json;
  const ajv = createAjv({ standalone: true, firstErrorOnly: options.firstErrorOnly, annotations: [...collectExtensionKeys(sources), ...openOutputKeywords] });
  const outBase = options.open ? openIdBase : sourceIdBase;
  const opened = (schema: JsonSchema) => (options.open ? (openOutput(schema as Json, { enums: true }) as JsonSchema) : schema);
  addDefs(ajv, defs);
  if (options.open) addDefs(ajv, defs, openIdBase, opened);
  const refs: Record<string, string> = {};
  for (const tool of tools) {
    const p = pascalCase(tool.name);
    const input = `${sourceIdBase}tools/${tool.name}.input.json`;
    const out = `${outBase}tools/${tool.name}`;
    ajv.addSchema({ ...tool.inputSchema, $id: input });
    ajv.addSchema({ ...opened(tool.output), $id: `${out}.output.json` });
    ajv.addSchema({ ...resultSchema(tool, `${tool.name}.output.json`, commonRef), $id: `${out}.result.json` });
    refs[`validate${p}Input`] = input;
    refs[`validate${p}Output`] = `${out}.output.json`;
    refs[`validate${p}Result`] = `${out}.result.json`;
  }
  refs.validateErrorEnvelope = `${outBase}defs/common.json#/$defs/ErrorEnvelope`;
  return { ajv, refs };
}

function toolTypesExtra(tools: ToolSource[]): string {
  const line = (fn: (t: ToolSource) => string) => tools.map(fn).join("\n");
  const writeNames = tools.filter(writes).map((t) => JSON.stringify(t.name));
  return `
/** Arguments of every tool, by tool name. */
export interface ToolInputs {
${line((t) => `  ${t.name}: ${pascalCase(t.name)}Input;`)}
}

/** Success payload (structuredContent.data) of every tool, by tool name. */
export interface ToolOutputs {
${line((t) => `  ${t.name}: ${pascalCase(t.name)}Output;`)}
}

export type ToolName = keyof ToolInputs;

/** Tools that change data: they need mcp:write and may answer Cancelled. */
export type WriteToolName = ${writeNames.join(" | ") || "never"};

/**
 * The values an open output enum lists today, without the \`(string & {})\` that admits the ones to come: for code
 * that produces outputs (a mock, a fake gateway), e.g. \`Known<ChannelHealth>\`.
 */
export type Known<T> = T extends string ? (string extends T ? never : T) : T;

/** What a tool's result carries in structuredContent. */
export interface ToolStructuredContent<N extends ToolName> {
  data: ToolOutputs[N] | ErrorEnvelope | (N extends WriteToolName ? Cancelled : never);
}
`;
}

/**
 * The types bag with every output-side enum open (`"a" | "b" | (string & {})`), so a type guard never narrows to
 * fewer values than its validator lets through. Inputs keep closed unions; a definition both sides use cannot be
 * both, so one with an enum fails generation (split it into an input and an output definition).
 */
function openOutputDefs(bag: Record<string, Json>, tools: ToolSource[]): Record<string, Json> {
  const outputs = tools.map((t) => `${pascalCase(t.name)}Output`);
  const inputSide = reachableDefs(tools.map((t) => bag[`${pascalCase(t.name)}Input`]!), bag);
  const outputSide = reachableDefs([...outputs.map((n) => bag[n]!), { $ref: "#/$defs/ErrorEnvelope" }, { $ref: "#/$defs/Cancelled" }], bag);
  const result = { ...bag };
  for (const name of [...outputSide, ...outputs]) {
    const opened = openOutputTypes(bag[name]!);
    if (JSON.stringify(opened) === JSON.stringify(bag[name])) continue;
    if (inputSide.has(name)) throw new Error(`spec/mcp/defs: ${name} holds an enum and is used by inputs and outputs; split it so outputs can stay open`);
    result[name] = opened;
  }
  return result;
}

/** What tools/list answers (generated/mcp/tools.json), made from the sources. */
export function toolsManifest(tools: ToolSource[], defs: Map<string, JsonSchema>): JsonObject {
  const index = indexDefs(defs as Map<string, JsonObject>);
  return {
    tools: tools.map((t) => manifestTool(t, index)),
    _meta: { [contractMetaKey]: { generated: bannerText } },
  };
}

/** The type each validator of toolValidatorSchemas guards, against the types module imported as T. */
function guardedTypes(tools: ToolSource[]): Record<string, string> {
  const out: Record<string, string> = { validateErrorEnvelope: "T.ErrorEnvelope" };
  for (const t of tools) {
    const p = pascalCase(t.name);
    out[`validate${p}Input`] = `T.${p}Input`;
    out[`validate${p}Output`] = `T.${p}Output`;
    out[`validate${p}Result`] = `T.ToolStructuredContent<${JSON.stringify(t.name)}>`;
  }
  return out;
}

/** How the strict set (generated/mcp/validators-strict.js) is built. */
export const strictOptions = { open: false, firstErrorOnly: true } as const;

const openNote = "Open, as seed 001 (Conventions 7, Versioning 5) asks: unknown fields, enum values and error codes pass.";

export async function generateMcp(files: GeneratedFiles): Promise<ToolSource[]> {
  const tools = loadTools();
  const defs = loadDefs();
  const index = indexDefs(defs as Map<string, JsonObject>);
  files.set("generated/mcp/tools.json", JSON.stringify(toolsManifest(tools, defs), null, 2) + "\n");

  // Types: every shared definition plus each tool's input and payload, all in one namespace.
  const bag: Record<string, Json> = {};
  for (const [name, { file, schema }] of index.byName) bag[name] = rewriteRefs(schema, (r) => `#/$defs/${defName(r, file)}`);
  for (const t of tools) {
    const local = (r: string) => `#/$defs/${defName(r, t.name)}`;
    bag[`${pascalCase(t.name)}Input`] = rewriteRefs(t.inputSchema as Json, local);
    bag[`${pascalCase(t.name)}Output`] = rewriteRefs(t.output as Json, local);
  }
  files.set("generated/mcp/types.d.ts", await typesFromDefs(openOutputDefs(bag, tools), toolTypesExtra(tools)));

  const { ajv, refs } = toolValidatorSchemas(tools, defs, { open: true });
  const types = { module: "./types.js", typeOf: guardedTypes(tools) };
  const group = (mapName: string, suffix: string, doc: string) => ({
    mapName,
    doc,
    entries: tools.map((t) => [t.name, `validate${pascalCase(t.name)}${suffix}`] as [string, string]),
  });
  const mod = standaloneModule(ajv, refs, [
    group("inputValidators", "Input", "Validators of each tool's arguments, by tool name (closed: unknown arguments are refused)."),
    group("outputValidators", "Output", `Validators of each tool's success payload (structuredContent.data), by tool name. ${openNote}`),
    group("resultValidators", "Result", `Validators of each tool's whole structuredContent ({data: payload | error | cancelled}), by tool name. ${openNote}`),
  ], types);
  files.set("generated/mcp/validators.js", mod.js);
  files.set("generated/mcp/validators.d.ts", mod.dts);

  // Our own mock and tests hold themselves to the documented shapes: a value the contract does not list yet is
  // a bug in them, even though a consumer must accept it from a real gateway. The first error is enough for
  // them, which keeps this second set small in the package.
  const strict = toolValidatorSchemas(tools, defs, strictOptions);
  const strictRefs = Object.fromEntries(Object.entries(strict.refs).filter(([name]) => !name.endsWith("Input")));
  const strictMod = standaloneModule(strict.ajv, strictRefs, [
    group("strictOutputValidators", "Output", "Each tool's success payload as documented (no unknown enum values), for the mock and tests of this package."),
    group("strictResultValidators", "Result", "Each tool's structuredContent as documented, for the mock and tests of this package."),
  ], types);
  files.set("generated/mcp/validators-strict.js", strictMod.js);
  files.set("generated/mcp/validators-strict.d.ts", strictMod.dts);
  return tools;
}

export { jsonBannerKey };
