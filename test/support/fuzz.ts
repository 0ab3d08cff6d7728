// Shared by the fuzz tests of both mocks: a seeded PRNG, schema-driven breakage (one constraint at a time), raw
// HTTP requests with a hard per-request timeout (node:http, so nothing is normalised on the way), raw socket
// writes for what an HTTP client refuses to send, and a bounded-concurrency runner.
import http from "node:http";
import net from "node:net";
import { freshAgent } from "./fresh-connection.js";

// ---------------------------------------------------------------------------------------------------------------
// Deterministic randomness

export interface Rng {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [0, n). */
  int(n: number): number;
  pick<T>(items: readonly T[]): T;
  chance(p: number): boolean;
}

/** mulberry32 seeded with an FNV-1a hash of `seed`: the same seed gives the same sequence on every run. */
export function seededRng(seed: string): Rng {
  let h = 0x811c9dc5;
  for (let i = 0; i < seed.length; i++) {
    h ^= seed.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  let state = h >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n) => Math.floor(next() * n),
    pick: (items) => items[Math.floor(next() * items.length)]!,
    chance: (p) => next() < p,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// JSON Schema: resolving, sampling and breaking

export type Schema = Record<string, any>;
export type Resolve = (schema: Schema) => Schema;

/** Follows local `$ref`s (`#/components/schemas/X`, `#/$defs/X`) against `root`. */
export function resolverFor(root: unknown): Resolve {
  const resolve: Resolve = (schema) => {
    let s = schema;
    for (let hops = 0; s && typeof s.$ref === "string"; hops++) {
      if (hops > 32) throw new Error(`$ref loop at ${s.$ref}`);
      const target = (s.$ref as string)
        .replace(/^#\//, "")
        .split("/")
        .reduce<any>((node, key) => node?.[key.replace(/~1/g, "/").replace(/~0/g, "~")], root);
      if (!target) throw new Error(`unresolved $ref ${s.$ref}`);
      s = target;
    }
    return s;
  };
  return resolve;
}

/** The schema with its `allOf` parts merged in (properties and required united; other keywords: first wins). */
export function flatten(schema: Schema, resolve: Resolve): Schema {
  const s = resolve(schema);
  if (!Array.isArray(s.allOf)) return s;
  const out: Schema = { ...s };
  delete out.allOf;
  for (const part of s.allOf as Schema[]) {
    const p = flatten(part, resolve);
    for (const [k, v] of Object.entries(p)) {
      if (k === "properties") out.properties = { ...(out.properties ?? {}), ...v };
      else if (k === "required") out.required = [...new Set([...(out.required ?? []), ...v])];
      else if (k === "not" && out.not !== undefined) out.allOf = [...(out.allOf ?? []), { not: v }];
      else if (!(k in out)) out[k] = v;
    }
  }
  return out;
}

const typesOf = (s: Schema): string[] => (Array.isArray(s.type) ? s.type : s.type ? [s.type] : []);

/** A small value valid against `schema` as far as can be built without a solver (examples first). */
export function sample(schema: Schema, resolve: Resolve, depth = 0): unknown {
  const s = flatten(schema, resolve);
  if (depth > 12) return null;
  if ("const" in s) return s.const;
  if (Array.isArray(s.enum)) return s.enum[0];
  if (Array.isArray(s.examples) && s.examples.length && typesOf(s).length <= 1 && !typesOf(s).includes("object")) return structuredClone(s.examples[0]);
  const branches = (s.anyOf ?? s.oneOf) as Schema[] | undefined;
  const type = typesOf(s).find((t) => t !== "null") ?? (s.properties ? "object" : branches ? undefined : "string");
  if (type === undefined && branches) return sample(branches[0]!, resolve, depth + 1);
  switch (type) {
    case "string":
      if (s.format === "date") return "2026-12-01";
      if (s.format === "uri") return "https://example.com/";
      if (s.format === "date-time") return "2026-12-01T09:30:00Z";
      return "x".repeat(Math.max(1, s.minLength ?? 1));
    case "integer":
    case "number":
      return Math.min(s.maximum ?? Infinity, Math.max(s.minimum ?? 1, 1));
    case "boolean":
      return true;
    case "null":
      return null;
    case "array": {
      const n = s.minItems ?? 0;
      return Array.from({ length: n }, (_, i) => {
        const item = sample(s.items ?? {}, resolve, depth + 1);
        return typeof item === "string" && s.uniqueItems ? `${item}${i || ""}` : item;
      });
    }
    default: {
      const out: Record<string, unknown> = {};
      const required = new Set<string>(s.required ?? []);
      // An object whose anyOf/oneOf branches only name required keys: satisfy the first branch.
      for (const b of branches ?? []) {
        const branch = resolve(b);
        if (branch.required && !branch.properties && !branch.type) {
          for (const k of branch.required) required.add(k);
          break;
        }
      }
      for (const key of required) out[key] = sample(s.properties?.[key] ?? {}, resolve, depth + 1);
      return out;
    }
  }
}

/** One way to break a value: where, which rule, and the whole new value. */
export interface Breakage {
  where: string;
  rule: string;
  value: unknown;
}

/** 100 KB of text, for fields with a length limit or a pattern. */
export const hugeString = "\u00e9x".repeat(25_000) + "z".repeat(50_000);

const jsonType = (v: unknown): string =>
  v === null ? "null" : Array.isArray(v) ? "array" : typeof v === "number" ? (Number.isInteger(v) ? "integer" : "number") : typeof v;
const wrongTypeValues: unknown[] = [42, 1.5, "text", true, null, [], {}, ["x"], { nested: { value: 1 } }];

function allowsType(types: string[], v: unknown): boolean {
  if (!types.length) return true;
  const t = jsonType(v);
  return types.includes(t) || (t === "integer" && types.includes("number"));
}

/** Values that break `s` at this node (not its children); later filtered by the real validator. */
function nodeBreakers(s: Schema, value: unknown, resolve: Resolve): { rule: string; value: unknown }[] {
  const out: { rule: string; value: unknown }[] = [];
  const types = typesOf(s);
  if (types.length) {
    for (const v of wrongTypeValues) if (!allowsType(types, v)) out.push({ rule: `type (${jsonType(v)} for ${types.join("|")})`, value: v });
  }
  if (Array.isArray(s.enum)) {
    out.push({ rule: "enum", value: "zz_not_a_member" });
    const first = s.enum.find((e: unknown) => typeof e === "string") as string | undefined;
    if (first && first.toUpperCase() !== first) out.push({ rule: "enum (case)", value: first.toUpperCase() });
    if (first) out.push({ rule: "enum (padded)", value: ` ${first} ` });
  }
  if ("const" in s) out.push({ rule: "const", value: typeof s.const === "boolean" ? !s.const : `${String(s.const)}_not` });
  if (typeof s.pattern === "string") {
    const re = new RegExp(s.pattern, "u");
    const candidates = ["", " ", "has space", "UPPER_lower-dash", "!!!", "\u00ff\u00fe", "\u0000", "x\ny", `${String(value ?? "")}!`, hugeString + " !"];
    if (typeof value === "string" && value.length > 1) candidates.push(value.toUpperCase(), value.slice(0, -1) + " ", ` ${value}`);
    for (const c of candidates) if (!re.test(c)) out.push({ rule: `pattern ${s.pattern}`, value: c });
  }
  if (typeof s.minLength === "number" && s.minLength > 0) out.push({ rule: `minLength ${s.minLength}`, value: "x".repeat(s.minLength - 1) });
  if (typeof s.maxLength === "number") {
    out.push({ rule: `maxLength ${s.maxLength}`, value: "x".repeat(s.maxLength + 1) });
    out.push({ rule: `maxLength ${s.maxLength} (100 KB)`, value: hugeString });
  }
  if (typeof s.minimum === "number") out.push({ rule: `minimum ${s.minimum}`, value: s.minimum - 1 }, { rule: "minimum (-1e308)", value: -1e308 });
  if (typeof s.maximum === "number") out.push({ rule: `maximum ${s.maximum}`, value: s.maximum + 1 }, { rule: "maximum (1e308)", value: 1e308 });
  if (typeof s.exclusiveMinimum === "number") out.push({ rule: "exclusiveMinimum", value: s.exclusiveMinimum });
  if (typeof s.exclusiveMaximum === "number") out.push({ rule: "exclusiveMaximum", value: s.exclusiveMaximum });
  if (types.includes("integer") && !types.includes("number")) out.push({ rule: "integer (fraction)", value: 2.5 });
  if (s.format === "date") out.push({ rule: "format date", value: "2026-02-30" }, { rule: "format date", value: "2026-13-01" });
  if (s.format === "date-time") out.push({ rule: "format date-time", value: "2026-13-45T99:00:00Z" });
  if (s.format === "uri") out.push({ rule: "format uri", value: "not a uri" }, { rule: "format uri", value: "::" });
  if (types.includes("array") || s.items) {
    const item = Array.isArray(value) && value.length ? value[0] : sample(s.items ?? {}, resolve);
    const distinct = (n: number) =>
      Array.from({ length: n }, (_, i) => (typeof item === "string" ? `${item}${i ? i : ""}` : typeof item === "number" ? i : structuredClone(item)));
    if (typeof s.minItems === "number" && s.minItems > 0) out.push({ rule: `minItems ${s.minItems}`, value: distinct(s.minItems - 1) });
    if (typeof s.maxItems === "number") out.push({ rule: `maxItems ${s.maxItems}`, value: distinct(s.maxItems + 1) });
    if (s.uniqueItems) out.push({ rule: "uniqueItems", value: [structuredClone(item), structuredClone(item)] });
  }
  const obj = value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  if (obj) {
    for (const key of s.required ?? []) {
      if (key in obj) {
        const copy = { ...obj };
        delete copy[key];
        out.push({ rule: `required ${key}`, value: copy });
      }
    }
    if (s.additionalProperties === false) out.push({ rule: "additionalProperties", value: { ...obj, unexpected_field: "surprise" } });
    if (typeof s.minProperties === "number") {
      const keep = Object.keys(obj).slice(0, Math.max(0, s.minProperties - 1));
      out.push({ rule: `minProperties ${s.minProperties}`, value: Object.fromEntries(keep.map((k) => [k, obj[k]])) });
    }
    const propSample = (k: string, override?: Schema) => sample(override ?? s.properties?.[k] ?? {}, resolve);
    // Branches that only name required keys: drop them all (anyOf/oneOf) or send them all (oneOf).
    for (const keyword of ["anyOf", "oneOf"] as const) {
      const names = ((s[keyword] ?? []) as Schema[]).map(resolve).filter((b) => b.required && !b.type).flatMap((b) => b.required as string[]);
      if (!names.length) continue;
      const without = { ...obj };
      for (const n of names) delete without[n];
      out.push({ rule: `${keyword} (none of ${names.join(", ")})`, value: without });
      if (keyword === "oneOf") out.push({ rule: `oneOf (all of ${names.join(", ")})`, value: { ...obj, ...Object.fromEntries(names.map((n) => [n, obj[n] ?? propSample(n)])) } });
    }
    const nots = [s.not, ...((s.allOf ?? []) as Schema[]).map((p) => resolve(p).not)].filter(Boolean) as Schema[];
    for (const n of nots) {
      if (!Array.isArray(n.required)) continue;
      const add = Object.fromEntries((n.required as string[]).map((k) => [k, obj[k] ?? propSample(k, n.properties?.[k])]));
      out.push({ rule: `not (both ${n.required.join(" and ")})`, value: { ...obj, ...add } });
    }
    for (const [key, deps] of Object.entries((s.dependentRequired ?? {}) as Record<string, string[]>)) {
      const copy: Record<string, unknown> = { ...obj, [key]: obj[key] ?? propSample(key) };
      for (const d of deps) delete copy[d];
      out.push({ rule: `dependentRequired ${key}→${deps.join(",")}`, value: copy });
    }
  }
  return out;
}

/**
 * Every single-constraint breakage of `value` (valid against `schema`) that the walk finds: at the node itself
 * and in each property (present or not) and the first item of each array, recursively. The caller keeps only
 * the ones its validator refuses.
 */
export function breakages(schema: Schema, value: unknown, resolve: Resolve, where = "", depth = 0): Breakage[] {
  const s = flatten(schema, resolve);
  const out: Breakage[] = nodeBreakers(s, value, resolve).map((b) => ({ where: where || "(root)", rule: b.rule, value: b.value }));
  // Branch constraints of anyOf/oneOf schemas (not key-only branches) are walked as if each applied.
  for (const b of [...((s.anyOf ?? []) as Schema[]), ...((s.oneOf ?? []) as Schema[])]) {
    const branch = flatten(b, resolve);
    if (branch.required && !branch.type && !branch.properties) continue;
    out.push(...breakages(branch, value, resolve, where, depth + 1).filter((x) => x.where !== (where || "(root)") || !x.rule.startsWith("type")));
  }
  if (depth > 6) return out;
  const obj = value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  if (obj && s.properties) {
    for (const [key, child] of Object.entries(s.properties as Record<string, Schema>)) {
      const current = key in obj ? obj[key] : sample(child, resolve);
      for (const b of breakages(child, current, resolve, where ? `${where}.${key}` : key, depth + 1)) out.push({ ...b, value: { ...obj, [key]: b.value } });
    }
  }
  if (Array.isArray(value) && s.items) {
    const first = value.length ? value[0] : sample(s.items, resolve);
    for (const b of breakages(s.items, first, resolve, `${where}[0]`, depth + 1)) out.push({ ...b, value: [b.value, ...value.slice(1)] });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Generic hostile bodies

/** `[` 10,000 levels deep, never closed. */
export const deepOpenArrays = "[".repeat(10_000);
/** `[[[…]]]` 10,000 levels deep, closed: valid JSON, but not the object a body must be. */
export const deepClosedArrays = "[".repeat(10_000) + "]".repeat(10_000);
/** `{"a":{"a":…1…}}` 10,000 levels deep. */
export const deepObjects = '{"a":'.repeat(10_000) + "1" + "}".repeat(10_000);

/** Bytes that are not UTF-8, spliced into a JSON string value. */
export const invalidUtf8Sequences: readonly Buffer[] = [
  Buffer.from([0xff]),
  Buffer.from([0xfe, 0xff]),
  Buffer.from([0xc0, 0xaf]), // overlong "/"
  Buffer.from([0xed, 0xa0, 0x80]), // a UTF-16 surrogate encoded as UTF-8
  Buffer.from([0xe2, 0x82]), // truncated sequence
  Buffer.from([0xf8, 0x88, 0x80, 0x80, 0x80]), // five-byte form
];

/**
 * `json` (an object's text) with `bytes` in the middle of the string value of `key` (a free-text field, so a
 * server that decodes them lossily would accept the request), or of the first string value.
 */
export function withInvalidUtf8(json: string, bytes: Buffer, key?: string): Buffer {
  const marker = key === undefined ? '":"' : `"${key}":"`;
  const start = json.indexOf(marker);
  if (start < 0) return Buffer.concat([Buffer.from('{"x":"'), bytes, Buffer.from('"}')]);
  const i = start + marker.length + 1; // after the value's first character
  return Buffer.concat([Buffer.from(json.slice(0, i)), bytes, Buffer.from(json.slice(i))]);
}

/** `{…valid, …mutated}`: the valid members first, then the broken ones again (JSON.parse keeps the last). */
export function withDuplicateKeys(valid: Record<string, unknown>, broken: Record<string, unknown>): string {
  const members = (o: Record<string, unknown>) => Object.entries(o).map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`);
  return `{${[...members(valid), ...members(broken)].join(",")}}`;
}

/** Text that is not JSON: truncations of `json` plus the usual near-misses. */
export function malformedJson(json: string, rng: Rng): string[] {
  const cuts = [1, 2, Math.floor(json.length / 2), json.length - 1].concat(Array.from({ length: 3 }, () => 1 + rng.int(Math.max(1, json.length - 1))));
  return [
    ...new Set(cuts.filter((c) => c > 0 && c < json.length).map((c) => json.slice(0, c))),
    "{'single': 'quotes'}",
    '{"trailing": 1,}',
    '{"nan": NaN}',
    '{"inf": Infinity}',
    '{"comment": 1 /* no */}',
    '{"a": 1}{"b": 2}',
    '{"a" 1}',
    "\u00ef\u00bb\u00bf{}",
    "{\u0000}",
  ];
}

// ---------------------------------------------------------------------------------------------------------------
// Requests

export interface RawRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  ms: number;
}

/**
 * How long a connection may stay silent before the request counts as hung: a hang guard, never a verdict on speed
 * (with 8 requests in flight on two saturated cores, a mock's answer can take seconds; it never takes a minute).
 */
export const hangAfterMs = 60_000;

/** Sends one request with node:http; rejects after `timeoutMs` of silence (a hang is a failure, not a wait). */
export function send(origin: URL, request: RawRequest, agent: http.Agent, timeoutMs = hangAfterMs): Promise<RawAnswer> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { ...request.headers };
    if (request.body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === "content-length")) headers["content-length"] = Buffer.byteLength(request.body);
    const req = http.request({ host: origin.hostname, port: origin.port, method: request.method, path: request.path, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString("utf8"), ms: performance.now() - started }));
      res.on("error", reject);
    });
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer within ${timeoutMs} ms (hang)`)));
    req.on("error", reject);
    req.end(request.body);
  });
}

