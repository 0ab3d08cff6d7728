// `Prefer: code=NNN` and `Prefer: example=NAME`, read as Prism reads them, so a front-end that steers Prism with
// them gets the same from the stateful reference: the contract's own answer for that status and/or that named
// example (the response's example, else its schema's), as it is, without touching state. A preference the
// contract has no answer for is refused 400 with what it does list, never silently ignored.
import openapi from "../../generated/openapi/openapi.json" with { type: "json" };
import { ApiError } from "./http.js";

export interface Preference {
  code?: number;
  example?: string;
}

export interface PreferredAnswer {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

type Json = Record<string, any>;
const doc = openapi as Json;

/** The code and example a Prefer header asks for (`code=404, example=not_found`); undefined when it asks neither. */
export function parsePrefer(header: string | string[] | undefined): Preference | undefined {
  if (header === undefined) return undefined;
  const pref: Preference = {};
  for (const part of (Array.isArray(header) ? header.join(",") : header).split(/[,;]/)) {
    const [key, raw] = part.split("=").map((s) => s.trim());
    const value = raw?.replace(/^"(.*)"$/, "$1");
    if (!value) continue;
    if (key?.toLowerCase() === "code") {
      if (!/^[1-5]\d\d$/.test(value)) throw new ApiError(400, "invalid_request", `Prefer: code must be an HTTP status such as 404, got ${JSON.stringify(value)}.`, null, "invalid_prefer");
      pref.code = Number(value);
    } else if (key?.toLowerCase() === "example") pref.example = value;
  }
  return pref.code === undefined && pref.example === undefined ? undefined : pref;
}

const resolve = (node: Json | undefined): Json | undefined => {
  let n = node;
  for (let hops = 0; n?.$ref && hops < 8; hops++) n = (n.$ref as string).replace(/^#\//, "").split("/").reduce<Json | undefined>((o, k) => o?.[k], doc);
  return n;
};

/** The operation of the contract at `method` and a concrete `path` (`/v1/brands/brand_x`). */
function operationAt(method: string, path: string): Json | undefined {
  const got = path.split("/");
  for (const [template, ops] of Object.entries(doc.paths as Json)) {
    const want = template.split("/");
    if (want.length === got.length && want.every((w, i) => (w.startsWith("{") ? got[i] !== "" : w === got[i]))) return (ops as Json)[method.toLowerCase()];
  }
  return undefined;
}

/** The named examples of a response, and the value to answer without a name (the first, else the schema's). */
function examplesOf(response: Json): { named: Record<string, unknown>; fallback: unknown } {
  const media = response.content?.["application/json"] ?? {};
  const named = Object.fromEntries(Object.entries((media.examples ?? {}) as Json).map(([k, v]) => [k, resolve(v as Json)?.value]));
  const schema = resolve(media.schema);
  const fallback = Object.values(named)[0] ?? media.example ?? schema?.examples?.[0] ?? schema?.example;
  return { named, fallback };
}

/** The response's declared headers, each with its example (Retry-After 30, a Bearer challenge). */
function headersOf(response: Json): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, h] of Object.entries((response.headers ?? {}) as Json)) {
    const header = resolve(h as Json);
    const schema = resolve(header?.schema);
    const value = header?.example ?? schema?.examples?.[0] ?? schema?.example;
    if (value !== undefined) out[name] = String(value);
  }
  return out;
}

const refuse = (message: string) => new ApiError(400, "invalid_request", message, null, "prefer_unavailable");

/** The contract's answer for a preference at `method path`; 400 when the contract has none. */
export function preferredAnswer(method: string, path: string, pref: Preference): PreferredAnswer {
  const op = operationAt(method, path);
  const responses = Object.entries((op?.responses ?? {}) as Json).map(([code, r]) => [Number(code), resolve(r as Json)!] as const);
  const where = `${method} ${path}`;
  const listed = responses.map(([c]) => c).join(", ");
  let candidates = responses;
  if (pref.code !== undefined) {
    candidates = responses.filter(([c]) => c === pref.code);
    if (!candidates.length) throw refuse(`Prefer: code=${pref.code}: the contract lists no ${pref.code} answer for ${where}; it lists ${listed}.`);
  }
  for (const [status, response] of candidates) {
    const { named, fallback } = examplesOf(response);
    const body = pref.example === undefined ? fallback : named[pref.example];
    if (body !== undefined || (pref.example === undefined && !response.content)) return { status, body, headers: headersOf(response) };
  }
  const names = candidates.flatMap(([c, r]) => Object.keys(examplesOf(r).named).map((n) => `${n} (${c})`));
  if (pref.example !== undefined)
    throw refuse(`Prefer: example=${pref.example}: the contract has no example of that name for ${where}${pref.code ? ` answering ${pref.code}` : ""}; it has ${names.join(", ") || "none"}.`);
  throw refuse(`Prefer: code=${pref.code}: the contract has no example ${pref.code} answer for ${where}.`);
}
