// Hostile requests for the REST reference server, made deterministically from the OpenAPI request bodies (one
// constraint broken at a time, confirmed invalid by the generated validators) plus generic hostility: tokens,
// content types, malformed and truncated JSON, deep nesting, invalid UTF-8, duplicate keys, unknown fields,
// bad ids, wrong methods, oversized bodies and requests node:http cannot parse. Every answer must be a 4xx in
// the contract's error envelope.
import { readFileSync } from "node:fs";
import { errorTypes, schemaFor, validators } from "./rest-client.js";
import { validateErrorEnvelope } from "../../generated/rest/validators.js";
import {
  breakages,
  caseList,
  deepClosedArrays,
  deepObjects,
  deepOpenArrays,
  hugeString,
  invalidUtf8Sequences,
  malformedJson,
  resolverFor,
  seededRng,
  withDuplicateKeys,
  withInvalidUtf8,
  type FuzzCase,
  type RawAnswer,
} from "./fuzz.js";

const openapi = JSON.parse(readFileSync(new URL("../../generated/openapi/openapi.json", import.meta.url), "utf8")) as {
  paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: { $ref: string } }> } }>>;
  components: { schemas: Record<string, any> };
};
const resolve = resolverFor(openapi);

/** Records made before the fuzz, by team. */
export interface RestFixtures {
  brandA: string;
  brandA2: string;
  /** Team A's brand whose read failed (ideas answer 409). */
  brandFailed: string;
  brandB: string;
  batchA: string;
  batchB: string;
  ideaA: string;
  ideaB: string;
  /** Today on the mock's virtual clock, YYYY-MM-DD. */
  today: string;
}

/** What a case must answer beyond "a 4xx in the envelope". */
export interface RestCase extends FuzzCase {
  status?: number;
  code?: string | null;
}

const json = "application/json";
const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const A = auth("test_team_a");

interface BodyOperation {
  method: "POST" | "PATCH";
  path: string;
  template: string;
  schema: string;
  bases: Record<string, unknown>[];
  /** A free-text field of the first base (any text is valid there). */
  textKey: string;
}

