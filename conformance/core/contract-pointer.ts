// Pointers from a rule into the contract (spec/rules/README.md): `openapi:#/json/pointer` into the generated
// OpenAPI, `tool:<name>[#/json/pointer]` into a tool of the generated manifest, `error:<code>` into the error
// catalogue. The documents are read once, on first use.
import { readFileSync } from "node:fs";
import { mcpErrorsJsonPath, mcpToolsJsonPath, openapiJsonPath } from "./paths.js";

type Json = unknown;
interface ToolEntry {
  name: string;
  annotations?: { readOnlyHint?: boolean };
  _meta: Record<string, { status: string; partnerOnly: boolean; scopes: string[] }>;
  [key: string]: unknown;
}
interface ErrorEntry {
  code: string;
  kind: string;
  retryable?: boolean | "varies";
  aliases?: string[];
}

const cache = new Map<string, Json>();
const readJson = (file: string): Json => {
  if (!cache.has(file)) cache.set(file, JSON.parse(readFileSync(file, "utf8")));
  return cache.get(file);
};
const tools = () => (readJson(mcpToolsJsonPath) as { tools: ToolEntry[] }).tools;
const errors = () => (readJson(mcpErrorsJsonPath) as { entries: ErrorEntry[] }).entries;
const metaOf = (t: ToolEntry) => t._meta["ideas-contract/contract"]!;

/** Follows an RFC 6901 JSON pointer (`#/a/b~1c`); undefined when a step is missing. */
export function followPointer(doc: Json, pointer: string): Json {
  const path = pointer.replace(/^#/, "");
  if (path === "") return doc;
  let at: Json = doc;
  for (const raw of path.slice(1).split("/")) {
    const step = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (at === null || typeof at !== "object" || !Object.prototype.hasOwnProperty.call(at, step)) return undefined;
    at = (at as Record<string, Json>)[step];
  }
  return at;
}

/** What a contract pointer points at, or undefined when it dangles. */
export function resolveContractPointer(pointer: string): Json {
  const [, kind, rest] = /^(openapi|tool|error):(.*)$/.exec(pointer) ?? [];
  if (kind === "openapi") return followPointer(readJson(openapiJsonPath), rest!);
  if (kind === "tool") {
    const [name, inner] = rest!.split("#", 2) as [string, string | undefined];
    const tool = tools().find((t) => t.name === name);
    return tool === undefined ? undefined : followPointer(tool, inner === undefined ? "" : `#${inner}`);
  }
  if (kind === "error") return errors().find((e) => e.code === rest || e.aliases?.includes(rest!));
  return undefined;
}

/** A filter on the members of a `tools` or `errors` family. */
export interface MemberFilter {
  partnerOnly?: boolean;
  readOnly?: boolean;
  status?: string;
  scopes?: string;
  name?: string[];
  kind?: string;
  retryable?: boolean | "varies";
  code?: string[];
}

/** A family member: its name and, when the source implies one, its contract pointer. */
export interface Member {
  name: string;
  contract?: string;
}

/** The members of a family source (spec/rules/README.md, "Families"); throws when the source dangles. */
export function familyMembers(from: string, where: MemberFilter = {}): Member[] {
  if (from === "tools")
    return tools()
      .filter((t) => {
        const m = metaOf(t);
        return (
          (where.partnerOnly === undefined || m.partnerOnly === where.partnerOnly) &&
          (where.readOnly === undefined || (t.annotations?.readOnlyHint === true) === where.readOnly) &&
          (where.status === undefined || m.status === where.status) &&
          (where.scopes === undefined || m.scopes.includes(where.scopes)) &&
          (where.name === undefined || where.name.includes(t.name))
        );
      })
      .map((t) => ({ name: t.name, contract: `tool:${t.name}` }));
  // Every operation of the OpenAPI document, in its order: a new endpoint gets the rule (and its gap) unasked.
  if (from === "operations")
    return Object.entries((readJson(openapiJsonPath) as { paths: Record<string, Record<string, { operationId?: string }>> }).paths).flatMap(([template, ops]) =>
      Object.entries(ops)
        .filter(([, op]) => typeof op?.operationId === "string")
        .map(([method, op]) => ({ name: op.operationId!, contract: `openapi:#/paths/${template.replace(/~/g, "~0").replace(/\//g, "~1")}/${method}` })),
    );
  if (from === "errors")
    return errors()
      .filter(
        (e) =>
          (where.kind === undefined || e.kind === where.kind) &&
          (where.retryable === undefined || e.retryable === where.retryable) &&
          (where.code === undefined || where.code.includes(e.code)),
      )
      .map((e) => ({ name: e.code, contract: `error:${e.code}` }));
  const at = resolveContractPointer(from);
  if (Array.isArray(at)) return at.map((v, i) => ({ name: String(v), contract: `${from}/${i}` }));
  if (at && typeof at === "object") return Object.keys(at).map((k) => ({ name: k, contract: `${from}/${k.replace(/~/g, "~0").replace(/\//g, "~1")}` }));
  throw new Error(`family source ${from} ${at === undefined ? "points at nothing in the contract" : "is neither a list nor an object"}`);
}