/**
 * Writes bytes on a fresh socket and reads until the server closes it (or the status line and a complete
 * Content-Length body arrived): for requests no HTTP client sends (broken request lines, conflicting lengths).
 */
export function sendRawBytes(origin: URL, bytes: Buffer | string, timeoutMs = hangAfterMs): Promise<RawAnswer> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(origin.port), origin.hostname);
    const chunks: Buffer[] = [];
    let settled = false;
    const finish = () => {
      if (settled) return;
      const all = Buffer.concat(chunks).toString("latin1");
      const split = all.indexOf("\r\n\r\n");
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(all);
      if (!status || split < 0) {
        settled = true;
        socket.destroy();
        return reject(new Error(`no HTTP answer: ${JSON.stringify(all.slice(0, 80))}`));
      }
      const headers: http.IncomingHttpHeaders = {};
      for (const line of all.slice(0, split).split("\r\n").slice(1)) {
        const c = line.indexOf(":");
        if (c > 0) headers[line.slice(0, c).trim().toLowerCase()] = line.slice(c + 1).trim();
      }
      settled = true;
      socket.destroy();
      resolve({ status: Number(status[1]), headers, text: Buffer.from(all.slice(split + 4), "latin1").toString("utf8"), ms: performance.now() - started });
    };
    socket.setTimeout(timeoutMs, () => {
      if (settled) return;
      settled = true;
      socket.destroy();
      reject(new Error(`no answer within ${timeoutMs} ms (hang)`));
    });
    socket.on("data", (c: Buffer) => {
      chunks.push(c);
      const all = Buffer.concat(chunks).toString("latin1");
      const split = all.indexOf("\r\n\r\n");
      const length = /\r\ncontent-length: *(\d+)/i.exec(all.slice(0, split))?.[1];
      if (split >= 0 && length !== undefined && Buffer.byteLength(all.slice(split + 4), "latin1") >= Number(length)) finish();
    });
    socket.on("end", finish);
    socket.on("close", finish);
    socket.on("error", (err) => {
      if (chunks.length) finish();
      else if (!settled) {
        settled = true;
        reject(err);
      }
    });
    socket.end(bytes);
  });
}

