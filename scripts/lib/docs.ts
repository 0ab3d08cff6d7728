// docs/: references generated from the sources — REST operations, MCP tools, the error catalogue, every
// lifecycle as a Mermaid state diagram, and the inferred parts. Regenerated and drift-checked with generated/.
import fs from "node:fs";
import path from "node:path";
import YAML from "yaml";
import { bannerText } from "./banner.js";
import { inferredDoc } from "./inferred.js";
import type { CatalogueEntry } from "./mcp-errors.js";
import { loadDefs, type ToolSource } from "./mcp-source.js";
import { specDir } from "../../lib/paths.js";
import type { GeneratedFiles } from "./rest.js";
import type { Json, JsonObject } from "../../lib/schema-walk.js";

export const banner = `<!-- ${bannerText} -->\n`;
export const cell = (text: unknown) => String(text ?? "").replace(/\|/g, "\\|").replace(/\n+/g, " ").trim();
const firstSentence = (text: unknown) => {
  const t = cell(text);
  const m = /^(.+?[.!?])(\s|$)/.exec(t);
  return m ? m[1]! : t;
};
export const table = (head: string[], rows: string[][]) =>
  [`| ${head.join(" | ")} |`, `| ${head.map(() => "---").join(" | ")} |`, ...rows.map((r) => `| ${r.map(cell).join(" | ")} |`)].join("\n");
export const anchor = (text: string) => text.toLowerCase().replace(/[^a-z0-9 _-]/g, "").replace(/\s+/g, "-");

/** A short type expression for a schema: names for $refs, unions for anyOf/oneOf, enums spelled out. */
function typeOf(schema: Json | undefined): string {
  if (!schema || typeof schema !== "object" || Array.isArray(schema)) return "any";
  const s = schema as JsonObject;
  if (typeof s.$ref === "string") return s.$ref.slice(s.$ref.lastIndexOf("/") + 1);
  if ("const" in s) return JSON.stringify(s.const);
  if (Array.isArray(s.enum)) return s.enum.map((v) => JSON.stringify(v)).join(" \\| ");
  const union = (s.anyOf ?? s.oneOf) as Json[] | undefined;
  if (Array.isArray(union)) return union.map(typeOf).join(" or ");
  const type = Array.isArray(s.type) ? s.type.join(" or ") : (s.type as string | undefined);
  if (type === "array") return `${typeOf(s.items)}[]`;
  if (Array.isArray(s.allOf) && !type) return (s.allOf as Json[]).map(typeOf).join(" & ");
  return type ?? "object";
}

/** The limits a schema sets, in words. */
function constraints(s: JsonObject): string {
  const parts: string[] = [];
  const pairs: [string, string][] = [
    ["minLength", "≥ {} chars"], ["maxLength", "≤ {} chars"], ["minimum", "≥ {}"], ["maximum", "≤ {}"],
    ["minItems", "≥ {} items"], ["maxItems", "≤ {} items"], ["pattern", "matches `{}`"], ["format", "{}"], ["default", "default {}"],
  ];
  for (const [key, text] of pairs) if (key in s) parts.push(text.replace("{}", key === "default" ? JSON.stringify(s[key]) : String(s[key])));
  return parts.join(", ");
}

function marks(s: JsonObject): string {
  return [s["x-contract-source"] === "inferred" ? "inferred" : "", s["x-contract-status"] === "in_development" ? "in development" : ""]
    .filter(Boolean)
    .join(", ");
}

/** One row per property of an object schema (allOf members merged). */
function fieldRows(schema: Json | undefined): string[][] {
  if (!schema || typeof schema !== "object" || Array.isArray(schema)) return [];
  const s = schema as JsonObject;
  const members = [s, ...((s.allOf as JsonObject[] | undefined) ?? [])];
  const required = new Set(members.flatMap((m) => (m.required as string[] | undefined) ?? []));
  return members.flatMap((m) =>
    Object.entries((m.properties ?? {}) as Record<string, JsonObject>).map(([name, p]) => [
      `\`${name}\``,
      typeOf(p),
      required.has(name) ? "yes" : "no",
      constraints(p),
      firstSentence(p.description),
      marks(p),
    ]),
  );
}
const fieldHead = ["field", "type", "required", "limits", "meaning", "marks"];

