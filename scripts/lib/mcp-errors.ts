// The error catalogue, generated: JSON with the tools that return each code, and a typed JS module
// (code unions per kind, retryable lookup, the upstream_<status> and schedule_failed rules).
import fs from "node:fs";
import path from "node:path";
import { bannerText, jsonBannerKey, slashBanner } from "./banner.js";
import { mcpSpecDir } from "../../lib/paths.js";
import { pascalCase } from "../../lib/schema-walk.js";
import type { ToolSource } from "./mcp-source.js";
import type { GeneratedFiles } from "./rest.js";

export interface CatalogueEntry {
  code: string;
  kind: string;
  group?: string;
  status: "preview" | "in_development";
  retryable?: boolean | "varies";
  retryableRule?: string;
  /** schedule_failed: refusal codes that make the whole error not retryable. */
  notRetryableWhenRefusedWith?: string[];
  meaning: string;
  fields?: string[];
  aliases?: string[];
  anyTool?: true;
  writesOnly?: true;
  partnerToolsOnly?: true;
  [key: string]: unknown;
}

export interface Catalogue {
  upstreamRule: { pattern: string; retryable: { "4xx": boolean; "429": boolean; "5xx": boolean }; [key: string]: unknown };
  entries: CatalogueEntry[];
  [key: string]: unknown;
}

export function loadCatalogue(): Catalogue {
  return JSON.parse(fs.readFileSync(path.join(mcpSpecDir, "errors.json"), "utf8")) as Catalogue;
}

/** Tools that can return an envelope code: listed in tool files, or every tool the anyTool flags admit. */
function toolsReturning(entry: CatalogueEntry, tools: ToolSource[]): string[] {
  if (entry.kind !== "envelope") return [];
  return tools
    .filter((t) =>
      entry.anyTool
        ? (!entry.writesOnly || t.scopes.includes("mcp:write")) && (!entry.partnerToolsOnly || t.partnerOnly)
        : t.errors.includes(entry.code),
    )
    .map((t) => t.name);
}

const union = (codes: string[]) => (codes.length ? codes.map((c) => JSON.stringify(c)).join(" | ") : "never");

export function generateMcpErrors(files: GeneratedFiles, tools: ToolSource[]): void {
  const catalogue = loadCatalogue();
  const { $schema: _schema, ...rest } = catalogue as Catalogue & { $schema?: string };
  const entries = catalogue.entries.map((e) => (e.kind === "envelope" ? { ...e, tools: toolsReturning(e, tools) } : e));
  const unknownCodes = tools.flatMap((t) =>
    t.errors.filter((c) => !catalogue.entries.some((e) => e.kind === "envelope" && e.code === c)).map((c) => `${t.name}: ${c}`),
  );
  if (unknownCodes.length) throw new Error(`tool files list codes the catalogue lacks:\n  ${unknownCodes.join("\n  ")}`);
  files.set("generated/mcp/errors.json", JSON.stringify({ [jsonBannerKey]: bannerText, ...rest, entries }, null, 2) + "\n");

  const kinds = [...new Set(catalogue.entries.map((e) => e.kind))];
  const codesOf = (kind: string) => [...new Set(catalogue.entries.filter((e) => e.kind === kind).map((e) => e.code))];
  const envelope = catalogue.entries.filter((e) => e.kind === "envelope");
  const retryable = Object.fromEntries(envelope.map((e) => [e.code, e.retryable ?? false]));
  const destinationRetryable = Object.fromEntries(
    catalogue.entries.filter((e) => e.kind === "destination").map((e) => [e.code, e.retryable ?? false]),
  );
  const varies = envelope.find((e) => e.retryable === "varies");
  const notRetryable = varies?.notRetryableWhenRefusedWith ?? [];
  const up = catalogue.upstreamRule;

  const js = `${slashBanner}
/** Every catalogue entry, with the tools that return each envelope code. */
export const catalogue = ${JSON.stringify(entries, null, 2)};

/** retryable of every envelope code ("varies" only for ${varies?.code ?? "none"}). */
export const envelopeRetryable = Object.freeze(${JSON.stringify(retryable, null, 2)});

/** retryable of every per-destination code. */
export const destinationRetryable = Object.freeze(${JSON.stringify(destinationRetryable, null, 2)});

const upstreamPattern = new RegExp(${JSON.stringify(up.pattern)});
const notRetryableRefusals = new Set(${JSON.stringify(notRetryable)});

/**
 * The retryable flag the contract prescribes for an error, or undefined when the code is unknown
 * (callers then follow the error's own flag, as the contract says).
 */
export function expectedRetryable(error) {
  const code = error.code;
  if (Object.prototype.hasOwnProperty.call(envelopeRetryable, code)) {
    const flag = envelopeRetryable[code];
    if (flag !== "varies") return flag;
    const refused = error.refusedDestinations ?? [];
    if (!error.refusedDestinations && !error.scheduledDestinations) return false;
    return !refused.some((d) => notRetryableRefusals.has(d.code));
  }
  if (upstreamPattern.test(code)) {
    const status = Number(code.slice(code.lastIndexOf("_") + 1));
    if (status === 429) return ${up.retryable["429"]};
    if (status >= 500 && status <= 599) return ${up.retryable["5xx"]};
    if (status >= 400 && status <= 499) return ${up.retryable["4xx"]};
  }
  return undefined;
}
`;
  const dts = `${slashBanner}
${kinds.map((k) => `/** Codes of kind ${k}. */\nexport type ${pascalCase(k)}Code = ${union(codesOf(k))};`).join("\n")}

/** Any code that can arrive as error.code: a catalogue code or the upstream_<status> family. */
export type ErrorCode = EnvelopeCode | \`upstream_\${number}\`;

export interface CatalogueEntry {
  code: string;
  kind: ${union(kinds)};
  group?: string;
  status: "preview" | "in_development";
  retryable?: boolean | "varies";
  retryableRule?: string;
  meaning: string;
  action?: string;
  fields?: string[];
  aliases?: string[];
  /** Envelope codes only: the tools that can return it. */
  tools?: string[];
  [key: string]: unknown;
}

export declare const catalogue: readonly CatalogueEntry[];
export declare const envelopeRetryable: Readonly<Record<EnvelopeCode, boolean | "varies">>;
export declare const destinationRetryable: Readonly<Record<DestinationCode, boolean>>;

/** The retryable flag the contract prescribes for an error; undefined for a code it does not know. */
export declare function expectedRetryable(error: {
  code: string;
  refusedDestinations?: { platform: string; code: string }[];
  scheduledDestinations?: string[];
}): boolean | undefined;
`;
  files.set("generated/mcp/errors.js", js);
  files.set("generated/mcp/errors.d.ts", dts);
}