function bodyOperations(f: RestFixtures): BodyOperation[] {
  const ops: BodyOperation[] = [
    {
      method: "POST",
      path: "/v1/brands",
      template: "/v1/brands",
      schema: "",
      bases: [
        { website: "https://www.fuzz-bakery.com", language: "en", country: "US", archetype: "sage", rules: { always: ["Be kind."], never: ["Prices."] } },
        { name: "Fuzz Bakery", description: "A bakery that bakes bread.", archetype: "caregiver" },
      ],
      textKey: "country",
    },
    { method: "PATCH", path: `/v1/brands/${f.brandA}`, template: "/v1/brands/{brand_id}", schema: "", bases: [{ name: "Renamed", description: "Still a bakery.", language: "en", rules: { always: ["Smile."] } }], textKey: "name" },
    { method: "POST", path: "/v1/ideas", template: "/v1/ideas", schema: "", bases: [{ brand: f.brandA, count: 3, formats: ["image", "video"], focus: "Bread", date: f.today }], textKey: "focus" },
    {
      method: "POST",
      path: "/v1/feedback",
      template: "/v1/feedback",
      schema: "",
      bases: [
        { idea: f.ideaA, outcome: "rejected", reason: "off_brand", comment: "Not us." },
        { idea: f.ideaA, outcome: "saved", comment: "Later." },
      ],
      textKey: "comment",
    },
    { method: "POST", path: "/v1/predictions", template: "/v1/predictions", schema: "", bases: [{ brand: f.brandA, drafts: [{ id: "d1", text: "Fresh bread", format: "image" }] }], textKey: "text" },
  ];
  for (const op of ops) {
    const ref = openapi.paths[op.template]![op.method.toLowerCase()]!.requestBody!.content[json]!.schema.$ref;
    op.schema = ref.slice(ref.lastIndexOf("/") + 1);
  }
  return ops;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/** The hostile requests, deterministic for a seed; at least `minimum` of them. */
export function restFuzzCases(f: RestFixtures, seed: string, minimum: number): RestCase[] {
  const rng = seededRng(seed);
  const { cases, add } = caseList<RestCase>();
  const post = (method: string, path: string, body: string | Buffer | undefined, headers: Record<string, string> = {}) => ({
    method,
    path,
    headers: { ...A, ...(body !== undefined ? { "content-type": json } : {}), ...headers },
    ...(body !== undefined ? { body } : {}),
  });

  const ops = bodyOperations(f);
  // 1. The schemas, one constraint at a time (kept only when the generated validator refuses the result).
  const broken: { op: BodyOperation; base: Record<string, unknown>; label: string; value: Record<string, unknown> | unknown }[] = [];
  for (const op of ops) {
    const validate = validators[op.schema]!;
    for (const base of op.bases) {
      if (!validate(base)) throw new Error(`fuzz base for ${op.method} ${op.template} is not a valid ${op.schema}: ${JSON.stringify(validate.errors)}`);
      for (const b of breakages(openapi.components.schemas[op.schema], base, resolve)) {
        if (validate(b.value)) continue;
        const label = `${op.method} ${op.template} ${b.where}: ${b.rule}`;
        if (add({ kind: "schema", label, request: post(op.method, op.path, JSON.stringify(b.value)), status: 400 })) broken.push({ op, base, label, value: b.value });
      }
    }
  }

  // 2. Rules beyond the schemas (blank text, dates, reason without rejection) and the state/id rules.
  const rules: [BodyOperation["path"], string, unknown, number, string | null][] = [
    ["/v1/brands", "POST", { name: "   ", description: "A bakery." }, 400, null],
    ["/v1/brands", "POST", { name: "Bakery", description: " \t " }, 400, null],
    ["/v1/brands", "POST", { website: "https://www.fuzz.com", name: "\u00a0" }, 400, null],
    [`/v1/brands/${f.brandA}`, "PATCH", { name: "  " }, 400, null],
    [`/v1/brands/${f.brandA}`, "PATCH", { description: "\n" }, 400, null],
    ["/v1/ideas", "POST", { brand: f.brandA, focus: "   " }, 400, null],
    ["/v1/ideas", "POST", { brand: f.brandA, date: "2020-01-01" }, 400, null],
    ["/v1/ideas", "POST", { brand: f.brandA, date: "2999-12-31" }, 400, null],
    ["/v1/ideas", "POST", { brand: f.brandA, date: "2026-02-29" }, 400, null],
    ["/v1/feedback", "POST", { idea: f.ideaA, outcome: "saved", reason: "off_brand" }, 400, null],
    ["/v1/feedback", "POST", { idea: f.ideaA, outcome: "posted", reason: "other" }, 400, null],
    ["/v1/feedback", "POST", { idea: f.ideaA, outcome: "constructor" }, 400, null],
    ["/v1/feedback", "POST", { idea: f.ideaA, outcome: "__proto__" }, 400, null],
    ["/v1/feedback", "POST", { idea: f.ideaA, outcome: "toString" }, 400, null],
    ["/v1/feedback", "POST", { idea: f.ideaA, outcome: "hasOwnProperty" }, 400, null],
    ["/v1/ideas", "POST", { brand: "brand_unknown0000" }, 404, null],
    ["/v1/ideas", "POST", { brand: f.brandB }, 403, null],
    ["/v1/ideas", "POST", { brand: f.brandFailed }, 409, "brand_not_ready"],
    ["/v1/predictions", "POST", { brand: "brand_unknown0000", drafts: [{ text: "x" }] }, 404, null],
    ["/v1/predictions", "POST", { brand: f.brandB, drafts: [{ text: "x" }] }, 403, null],
    ["/v1/predictions", "POST", { brand: f.brandFailed, drafts: [{ text: "x" }] }, 409, "brand_not_ready"],
    ["/v1/feedback", "POST", { idea: "idea_unknown0001", outcome: "saved" }, 404, null],
    ["/v1/feedback", "POST", { idea: `${f.ideaA.slice(0, -2)}99`, outcome: "saved" }, 404, null],
    ["/v1/feedback", "POST", { idea: `${f.ideaA.slice(0, -2)}00`, outcome: "saved" }, 404, null],
    ["/v1/feedback", "POST", { idea: f.ideaB, outcome: "saved" }, 403, null],
    [`/v1/brands/${f.brandB}`, "PATCH", { name: "Taken over" }, 403, null],
  ];
  for (const [path, method, body, status, code] of rules) {
    add({ kind: status === 400 ? "rule" : "id", label: `${method} ${path} ${JSON.stringify(body).slice(0, 60)}`, request: post(method, path, JSON.stringify(body)), status, ...(code ? { code } : {}) });
  }

  // 3. Generic hostility per operation with a body.
  const contentTypes = [
    null,
    "text/plain",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=xyz",
    "application/json; charset=latin1",
    "application/json; charset=utf-16",
    "application/jsonp",
    "application/json-patch+json",
    "application/*",
    "*/*",
    "json",
    "text/json",
  ];
  const tokens: (string | null)[] = [
    null,
    "Bearer",
    "Bearer ",
    "Basic dGVzdF90ZWFtX2E6",
    "Bearer test_expired",
    "Bearer test_unknown",
    "Bearer not-a-token",
    "Bearer test_team_a test_team_b",
    "Token test_team_a",
    "Bearer TEST_TEAM_A",
    "Bearer test_team_",
    `Bearer ${"t".repeat(4096)}`,
    "Bearer test_team_a,Bearer test_team_b",
  ];
  for (const op of ops) {
    const base = op.bases[0]!;
    const text = JSON.stringify(base);
    const at = `${op.method} ${op.template}`;
    for (const body of ["", " ", "\r\n"]) add({ kind: "empty", label: `${at} empty body ${JSON.stringify(body)}`, request: post(op.method, op.path, body), status: 400, code: "malformed_json" });
    add({ kind: "empty", label: `${at} no body at all`, request: { method: op.method, path: op.path, headers: { ...A, "content-type": json } }, status: 400, code: "malformed_json" });
    for (const bad of malformedJson(text, rng)) add({ kind: "json", label: `${at} malformed ${JSON.stringify(bad.slice(0, 30))}`, request: post(op.method, op.path, bad), status: 400, code: "malformed_json" });
    for (const notObject of ["null", "[]", "42", '"text"', "true", "[{}]", JSON.stringify([base])])
      add({ kind: "json", label: `${at} body ${notObject.slice(0, 20)}`, request: post(op.method, op.path, notObject), status: 400, code: "malformed_json" });
    add({ kind: "nesting", label: `${at} 10,000 × [ (open)`, request: post(op.method, op.path, deepOpenArrays), status: 400, code: "malformed_json" });
    add({ kind: "nesting", label: `${at} 10,000 × [ ] (closed)`, request: post(op.method, op.path, deepClosedArrays), status: 400, code: "malformed_json" });
    const firstKey = Object.keys(base)[0]!;
    add({ kind: "nesting", label: `${at} ${firstKey} = 10,000 nested arrays`, request: post(op.method, op.path, `{"${firstKey}":${deepClosedArrays}}`), status: 400 });
    add({ kind: "nesting", label: `${at} ${firstKey} = 10,000 nested objects`, request: post(op.method, op.path, `{"${firstKey}":${deepObjects}}`), status: 400 });
    add({ kind: "nesting", label: `${at} unknown field of 10,000 nested objects beside a broken ${firstKey}`, request: post(op.method, op.path, `{"${firstKey}":12345,"deep":${deepObjects}}`), status: 400 });
    for (const bytes of invalidUtf8Sequences)
      add({ kind: "utf8", label: `${at} bytes ${bytes.toString("hex")} in a string`, request: post(op.method, op.path, withInvalidUtf8(text, bytes, op.textKey)), status: 400, code: "malformed_json" });
    for (const ct of contentTypes) {
      const headers: Record<string, string> = { ...A };
      if (ct !== null) headers["content-type"] = ct;
      add({ kind: "content-type", label: `${at} valid body as ${ct ?? "no content type"}`, request: { method: op.method, path: op.path, headers, body: text }, status: 400, code: "unsupported_content_type" });
    }
    for (const token of tokens) {
      const headers: Record<string, string> = { "content-type": json };
      if (token !== null) headers.authorization = token;
      add({ kind: "token", label: `${at} valid body with ${token === null ? "no token" : token.slice(0, 40)}`, request: { method: op.method, path: op.path, headers, body: text }, status: 401 });
    }
    add({ kind: "size", label: `${at} 1.1 MB body`, request: post(op.method, op.path, JSON.stringify({ ...base, padding: "p".repeat(1_100_000) })), status: 413 });
    add({ kind: "size", label: `${at} 100 KB string in every text field`, request: post(op.method, op.path, JSON.stringify(Object.fromEntries(Object.entries(base).map(([k, v]) => [k, typeof v === "string" ? hugeString : v])))), status: 400 });
  }

  // Duplicate keys (valid value first, broken one last) and unknown fields beside a broken constraint.
  for (const b of broken) {
    if (!isObject(b.value)) continue;
    const value = b.value;
    const changed = Object.fromEntries(Object.entries(value).filter(([k, v]) => JSON.stringify(v) !== JSON.stringify(b.base[k])));
    const removed = Object.keys(b.base).some((k) => !(k in value));
    const validate = validators[b.op.schema]!;
    if (!removed && Object.keys(changed).length && rng.chance(0.5)) {
      const raw = withDuplicateKeys(b.base, changed);
      if (!validate(JSON.parse(raw))) add({ kind: "duplicate-keys", label: `${b.label} (duplicate key, broken value last)`, request: post(b.op.method, b.op.path, raw), status: 400 });
    }
    if (rng.chance(0.3)) {
      const extra = { ...value, unknown_field: rng.pick([1, "x", null, { a: [1] }]), [`x_${rng.int(1000)}`]: true };
      if (!validate(extra)) add({ kind: "unknown-field", label: `${b.label} (+ unknown fields)`, request: post(b.op.method, b.op.path, JSON.stringify(extra)), status: 400 });
    }
  }

  // 4. Ids in the path, methods, routes.
  const badIds = [
    "brand_",
    "brand_unknown0000",
    "BRAND_abc",
    "brand_abc-def",
    "brand_%C3%A9t%C3%A9",
    "%00",
    "%E0%A4%A",
    "%",
    "..",
    "brand_a%2Fb",
    `brand_${"a".repeat(10_000)}`,
    "batch_abc",
    "idea_abc01",
    "null",
    "undefined",
    "constructor",
    "__proto__",
    "%20brand_abc",
  ];
  for (const id of badIds) {
    add({ kind: "bad-id", label: `GET brand ${id.slice(0, 30)}`, request: { method: "GET", path: `/v1/brands/${id}`, headers: A }, status: 404 });
    add({ kind: "bad-id", label: `PATCH brand ${id.slice(0, 30)}`, request: post("PATCH", `/v1/brands/${id}`, JSON.stringify({ name: "X" })), status: 404 });
    const batchId = id.replace(/^brand_/, "batch_");
    add({ kind: "bad-id", label: `GET batch ${batchId.slice(0, 30)}`, request: { method: "GET", path: `/v1/ideas/${batchId}`, headers: A }, status: 404 });
  }
  add({ kind: "bad-id", label: "GET another team's brand", request: { method: "GET", path: `/v1/brands/${f.brandB}`, headers: A }, status: 403 });
  add({ kind: "bad-id", label: "GET another team's batch", request: { method: "GET", path: `/v1/ideas/${f.batchB}`, headers: A }, status: 403 });
  add({ kind: "bad-id", label: "GET a batch id as a brand id", request: { method: "GET", path: `/v1/brands/${f.batchA}`, headers: A }, status: 404 });
  add({ kind: "bad-id", label: "GET a brand id as a batch id", request: { method: "GET", path: `/v1/ideas/${f.brandA}`, headers: A }, status: 404 });
  for (const [path, methods] of [
    ["/v1/brands", ["GET", "PUT", "DELETE", "PATCH", "OPTIONS"]],
    [`/v1/brands/${f.brandA}`, ["POST", "PUT", "DELETE", "OPTIONS"]],
    ["/v1/ideas", ["GET", "PUT", "DELETE", "PATCH"]],
    [`/v1/ideas/${f.batchA}`, ["POST", "PUT", "DELETE", "PATCH"]],
    ["/v1/feedback", ["GET", "PUT", "DELETE"]],
    ["/v1/predictions", ["GET", "PUT", "DELETE"]],
  ] as const) {
    for (const method of methods) add({ kind: "method", label: `${method} ${path}`, request: { method, path, headers: A }, status: 405, code: "method_not_allowed" });
  }
  for (const path of ["/", "/v1", "/v1/", "/v2/brands", "/v1/brand", "/v1/brands/", `/v1/brands/${f.brandA}/ideas`, "/v1/ideas/", "//v1/brands", "/V1/BRANDS", "*", "/v1/brands/../ideas"])
    // `*` names no resource: it is the asterisk form, for OPTIONS only (RFC 9112 §3.2.4), so a GET of it is malformed.
    add({ kind: "route", label: `GET ${path}`, request: { method: "GET", path, headers: A }, status: path === "*" ? 400 : 404 });

  // 5. Requests node:http cannot parse, sent as raw bytes (answered by the server's clientError handler).
  const rawCases: [string, string][] = [
    ["broken request line", "GARBAGE\r\n\r\n"],
    ["header without a colon", "GET /v1/brands/brand_x HTTP/1.1\r\nHost: x\r\nNoColonHere\r\n\r\n"],
    ["Content-Length not a number", "POST /v1/brands HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer test_team_a\r\nContent-Type: application/json\r\nContent-Length: abc\r\n\r\n{}"],
    [
      "Content-Length and Transfer-Encoding together",
      "POST /v1/brands HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer test_team_a\r\nContent-Type: application/json\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
    ],
    ["broken chunked body", "POST /v1/brands HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer test_team_a\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n{}\r\n0\r\n\r\n"],
    ["100 KB path", `GET /v1/brands/brand_${"a".repeat(100_000)} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer test_team_a\r\n\r\n`],
    ["100 KB token", `GET /v1/brands/${f.brandA} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${"t".repeat(100_000)}\r\n\r\n`],
    ["declared 20 MB body, 2 bytes sent", "POST /v1/brands HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer test_team_a\r\nContent-Type: application/json\r\nContent-Length: 20000000\r\n\r\n{}"],
    ["HTTP/9.9", "GET /v1/brands/brand_x HTTP/9.9\r\nHost: x\r\n\r\n"],
    ["NUL in the path", "GET /v1/brands/brand_\u0000x HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer test_team_a\r\n\r\n"],
  ];
  for (const [label, raw] of rawCases) add({ kind: "raw-http", label, raw });

  // 6. Fill up to the minimum with seeded variations of schema breakages: unknown fields, duplicate keys, the
  // other team's token (fields are checked before ids: still 400), content-type spellings that are valid.
  for (let attempts = 0; cases.length < minimum && attempts < minimum * 20; attempts++) {
    const b = rng.pick(broken);
    if (!isObject(b.value)) continue;
    const validate = validators[b.op.schema]!;
    const variant = rng.int(4);
    if (variant === 0) {
      const extra = { [`unknown_${rng.int(1_000_000)}`]: rng.pick([0, "", [], {}, false, hugeString.slice(0, 1 + rng.int(2000))]), ...b.value };
      if (!validate(extra)) add({ kind: "unknown-field", label: `${b.label} (+ unknown field)`, request: post(b.op.method, b.op.path, JSON.stringify(extra)), status: 400 });
    } else if (variant === 1) {
      const text = JSON.stringify(b.value, null, rng.int(4));
      add({ kind: "schema", label: `${b.label} (indented ${text.length})`, request: post(b.op.method, b.op.path, text), status: 400 });
    } else if (variant === 2 && b.op.method === "POST") {
      // (PATCH resolves its path id first, so another team's token answers 403 there, not 400.)
      const token = rng.pick(["test_team_b", "test_team_a"]);
      add({ kind: "schema", label: `${b.label} (as ${token}, no-op header x-${rng.int(1e6)})`, request: post(b.op.method, b.op.path, JSON.stringify(b.value), { ...auth(token), [`x-fuzz-${rng.int(1e6)}`]: "1" }), status: 400 });
    } else if (variant === 3) {
      const ct = rng.pick(["Application/JSON", "application/json; charset=utf-8", "application/json;charset=UTF8", 'application/json; charset="utf-8"']);
      add({ kind: "schema", label: `${b.label} (${ct}, ${rng.int(1e6)})`, request: { ...post(b.op.method, b.op.path, JSON.stringify(b.value)), headers: { ...A, "content-type": ct, "x-variant": String(rng.int(1e9)) } }, status: 400 });
    }
  }
  return cases;
}

/** Why an answer breaks the rule (a 4xx in the envelope valid against the contract), or undefined. */
export function checkRestAnswer(c: RestCase, a: RawAnswer): string | undefined {
  if (a.status < 400 || a.status > 499) return `status ${a.status} is not a 4xx`;
  if (c.status !== undefined && a.status !== c.status) return `status ${a.status}, expected ${c.status}`;
  if (!/^application\/json/.test(String(a.headers["content-type"] ?? ""))) return `content type ${a.headers["content-type"]}`;
  let body: unknown;
  try {
    body = JSON.parse(a.text);
  } catch {
    return "body is not JSON";
  }
  const method = c.request?.method ?? "GET";
  const path = (c.request?.path ?? "/").split("?")[0]!;
  const schema = schemaFor(method, path, a.status) ?? "ErrorEnvelope";
  const validate = validators[schema]!;
  if (!validate(body)) return `not a valid ${schema}: ${JSON.stringify(validate.errors?.[0])}`;
  if (!validateErrorEnvelope(body)) return "not the error envelope";
  if (body.error.type !== errorTypes[a.status]) return `type ${body.error.type} for ${a.status}`;
  if (c.code !== undefined && body.error.code !== c.code) return `code ${body.error.code}, expected ${c.code}`;
  if (a.status === 429) return "rate limited: the fuzz ran into the limit instead of the checks";
  return undefined;
}