/** Runs `fn` over `items` with at most `concurrency` in flight; results keep the input order. */
export async function runPool<T, R>(items: readonly T[], concurrency: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return results;
}

// ---------------------------------------------------------------------------------------------------------------
// Cases and tallies

export interface FuzzCase {
  /** Family for the printed counts: schema, token, content-type, json, nesting, utf8, duplicate-keys, … */
  kind: string;
  label: string;
  request?: RawRequest;
  /** Sent as raw bytes on a socket instead of `request`. */
  raw?: Buffer | string;
}

/** A list of cases that refuses duplicates (the same request twice): `add` says whether the case was new. */
export function caseList<C extends FuzzCase>(): { cases: C[]; add(c: C): boolean } {
  const cases: C[] = [];
  const seen = new Set<string>();
  return {
    cases,
    add(c) {
      const key = JSON.stringify([c.request?.method, c.request?.path, c.request?.headers, String(c.request?.body ?? ""), String(c.raw ?? "")]);
      if (seen.has(key)) return false;
      seen.add(key);
      cases.push(c);
      return true;
    },
  };
}

export interface FuzzOutcome<C extends FuzzCase = FuzzCase> {
  fuzzCase: C;
  answer?: RawAnswer;
  /** Why the answer breaks the rule; undefined when it keeps it. */
  problem?: string;
}

