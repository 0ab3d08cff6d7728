// Hostile requests for the MCP gateway mock, made deterministically from the tools' inputSchemas (one constraint
// broken at a time, confirmed invalid by the generated input validators) plus ids nobody has or another tenant
// owns, impossible times, and generic hostility at the HTTP and JSON-RPC levels: tokens, scopes, content types,
// Accept, methods, malformed and truncated JSON, 10,000-level nesting, invalid UTF-8, duplicate keys, unknown
// arguments, batches, oversized bodies and unparseable HTTP. Every answer must be a refusal: HTTP 4xx, a
// JSON-RPC error, or an isError result with text (an envelope in it valid against the tool's result schema and
// never internal_error) — never a 5xx, a success, a hang or a crash.
import { toolsManifest } from "../../entry/tools.js";
import { inputValidators, type ValidateFunction } from "../../generated/mcp/validators.js";
import { strictResultValidators } from "../../generated/mcp/validators-strict.js";
import { at, fieldsAt } from "./json.js";
import { isEnvelope } from "./mcp-client.js";
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
  sample,
  seededRng,
  withDuplicateKeys,
  withInvalidUtf8,
  type FuzzCase,
  type RawAnswer,
} from "./fuzz.js";

export const mcpTools = toolsManifest.tools;
const inputs = inputValidators as Readonly<Record<string, ValidateFunction>>;
// Strict: these answers come from our own mock, which sends only documented values.
const results = strictResultValidators as Readonly<Record<string, ValidateFunction>>;
export const isWriteTool = (name: string) => mcpTools.find((t) => t.name === name)?.annotations?.readOnlyHint === false;
export const isPartnerOnly = (name: string) => mcpTools.find((t) => t.name === name)?._meta["ideas-contract/contract"].partnerOnly === true;

/** Records made before the fuzz. */
export interface McpFixtures {
  workspace: string;
  brand: string;
  post: string;
  post2: string;
  digest: string;
  batch: string;
  job: string;
  media: string;
  /** The partner's client brand (made by create_profile). */
  partnerBrand: string;
  /** Another tenant's (mcp_other_user) records. */
  otherWorkspace: string;
  otherBrand: string;
  otherPost: string;
  otherBatch: string;
}

/** What a case must answer. */
export interface McpCase extends FuzzCase {
  /** The tool called, when one is (its result schema checks an envelope). */
  tool?: string;
  /** http: an HTTP 4xx (optionally exactly `status`); rpc: a JSON-RPC error or refusal; envelope: an isError envelope with one of `codes`. */
  expect: "http" | "refusal" | "envelope";
  status?: number;
  codes?: string[];
}

const headers = (token: string | null, extra: Record<string, string> = {}): Record<string, string> => ({
  ...(token !== null ? { authorization: `Bearer ${token}` } : {}),
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  ...extra,
});
const rpc = (name: string, args: unknown, id: unknown = 1) => JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } });

/** Valid arguments of each tool on the fixtures (sampled from the schema, ids replaced with real ones). */
export function baseArguments(f: McpFixtures): Record<string, Record<string, unknown>> {
  const idFor: Record<string, string> = { brandId: f.brand, id: f.post, postId: f.post, batchId: f.batch, jobId: f.job, workspaceId: f.workspace, platformPostId: "pp_0000000000000000" };
  const overrides: Record<string, Record<string, unknown>> = {
    approve_post: { contentDigest: f.digest },
    create_profile: { websiteUrl: "https://www.fuzz-client.com", name: "Fuzz Client", externalId: "fuzz-client-1" },
    deactivate_profile: { brandId: f.partnerBrand },
    delete_profile: { brandId: f.partnerBrand, confirm: true },
    create_posts: { brief: "Fresh bread this week", count: 2, platforms: ["INSTAGRAM"], scheduledAt: "2026-12-01T09:30:00Z" },
    create_draft: { caption: "Fresh bread", platforms: ["INSTAGRAM"] },
    update_post: { caption: "A new caption" },
    upload_image: { sourceUrl: "https://cdn.example.com/shot-4x5.jpg" },
    upload_brand_logo: { sourceUrl: "https://cdn.example.com/logo.png" },
    generate_caption: { instructions: "Shorter" },
    generate_image: { prompt: "A loaf", saveToLibrary: false },
    regenerate_post_image: { prompt: "A loaf", imageIndex: 0 },
    reject_post: { reason: "Off brand" },
    create_connect_link: { platform: "instagram", returnUrl: "https://partner.example.com/back" },
    publish_post_now: { platforms: ["INSTAGRAM"] },
    unpublish_post: { platforms: ["INSTAGRAM"] },
    get_workspaces: { query: "harbour", limit: 10 },
  };
  const out: Record<string, Record<string, unknown>> = {};
  for (const tool of mcpTools) {
    const sampled = sample(tool.inputSchema, resolverFor(tool.inputSchema)) as Record<string, unknown>;
    for (const key of Object.keys(sampled)) if (key in idFor) sampled[key] = idFor[key];
    const args = { ...sampled, ...overrides[tool.name] };
    if (tool.name === "reschedule_posts") args.moves = [{ postId: f.post, scheduledAt: "2026-12-01T09:30:00Z" }];
    if (tool.name === "update_post") delete args.reddit;
    const validate = inputs[tool.name]!;
    if (!validate(args)) throw new Error(`fuzz base for ${tool.name} is not valid: ${JSON.stringify(validate.errors)} ${JSON.stringify(args)}`);
    out[tool.name] = args;
  }
  return out;
}

