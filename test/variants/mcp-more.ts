// More allowed variants of the MCP gateway (the corpus of ./mcp.ts goes on here): each changes the mock's answers
// only in a way seed 001 allows, citing the seed's words (`basis`). test/conformance-variants-mcp*.test.ts run them
// with the others; a failure is a false failure of the suite.
import { gzipSync } from "node:zlib";
import type { Answer } from "../mutants/rest/proxy.js";
import { dataOf, onCall, onResult, type Result, withData } from "../mutants/mcp/rewrite.js";
import type { McpVariant } from "./mcp.js";
import { fieldsAt, isFields, listAt, type Fields } from "../support/json.js";
import { asArgs, both, eachObject, onInitialize, onJsonRpcAnswer, onRpcResult, onSuccess, onToolsList, replaceStrings } from "./mcp.js";

/** A batch as create_posts and get_post_batch_status answer it (its items are the batch's slots). */
const isBatch = (o: Fields) => typeof o.batchId === "string" && Array.isArray(o.items);

/**
 * Every output field seed 001 marks optional (Required "no", or "optional" in its prose), left out wherever it is
 * optional: the batch's imagesPendingCount (when 0: the seed reads it absent as 0), warnings, error, createdAt and updatedAt and create_posts' includeImage;
 * each slot's preview, hasMedia, imagePending, mediaRequiredFor and appUrl; a profile's storyDestinations and a
 * channel's tokenExpiresAt, missingScopes, canPost and canFetchAnalytics; a destination's images (in development).
 */
function withoutOptional(data: Fields, tool: string): Fields {
  eachObject(data, (o) => {
    if (isBatch(o)) {
      for (const k of ["warnings", "error", "createdAt", "updatedAt", "includeImage"]) delete o[k];
      // "Treat absent as 0": a count left out says no picture is rendering, so it is left out only when it is 0.
      if (o.imagesPendingCount === 0) delete o.imagesPendingCount;
      for (const item of listAt(o, "items")) if (isFields(item)) for (const k of ["preview", "hasMedia", "imagePending", "mediaRequiredFor", "appUrl"]) delete item[k];
    }
    if (tool === "get_profile" && typeof o.brandId === "string" && Array.isArray(o.channels)) delete o.storyDestinations;
    if (typeof o.health === "string" && "healthReason" in o) for (const k of ["tokenExpiresAt", "missingScopes", "canPost", "canFetchAnalytics"]) delete o[k];
    if (typeof o.platform === "string" && typeof o.characterLimit === "number" && Array.isArray(o.imageUrls)) delete o.images;
  });
  return data;
}

let optionalDropped = 0;

/** Every payload (a success's, with its text, or a failure's envelope) rewritten on a copy. */
const onAnyData = (rewrite: (data: Fields) => unknown) =>
  onResult(
    (_c, r) => dataOf(r) !== undefined,
    (r: Result) => {
      const data = rewrite(structuredClone(dataOf(r)!));
      return r.isError ? { ...r, structuredContent: { data } } : withData(r, data);
    },
  )!;

/** A two-way map of values the gateway hands out in another form (`shape`) and takes back in it. */
function handedOut(shape: (plain: string) => string) {
  const out = new Map<string, string>();
  const back = new Map<string, string>();
  return {
    note: (plain: string) => {
      if (!out.has(plain)) {
        out.set(plain, shape(plain));
        back.set(shape(plain), plain);
      }
    },
    shown: (s: string) => out.get(s) ?? s,
    taken: (s: string) => back.get(s) ?? s,
    count: () => out.size,
  };
}

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const uuidAnyCase = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
let upperIds = 0;

/** Schema keywords whose value is a map of names to schemas (their keys are names, not keywords). */
const schemaMaps = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]);
/** A JSON Schema without what is only for people (description, title, examples, $comment), on a copy. */
function withoutWords(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutWords);
  if (!isFields(schema)) return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) {
    if (["description", "title", "examples", "$comment"].includes(k)) continue;
    out[k] = schemaMaps.has(k) && isFields(v) ? Object.fromEntries(Object.entries(v).map(([n, x]) => [n, withoutWords(x)])) : ["enum", "const", "default", "required"].includes(k) ? v : withoutWords(v);
  }
  return out;
}

