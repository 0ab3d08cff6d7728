// docs/inferred.md: every part of the contract marked inferred (designed where the seeds say "not shown"),
// collected from the marks themselves so the list can never miss one.
import { bannerText } from "./banner.js";
import type { ToolSource } from "./mcp-source.js";
import type { Json, JsonObject } from "../../lib/schema-walk.js";

interface Mark {
  where: string;
  reason: string;
}

/** Every object carrying "x-contract-source": "inferred", with its JSON path. */
export function inferredMarks(value: Json, at: string, into: Mark[] = []): Mark[] {
  if (Array.isArray(value)) value.forEach((v, i) => inferredMarks(v, `${at}/${i}`, into));
  else if (value && typeof value === "object") {
    const obj = value as JsonObject;
    if (obj["x-contract-source"] === "inferred") {
      into.push({ where: at, reason: String(obj["x-contract-reason"] ?? "(no reason given)") });
    }
    for (const [k, v] of Object.entries(obj)) inferredMarks(v, `${at}/${k.replace(/~/g, "~0").replace(/\//g, "~1")}`, into);
  }
  return into;
}

const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\n/g, " ");
const table = (marks: Mark[]) =>
  ["| where | why |", "| --- | --- |", ...marks.map((m) => `| \`${cell(m.where)}\` | ${cell(m.reason)} |`)].join("\n");

export function inferredDoc(openapi: JsonObject, tools: ToolSource[], defs: Map<string, JsonObject>): string {
  const rest = inferredMarks(openapi, "#");
  const toolLevel = tools
    .filter((t) => t.source !== "documented")
    .map((t) => ({ where: `${t.name} (${t.source.replace("_", " ")})`, reason: t.sourceReason ?? "" }));
  const fields = [
    ...tools.flatMap((t) => [
      ...inferredMarks(t.inputSchema as Json, `${t.name} input`),
      ...inferredMarks(t.output as Json, `${t.name} output`),
    ]),
    ...[...defs].flatMap(([file, schema]) => inferredMarks(schema, `defs/${file}`)),
  ];
  return `<!-- ${bannerText} -->
# Inferred parts of the contract

The source documents leave some shapes "not shown". The contract designs each from their conventions and marks
it (\`x-contract-source: inferred\` with an \`x-contract-reason\`); this list is collected from those marks.

## REST (OpenAPI) — ${rest.length} marks
${table(rest)}

## MCP tools whose shapes are inferred — ${toolLevel.length} tools
${table(toolLevel)}

## MCP fields marked inferred — ${fields.length} marks
${table(fields)}
`;
}