/** The token a tool is fuzzed with: the partner's for partner-only tools, the user's otherwise. */
const tokenFor = (tool: string) => (isPartnerOnly(tool) ? "mcp_partner" : "mcp_user");

/** The hostile requests, deterministic for a seed; at least `minimum` of them. */
export function mcpFuzzCases(f: McpFixtures, seed: string, minimum: number): McpCase[] {
  const rng = seededRng(seed);
  const bases = baseArguments(f);
  const { cases, add } = caseList<McpCase>();
  const call = (tool: string, body: string | Buffer, token: string | null = tokenFor(tool), extra: Record<string, string> = {}) => ({
    method: "POST",
    path: "/mcp",
    headers: headers(token, extra),
    body,
  });

  // 1. Every tool's inputSchema, one constraint at a time: the SDK-style refusal (text, no envelope).
  const broken: { tool: string; label: string; value: Record<string, unknown> }[] = [];
  for (const tool of mcpTools) {
    const validate = inputs[tool.name]!;
    const base = bases[tool.name]!;
    for (const b of breakages(tool.inputSchema, base, resolverFor(tool.inputSchema))) {
      if (validate(b.value)) continue;
      const label = `${tool.name} ${b.where}: ${b.rule}`;
      if (add({ kind: "schema", label, tool: tool.name, expect: "refusal", request: call(tool.name, rpc(tool.name, b.value, rng.int(1e6))) }) && b.value && typeof b.value === "object" && !Array.isArray(b.value))
        broken.push({ tool: tool.name, label, value: b.value as Record<string, unknown> });
    }
  }

  // 2. Ids nobody has, another tenant's ids, impossible times: refused in the envelope.
  const unknownIds = ["00000000-0000-4000-8000-000000000000", "nope", "../../etc/passwd", "%00", "constructor", "__proto__", hugeString.slice(0, 10_000), "\u0000"];
  const idKeys = ["brandId", "id", "postId", "batchId", "jobId", "workspaceId"];
  for (const tool of mcpTools) {
    const base = bases[tool.name]!;
    for (const key of idKeys.filter((k) => k in base)) {
      for (const id of unknownIds) {
        const args = { ...base, [key]: id };
        if (!inputs[tool.name]!(args)) continue; // a UUID-only field: that is a schema case
        add({ kind: "unknown-id", label: `${tool.name} ${key}=${id.slice(0, 24)}`, tool: tool.name, expect: "envelope", codes: ["not_found", "forbidden", "bad_request"], request: call(tool.name, rpc(tool.name, args)) });
      }
      const other = { brandId: f.otherBrand, id: f.otherPost, postId: f.otherPost, batchId: f.otherBatch, workspaceId: f.otherWorkspace }[key];
      if (other && !isPartnerOnly(tool.name) && tool.name !== "reschedule_posts")
        add({ kind: "other-tenant", label: `${tool.name} ${key} of another tenant`, tool: tool.name, expect: "envelope", codes: ["forbidden", "not_found"], request: call(tool.name, rpc(tool.name, { ...base, [key]: other })) });
    }
  }
  // Values named like Object.prototype members where an open set of names is accepted (channels, destinations).
  for (const tool of mcpTools) {
    for (const key of ["platform", "platforms", "removePlatforms"]) {
      if (!(key in (fieldsAt(tool.inputSchema, "properties") ?? {}))) continue;
      for (const name of ["constructor", "__proto__", "toString", "hasOwnProperty", "CONSTRUCTOR", "__PROTO__"]) {
        const args = { ...bases[tool.name], [key]: key === "platform" ? name : [name] };
        if (inputs[tool.name]!(args)) add({ kind: "prototype-name", label: `${tool.name} ${key}=${name}`, tool: tool.name, expect: "envelope", request: call(tool.name, rpc(tool.name, args)) });
      }
    }
  }
  for (const when of ["2026-13-45T99:00:00Z", "2026-00-00T00:00:00Z", "9999-99-99T99:99:99+99:99"]) {
    for (const tool of ["schedule_post", "create_posts", "update_post", "create_draft"]) {
      const args = { ...bases[tool], scheduledAt: when };
      if (inputs[tool]!(args)) add({ kind: "bad-time", label: `${tool} scheduledAt ${when}`, tool, expect: "envelope", codes: ["bad_request"], request: call(tool, rpc(tool, args)) });
    }
  }

  // 3. Generic hostility at the HTTP and JSON-RPC levels.
  const probe = "get_profile";
  const valid = rpc(probe, bases[probe]);
  const tokens: [string, string | null, number][] = [
    ["no Authorization", null, 401],
    ["Bearer alone", "", 401],
    ["expired token", "mcp_expired", 401],
    ["unknown token", "mcp_nobody", 401],
    ["token in capitals", "MCP_USER", 401],
    ["two tokens", "mcp_user mcp_partner", 401],
    ["4 KB token", "t".repeat(4096), 401],
  ];
  for (const [label, token, status] of tokens) {
    for (const tool of [probe, "create_posts", "view_post"]) {
      const h = headers(null);
      if (token !== null) h.authorization = `Bearer ${token}`;
      add({ kind: "token", label: `${tool} with ${label}`, expect: "http", status, request: { method: "POST", path: "/mcp", headers: h, body: rpc(tool, bases[tool]) } });
    }
  }
  add({ kind: "token", label: "Basic credentials", expect: "http", status: 401, request: { method: "POST", path: "/mcp", headers: headers(null, { authorization: "Basic bWNwX3VzZXI6" }), body: valid } });
  for (const tool of mcpTools.filter((t) => isWriteTool(t.name) && !isPartnerOnly(t.name))) {
    add({ kind: "scope", label: `${tool.name} with a read-only token`, expect: "http", status: 403, request: call(tool.name, rpc(tool.name, bases[tool.name]), "mcp_readonly") });
  }
  for (const tool of mcpTools.filter((t) => isPartnerOnly(t.name))) {
    add({ kind: "visibility", label: `${tool.name} (partner-only) with a user token`, tool: tool.name, expect: "refusal", request: call(tool.name, rpc(tool.name, bases[tool.name]), "mcp_user") });
  }
  for (const tool of ["get_profile", "create_posts", "list_brands"]) {
    add({ kind: "visibility", label: `${tool} with an unconfigured partner`, tool, expect: "envelope", codes: ["partner_not_found"], request: call(tool, rpc(tool, bases[tool]), "mcp_partner_unconfigured") });
  }
  for (const name of ["nope", "", "__proto__", "constructor", "toString", "GET_PROFILE", "get_profile ", "tools/call", hugeString.slice(0, 5000)]) {
    add({ kind: "unknown-tool", label: `tool ${JSON.stringify(name.slice(0, 20))}`, expect: "refusal", request: call(probe, rpc(name, {})) });
  }
  for (const [label, ct] of [["no content type", null], ["text/plain", "text/plain"], ["form", "application/x-www-form-urlencoded"], ["multipart", "multipart/form-data; boundary=x"], ["xml", "application/xml"]] as const) {
    const h = headers("mcp_user");
    if (ct === null) delete h["content-type"];
    else h["content-type"] = ct;
    add({ kind: "content-type", label: `valid call as ${label}`, expect: "http", status: 415, request: { method: "POST", path: "/mcp", headers: h, body: valid } });
  }
  for (const [label, accept] of [["no Accept", null], ["JSON only", "application/json"], ["SSE only", "text/event-stream"], ["text/html", "text/html"]] as const) {
    const h = headers("mcp_user");
    if (accept === null) delete h.accept;
    else h.accept = accept;
    add({ kind: "accept", label: `valid call with ${label}`, expect: "http", status: 406, request: { method: "POST", path: "/mcp", headers: h, body: valid } });
  }
  for (const method of ["GET", "PUT", "DELETE", "PATCH", "OPTIONS"]) {
    add({ kind: "method", label: `${method} /mcp`, expect: "http", status: 405, request: { method, path: "/mcp", headers: headers("mcp_user"), ...(method === "GET" || method === "OPTIONS" ? {} : { body: valid }) } });
  }
  for (const path of ["/", "/mcp/", "/MCP", "/mcp/extra", "/sse", "/messages", "/images/..%2F..%2Fetc%2Fpasswd.png", "/images/%E0%A4%A.png", "/brand-assets/nope.png", "/connect/nope", "/connect/%00", "*"]) {
    add({ kind: "route", label: `GET ${path}`, expect: "http", request: { method: "GET", path, headers: headers("mcp_user") } });
  }
  // JSON-RPC shapes.
  const shapes: [string, unknown][] = [
    ["no jsonrpc", { id: 1, method: "tools/call", params: { name: probe, arguments: bases[probe] } }],
    ["jsonrpc 1.0", { jsonrpc: "1.0", id: 1, method: "tools/call", params: { name: probe, arguments: bases[probe] } }],
    ["id is an object", { jsonrpc: "2.0", id: { a: 1 }, method: "tools/call", params: { name: probe, arguments: bases[probe] } }],
    ["id is an array", { jsonrpc: "2.0", id: [1], method: "tools/call", params: { name: probe, arguments: bases[probe] } }],
    ["id is a float", { jsonrpc: "2.0", id: 1.5, method: "tools/call", params: { name: probe, arguments: bases[probe] } }],
    ["no method", { jsonrpc: "2.0", id: 1, params: { name: probe, arguments: bases[probe] } }],
    ["method is a number", { jsonrpc: "2.0", id: 1, method: 5, params: {} }],
    ["unknown method", { jsonrpc: "2.0", id: 1, method: "tools/nope", params: {} }],
    ["resources/list (not offered)", { jsonrpc: "2.0", id: 1, method: "resources/list", params: {} }],
    ["params is an array", { jsonrpc: "2.0", id: 1, method: "tools/call", params: [probe] }],
    ["params is a string", { jsonrpc: "2.0", id: 1, method: "tools/call", params: "x" }],
    ["no params", { jsonrpc: "2.0", id: 1, method: "tools/call" }],
    ["no name", { jsonrpc: "2.0", id: 1, method: "tools/call", params: { arguments: bases[probe] } }],
    ["name is a number", { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: 5, arguments: {} } }],
    ["name is null", { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: null, arguments: {} } }],
    ["arguments is an array", { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: probe, arguments: [f.brand] } }],
    ["arguments is a string", { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: probe, arguments: f.brand } }],
    ["arguments is null", { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: probe, arguments: null } }],
    ["no arguments (required missing)", { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: probe } }],
    ["a response, not a request", { jsonrpc: "2.0", id: 1, error: { code: 1, message: "x" }, result: {} }],
    ["empty object", {}],
    ["empty batch", []],
    ["batch of numbers", [1, 2, 3]],
    ["batch of two broken calls", [JSON.parse(rpc(probe, { brandId: 5 }, 1)), JSON.parse(rpc("view_post", {}, 2))]],
  ];
  for (const [label, message] of shapes) add({ kind: "json-rpc", label, expect: "refusal", request: call(probe, JSON.stringify(message)) });
  // Bodies.
  for (const body of ["", " ", "\r\n"]) add({ kind: "empty", label: `empty body ${JSON.stringify(body)}`, expect: "http", status: 400, request: call(probe, body) });
  for (const bad of malformedJson(valid, rng)) add({ kind: "json", label: `malformed ${JSON.stringify(bad.slice(0, 30))}`, expect: "refusal", request: call(probe, bad) });
  for (const bad of ["null", "42", '"text"', "true"]) add({ kind: "json", label: `body ${bad}`, expect: "refusal", request: call(probe, bad) });
  add({ kind: "nesting", label: "10,000 × [ (open)", expect: "http", status: 400, request: call(probe, deepOpenArrays) });
  add({ kind: "nesting", label: "10,000 × [ ] (closed)", expect: "refusal", request: call(probe, deepClosedArrays) });
  add({ kind: "nesting", label: "10,000 nested objects as the body", expect: "refusal", request: call(probe, deepObjects) });
  add({ kind: "nesting", label: "10,000 nested objects as the id", expect: "refusal", request: call(probe, `{"jsonrpc":"2.0","id":${deepObjects},"method":"tools/call","params":{"name":"${probe}","arguments":{}}}`) });
  for (const tool of ["get_profile", "create_posts", "update_post", "view_post"]) {
    const key = Object.keys(bases[tool]!)[0]!;
    const args = JSON.stringify(bases[tool]).slice(1, -1);
    add({ kind: "nesting", label: `${tool} ${key} = 10,000 nested arrays`, tool, expect: "refusal", request: call(tool, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"${tool}","arguments":{${args},"${key}":${deepClosedArrays}}}}`) });
    add({ kind: "nesting", label: `${tool} unknown argument of 10,000 nested objects`, tool, expect: "refusal", request: call(tool, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"${tool}","arguments":{${args},"deep":${deepObjects}}}}`) });
  }
  for (const [tool, key] of [["create_posts", "brief"], ["update_post", "caption"], ["create_draft", "caption"], ["get_workspaces", "query"], ["reject_post", "reason"]] as const) {
    for (const bytes of invalidUtf8Sequences)
      add({ kind: "utf8", label: `${tool} ${key} with bytes ${bytes.toString("hex")}`, expect: "http", status: 400, request: call(tool, withInvalidUtf8(rpc(tool, bases[tool]), bytes, key)) });
  }
  add({ kind: "size", label: "1.1 MB body", expect: "http", status: 413, request: call("create_posts", rpc("create_posts", { ...bases.create_posts, brief: "b".repeat(1_100_000) })) });
  add({ kind: "size", label: "5 MB body", expect: "http", status: 413, request: call("create_posts", rpc("create_posts", { ...bases.create_posts, brief: "b".repeat(5_000_000) })) });
  for (const tool of ["create_posts", "update_post", "create_draft", "reject_post", "get_workspaces", "create_profile"]) {
    const args = Object.fromEntries(Object.entries(bases[tool]!).map(([k, v]) => [k, typeof v === "string" && !/Id$|^id$/.test(k) ? hugeString : v]));
    if (!inputs[tool]!(args)) add({ kind: "size", label: `${tool} with 100 KB in every text argument`, tool, expect: "refusal", request: call(tool, rpc(tool, args)) });
  }
  // Duplicate keys (valid first, broken last), unknown arguments beside a broken one (including __proto__).
  for (const b of broken) {
    const base = bases[b.tool]!;
    const changed = Object.fromEntries(Object.entries(b.value).filter(([k, v]) => JSON.stringify(v) !== JSON.stringify(base[k])));
    const removed = Object.keys(base).some((k) => !(k in b.value));
    if (!removed && Object.keys(changed).length && rng.chance(0.25)) {
      const args = withDuplicateKeys(base, changed);
      if (!inputs[b.tool]!(JSON.parse(args)))
        add({ kind: "duplicate-keys", label: `${b.label} (duplicate key, broken value last)`, tool: b.tool, expect: "refusal", request: call(b.tool, `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"${b.tool}","arguments":${args}}}`) });
    }
    if (rng.chance(0.1)) {
      const text = JSON.stringify(b.value);
      const proto = '"__proto__":{"polluted_by_fuzz":true}';
      const args = text === "{}" ? `{${proto}}` : text.replace(/^\{/, `{${proto},`);
      add({ kind: "prototype", label: `${b.label} (+ __proto__ argument)`, tool: b.tool, expect: "refusal", request: call(b.tool, `{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"${b.tool}","arguments":${args}}}`) });
    }
  }

  // 4. Requests node:http cannot parse.
  const rawCases: [string, string][] = [
    ["broken request line", "GARBAGE\r\n\r\n"],
    ["header without a colon", "POST /mcp HTTP/1.1\r\nHost: x\r\nNoColon\r\n\r\n"],
    ["Content-Length not a number", "POST /mcp HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer mcp_user\r\nContent-Type: application/json\r\nContent-Length: abc\r\n\r\n{}"],
    ["Content-Length and Transfer-Encoding together", "POST /mcp HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer mcp_user\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"],
    ["100 KB path", `POST /mcp?${"a".repeat(100_000)} HTTP/1.1\r\nHost: x\r\n\r\n`],
    ["declared 20 MB body, 2 bytes sent", "POST /mcp HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer mcp_user\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 20000000\r\n\r\n{}"],
  ];
  for (const [label, raw] of rawCases) add({ kind: "raw-http", label, expect: "http", raw });

  // 5. Fill up to the minimum with seeded variations of the schema breakages.
  for (let attempts = 0; cases.length < minimum && attempts < minimum * 20; attempts++) {
    const b = rng.pick(broken);
    const variant = rng.int(3);
    if (variant === 0) {
      const args = { [`unknown_${rng.int(1e6)}`]: rng.pick([0, "", [], {}, null, true]), ...b.value };
      add({ kind: "unknown-argument", label: `${b.label} (+ unknown argument)`, tool: b.tool, expect: "refusal", request: call(b.tool, rpc(b.tool, args, rng.int(1e9))) });
    } else if (variant === 1) {
      add({ kind: "schema", label: `${b.label} (id ${rng.int(1e9)})`, tool: b.tool, expect: "refusal", request: call(b.tool, JSON.stringify(JSON.parse(rpc(b.tool, b.value, `s-${rng.int(1e9)}`)), null, rng.int(3))) });
    } else if (!isPartnerOnly(b.tool)) {
      add({ kind: "schema", label: `${b.label} (as mcp_other_user, ${rng.int(1e9)})`, tool: b.tool, expect: "refusal", request: call(b.tool, rpc(b.tool, b.value, rng.int(1e9)), "mcp_other_user") });
    }
  }
  return cases;
}

