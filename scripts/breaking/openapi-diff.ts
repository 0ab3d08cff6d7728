// REST: compares two OpenAPI 3.x documents operation by operation (seed 000 Versioning).
//
// Operations are matched by method and path template with parameter names blanked (`/v1/brands/{}`), so a
// renamed path parameter is not a removed operation; path parameters are matched by position. Parameters and
// request bodies are compared as requests, responses (bodies and headers) as responses — see schema-diff.ts
// for what each direction means.
//
// Versioning: the version is the first path segment (`/v1`). When the new side adds a version the base does
// not have (`/v2`), each new operation is compared with its counterpart in the newest older version and the
// differences are listed with `allowedBy: "/v2"`: breaking changes are allowed there, as long as the old
// operations are still present and unchanged (anything removed or broken under `/v1` is reported on its own,
// without `allowedBy`, and fails the gate).
import { fold } from "./classify.js";
import { stable } from "./resolve.js";
import { ruleOf } from "./rules.js";
import { SchemaComparer, rawChange } from "./schema-diff.js";
import { isObject, type Change, type Json, type JsonObject, type RawChange } from "./types.js";

const METHODS = ["get", "put", "post", "delete", "patch", "options", "head", "trace"];

interface Op {
  method: string;
  path: string;
  op: JsonObject;
  item: JsonObject;
}

const versionOf = (path: string): number | undefined => {
  const m = /^\/v(\d+)(?=\/|$)/.exec(path);
  return m ? Number(m[1]) : undefined;
};
const blank = (path: string) => path.replace(/\{[^}]*\}/g, "{}");
const unversioned = (path: string) => blank(path).replace(/^\/v\d+(?=\/|$)/, "");
const label = (o: Op) => `${o.method.toUpperCase()} ${o.path}`;

function operations(doc: JsonObject): Map<string, Op> {
  const ops = new Map<string, Op>();
  const paths = isObject(doc.paths) ? doc.paths : {};
  for (const [path, item] of Object.entries(paths)) {
    if (!isObject(item)) continue;
    for (const method of METHODS) {
      const op = item[method];
      if (isObject(op)) ops.set(`${method.toUpperCase()} ${blank(path)}`, { method, path, op, item });
    }
  }
  return ops;
}

export function diffOpenApi(before: Json | undefined, after: Json | undefined): Change[] {
  if (before === undefined && after === undefined) return [];
  const a: JsonObject = isObject(before) ? before : { paths: {} };
  const b: JsonObject = isObject(after) ? after : { paths: {} };
  // With one side missing entirely (an old commit without generated/), only operations count.
  return new OpenApiDiff(a, b, isObject(before) && isObject(after)).run();
}

class OpenApiDiff {
  private readonly schemas: SchemaComparer;

  constructor(
    private readonly a: JsonObject,
    private readonly b: JsonObject,
    private readonly bothSides = true,
  ) {
    this.schemas = new SchemaComparer(a, b);
  }

  private get ra() {
    return this.schemas.resolvers.before;
  }
  private get rb() {
    return this.schemas.resolvers.after;
  }

  run(): Change[] {
    const out: RawChange[] = [];
    const opsA = operations(this.a);
    const opsB = operations(this.b);
    const versionsA = new Set([...opsA.values()].map((o) => versionOf(o.path)).filter((v): v is number => v !== undefined));
    const newest = Math.max(0, ...versionsA);

    if (this.bothSides) this.document(out);
    for (const [key, opA] of opsA) {
      const opB = opsB.get(key);
      if (!opB) out.push(rawChange("rest.operation-removed", label(opA), `${label(opA)} removed`));
      else out.push(...this.operation(opA, opB));
    }
    for (const [key, opB] of opsB) {
      if (opsA.has(key)) continue;
      const v = versionOf(opB.path);
      const counterpart = v !== undefined && v > newest && versionsA.size ? this.counterpart(opsA, opB, v) : undefined;
      if (!counterpart) {
        out.push(rawChange("rest.operation-added", label(opB), `${label(opB)} added`));
        continue;
      }
      const allowedBy = `/v${v}`;
      out.push(
        rawChange("rest.operation-added", label(opB), `${label(opB)} added as the new version of ${label(counterpart)}`, `${label(counterpart)} must stay unchanged.`),
      );
      for (const c of this.operation(counterpart, opB)) out.push({ ...c, allowedBy });
    }
    return fold(out, "rest");
  }