/** An input schema whose every argument is a $ref into $defs (the same schema, as generators that hoist emit it). */
function hoisted(schema: unknown): unknown {
  if (!isFields(schema) || !schema.properties) return schema;
  const defs: Fields = { ...fieldsAt(schema, "$defs") };
  const properties: Record<string, unknown> = {};
  for (const [name, s] of Object.entries(schema.properties)) {
    defs[`arg_${name}`] = s;
    properties[name] = { $ref: `#/$defs/arg_${name}` };
  }
  return { ...schema, properties, $defs: defs };
}

/** Reverses the members of every object (a copy). */
const reversedMembers = (v: unknown): unknown =>
  Array.isArray(v) ? v.map(reversedMembers) : isFields(v) ? Object.fromEntries(Object.entries(v).reverse().map(([k, x]) => [k, reversedMembers(x)])) : v;

const workspaces = handedOut((plain) => `ws_${plain.replace(/-/g, "").slice(0, 20)}`);
const platformPosts = handedOut((plain) => `pp:${[...plain].reverse().join("")}`);
let eventStreams = 0;
let bareStreams = 0;
let gzipped = 0;
const picture = /\/images\/[^/?"]+\.png$/;
let picturesMoved = 0;
/** Tools that declare only that their output is an object (the seed: "a few tools declare only that"). */
const objectOnly = new Set(["get_post_batch_status", "view_post", "get_profile", "reschedule_posts"]);
/** Fields the seed types "string or null" whose value says nothing the suite acts on, answered null. */
const nullable: Record<string, string[]> = {
  workspace: ["logo", "membershipType"],
  brand: ["logo", "userRole"],
  channel: ["displayName", "username", "profileUrl"],
  post: ["authorSubtitle", "authorAvatarUrl"],
};

export const moreMcpVariants: McpVariant[] = [
  {
    id: "more-optional-fields-omitted",
    basis:
      "get_post_batch_status: imagesPendingCount, warnings, error, createdAt, updatedAt are Required no (imagesPendingCount: 'treat absent as 0', so left out only when 0); items: preview, hasMedia, imagePending, mediaRequiredFor, appUrl are optional; create_posts: includeImage optional; Profile: storyDestinations, channel tokenExpiresAt, missingScopes, canPost, canFetchAnalytics Required no; destination images Required no (in development).",
    description: "Every output field the seed marks optional left out wherever it is optional (a batch's picture counts and each slot's imagePending and appUrl included)",
    response: onSuccess((data, tool) => {
      const before = JSON.stringify(data);
      const out = withoutOptional(data, tool);
      if (JSON.stringify(out) !== before) optionalDropped++;
      return out;
    }),
    changed: () => optionalDropped,
  },
  {
    id: "uppercase-uuid-ids",
    basis: "Conventions 3: ids are opaque strings (do not build or parse them); where a tool needs brandId to be a UUID, an uppercase UUID is one (RFC 4122: hex digits in either case).",
    description: "Every UUID the gateway hands out (brand, workspace, post, batch and job ids) written in upper case; taken back in either case",
    request: onCall((call) => ({ args: asArgs(replaceStrings(call.args, (s) => (uuidAnyCase.test(s) ? s.toLowerCase() : s))) })),
    response: onAnyData((data) =>
      replaceStrings(data, (s) => {
        if (!uuid.test(s)) return s;
        upperIds++;
        return s.toUpperCase();
      }),
    ),
    changed: () => upperIds,
  },
  {
    id: "tool-descriptions-reworded",
    basis: "What the service does: tools/list returns every tool with inputSchema and outputSchema (JSON Schema), the live list is right; the seed fixes no description, title or example of a tool or schema.",
    description: "tools/list gives each tool a one-line description of its own, and its schemas no description, title or examples",
    response: onToolsList((tools) => tools.map((t) => ({ ...t, description: `${t.name.replace(/_/g, " ")}.`, inputSchema: withoutWords(t.inputSchema), ...(t.outputSchema ? { outputSchema: withoutWords(t.outputSchema) } : {}) }))),
  },
  {
    id: "object-only-output-schemas",
    basis: "What the service does: tools/list returns every tool with inputSchema and outputSchema; 'A few tools declare only that the output is an object.'",
    description: "get_post_batch_status, view_post, get_profile and reschedule_posts declare only { type: object } as their output schema",
    response: onToolsList((tools) => tools.map((t) => (objectOnly.has(t.name) ? { ...t, outputSchema: { type: "object" } } : t))),
  },
  {
    id: "sse-log-notification-first",
    basis: "Streamable HTTP (the seed's transport): a POST answered with a text/event-stream may carry the server's notifications before the response.",
    description: "Every JSON-RPC answer sent as an event stream whose first message is a notifications/message log entry, then the response",
    final: onJsonRpcAnswer((res) => {
      if (res.status !== 200 || res.body?.id === undefined) return res;
      eventStreams++;
      const note = { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", logger: "gateway", data: "request received" } };
      const raw = Buffer.from(`event: message\ndata: ${JSON.stringify(note)}\n\nevent: message\ndata: ${JSON.stringify(res.body)}\n\n`);
      return { status: 200, headers: { ...res.headers, "content-type": "text/event-stream", "cache-control": "no-cache" }, body: undefined, raw };
    }),
    changed: () => eventStreams,
  },
  {
    id: "sse-without-event-names",
    basis: "Streamable HTTP (the seed's transport): a POST may be answered with a text/event-stream; an event without an event: line is a message event (the SSE standard's default).",
    description: "Every JSON-RPC answer sent as an event stream of data: lines only (no event: line)",
    final: onJsonRpcAnswer((res) => {
      if (res.status !== 200) return res;
      bareStreams++;
      return { status: 200, headers: { ...res.headers, "content-type": "text/event-stream" }, body: undefined, raw: Buffer.from(`data: ${JSON.stringify(res.body)}\n\n`) };
    }),
    changed: () => bareStreams,
  },
  {
    id: "nullable-fields-null",
    basis: "Workspace list item: logo (string or null), membershipType (string or null); brand item: logo, userRole (string or null); channel: displayName, username, profileUrl (string or null); post view: authorSubtitle, authorAvatarUrl (string or null).",
    description: "Every workspace's and brand's logo, membershipType and userRole, every channel's displayName, username and profileUrl, every post's authorSubtitle and authorAvatarUrl answered null",
    response: onSuccess((data, tool) => {
      eachObject(data, (o) => {
        const kind =
          tool === "get_workspaces" && "membershipType" in o ? "workspace" : tool === "list_brands" && "publishReadiness" in o ? "brand" : typeof o.health === "string" && "profileUrl" in o ? "channel" : tool === "view_post" && "authorName" in o ? "post" : undefined;
        for (const k of kind ? nullable[kind]! : []) if (k in o) o[k] = null;
      });
      return data;
    }),
  },
  {
    id: "members-in-another-order",
    basis: "Conventions 1: structuredContent is { data: <payload> } and content[0].text the same payload as JSON; JSON fixes no member order (the tables list fields, not positions).",
    description: "Every object of every payload, and every tool of tools/list with its schemas, has its members in reverse order",
    response: both(
      onToolsList((tools) => tools.map(reversedMembers)),
      onAnyData(reversedMembers),
    ),
  },
  {
    id: "picture-urls-with-query",
    basis: "Picture URLs are public, unsigned, non-expiring cloud-storage addresses (a version query such as ?v=2 is none of signed or expiring); the seed fixes no form of them.",
    description: "Every picture address the gateway hands out carries a ?v=2 query",
    response: onAnyData((data) =>
      replaceStrings(data, (s) => {
        if (!picture.test(s)) return s;
        picturesMoved++;
        return `${s}?v=2`;
      }),
    ),
    changed: () => picturesMoved,
  },
  {
    id: "input-schemas-with-refs",
    basis: "What the service does: tools/list returns every tool with inputSchema (JSON Schema): a schema whose arguments are $refs into $defs is the same JSON Schema.",
    description: "Every input schema names each argument by a $ref into its own $defs",
    response: onToolsList((tools) => tools.map((t) => ({ ...t, inputSchema: hoisted(t.inputSchema) }))),
  },
  {
    id: "gzip-unless-refused",
    basis: "Streamable HTTP runs over HTTP, where a request without Accept-Encoding accepts any content coding (RFC 9110 12.5.3); the seed says nothing of coding.",
    description: "Every answer with a body sent gzip-compressed, unless the request's Accept-Encoding leaves gzip out",
    final: (req, res: Answer) => {
      const asked = req.headers["accept-encoding"];
      if ((asked !== undefined && !/\bgzip\b/i.test(asked)) || res.headers["content-encoding"]) return res;
      const plain = res.body !== undefined ? Buffer.from(JSON.stringify(res.body)) : res.raw;
      if (!plain.length) return res;
      gzipped++;
      return { ...res, headers: { ...res.headers, "content-encoding": "gzip", vary: "accept-encoding" }, body: undefined, raw: gzipSync(plain) };
    },
    changed: () => gzipped,
    direct: "the contract proxy asks for identity coding (its judges read the bodies), so nothing would be gzipped",
  },
  {
    id: "initialize-more-capabilities",
    basis: "Every call is an MCP tools/call over Streamable HTTP; the seed fixes nothing of initialize but the optional partner-api capability (a gateway may offer logging, resources, prompts and a server name and version of its own).",
    description: "initialize answers more capabilities (logging, resources, prompts, completions, tools.listChanged) and serverInfo with a name, title and version of its own",
    response: onInitialize((result) => ({
      ...result,
      capabilities: { ...fieldsAt(result, "capabilities"), logging: {}, resources: { listChanged: true, subscribe: false }, prompts: { listChanged: false }, completions: {}, tools: { listChanged: true } },
      serverInfo: { name: "partner-tool-gateway", title: "Partner Tool Gateway", version: "2026.11.3" },
    })),
  },
  {
    id: "opaque-workspace-ids",
    basis: "Workspace: id (string, a companyId); get_profile companyId (string); list_brands workspaceId (string, a companyId): a string, of no stated form (Conventions 3: ids are opaque).",
    description: "Workspace ids (companyId, workspaceId) handed out as ws_… instead of UUIDs, taken back in that form",
    request: onCall((call) => ({ args: asArgs(replaceStrings(call.args, workspaces.taken)) })),
    response: onAnyData((data) => {
      eachObject(data, (o) => {
        for (const k of ["companyId", "workspaceId"]) if (typeof o[k] === "string" && uuid.test(o[k])) workspaces.note(o[k]);
        if (Array.isArray(o.workspaces)) for (const w of o.workspaces) if (typeof w?.id === "string" && uuid.test(w.id)) workspaces.note(w.id);
      });
      return replaceStrings(data, workspaces.shown);
    }),
    changed: workspaces.count,
  },
  {
    id: "opaque-platform-post-ids",
    basis: "Conventions 3: ids (… platformPostId) are opaque strings; lockedDestinations' platformPostId is what unschedule_platform takes.",
    description: "Every platformPostId handed out in another shape (pp:…), taken back in it",
    request: onCall((call) => ({ args: asArgs(replaceStrings(call.args, platformPosts.taken)) })),
    response: onAnyData((data) => {
      eachObject(data, (o) => {
        if (typeof o.platformPostId === "string") platformPosts.note(o.platformPostId);
      });
      return replaceStrings(data, platformPosts.shown);
    }),
    changed: platformPosts.count,
  },
];
