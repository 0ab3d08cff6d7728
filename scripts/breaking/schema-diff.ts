// Direction-aware JSON Schema comparison: what a change does to clients depends on which way data flows.
//
// Requests (MCP tool inputs, REST parameters and bodies) are WRITTEN by clients. A change breaks them when a
// value that used to be accepted is refused: a field removed or made required, a type/enum/limit narrowed, a
// new additionalProperties refusal, an alternative dropped. Widening a request is compatible.
//
// Responses (MCP outputs, REST bodies) are READ by clients. A change breaks them when they can now receive
// something they were not promised, or lose something they were promised: a field removed (required or
// optional — seed 001 calls removing a field breaking, where oasdiff only warns about optional ones), a
// required field made optional (readers relied on its presence), a field made nullable, a type widened, a
// limit loosened, a new alternative shape, or the payload moved into a wrapper (oasdiff reports the wrapper
// as an "added property" and may miss that every reader now looks in the wrong place). Narrowing a response
// is compatible — with two deliberate exceptions from seed 001: removing an output enum value is breaking
// (clients branch on and wait for values), while ADDING an output enum value is compatible (seed 001
// conventions: "new fields, enum values and codes can appear at any time"; clients must tolerate them).
//
// Defaults: seed 001 says changing a default is breaking, whichever direction the schema flows.
// Descriptions: words can change what a field means (breaking per seed 001) but cannot be judged by a
// machine, so they are reported as "review".
import { ruleOf } from "./rules.js";
import { DOC_KEYS, Resolver, docSiblings, flatten, isDocKey, refCore, refName, shapeKey, stable } from "./resolve.js";
import { isObject, type Direction, type Json, type JsonObject, type RawChange } from "./types.js";

let nextOrigin = 1;

/** Creates a RawChange with a fresh origin; the Kind comes from the rule catalogue. */
export function rawChange(rule: string, path: string, message: string, note?: string): RawChange {
  const { kind } = ruleOf(rule);
  return { origin: nextOrigin++, kind, rule, path, message, ...(note ? { note } : {}) };
}

const LOWER = ["minLength", "minItems", "minProperties", "minimum", "exclusiveMinimum", "minContains"];
const UPPER = ["maxLength", "maxItems", "maxProperties", "maximum", "exclusiveMaximum", "maxContains"];
/** Keywords where a different value is neither looser nor tighter in general. */
const EXACT = ["pattern", "format", "multipleOf", "contentMediaType", "contentEncoding", "uniqueItems"];
const ANNOTATIONS = ["readOnly", "writeOnly", "deprecated", "discriminator"];
const HANDLED = new Set([
  ...LOWER,
  ...UPPER,
  ...EXACT,
  ...ANNOTATIONS,
  "type",
  "nullable",
  "enum",
  "const",
  "properties",
  "required",
  "additionalProperties",
  "unevaluatedProperties",
  "items",
  "anyOf",
  "oneOf",
  "default",
  "$defs",
  "definitions",
]);

interface Variant {
  label: string;
  schema: Json;
}

/** A schema reduced to what the comparison needs. */
interface Norm {
  /** Flattened ($ref/allOf folded, null branches removed, single remaining branch merged in). */
  core: JsonObject;
  /** Non-null JSON types accepted; null = unconstrained. */
  types: Set<string> | null;
  /** Null explicitly accepted (type null, nullable: true, a null branch, null in enum). */
  nullable: boolean;
  /** enum/const values without null; null = no list. */
  values: Json[] | null;
  properties: JsonObject;
  required: Set<string>;
  /** undefined/true = open, false = closed, object = every unlisted property must match. */
  additional: Json | undefined;
  items: Json | undefined;
  variants: { keyword: "anyOf" | "oneOf"; list: Variant[] } | null;
}

function jsonType(value: Json): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

