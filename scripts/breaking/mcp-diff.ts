// MCP: compares two tools/list manifests and two error catalogues (seed 001 Versioning item 5).
//
// Per tool: `inputSchema` is a request (clients write arguments), `outputSchema` a response (clients read
// `structuredContent`); each is its own document (its `$defs` are inlined by the generator), so each gets its
// own SchemaComparer. The contract metadata in `_meta["ideas-contract/contract"]` carries what the schemas
// cannot: which envelope codes a tool can answer (`errors`), scopes and partner-only visibility.
//
// Error codes: "changing which error code a failure returns" shows as a code leaving a tool's `errors` list
// (breaking) — usually together with another code joining it (compatible on its own: "new codes for new
// failures"). The catalogue (generated/mcp/errors.json) adds what each code means to clients: `retryable`
// (clients treat unknown codes by it), the extra envelope `fields`, and the rules that form codes.
import { fold } from "./classify.js";
import { stable } from "./resolve.js";
import { SchemaComparer, rawChange } from "./schema-diff.js";
import { isObject, type Change, type Json, type JsonObject, type RawChange } from "./types.js";

export const contractMetaKey = "ideas-contract/contract";

function toolsOf(manifest: Json | undefined): Map<string, JsonObject> {
  const list = isObject(manifest) && Array.isArray(manifest.tools) ? manifest.tools : [];
  return new Map(list.filter(isObject).map((t) => [String(t.name), t]));
}

function meta(tool: JsonObject): JsonObject {
  const m = isObject(tool._meta) ? tool._meta[contractMetaKey] : undefined;
  return isObject(m) ? m : {};
}

const strings = (v: Json | undefined): string[] => (Array.isArray(v) ? v.map(String) : []);

export function diffMcp(before: { tools?: Json; errors?: Json }, after: { tools?: Json; errors?: Json }): Change[] {
  const out: RawChange[] = [];
  const toolErrorPairs = new Set<string>();
  diffTools(toolsOf(before.tools), toolsOf(after.tools), out, toolErrorPairs);
  diffCatalogue(before.errors, after.errors, out, toolErrorPairs, new Set(toolsOf(after.tools).keys()));
  return fold(out, "mcp");
}

function diffTools(A: Map<string, JsonObject>, B: Map<string, JsonObject>, out: RawChange[], pairs: Set<string>): void {
  const shape = (t: JsonObject) => stable(t.inputSchema ?? null);
  for (const [name, a] of A) {
    const b = B.get(name);
    if (!b) {
      const twin = [...B.values()].find((t) => !A.has(String(t.name)) && shape(t) === shape(a));
      out.push(rawChange("mcp.tool-removed", `tool ${name}`, twin ? `tool ${name} removed — renamed to ${String(twin.name)}?` : `tool ${name} removed`));
      continue;
    }
    diffTool(name, a, b, out, pairs);
  }
  for (const name of B.keys()) if (!A.has(name)) out.push(rawChange("mcp.tool-added", `tool ${name}`, `tool ${name} added`));
}