function restReference(openapi: JsonObject): string {
  const schemas = ((openapi.components as JsonObject).schemas ?? {}) as Record<string, JsonObject>;
  const out = [banner, "# REST reference (`/v1`)\n", firstSentence((openapi.info as JsonObject).description), "\n"];
  for (const [route, ops] of Object.entries(openapi.paths as Record<string, Record<string, JsonObject>>)) {
    for (const [method, op] of Object.entries(ops)) {
      out.push(`## ${method.toUpperCase()} ${route}\n`);
      const m = marks(op);
      if (m) out.push(`*${m}${op["x-contract-reason"] ? `: ${cell(op["x-contract-reason"])}` : ""}*\n`);
      out.push(`${cell(op.description ?? op.summary)}\n`);
      const body = ((op.requestBody as JsonObject | undefined)?.content as Record<string, JsonObject> | undefined)?.["application/json"]?.schema;
      if (body) {
        out.push(`**Body:** ${typeOf(body)}\n`);
        const named = typeof (body as JsonObject).$ref === "string" ? schemas[typeOf(body)] : (body as JsonObject);
        const variants = ((named?.anyOf ?? named?.oneOf) as JsonObject[] | undefined)?.map((v) => schemas[typeOf(v)] ?? v) ?? [named];
        for (const v of variants) if (v) out.push(table(fieldHead, fieldRows(v)) + "\n");
      }
      const rows = Object.entries((op.responses ?? {}) as Record<string, JsonObject>).map(([status, r]) => {
        const schema = (r.content as Record<string, JsonObject> | undefined)?.["application/json"]?.schema;
        return [status, schema ? typeOf(schema) : "—", firstSentence(r.description)];
      });
      out.push("**Responses**\n\n" + table(["status", "body", "when"], rows) + "\n");
    }
  }
  out.push("## Schemas\n");
  for (const [name, s] of Object.entries(schemas)) {
    out.push(`### ${name}\n\n${cell(s.description)}${marks(s) ? ` *(${marks(s)})*` : ""}\n`);
    const rows = fieldRows(s);
    out.push(rows.length ? table(fieldHead, rows) + "\n" : `Type: ${typeOf(s)}${constraints(s) ? ` (${constraints(s)})` : ""}\n`);
  }
  return out.join("\n");
}

/** A tool's payload schema, with a top-level $ref to a shared definition followed once. */
function payloadOf(tool: ToolSource, defs: Map<string, JsonObject>): Json {
  const ref = (tool.output as JsonObject).$ref;
  if (typeof ref !== "string") return tool.output as Json;
  const name = ref.slice(ref.lastIndexOf("/") + 1);
  for (const doc of defs.values()) {
    const def = ((doc.$defs ?? {}) as Record<string, JsonObject>)[name];
    if (def) return def;
  }
  return tool.output as Json;
}

function mcpReference(tools: ToolSource[], catalogue: CatalogueEntry[], defs: Map<string, JsonObject>): string {
  const common = catalogue.filter((e) => e.kind === "envelope" && e.anyTool).map((e) => `\`${e.code}\``);
  const retryable = new Map(catalogue.filter((e) => e.kind === "envelope").map((e) => [e.code, e.retryable]));
  const out = [banner, "# MCP tool reference\n", `Every tool answers \`structuredContent: {data: payload}\`; failures carry \`{ok: false, error}\` with \`isError: true\`. Codes any tool can return: ${common.join(", ")}.\n`];
  out.push(table(["tool", "status", "reads/writes", "partner only", "shape"], tools.map((t) => [`[${t.name}](#${anchor(t.name)})`, t.status.replace("_", " "), t.readOnlyHint ? "reads" : "writes", t.partnerOnly ? "yes" : "no", t.source.replace("_", " ")])) + "\n");
  for (const t of tools) {
    out.push(`## ${t.name}\n`);
    out.push(`*${t.status.replace("_", " ")} · ${t.scopes.join(" ")} · ${t.source.replace("_", " ")}${t.partnerOnly ? " · partner only" : ""}*\n`);
    out.push(`${cell(t.description)}\n`);
    if (t.sourceReason) out.push(`> Inferred: ${cell(t.sourceReason)}\n`);
    if (t.inDevelopment?.length) out.push(`In development: ${t.inDevelopment.map((p) => `\`${p}\``).join(", ")}\n`);
    out.push("**Input**\n\n" + table(fieldHead, fieldRows(t.inputSchema as Json)) + "\n");
    const outputRows = fieldRows(payloadOf(t, defs));
    out.push(`**Output** (\`structuredContent.data\`: ${typeOf(t.output as Json)})\n\n` + (outputRows.length ? table(fieldHead, outputRows) : "") + "\n");
    if (t.errors.length) {
      out.push("**Errors** (besides the common ones)\n\n" + table(["code", "retryable"], t.errors.map((c) => [`\`${c}\``, String(retryable.get(c))])) + "\n");
    }
  }
  return out.join("\n");
}

function errorsReference(catalogue: CatalogueEntry[]): string {
  const out = [banner, "# MCP error catalogue\n", "From `spec/mcp/errors.json`; `tools` lists who returns an envelope code (from the tool files).\n"];
  const kinds = [...new Set(catalogue.map((e) => e.kind))];
  for (const kind of kinds) {
    const entries = catalogue.filter((e) => e.kind === kind);
    out.push(`## ${kind.replace(/_/g, " ")} (${entries.length})\n`);
    out.push(
      table(
        ["code", "retryable", "status", "meaning", "fields", "tools"],
        entries.map((e) => [
          `\`${e.code}\``,
          e.retryable === undefined ? "" : String(e.retryable),
          e.status.replace("_", " "),
          cell(e.meaning) + (e.retryableRule ? ` Rule: ${cell(e.retryableRule)}` : ""),
          (e.fields ?? []).join(", "),
          Array.isArray(e.tools) ? ((e.tools as string[]).length > 8 ? `${(e.tools as string[]).length} tools` : (e.tools as string[]).join(", ")) : "",
        ]),
      ) + "\n",
    );
  }
  return out.join("\n");
}