function isNullOnly(schema: JsonObject): boolean {
  const t = schema.type;
  if (t === "null" || (Array.isArray(t) && t.length === 1 && t[0] === "null")) return true;
  if ("const" in schema && schema.const === null) return true;
  return Array.isArray(schema.enum) && schema.enum.length === 1 && schema.enum[0] === null;
}

function allowsNull(schema: JsonObject): boolean {
  const t = schema.type;
  if (t !== undefined && !(t === "null" || (Array.isArray(t) && t.includes("null"))) && schema.nullable !== true) return false;
  if (Array.isArray(schema.enum) && !schema.enum.includes(null)) return false;
  return !("const" in schema) || schema.const === null;
}

function normalize(schema: Json, resolver: Resolver, nullableIn = false): Norm {
  let core = flatten(schema, resolver);
  let nullable = nullableIn;
  let variants: Norm["variants"] = null;
  for (const keyword of ["anyOf", "oneOf"] as const) {
    const branches = core[keyword];
    if (!Array.isArray(branches)) continue;
    const rest = branches.filter((b) => !isNullOnly(flatten(b, resolver)));
    const outer: JsonObject = { ...core };
    delete outer[keyword];
    // A null branch makes the value nullable only if the keywords beside the anyOf let null through too
    // (allOf-merged `{type: string} & anyOf[string, null]` is a plain string).
    if (rest.length < branches.length && allowsNull(outer)) nullable = true;
    if (rest.length === 1) {
      // `anyOf: [X, {type: null}]` is "X or null": fold X in (the outer keys win: description, maxLength…).
      const inner = normalize(rest[0]!, resolver, nullable);
      return normalize({ ...inner.core, ...outer }, resolver, inner.nullable);
    }
    if (rest.length === 0) {
      core = { ...outer, type: "null" };
    } else {
      core = { ...outer, [keyword]: rest };
      variants = { keyword, list: labelVariants(rest, resolver) };
    }
    break;
  }
  let types: Set<string> | null = null;
  const t = core.type;
  if (typeof t === "string" || Array.isArray(t)) types = new Set((Array.isArray(t) ? t : [t]) as string[]);
  if (core.nullable === true) nullable = true;
  let values: Json[] | null = null;
  if (Array.isArray(core.enum)) values = core.enum;
  else if ("const" in core) values = [core.const!];
  if (values) {
    if (values.includes(null)) nullable = true;
    values = values.filter((v) => v !== null);
    if (!types) types = new Set(values.map(jsonType));
  }
  if (types?.has("null")) {
    nullable = true;
    types.delete("null");
  }
  const cleanCore: JsonObject = { ...core };
  delete cleanCore.nullable;
  if (types) cleanCore.type = [...types].length === 1 ? [...types][0]! : [...types];
  const required = new Set(Array.isArray(core.required) ? (core.required as string[]) : []);
  const properties: JsonObject = { ...(isObject(core.properties) ? core.properties : {}) };
  for (const name of required) if (!(name in properties)) properties[name] = {};
  return {
    core: cleanCore,
    types,
    nullable,
    values,
    properties,
    required,
    additional: core.additionalProperties ?? core.unevaluatedProperties,
    items: isObject(core.items) || typeof core.items === "boolean" ? core.items : undefined,
    variants,
  };
}

function labelVariants(list: Json[], resolver: Resolver): Variant[] {
  const seen = new Set<string>();
  return list.map((schema, i) => {
    let label = `#${i + 1}`;
    const ref = refCore(schema) ?? (isObject(schema) && typeof schema.$ref === "string" ? schema.$ref : undefined);
    if (ref) label = refName(ref);
    else {
      const flat = flatten(schema, resolver);
      const props = isObject(flat.properties) ? flat.properties : {};
      for (const [name, prop] of Object.entries(props)) {
        const p = flatten(prop, resolver);
        const only = "const" in p ? p.const : Array.isArray(p.enum) && p.enum.length === 1 ? p.enum[0] : undefined;
        if (only !== undefined) {
          label = `${name}=${String(only)}`;
          break;
        }
      }
      if (label.startsWith("#") && flat.type !== undefined) label = `${String(flat.type)}#${i + 1}`;
    }
    if (seen.has(label)) label = `${label}#${i + 1}`;
    seen.add(label);
    return { label, schema };
  });
}