/** Runs the cases (8 in flight by default) and checks each answer with `check`. */
export async function runCases<C extends FuzzCase>(
  origin: URL,
  cases: readonly C[],
  check: (c: C, a: RawAnswer) => string | undefined,
  options: { concurrency?: number; timeoutMs?: number } = {},
): Promise<FuzzOutcome<C>[]> {
  // A fresh connection per case: a pooled one races the mock's idle timeout under load (fresh-connection.ts).
  const agent = freshAgent(options.concurrency ?? 8);
  try {
    return await runPool(cases, options.concurrency ?? 8, async (fuzzCase): Promise<FuzzOutcome<C>> => {
      try {
        const answer = fuzzCase.raw !== undefined ? await sendRawBytes(origin, fuzzCase.raw, options.timeoutMs) : await send(origin, fuzzCase.request!, agent, options.timeoutMs);
        return { fuzzCase, answer, problem: check(fuzzCase, answer) };
      } catch (err) {
        return { fuzzCase, problem: `no answer: ${(err as Error).message}` };
      }
    });
  } finally {
    agent.destroy();
  }
}

/** Counts per kind and per status, for printing. */
export function tally(outcomes: readonly FuzzOutcome[]): { byKind: Record<string, number>; byStatus: Record<string, number>; failures: FuzzOutcome[] } {
  const byKind: Record<string, number> = {};
  const byStatus: Record<string, number> = {};
  for (const o of outcomes) {
    byKind[o.fuzzCase.kind] = (byKind[o.fuzzCase.kind] ?? 0) + 1;
    const s = o.answer ? String(o.answer.status) : "none";
    byStatus[s] = (byStatus[s] ?? 0) + 1;
  }
  return { byKind, byStatus, failures: outcomes.filter((o) => o.problem !== undefined) };
}