function diffTool(name: string, a: JsonObject, b: JsonObject, out: RawChange[], pairs: Set<string>): void {
  if (JSON.stringify(a) === JSON.stringify(b)) return; // the common case, and much cheaper than walking it
  const at = `tool ${name}`;
  if (a.description !== b.description) out.push(rawChange("description-changed", at, "tool description changed"));
  if (stable(a.title ?? null) !== stable(b.title ?? null)) out.push(rawChange("docs-changed", at, "title changed"));
  const annA = isObject(a.annotations) ? a.annotations : {};
  const annB = isObject(b.annotations) ? b.annotations : {};
  for (const key of new Set([...Object.keys(annA), ...Object.keys(annB)])) {
    if (stable(annA[key] ?? null) !== stable(annB[key] ?? null)) {
      out.push(rawChange(key === "title" ? "docs-changed" : "mcp.annotation-changed", at, `annotations.${key} ${String(annA[key])} → ${String(annB[key])}`));
    }
  }

  const ma = meta(a);
  const mb = meta(b);
  const errorsA = strings(ma.errors);
  const errorsB = strings(mb.errors);
  for (const code of errorsA.filter((c) => !errorsB.includes(c))) {
    pairs.add(`${name}|${code}|removed`);
    out.push(rawChange("mcp.tool-error-code-removed", `${at} › errors`, `no longer lists \`${code}\``, "The failure that answered it now answers another code (or none): changing which error code a failure returns."));
  }
  for (const code of errorsB.filter((c) => !errorsA.includes(c))) {
    pairs.add(`${name}|${code}|added`);
    out.push(rawChange("mcp.tool-error-code-added", `${at} › errors`, `now lists \`${code}\``, "Compatible when it is a new failure; a failure moving from another code shows as that code's removal."));
  }
  const scopesA = strings(ma.scopes);
  const scopesB = strings(mb.scopes);
  for (const s of scopesB.filter((x) => !scopesA.includes(x))) out.push(rawChange("mcp.scope-added", `${at} › scopes`, `now needs scope ${s}`));
  for (const s of scopesA.filter((x) => !scopesB.includes(x))) out.push(rawChange("mcp.scope-removed", `${at} › scopes`, `no longer needs scope ${s}`));
  if (!ma.partnerOnly && mb.partnerOnly) out.push(rawChange("mcp.partner-only-added", at, "now partner-only: other tokens no longer see it"));
  if (ma.partnerOnly && !mb.partnerOnly) out.push(rawChange("mcp.partner-only-removed", at, "no longer partner-only"));
  if (stable(ma.status ?? null) !== stable(mb.status ?? null)) out.push(rawChange("mcp.status-changed", at, `status ${String(ma.status)} → ${String(mb.status)}`));
  if (stable(ma.inDevelopment ?? null) !== stable(mb.inDevelopment ?? null)) {
    out.push(rawChange("mcp.status-changed", at, `inDevelopment ${stable(ma.inDevelopment ?? [])} → ${stable(mb.inDevelopment ?? [])}`));
  }
  if (ma.source !== mb.source || ma.sourceReason !== mb.sourceReason) out.push(rawChange("docs-changed", at, "source / sourceReason changed"));

  const input = new SchemaComparer(a.inputSchema ?? {}, b.inputSchema ?? {});
  out.push(...input.compare(a.inputSchema ?? {}, b.inputSchema ?? {}, "request", `${at} › input`));
  const output = new SchemaComparer(a.outputSchema ?? {}, b.outputSchema ?? {});
  out.push(...output.compare(a.outputSchema ?? {}, b.outputSchema ?? {}, "response", `${at} › output`));
}

interface Catalogue {
  entries: Map<string, JsonObject>;
  rules: JsonObject;
}

function catalogueOf(doc: Json | undefined): Catalogue {
  const d = isObject(doc) ? doc : {};
  const list = Array.isArray(d.entries) ? d.entries.filter(isObject) : [];
  const rules: JsonObject = {};
  for (const [k, v] of Object.entries(d)) if (k !== "entries" && k !== "x-generated" && isObject(v)) rules[k] = v;
  // Codes repeat across kinds (media_required is both an envelope and a pre-flight code): key by both.
  return { entries: new Map(list.map((e) => [`${String(e.kind)}:${String(e.code)}`, e])), rules };
}

/** Catalogue attributes and what a change to them means. */
const BREAKING_KEYS = new Set(["retryable", "notRetryableWhenRefusedWith"]);
const RULE_KEYS = new Set(["httpStatus", "publishStatus", "seenAs", "pattern", "codeKind"]);
const MEANING_KEYS = new Set(["meaning", "action", "retryableRule"]);
const DOC_KEYS = new Set(["group", "example"]);