/** Accepted by `outer`? integer is a number. */
function covers(outer: Set<string>, type: string): boolean {
  return outer.has(type) || (type === "integer" && outer.has("number"));
}

function fmtTypes(types: Set<string> | null): string {
  return types ? [...types].sort().join(" | ") || "nothing" : "anything";
}

function short(value: unknown, max = 70): string {
  const text = typeof value === "string" ? value.replace(/\s+/g, " ") : JSON.stringify(value);
  if (text === undefined) return "(none)";
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** Two texts, shown around where they start to differ: `…, up to 2,000… → …, not blank, up to…`. */
export function textChange(a: Json | undefined, b: Json | undefined, width = 48): string {
  if (typeof a !== "string" || typeof b !== "string") return `${short(a, width)} → ${short(b, width)}`;
  const x = a.replace(/\s+/g, " ");
  const y = b.replace(/\s+/g, " ");
  let p = 0;
  while (p < x.length && p < y.length && x[p] === y[p]) p++;
  const start = Math.max(0, p - 12);
  const cut = (t: string) => `${start > 0 ? "…" : ""}${t.slice(start, start + width)}${t.length > start + width ? "…" : ""}`;
  return `${JSON.stringify(cut(x))} → ${JSON.stringify(cut(y))}`;
}

const join = (path: string, name: string) => `${path}.${name}`;

/**
 * Compares the schemas of one pair of documents. One instance per document pair, so shared definitions are
 * compared once per (ref pair, direction): later uses of the same pair reuse the result under their own
 * path, and the report folds them into `alsoAt` (fold in classify.ts). A ref pair already in progress higher
 * up the stack is a recursive schema and is not entered again.
 */
export class SchemaComparer {
  private readonly before: Resolver;
  private readonly after: Resolver;
  private readonly memo = new Map<string, { base: string; changes: RawChange[] }>();
  private readonly inProgress = new Set<string>();
  private readonly pairs = new Map<object, Set<object>>();

  constructor(beforeRoot: Json, afterRoot: Json) {
    this.before = new Resolver(beforeRoot);
    this.after = new Resolver(afterRoot);
  }

  get resolvers(): { before: Resolver; after: Resolver } {
    return { before: this.before, after: this.after };
  }

  compare(a: Json | undefined, b: Json | undefined, dir: Direction, path: string): RawChange[] {
    const x = a === undefined ? {} : a;
    const y = b === undefined ? {} : b;
    const ra = refCore(x);
    const rb = refCore(y);
    if (ra && rb) {
      const out = this.annotations(docSiblings(x), docSiblings(y), path);
      const key = `${dir}|${ra}|${rb}`;
      const done = this.memo.get(key);
      if (done) {
        return out.concat(done.changes.map((c) => ({ ...c, path: path + c.path.slice(done.base.length) })));
      }
      if (this.inProgress.has(key)) return out;
      this.inProgress.add(key);
      const inner = this.guarded(this.before.pointer(ra), this.after.pointer(rb), dir, path);
      this.inProgress.delete(key);
      this.memo.set(key, { base: path, changes: inner });
      return out.concat(inner);
    }
    return this.guarded(x, y, dir, path);
  }

  /** Stops a recursion that goes through refs carrying constraints (not caught by the ref-pair check). */
  private guarded(a: Json, b: Json, dir: Direction, path: string): RawChange[] {
    if (!isObject(a) || !isObject(b)) return this.nodes(a, b, dir, path);
    let set = this.pairs.get(a);
    if (set?.has(b) || path.length > 4000) return [];
    if (!set) this.pairs.set(a, (set = new Set()));
    set.add(b);
    try {
      return this.nodes(a, b, dir, path);
    } finally {
      set.delete(b);
    }
  }

  private nodes(a: Json, b: Json, dir: Direction, path: string): RawChange[] {
    const A = normalize(a, this.before);
    const B = normalize(b, this.after);
    const out: RawChange[] = [...this.annotations(A.core, B.core, path)];
    this.defaults(A.core, B.core, dir, path, out);
    this.nullability(A, B, dir, path, out);
    const oneSided = (A.variants === null) !== (B.variants === null);
    if (!oneSided) {
      // Restructured (wrapped, or a type with nothing in common): that one change says it all; comparing
      // fields, items or limits of unrelated shapes would only add noise around it.
      if (this.types(A, B, dir, path, out)) return out;
      this.values(A, B, dir, path, out);
      this.limits(A.core, B.core, dir, path, out);
      this.object(A, B, dir, path, out);
      if (A.items !== undefined || B.items !== undefined) out.push(...this.compare(A.items ?? {}, B.items ?? {}, dir, `${path}[]`));
      this.unknownKeywords(A.core, B.core, path, out);
    }
    if (A.variants || B.variants) this.variants(a, A, b, B, dir, path, out);
    return out;
  }

  private annotations(a: JsonObject, b: JsonObject, path: string): RawChange[] {
    const out: RawChange[] = [];
    if (a.description !== b.description) {
      out.push(rawChange("description-changed", path, `description ${textChange(a.description, b.description)}`));
    }
    const docKeys = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => isDocKey(k) && k !== "description" && k !== "$schema" && k !== "$id");
    const changed = docKeys.filter((k) => stable(a[k] ?? null) !== stable(b[k] ?? null));
    if (changed.length) out.push(rawChange("docs-changed", path, `${changed.sort().join(", ")} changed`));
    for (const key of ANNOTATIONS) {
      if (stable(a[key] ?? null) !== stable(b[key] ?? null)) {
        out.push(rawChange("annotation-changed", path, `${key} ${short(a[key])} → ${short(b[key])}`));
      }
    }
    return out;
  }

  private defaults(a: JsonObject, b: JsonObject, dir: Direction, path: string, out: RawChange[]): void {
    const had = "default" in a;
    const has = "default" in b;
    if (had && has && stable(a.default!) !== stable(b.default!)) {
      out.push(rawChange(`${dir}.default-changed`, path, `default ${short(a.default)} → ${short(b.default)}`));
    } else if (had && !has) out.push(rawChange(`${dir}.default-removed`, path, `default ${short(a.default)} removed`));
    else if (!had && has) out.push(rawChange(`${dir}.default-added`, path, `default ${short(b.default)} documented`));
  }

  private nullability(A: Norm, B: Norm, dir: Direction, path: string, out: RawChange[]): void {
    // An unconstrained schema ({}) already accepts null; only explicit changes between constrained ones count.
    // Between an unconstrained and a constrained schema the type comparison tells the whole story.
    const constrained = (n: Norm) => n.types !== null || n.values !== null || n.variants !== null;
    if (!constrained(A) || !constrained(B)) return;
    const aAccepts = A.nullable;
    const bAccepts = B.nullable;
    if (aAccepts === bAccepts) return;
    if (bAccepts) {
      if (dir === "request") out.push(rawChange("request.type-widened", path, "now accepts null"));
      else out.push(rawChange("response.made-nullable", path, "can now be null"));
    } else if (dir === "request") out.push(rawChange("request.null-refused", path, "no longer accepts null"));
    else out.push(rawChange("response.type-narrowed", path, "is no longer null"));
  }

  /** Returns true when B wraps A (reported as payload-wrapped) or the types share nothing (type-changed). */
  private types(A: Norm, B: Norm, dir: Direction, path: string, out: RawChange[]): boolean {
    if (A.types === null && B.types === null) return false;
    const missing = A.types === null ? ["(other types)"] : [...A.types].filter((t) => B.types !== null && !covers(B.types, t));
    const extra = B.types === null ? ["(other types)"] : [...B.types].filter((t) => A.types !== null && !covers(A.types, t));
    if (!missing.length && !extra.length) return false;
    const what = `type ${fmtTypes(A.types)} → ${fmtTypes(B.types)}`;
    if (missing.length && extra.length) {
      const wrapper = this.wrapperOf(A, B);
      if (wrapper) {
        out.push(rawChange(`${dir}.payload-wrapped`, path, `the ${fmtTypes(A.types)} value moved into \`${wrapper}\` of a new object (payload wrapped in an envelope)`));
        return true;
      }
      out.push(rawChange(`${dir}.type-changed`, path, what));
      if (!A.types || !B.types) return false;
      const shared = [...A.types].some((t) => covers(B.types!, t)) || [...B.types].some((t) => covers(A.types!, t));
      return !shared;
    } else if (missing.length) out.push(rawChange(`${dir}.type-narrowed`, path, what));
    else out.push(rawChange(`${dir}.type-widened`, path, what));
    return false;
  }

  /** B is an object with a property holding what A was (an array, a string…): a wrapper around A. */
  private wrapperOf(A: Norm, B: Norm): string | undefined {
    if (!A.types || !B.types?.has("object") || A.types.has("object")) return undefined;
    for (const [name, prop] of Object.entries(B.properties)) {
      const inner = normalize(prop, this.after);
      if (inner.types && [...A.types].every((t) => covers(inner.types!, t))) return name;
    }
    return undefined;
  }

  private values(A: Norm, B: Norm, dir: Direction, path: string, out: RawChange[]): void {
    if (A.values === null && B.values === null) return;
    if (A.values === null) {
      out.push(rawChange(`${dir}.enum-added`, path, `now limited to ${short(B.values)}`));
      return;
    }
    if (B.values === null) {
      out.push(rawChange(`${dir}.enum-removed`, path, `no longer limited to ${short(A.values)}`));
      return;
    }
    const after = new Set(B.values.map((v) => stable(v)));
    const before = new Set(A.values.map((v) => stable(v)));
    const removed = A.values.filter((v) => !after.has(stable(v)));
    const added = B.values.filter((v) => !before.has(stable(v)));
    for (const v of removed) out.push(rawChange(`${dir}.enum-value-removed`, path, `value ${JSON.stringify(v)} removed`));
    for (const v of added) {
      const note =
        dir === "response"
          ? "Compatible: seed 001 says new output enum values can appear and clients must tolerate unknown ones; the gate applies the same to REST (additive within /v1). Name the new value in the changelog."
          : undefined;
      out.push(rawChange(`${dir}.enum-value-added`, path, `value ${JSON.stringify(v)} added`, note));
    }
  }

  private limits(a: JsonObject, b: JsonObject, dir: Direction, path: string, out: RawChange[]): void {
    const tight = `${dir}.limit-tightened`;
    const loose = `${dir}.limit-loosened`;
    const num = (v: Json | undefined) => (typeof v === "number" ? v : undefined);
    for (const key of [...LOWER, ...UPPER]) {
      const x = num(a[key]);
      const y = num(b[key]);
      if (x === y) continue;
      const lower = LOWER.includes(key);
      const msg = x === undefined ? `${key} ${y} added` : y === undefined ? `${key} ${x} removed` : `${key} ${x} → ${y}`;
      const tighter = x === undefined || (y !== undefined && (lower ? y > x : y < x));
      out.push(rawChange(tighter ? tight : loose, path, msg));
    }
    for (const key of EXACT) {
      const norm = (v: Json | undefined) => (key === "uniqueItems" && v === false ? undefined : v);
      const x = norm(a[key]);
      const y = norm(b[key]);
      if (stable(x ?? null) === stable(y ?? null)) continue;
      if (x === undefined) out.push(rawChange(tight, path, `${key} ${short(y)} added`));
      else if (y === undefined) out.push(rawChange(dir === "request" ? loose : `${dir}.constraint-changed`, path, `${key} ${short(x)} removed`));
      else out.push(rawChange(`${dir}.constraint-changed`, path, `${key} ${short(x)} → ${short(y)}`));
    }
  }

  private object(A: Norm, B: Norm, dir: Direction, path: string, out: RawChange[]): void {
    const before = Object.keys(A.properties);
    const after = Object.keys(B.properties);
    let removed = before.filter((k) => !(k in B.properties));
    let added = after.filter((k) => !(k in A.properties));

    // Payload wrapped: most of the removed fields reappear inside one new object field.
    if (removed.length && added.length) {
      let best: { name: string; covered: string[] } | undefined;
      for (const name of added) {
        const inner = normalize(B.properties[name]!, this.after);
        const covered = removed.filter((k) => k in inner.properties);
        // Two or more fields moved (or the only one there was): a single shared name is a coincidence.
        const enough = covered.length >= 2 || (covered.length === 1 && before.length === 1);
        if (enough && covered.length * 2 >= removed.length && (!best || covered.length > best.covered.length)) best = { name, covered };
      }
      if (best) {
        out.push(
          rawChange(
            `${dir}.payload-wrapped`,
            path,
            `fields ${best.covered.map((k) => `\`${k}\``).join(", ")} moved into new \`${best.name}\` (payload wrapped in an envelope)`,
            dir === "response" ? "Readers find nothing at the old level; oasdiff-style tools may report only an added property." : undefined,
          ),
        );
        removed = removed.filter((k) => !best!.covered.includes(k));
        added = added.filter((k) => k !== best!.name);
      }
    }

    // Renamed: a removed and an added field with the same shape, one to one.
    if (removed.length && added.length) {
      const keyOf = (r: Resolver, s: Json) => shapeKey(s, r);
      const addedKeys = new Map(added.map((k) => [k, keyOf(this.after, B.properties[k]!)]));
      for (const old of [...removed]) {
        const shape = keyOf(this.before, A.properties[old]!);
        const matches = added.filter((k) => addedKeys.get(k) === shape);
        const reverse = removed.filter((k) => keyOf(this.before, A.properties[k]!) === shape);
        if (matches.length === 1 && reverse.length === 1) {
          out.push(rawChange(`${dir}.field-renamed`, join(path, old), `\`${old}\` renamed to \`${matches[0]}\``));
          removed = removed.filter((k) => k !== old);
          added = added.filter((k) => k !== matches[0]);
        }
      }
    }

    for (const name of removed) {
      const req = A.required.has(name) ? "required" : "optional";
      const note = dir === "response" && req === "optional" ? "Removing an optional output field is still removing a field (seed 001); oasdiff only warns." : undefined;
      out.push(rawChange(`${dir}.field-removed`, join(path, name), `${req} field \`${name}\` removed`, note));
    }
    for (const name of added) {
      const req = B.required.has(name);
      if (dir === "request") {
        out.push(rawChange(req ? "request.required-field-added" : "request.optional-field-added", join(path, name), `${req ? "required" : "optional"} field \`${name}\` added`));
      } else out.push(rawChange("response.field-added", join(path, name), `field \`${name}\` added`));
    }
    for (const name of before.filter((k) => k in B.properties)) {
      const was = A.required.has(name);
      const is = B.required.has(name);
      const p = join(path, name);
      if (was && !is) out.push(rawChange(`${dir}.field-made-optional`, p, `\`${name}\` is no longer required`));
      if (!was && is) out.push(rawChange(`${dir}.field-made-required`, p, `\`${name}\` is now required`));
      out.push(...this.compare(A.properties[name], B.properties[name], dir, p));
    }
    this.additional(A, B, dir, path, out);
  }

  private additional(A: Norm, B: Norm, dir: Direction, path: string, out: RawChange[]): void {
    const kind = (v: Json | undefined) => (v === undefined || v === true ? "open" : v === false ? "closed" : "schema");
    const x = kind(A.additional);
    const y = kind(B.additional);
    if (x === "schema" && y === "schema") {
      out.push(...this.compare(A.additional, B.additional, dir, `${path}{}`));
      return;
    }
    if (x === y) return;
    const looser = (x === "closed") || (x === "schema" && y === "open");
    if (looser) {
      if (dir === "response" && x === "schema") {
        out.push(...this.compare(A.additional, {}, dir, `${path}{}`));
        return;
      }
      const note = dir === "response" ? "Conventions: clients ignore fields they do not use." : undefined;
      out.push(rawChange(`${dir}.additional-properties-allowed`, path, `unlisted fields: ${x} → ${y}`, note));
    } else {
      out.push(rawChange(`${dir}.additional-properties-refused`, path, `unlisted fields: ${x} → ${y}`));
    }
  }

  private unknownKeywords(a: JsonObject, b: JsonObject, path: string, out: RawChange[]): void {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const key of keys) {
      if (HANDLED.has(key) || isDocKey(key) || DOC_KEYS.has(key)) continue;
      if (stable(a[key] ?? null) !== stable(b[key] ?? null)) out.push(rawChange("keyword-changed", path, `${key} ${short(a[key])} → ${short(b[key])}`));
    }
  }

  private variants(a: Json, A: Norm, b: Json, B: Norm, dir: Direction, path: string, out: RawChange[]): void {
    const single = (raw: Json, n: Norm): Variant => {
      const ref = refCore(raw);
      return { label: ref ? refName(ref) : "(single shape)", schema: ref ? raw : n.core };
    };
    if (A.variants && B.variants && A.variants.keyword !== B.variants.keyword) {
      out.push(rawChange("composition-changed", path, `${A.variants.keyword} → ${B.variants.keyword}`));
    }
    const listA = A.variants?.list ?? [single(a, A)];
    const listB = B.variants?.list ?? [single(b, B)];
    const pairs: [Variant, Variant][] = [];
    let leftA = listA.filter((va) => {
      const vb = listB.find((v) => v.label === va.label);
      if (vb) pairs.push([va, vb]);
      return !vb;
    });
    let leftB = listB.filter((vb) => !pairs.some(([, p]) => p === vb));
    // Unmatched labels: pair by the most shared property names (or the only ones left).
    for (const va of [...leftA]) {
      const props = new Set(Object.keys(normalize(va.schema, this.before).properties));
      let best: { v: Variant; score: number } | undefined;
      for (const vb of leftB) {
        const score = Object.keys(normalize(vb.schema, this.after).properties).filter((k) => props.has(k)).length;
        if (!best || score > best.score) best = { v: vb, score };
      }
      if (best && (best.score > 0 || (leftA.length === 1 && leftB.length === 1))) {
        pairs.push([va, best.v]);
        leftA = leftA.filter((v) => v !== va);
        leftB = leftB.filter((v) => v !== best!.v);
      }
    }
    for (const [va, vb] of pairs) {
      const label = va.label === vb.label ? va.label : `${va.label}→${vb.label}`;
      out.push(...this.compare(va.schema, vb.schema, dir, `${path}(${label})`));
    }
    for (const v of leftA) out.push(rawChange(`${dir}.variant-removed`, `${path}(${v.label})`, `alternative \`${v.label}\` removed`));
    for (const v of leftB) out.push(rawChange(`${dir}.variant-added`, `${path}(${v.label})`, `alternative \`${v.label}\` added`));
  }
}

/**
 * Compares two schemas in one direction. `roots` are the documents their local `$ref`s point into
 * (defaults: the schemas themselves, as for an MCP inputSchema carrying its own `$defs`).
 */
export function compareSchemas(
  before: Json,
  after: Json,
  direction: Direction,
  path: string,
  roots: { before?: Json; after?: Json } = {},
): RawChange[] {
  return new SchemaComparer(roots.before ?? before, roots.after ?? after).compare(before, after, direction, path);
}