/** A failure as one line: the case, what came back, and why it is wrong. */
export function describeFailure(o: FuzzOutcome): string {
  const req = o.fuzzCase.request;
  const what = req ? `${req.method} ${req.path.slice(0, 80)}` : `raw ${JSON.stringify(String(o.fuzzCase.raw).slice(0, 60))}`;
  const got = o.answer ? `${o.answer.status} ${o.answer.text.slice(0, 200)}` : "nothing";
  return `[${o.fuzzCase.kind}] ${o.fuzzCase.label} — ${what} → ${got} — ${o.problem}`;
}

/**
 * The kinds of invalid request the issue names, each recognised in a case's kind and label (the names the
 * generators above give): a fuzz run must send every one of them, so none can silently drop out.
 */
export const requiredKinds: Readonly<Record<string, RegExp>> = {
  "wrong types": /^schema .*: type \(/,
  "out-of-range numbers": /^schema .*: (minimum|maximum|exclusiveMinimum|exclusiveMaximum)\b/,
  "huge strings": /100 KB/,
  "deep nesting": /^nesting /,
  "invalid UTF-8": /^utf8 /,
  "duplicate keys": /^duplicate-keys /,
  "unknown fields": /^unknown-(field|argument) |: additionalProperties/,
  "bad ids": /^(bad-id|id|unknown-id|other-tenant) /,
  "bad tokens": /^token /,
};

/** How many cases of each required kind there are. */
export function countRequiredKinds(cases: readonly FuzzCase[]): Record<string, number> {
  return Object.fromEntries(Object.entries(requiredKinds).map(([name, re]) => [name, cases.filter((c) => re.test(`${c.kind} ${c.label}`)).length]));
}