  /** The same method and path in the newest version older than `v`. */
  private counterpart(opsA: Map<string, Op>, opB: Op, v: number): Op | undefined {
    let best: Op | undefined;
    for (const opA of opsA.values()) {
      const va = versionOf(opA.path);
      if (va === undefined || va >= v || opA.method !== opB.method || unversioned(opA.path) !== unversioned(opB.path)) continue;
      if (!best || va > versionOf(best.path)!) best = opA;
    }
    return best;
  }

  private document(out: RawChange[]): void {
    const docs = ["info", "tags", "externalDocs", "servers"].filter((k) => stable(this.a[k] ?? null) !== stable(this.b[k] ?? null));
    if (docs.length) out.push(rawChange("docs-changed", "document", `${docs.join(", ")} changed`));
    const schemesA = isObject(this.a.components) ? this.a.components.securitySchemes : undefined;
    const schemesB = isObject(this.b.components) ? this.b.components.securitySchemes : undefined;
    if (stable(this.a.security ?? null) !== stable(this.b.security ?? null) || stable(schemesA ?? null) !== stable(schemesB ?? null)) {
      out.push(rawChange("rest.security-changed", "security", "global security requirements or schemes changed"));
    }
  }

  private operation(A: Op, B: Op): RawChange[] {
    const out: RawChange[] = [];
    const at = label(B);
    const oa = A.op;
    const ob = B.op;
    if (oa.operationId !== ob.operationId) out.push(rawChange("rest.operation-id-changed", at, `operationId ${String(oa.operationId)} → ${String(ob.operationId)}`));
    if (oa.description !== ob.description) out.push(rawChange("description-changed", at, "operation description changed"));
    const docs = ["summary", "tags", "externalDocs"].filter((k) => stable(oa[k] ?? null) !== stable(ob[k] ?? null));
    if (docs.length) out.push(rawChange("docs-changed", at, `${docs.join(", ")} changed`));
    if (!!oa.deprecated !== !!ob.deprecated) out.push(rawChange("annotation-changed", at, `deprecated ${!!oa.deprecated} → ${!!ob.deprecated}`));
    if (stable(oa.security ?? null) !== stable(ob.security ?? null)) out.push(rawChange("rest.security-changed", at, "operation security changed"));
    this.parameters(A, B, at, out);
    this.requestBody(oa.requestBody, ob.requestBody, at, out);
    this.responses(oa.responses, ob.responses, at, out);
    return out;
  }

  private parameters(A: Op, B: Op, at: string, out: RawChange[]): void {
    const pa = this.params(A, this.ra);
    const pb = this.params(B, this.rb);
    for (const [key, p] of pa) {
      const q = pb.get(key);
      const where = `${at} › ${String(p.in)} ${String(p.name)}`;
      if (!q) {
        out.push(rawChange("rest.parameter-removed", where, `${String(p.in)} parameter \`${String(p.name)}\` removed`));
        continue;
      }
      const there = `${at} › ${String(q.in)} ${String(q.name)}`;
      if (!p.required && q.required) out.push(rawChange("rest.parameter-made-required", there, `\`${String(q.name)}\` is now required`));
      if (p.required && !q.required) out.push(rawChange("rest.parameter-made-optional", there, `\`${String(q.name)}\` is no longer required`));
      if (p.name !== q.name) out.push(rawChange("docs-changed", there, `path parameter renamed ${String(p.name)} → ${String(q.name)} (position unchanged)`));
      if (p.description !== q.description) out.push(rawChange("description-changed", there, "parameter description changed"));
      for (const k of ["style", "explode", "allowReserved", "allowEmptyValue"]) {
        if (stable(p[k] ?? null) !== stable(q[k] ?? null)) out.push(rawChange("keyword-changed", there, `${k} ${String(p[k])} → ${String(q[k])}`));
      }
      if (!!p.deprecated !== !!q.deprecated) out.push(rawChange("annotation-changed", there, `deprecated ${!!p.deprecated} → ${!!q.deprecated}`));
      out.push(...this.schemas.compare(paramSchema(p), paramSchema(q), "request", there));
    }
    for (const [key, q] of pb) {
      if (pa.has(key)) continue;
      const where = `${at} › ${String(q.in)} ${String(q.name)}`;
      if (q.required) out.push(rawChange("rest.required-parameter-added", where, `required ${String(q.in)} parameter \`${String(q.name)}\` added`));
      else out.push(rawChange("rest.optional-parameter-added", where, `optional ${String(q.in)} parameter \`${String(q.name)}\` added`));
    }
  }