interface Lifecycle {
  id: string;
  title: string;
  api: "rest" | "mcp";
  states: string[];
  transitions: { from: string | null; to: string; on: string; inferred?: string }[];
}

function lifecyclesReference(lifecycles: Lifecycle[]): string {
  const out = [banner, "# Lifecycles\n", "From `spec/lifecycles.yaml`. Transitions labelled (inferred) are not shown by the source documents; the table under each diagram says why.\n"];
  for (const l of lifecycles) {
    out.push(`## ${l.title}\n`);
    const diagram = ["```mermaid", "stateDiagram-v2"];
    for (const t of l.transitions) {
      const label = t.on.replace(/:/g, " —").replace(/[{}"]/g, "");
      diagram.push(`  ${t.from ?? "[*]"} --> ${t.to} : ${t.inferred ? "(inferred) " : ""}${label}`);
    }
    diagram.push("```");
    out.push(diagram.join("\n") + "\n");
    const inferred = l.transitions.filter((t) => t.inferred);
    if (inferred.length) out.push(table(["transition", "why inferred"], inferred.map((t) => [`${t.from ?? "(none)"} → ${t.to}`, t.inferred!])) + "\n");
  }
  return out.join("\n");
}

export function loadLifecycles(): Lifecycle[] {
  return (YAML.parse(fs.readFileSync(path.join(specDir, "lifecycles.yaml"), "utf8")) as { lifecycles: Lifecycle[] }).lifecycles;
}

export async function generateDocs(files: GeneratedFiles, openapi: JsonObject, tools: ToolSource[]): Promise<void> {
  const catalogue = JSON.parse(files.get("generated/mcp/errors.json")!).entries as CatalogueEntry[];
  files.set("docs/rest.md", restReference(openapi));
  const defs = loadDefs() as Map<string, JsonObject>;
  files.set("docs/mcp-tools.md", mcpReference(tools, catalogue, defs));
  files.set("docs/errors.md", errorsReference(catalogue));
  files.set("docs/lifecycles.md", lifecyclesReference(loadLifecycles()));
  files.set("docs/inferred.md", inferredDoc(openapi, tools, defs));
  // Written by hand beside the code it describes; copied here so docs/ lists every page.
  files.set("docs/walks.md", `${banner}${fs.readFileSync(path.join(specDir, "..", "conformance", "core", "walks", "README.md"), "utf8")}`);
  files.set("docs/walks-audit.md", `${banner}${fs.readFileSync(path.join(specDir, "..", "conformance", "core", "walks", "AUDIT.md"), "utf8")}`);
  files.set(
    "docs/README.md",
    `${banner}# Reference documentation

Generated from \`spec/\` by \`npm run generate\`; \`npm run check:generated\` fails when it is out of date.

| page | what it holds |
| --- | --- |
| [rest.md](rest.md) | every REST operation: body fields, limits, responses; every schema |
| [mcp-tools.md](mcp-tools.md) | every MCP tool: status, scopes, inputs, output, errors, inferred marks |
| [errors.md](errors.md) | the MCP error catalogue by kind, with retryable flags and the tools returning each code |
| [lifecycles.md](lifecycles.md) | every lifecycle of both APIs as a Mermaid state diagram |
| [inferred.md](inferred.md) | every part of the contract designed where the source documents say "not shown" |
| [mock-magic-inputs.md](mock-magic-inputs.md) | the test tokens and magic inputs of the REST reference server and the MCP gateway mock |
| [rules.md](rules.md) | the rule catalogues of both APIs, with the conformance checks covering each rule |
| [target-triggers.md](target-triggers.md) | the triggers of a conformance target file: what each makes the target do, the reference's value, the rules it provokes |
| [walks.md](walks.md) | the stateful walks: what their model predicts, how to read a shrunk failure, how to replay it (from \`conformance/core/walks/README.md\`) |
| [walks-audit.md](walks-audit.md) | the held-out audit of the seeds' cross-operation statements: the sampling rule, each statement, enforced before and after, its mutant (from \`conformance/core/walks/AUDIT.md\`) |

The installed package carries every page but rest.md, mcp-tools.md, errors.md and rules.md, whose data it ships as
data (\`ideas-contract/openapi.json\`, \`ideas-contract/tools.json\`, \`ideas-contract/errors.json\`, the rule catalogues),
and walks-audit.md, a record for the suite's maintainers: read those five in the repository.
`,
  );
}