/** Why an answer is not a refusal, or undefined. */
export function checkMcpAnswer(c: McpCase, a: RawAnswer): string | undefined {
  if (a.status >= 500) return `status ${a.status}`;
  if (c.expect === "http") {
    if (a.status < 400) return `status ${a.status}, expected an HTTP refusal`;
    if (c.status !== undefined && a.status !== c.status) return `status ${a.status}, expected ${c.status}`;
    return undefined;
  }
  if (a.status >= 400) return c.expect === "envelope" ? `status ${a.status}, expected an envelope` : undefined;
  if (a.status !== 200) return `status ${a.status} is no refusal`;
  let body: unknown;
  try {
    body = JSON.parse(a.text);
  } catch {
    return "body is not JSON";
  }
  const messages: unknown[] = Array.isArray(body) ? body : [body];
  if (!messages.length) return "empty answer";
  for (const m of messages) {
    if (at(m, "jsonrpc") !== "2.0") return "not a JSON-RPC message";
    const error = at(m, "error");
    if (error) {
      if (c.expect === "envelope") return `JSON-RPC error ${at(error, "code")}, expected an envelope`;
      if (typeof at(error, "code") !== "number" || typeof at(error, "message") !== "string") return "malformed JSON-RPC error";
      continue;
    }
    const result = at(m, "result");
    if (!result || at(result, "isError") !== true) return "a success";
    const text = at(result, "content", 0, "text");
    if (at(result, "content", 0, "type") !== "text" || typeof text !== "string" || !text) return "isError without text";
    const structured = at(result, "structuredContent");
    if (structured !== undefined) {
      const data = at(structured, "data");
      if (c.tool && !results[c.tool]!(structured)) return `envelope not valid against ${c.tool}'s result schema`;
      if (!isEnvelope(data)) return "structuredContent is not an error envelope";
      if (data.error.code === "internal_error") return "internal_error: the mock failed on its side";
      if (c.codes && !c.codes.includes(data.error.code)) return `code ${data.error.code}, expected ${c.codes.join(" or ")}`;
      if (JSON.stringify(JSON.parse(text)) !== JSON.stringify(data)) return "text differs from structuredContent";
    } else if (c.expect === "envelope") return `no envelope: ${text.slice(0, 100)}`;
  }
  return undefined;
}