  /** Path-item and operation parameters (the operation's win), keyed by location and name (path ones by position). */
  private params(o: Op, resolver: SchemaComparer["resolvers"]["before"]): Map<string, JsonObject> {
    const list = [...(Array.isArray(o.item.parameters) ? o.item.parameters : []), ...(Array.isArray(o.op.parameters) ? o.op.parameters : [])];
    const slots = [...o.path.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]);
    const map = new Map<string, JsonObject>();
    for (const raw of list) {
      const p = resolver.deref(raw);
      if (!isObject(p)) continue;
      const name = String(p.name);
      const key = p.in === "path" ? `path:#${slots.indexOf(name)}` : `${String(p.in)}:${p.in === "header" ? name.toLowerCase() : name}`;
      map.set(key, p);
    }
    return map;
  }

  private requestBody(rawA: Json | undefined, rawB: Json | undefined, at: string, out: RawChange[]): void {
    const A = rawA === undefined ? undefined : this.ra.deref(rawA);
    const B = rawB === undefined ? undefined : this.rb.deref(rawB);
    const where = `${at} › body`;
    if (!isObject(A) && !isObject(B)) return;
    if (!isObject(A)) {
      out.push(rawChange(isObject(B) && B.required ? "rest.required-request-body-added" : "rest.optional-request-body-added", where, "request body added"));
      return;
    }
    if (!isObject(B)) {
      out.push(rawChange("rest.request-body-removed", where, "request body removed"));
      return;
    }
    if (!A.required && B.required) out.push(rawChange("rest.request-body-made-required", where, "request body is now required"));
    if (A.required && !B.required) out.push(rawChange("rest.request-body-made-optional", where, "request body is no longer required"));
    if (A.description !== B.description) out.push(rawChange("description-changed", where, "request body description changed"));
    this.content(A.content, B.content, "request", where, out);
  }

  private content(rawA: Json | undefined, rawB: Json | undefined, dir: "request" | "response", where: string, out: RawChange[]): void {
    const A = isObject(rawA) ? rawA : {};
    const B = isObject(rawB) ? rawB : {};
    const sub = (mt: string) => (mt === "application/json" ? where : `${where}[${mt}]`);
    for (const mt of Object.keys(A)) {
      if (!(mt in B)) {
        out.push(rawChange(dir === "request" ? "rest.request-media-type-removed" : "rest.response-media-type-removed", sub(mt), `content type ${mt} removed`));
        continue;
      }
      const ma = isObject(A[mt]) ? (A[mt] as JsonObject) : {};
      const mb = isObject(B[mt]) ? (B[mt] as JsonObject) : {};
      if (stable(ma.examples ?? ma.example ?? null) !== stable(mb.examples ?? mb.example ?? null)) out.push(rawChange("docs-changed", sub(mt), "examples changed"));
      out.push(...this.schemas.compare(ma.schema ?? {}, mb.schema ?? {}, dir, sub(mt)));
    }
    for (const mt of Object.keys(B)) {
      if (!(mt in A)) out.push(rawChange(dir === "request" ? "rest.request-media-type-added" : "rest.response-media-type-added", sub(mt), `content type ${mt} added`));
    }
  }

  private responses(rawA: Json | undefined, rawB: Json | undefined, at: string, out: RawChange[]): void {
    const A = isObject(rawA) ? rawA : {};
    const B = isObject(rawB) ? rawB : {};
    const success = (s: string) => /^2/.test(s);
    const removed = Object.keys(A).filter((s) => !(s in B));
    const added = Object.keys(B).filter((s) => !(s in A));
    const removedOk = removed.filter(success);
    const addedOk = added.filter(success);
    // The success code changed (e.g. 200 → 201): one change, then the bodies are compared across it.
    while (removedOk.length && addedOk.length) {
      const s = removedOk.shift()!;
      const t = addedOk.shift()!;
      out.push(rawChange("rest.success-status-changed", `${at} › ${s}→${t}`, `success status ${s} → ${t}`));
      this.response(A[s]!, B[t]!, `${at} › ${t}`, t, out);
    }
    for (const s of removed.filter((s) => !success(s)).concat(removedOk)) {
      out.push(rawChange("rest.response-status-removed", `${at} › ${s}`, `status ${s} removed`));
    }
    for (const s of addedOk) out.push(rawChange("rest.success-status-added", `${at} › ${s}`, `second success status ${s} added`));
    for (const s of added.filter((s) => !success(s))) {
      out.push(rawChange("rest.error-status-added", `${at} › ${s}`, `status ${s} added`, "Compatible only if it answers a NEW failure; if an existing failure moved here, the old status shows as removed."));
    }
    for (const s of Object.keys(A)) if (s in B) this.response(A[s]!, B[s]!, `${at} › ${s}`, s, out);
  }

  private response(rawA: Json, rawB: Json, where: string, status: string, out: RawChange[]): void {
    const A = this.ra.deref(rawA);
    const B = this.rb.deref(rawB);
    if (!isObject(A) || !isObject(B)) return;
    if (A.description !== B.description) out.push(rawChange("description-changed", where, "response description changed"));
    this.headers(A.headers, B.headers, where, out);
    const body: RawChange[] = [];
    this.content(A.content, B.content, "response", where, body);
    // An error status answering another `type` is "changing which error type a failure returns".
    const isError = /^[45]/.test(status) || status === "default";
    for (const c of body) {
      if (isError && c.rule === "response.enum-value-removed" && /\.error\.type$/.test(c.path)) {
        out.push({ ...c, rule: "rest.error-type-changed", kind: ruleOf("rest.error-type-changed").kind, message: `status ${status} no longer answers type ${c.message.replace(/^value (.*) removed$/, "$1")}` });
      } else out.push(c);
    }
  }

  private headers(rawA: Json | undefined, rawB: Json | undefined, where: string, out: RawChange[]): void {
    const lower = (h: Json | undefined) => new Map(Object.entries(isObject(h) ? h : {}).map(([k, v]) => [k.toLowerCase(), { name: k, value: v }]));
    const A = lower(rawA);
    const B = lower(rawB);
    for (const [key, { name, value }] of A) {
      const b = B.get(key);
      const at = `${where} header ${name}`;
      if (!b) {
        out.push(rawChange("rest.response-header-removed", at, `header ${name} removed`));
        continue;
      }
      const ha = this.ra.deref(value);
      const hb = this.rb.deref(b.value);
      if (!isObject(ha) || !isObject(hb)) continue;
      if (ha.required && !hb.required) out.push(rawChange("rest.response-header-made-optional", at, `header ${name} is no longer required`));
      if (ha.description !== hb.description) out.push(rawChange("description-changed", at, "header description changed"));
      out.push(...this.schemas.compare(paramSchema(ha), paramSchema(hb), "response", at));
    }
    for (const [key, { name }] of B) if (!A.has(key)) out.push(rawChange("rest.response-header-added", `${where} header ${name}`, `header ${name} added`));
  }
}

/** A parameter's or header's schema (`schema`, or the first media type's schema under `content`). */
function paramSchema(p: JsonObject): Json {
  if (p.schema !== undefined) return p.schema;
  if (isObject(p.content)) {
    const first = Object.values(p.content)[0];
    if (isObject(first) && first.schema !== undefined) return first.schema;
  }
  return {};
}