function diffCatalogue(before: Json | undefined, after: Json | undefined, out: RawChange[], pairs: Set<string>, liveTools: Set<string>): void {
  if (before === undefined && after === undefined) return;
  const A = catalogueOf(before);
  const B = catalogueOf(after);
  for (const [key, a] of A.entries) {
    const code = String(a.code);
    const at = `errors.json › ${String(a.kind)} ${code}`;
    const b = B.entries.get(key);
    if (!b) {
      out.push(rawChange("mcp.error-code-removed", at, `${String(a.kind)} code \`${code}\` removed from the catalogue`));
      continue;
    }
    diffEntry(code, a, b, at, out, pairs, liveTools);
  }
  for (const [, b] of B.entries) {
    const key = `${String(b.kind)}:${String(b.code)}`;
    if (!A.entries.has(key)) out.push(rawChange("mcp.error-code-added", `errors.json › ${String(b.kind)} ${String(b.code)}`, `${String(b.kind)} code \`${String(b.code)}\` added`));
  }
  for (const name of new Set([...Object.keys(A.rules), ...Object.keys(B.rules)])) {
    const at = `errors.json › ${name}`;
    // A whole rule appearing adds the codes it forms (new codes); one disappearing removes them.
    if (!(name in A.rules)) out.push(rawChange("mcp.error-code-added", at, `rule ${name} added`));
    else if (!(name in B.rules)) out.push(rawChange("mcp.error-code-removed", at, `rule ${name} removed`));
    else diffAttributes(A.rules[name] as JsonObject, B.rules[name] as JsonObject, at, out);
  }
}

function diffEntry(code: string, a: JsonObject, b: JsonObject, at: string, out: RawChange[], pairs: Set<string>, liveTools: Set<string>): void {
  const fa = strings(a.fields);
  const fb = strings(b.fields);
  for (const f of fa.filter((x) => !fb.includes(x))) out.push(rawChange("mcp.error-field-removed", `${at} › fields`, `envelope field \`${f}\` no longer carried`));
  for (const f of fb.filter((x) => !fa.includes(x))) out.push(rawChange("mcp.error-field-added", `${at} › fields`, `envelope field \`${f}\` added`));
  // The per-code tool lists mirror the tools' own `errors`; report only what the manifest diff did not.
  const ta = strings(a.tools);
  const tb = strings(b.tools);
  for (const t of ta.filter((x) => !tb.includes(x))) {
    if (!pairs.has(`${t}|${code}|removed`) && liveTools.has(t)) {
      out.push(rawChange("mcp.tool-error-code-removed", `${at} › tools`, `\`${t}\` no longer answers \`${code}\``));
    }
  }
  for (const t of tb.filter((x) => !ta.includes(x))) {
    if (!pairs.has(`${t}|${code}|added`)) out.push(rawChange("mcp.tool-error-code-added", `${at} › tools`, `\`${t}\` now answers \`${code}\``));
  }
  const rest = (e: JsonObject) => Object.fromEntries(Object.entries(e).filter(([k]) => !["fields", "tools", "code", "kind"].includes(k)));
  diffAttributes(rest(a), rest(b), at, out);
}

function diffAttributes(a: JsonObject, b: JsonObject, at: string, out: RawChange[]): void {
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const x = a[key];
    const y = b[key];
    if (stable(x ?? null) === stable(y ?? null)) continue;
    const msg = `${key} ${short(x)} → ${short(y)}`;
    if (BREAKING_KEYS.has(key)) out.push(rawChange("mcp.error-retryable-changed", at, msg));
    else if (RULE_KEYS.has(key)) out.push(rawChange("mcp.error-rule-changed", at, msg));
    else if (MEANING_KEYS.has(key)) out.push(rawChange("mcp.error-meaning-changed", at, `${key} changed`));
    else if (key === "status") out.push(rawChange("mcp.status-changed", at, msg));
    else if (DOC_KEYS.has(key)) out.push(rawChange("docs-changed", at, msg));
    else out.push(rawChange("mcp.error-entry-changed", at, msg));
  }
}

function short(value: Json | undefined): string {
  if (value === undefined) return "(none)";
  const text = JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}
