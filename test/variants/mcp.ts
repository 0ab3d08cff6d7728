// Allowed variants of the MCP gateway: the MCP mock behind the mutant proxy (../mutants/rest/proxy.ts, with the
// MCP rewriters of ../mutants/mcp/rewrite.ts), each changing the answers only in a way seed 001 allows. Each cites
// the seed's words it rests on (`basis`). The MCP suite must pass every one: a failure here is a false failure of
// the suite, not a defect of the variant.
import { openOutput } from "../../lib/open-output.js";
import type { Answer, Exchange, Mutant } from "../mutants/rest/proxy.js";
import { escapedJson } from "./rest.js";
import { contractTool } from "../../conformance/suites/mcp/contract.js";
import { inferredArguments } from "../../conformance/suites/mcp/inferred-inputs.js";
import { compileSchema } from "../../conformance/suites/mcp/schema-dialects.js";
import { asOutput, callOf, dataOf, errorOf, isSuccess, onCall, onResult, type ListedTool, type Result, toolsIn, toolsOf, withData, withTools } from "../mutants/mcp/rewrite.js";
import { fieldsAt, isFields, listAt, type Fields } from "../support/json.js";
import { serviceTime } from "../support/driven-time.js";

export interface McpVariant {
  id: string;
  /** The seed's words that allow the change (paraphrased, with the section). */
  basis: string;
  description: string;
  request?: Mutant["request"];
  response?: Mutant["response"];
  answer?: Mutant["answer"];
  /** Rewrites the answer last, after the proxy has moved the mock's addresses onto its own origin (transport-level changes). */
  final?: Mutant["response"];
  /** Set when the variant must show it changed something: counts the answers it changed. */
  changed?: () => number;
  /**
   * Told the service's time before the run (the run drives it: test/support/driven-time.ts), for a variant whose
   * own behaviour follows time (a limit per second).
   */
  useTime?: (now: () => number) => void;
  /**
   * Why the variant runs without the contract proxy in front (every variant else runs through it, which must blame
   * the service for nothing): what the proxy asks of every request leaves this one unexercised.
   */
  direct?: string;
}

/** A JSON-RPC answer's result, rewritten (a tools/list or tools/call result alike). */
export const onRpcResult = (rewrite: (result: Fields, req: Exchange) => unknown): NonNullable<Mutant["response"]> => (req, res) => {
  const result: unknown = res.body?.result;
  if (!isFields(result)) return res;
  return { ...res, body: { ...res.body, result: rewrite(structuredClone(result), req) } };
};

/** tools/list rewritten (each tool). */
export const onToolsList = (rewrite: (tools: ListedTool[]) => unknown[]): NonNullable<Mutant["response"]> =>
  onRpcResult((result) => {
    const tools = toolsIn(result);
    return tools ? { ...result, tools: rewrite(tools) } : result;
  });

/** The initialize result rewritten (its capabilities and the rest). */
export const onInitialize = (rewrite: (result: Fields) => unknown): NonNullable<Mutant["response"]> => (req, res, ctx) =>
  req.body?.method === "initialize" ? onRpcResult(rewrite)(req, res, ctx) : res;

/** A success's payload rewritten, the text kept in step. */
export const onSuccess = (rewrite: (data: Fields, tool: string) => unknown): NonNullable<Mutant["response"]> =>
  onResult((_c, r) => isSuccess(r) && dataOf(r) !== undefined, (r, c) => withData(r, rewrite(structuredClone(dataOf(r)!), c.name)))!;

/** Two rewriters in turn. */
export const both =
  (...steps: NonNullable<Mutant["response"]>[]): NonNullable<Mutant["response"]> =>
  async (req, res, ctx) => {
    let out = res;
    for (const step of steps) out = await step(req, out, ctx);
    return out;
  };

/** Every object inside a value (found first, then visited: a visit may add objects of its own), changed in place. */
export function eachObject(value: unknown, visit: (o: Fields) => void): void {
  const found: Fields[] = [];
  const walk = (v: unknown) => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (isFields(v)) {
      found.push(v);
      Object.values(v).forEach(walk);
    }
  };
  walk(value);
  found.forEach(visit);
}

/** Each tool's output schema opened to new fields and enum values, as a gateway that added them would advertise. */
export const advertiseOpen = onToolsList((tools) => tools.map((t) => ({ ...t, outputSchema: t.outputSchema && openOutput(t.outputSchema, { enums: true }) })));

const iso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?Z$/;

/** Ids the gateway hands out as UUIDs, and the opaque form this variant shows them in instead. */
const opaque = new Map<string, string>();
const plain = new Map<string, string>();
const opaqueOf = (uuid: string) => {
  let o = opaque.get(uuid);
  if (!o) {
    o = `pst${uuid.replace(/-/g, "").split("").reverse().join("")}`;
    opaque.set(uuid, o);
    plain.set(o, uuid);
  }
  return o;
};
/** The keys under which a post, batch or job id is handed out (brand and workspace ids stay as they are). */
const opaqueKeys = new Set(["postId", "batchId", "jobId"]);

export function replaceStrings(value: unknown, map: (s: string) => string): unknown {
  if (typeof value === "string") return map(value);
  if (Array.isArray(value)) return value.map((v) => replaceStrings(v, map));
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, replaceStrings(v, map)]));
  return value;
}

/** A rewritten argument list (replaceStrings keeps an object an object). */
export const asArgs = (value: unknown): Fields => (isFields(value) ? value : {});

/** The fields seed 001 lists as optional (Required "no"), left out wherever they appear in a success. */
const optionalFields = new Set(["tokenExpiresAt", "missingScopes", "canPost", "canFetchAnalytics", "warnings", "createdAt", "updatedAt", "preview", "hasMedia", "mediaRequiredFor"]);

/**
 * A low rate limit in front of a service: at most `perSecond` requests each second of the service's time (the wall
 * clock, or the run's time once `useTime` is given it; per token when `perToken`, as REST's per-client limit; else
 * per address, as the gateway's edge), the rest answered 429 with Retry-After: whole seconds, or in turn an HTTP
 * date (the end of the second) when `dates`.
 */
export function rateLimit(perSecond: number, options: { perToken?: boolean; dates?: boolean; body: unknown }): { answer: NonNullable<Mutant["answer"]>; limited: () => number; useTime: (now: () => number) => void } {
  const windows = new Map<string, { second: number; count: number }>();
  let limited = 0;
  const time = serviceTime();
  return {
    limited: () => limited,
    useTime: time.useTime,
    answer: (req) => {
      const now = time.now();
      const second = Math.floor(now / 1000);
      const key = options.perToken ? (req.token ?? "") : "edge";
      const w = windows.get(key);
      if (!w || w.second !== second) windows.set(key, { second, count: 1 });
      else if (++w.count > perSecond) {
        limited++;
        const retryAfter = options.dates && limited % 2 === 0 ? new Date((second + 1) * 1000).toUTCString() : "1";
        return { status: 429, headers: { "content-type": "application/json", "retry-after": retryAfter }, body: options.body, raw: Buffer.from(JSON.stringify(options.body)) } satisfies Answer;
      }
      return undefined;
    },
  };
}

/** The names each token saw in its last tools/list (a call of any other tool is a call of an unknown tool). */
function listedPerToken(): { seen: NonNullable<Mutant["response"]>; knows: (req: Exchange, tool: string) => boolean | undefined } {
  const listed = new Map<string, Set<string>>();
  return {
    seen: (req, res) => {
      if (req.body?.method === "tools/list" && Array.isArray(res.body?.result?.tools)) {
        const names = listed.get(req.token ?? "") ?? new Set<string>();
        for (const t of res.body.result.tools) names.add(t.name);
        listed.set(req.token ?? "", names);
      }
      return res;
    },
    knows: (req, tool) => listed.get(req.token ?? "")?.has(tool),
  };
}

/** A tools/call answer (HTTP 200, JSON-RPC) refused before its tool ran: a JSON-RPC error, or isError with no envelope. */
const refusedFirst = (res: Answer) => res.status === 200 && res.body?.jsonrpc === "2.0" && (!!res.body.error || (res.body.result?.isError === true && !errorOf(res.body.result)));

/** A refusal in the envelope, as a gateway whose tool checks its input itself answers it. */
const badRequest = (req: Exchange, res: Answer, invalidFields: string[]): Answer => {
  const data = { ok: false, error: { code: "bad_request", message: "The input was refused.", retryable: false, invalidFields } };
  const result: Result = { isError: true, structuredContent: { data }, content: [{ type: "text", text: JSON.stringify(data) }] };
  return { ...res, status: 200, body: { jsonrpc: "2.0", id: res.body?.id ?? req.body?.id, result } };
};

/**
 * A gateway whose advertised input schemas are looser than the contract's (`loosen`), and whose tools refuse what
 * the schema lets through themselves, with bad_request in the envelope: the mock's own refusal before the tool ran,
 * of an input the advertised schema takes, is answered so.
 */
function looseSchemas(loosen: (schema: unknown) => unknown, invalidFields: (args: Fields, schema: unknown) => string[]): { response: NonNullable<Mutant["response"]>; changed: () => number } {
  // Per token and tool: a tool a token was not shown fails as an unknown tool, whatever its arguments.
  const advertised = new Map<string, unknown>();
  const key = (req: Exchange, tool: string) => `${req.token ?? ""}\u0000${tool}`;
  let changed = 0;
  return {
    changed: () => changed,
    response: (req, res) => {
      const listed = req.body?.method === "tools/list" ? toolsOf(res) : undefined;
      if (listed) {
        const tools = listed.map((t) => {
          const inputSchema = loosen(structuredClone(t.inputSchema));
          advertised.set(key(req, t.name), inputSchema);
          return { ...t, inputSchema };
        });
        return withTools(res, tools);
      }
      const call = callOf(req);
      const schema = call && advertised.get(key(req, call.name));
      if (!call || !schema || !refusedFirst(res)) return res;
      const v = compileSchema(schema);
      if (v instanceof Error || !v(call.args)) return res;
      changed++;
      return badRequest(req, res, invalidFields(call.args, schema));
    },
  };
}

/** Input schemas open to arguments they do not list (no additionalProperties: false at the top). */
const openTop = (schema: unknown) => {
  if (isFields(schema)) delete schema.additionalProperties;
  return schema;
};
const unlisted = (args: Fields, schema: unknown) => Object.keys(args).filter((k) => !(k in (fieldsAt(schema, "properties") ?? {})));
const unknownArguments = looseSchemas(openTop, unlisted);

/** Input schemas without the length, size and item limits (the tools still keep them). */
const limitKeywords = ["maxLength", "minLength", "maximum", "minimum", "maxItems", "minItems"];
function withoutLimits(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutLimits);
  if (!isFields(schema)) return schema;
  return Object.fromEntries(Object.entries(schema).filter(([k]) => !limitKeywords.includes(k)).map(([k, v]) => [k, k === "enum" || k === "examples" || k === "default" || k === "const" ? v : withoutLimits(v)]));
}
const limitsInEnvelope = looseSchemas(withoutLimits, (args) => Object.keys(args).slice(0, 1));

const toolsSeen = listedPerToken();
let unknownToolAnswers = 0;

/**
 * tools/list pages of `size` tools, each but the last with a nextCursor, as MCP's pagination allows. The cursor is
 * taken off the request before the mock sees it (the mock issues none) and read back from a header of the variant.
 */
function paginated(size: number): { request: NonNullable<Mutant["request"]>; response: NonNullable<Mutant["response"]>; changed: () => number } {
  let pages = 0;
  return {
    changed: () => pages,
    request: (req) => {
      const cursor = req.body?.method === "tools/list" ? req.body.params?.cursor : undefined;
      if (typeof cursor !== "string") return req;
      const { cursor: _taken, ...params } = req.body.params;
      return { ...req, headers: { ...req.headers, "x-variant-cursor": cursor }, body: { ...req.body, params } };
    },
    response: (req, res) => {
      if (req.body?.method !== "tools/list" || !Array.isArray(res.body?.result?.tools)) return res;
      const from = Number(/^page-(\d+)$/.exec(req.headers["x-variant-cursor"] ?? "")?.[1] ?? 0);
      const tools = res.body.result.tools.slice(from, from + size);
      const next = from + size < res.body.result.tools.length ? { nextCursor: `page-${from + size}` } : {};
      pages++;
      return { ...res, body: { ...res.body, result: { ...res.body.result, tools, ...next } } };
    },
  };
}
const pages = paginated(7);
const singlePages = paginated(1);

/**
 * Optional arguments whose existence is our design, not the seed's (marked inferred in spec/mcp/tools, or of a tool
 * the seed only names): a gateway without them lists none of them in its input schemas (open to arguments it does
 * not list) and refuses a call carrying one with bad_request in the envelope, invalidFields naming it. The call is
 * sent on without its arguments (refused by the gateway's input schema, so the tool never runs) to keep the
 * gateway's own 401, 403 and 429 before the refusal, as a gateway checks them first.
 */
export const inferredOnlyArguments: Record<string, readonly string[]> = {
  create_draft: ["mediaIds", "platforms", "firstComment", "reddit", "scheduledAt"],
  generate_caption: ["instructions", "platform"],
  regenerate_post_image: ["imageIndex", "prompt"],
  reject_post: ["contentDigest"],
  update_post: ["platform"],
  generate_image: ["imageIndex", "prompt"],
  unpublish_post: ["platforms"],
};
function withoutInferredOnly(dropped: Record<string, readonly string[]> = inferredOnlyArguments): Pick<McpVariant, "request" | "response" | "changed"> {
  let refused = 0;
  const advertised = new Map<string, any>();
  const withArgs = (req: Exchange, args: Record<string, unknown>, headers = req.headers): Exchange => ({ ...req, headers, body: { ...req.body, params: { ...req.body.params, arguments: args } } });
  return {
    changed: () => refused,
    request: (req) => {
      const call = callOf(req);
      const named = call ? (dropped[call.name] ?? []).filter((k) => k in call.args) : [];
      const schema = call && advertised.get(call.name);
      if (!call || !named.length || !schema) return req;
      // The gateway's own input schema judges first: what it refuses is refused before the tool runs, as ever.
      const rest = Object.fromEntries(Object.entries(call.args).filter(([k]) => !named.includes(k)));
      const v = compileSchema(schema);
      if (!(v instanceof Error) && !v(rest)) return withArgs(req, rest);
      // Then the tool refuses every argument it does not take, these and any other its schema does not list.
      const notTaken = [...named, ...Object.keys(rest).filter((k) => !(k in (schema.properties ?? {})))];
      return withArgs(req, {}, { ...req.headers, "x-variant-refuse": notTaken.join(",") });
    },
    response: both(
      onToolsList((tools) =>
        tools.map((t) => {
          const drop = dropped[t.name];
          if (!drop?.length) return t;
          const inputSchema = structuredClone(t.inputSchema);
          const properties = fieldsAt(inputSchema, "properties") ?? {};
          for (const k of drop) delete properties[k];
          if (Array.isArray(inputSchema.required)) inputSchema.required = inputSchema.required.filter((k) => typeof k !== "string" || !drop.includes(k));
          delete inputSchema.additionalProperties;
          // A tool without a required argument of ours takes others in its place: its schema says nothing else of
          // ours either (an anyOf requiring one, a count of arguments that counted it).
          if (drop.some((k) => listAt(t.inputSchema, "required").includes(k)) || !Object.keys(properties).length) {
            delete inputSchema.minProperties;
            for (const k of ["anyOf", "oneOf", "allOf", "not", "if", "then", "else", "dependentRequired"])
              if (k in inputSchema && drop.some((d) => JSON.stringify(inputSchema[k]).includes(`"${d}"`))) delete inputSchema[k];
          }
          advertised.set(t.name, inputSchema);
          return { ...t, inputSchema };
        }),
      ),
      (req, res) => {
        const named = req.headers["x-variant-refuse"];
        if (!named || res.status !== 200 || res.body?.jsonrpc !== "2.0") return res;
        refused++;
        return badRequest(req, res, named.split(","));
      },
    ),
  };
}
const inferredOnly = withoutInferredOnly();
/** Every argument the seed does not define, of every tool (required ones too: a tool the seed only names may take others). */
const seedArgumentsOnly = withoutInferredOnly(Object.fromEntries([...contractTool.keys()].map((t) => [t, [...inferredArguments(t)]])));

let sessionIds = 0;
const fractional = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(\.\d+)?Z$/;

const limit = rateLimit(50, { dates: true, body: { error: "rate_limited", error_description: "Too many requests from this address." } });
let sseAnswers = 0;

/** The time scale the corpus runs the mock at (run-mcp.ts): target seconds → real ms. */
export const mcpVariantTimeScale = 0.001;
const targetMs = (seconds: number) => seconds * 1000 * mcpVariantTimeScale;

/** JSON-RPC answers (tools/call, tools/list, initialize) of a POST, rewritten at the transport (after the proxy's own changes). */
export const onJsonRpcAnswer =
  (rewrite: (res: Answer, req: Exchange) => Answer): NonNullable<McpVariant["final"]> =>
  (req, res) =>
    req.method === "POST" && res.body && typeof res.body === "object" && "jsonrpc" in res.body ? rewrite(res, req) : res;

const wholeSeconds = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})\.\d+Z$/;

/**
 * Batches whose copy settles `holdSeconds` of target time after create_posts answered: until then every view shows
 * the batch generating, every slot that ended shown generating (no post yet).
 */
function slowBatches(holdSeconds: number): Pick<McpVariant, "response" | "changed" | "useTime"> {
  const created = new Map<string, number>();
  let held = 0;
  const { now, useTime } = serviceTime();
  return {
    changed: () => held,
    useTime,
    response: onSuccess((data, tool) => {
      const batchId = typeof data.batchId === "string" ? data.batchId : undefined;
      if (tool === "create_posts" && batchId) created.set(batchId, now());
      // Every view until the hold ends shows no slot ended (a slot once shown with its post keeps it: a real gateway
      // does not take a post back), so the hold applies from the first view, settled or not.
      if (tool !== "get_post_batch_status" || !batchId || !created.has(batchId)) return data;
      if (now() - created.get(batchId)! >= targetMs(holdSeconds)) return data;
      held++;
      const items = asOutput(data, "get_post_batch_status").items.map((i) =>
        i.status === "pending" || i.status === "generating"
          ? i
          : { index: i.index, status: "generating", postId: null, title: null, platforms: i.platforms ?? [], error: null },
      );
      const { imagesPendingCount: _p, error: _e, ...rest } = data;
      return { ...rest, status: "generating", settled: false, createdCount: 0, failedCount: 0, pendingCount: items.length, items };
    }),
  };
}

/**
 * Deactivation and deletion that take `holdSeconds` of target time from the first call: until then a repeat answers
 * deactivation_scheduled (withdrawn so far) and deletion_scheduled where the mock has finished.
 */
function slowEnding(holdSeconds: number): Pick<McpVariant, "response" | "changed" | "useTime"> {
  const first = new Map<string, number>();
  let held = 0;
  const { now, useTime } = serviceTime();
  return {
    changed: () => held,
    useTime,
    response: onResult(
      (c, r) => (c.name === "deactivate_profile" || c.name === "delete_profile") && isSuccess(r),
      (r, c) => {
        const key = `${c.name}:${c.args.brandId}`;
        if (!first.has(key)) first.set(key, now());
        const data = dataOf(r)!;
        if (now() - first.get(key)! >= targetMs(holdSeconds)) return r;
        if (data.status === "deactivated") return held++, withData(r, { ...data, status: "deactivation_scheduled" });
        if (data.status === "deleted") return held++, withData(r, { ...data, status: "deletion_scheduled" });
        return r;
      },
    )!,
  };
}
const batchesSlow = slowBatches(600);
const endingSlow = slowEnding(300);

let primedStreams = 0;
let slowWrites = 0;
/** Batch answers whose items the batch-items-reversed variant reversed. */
let reversedItems = 0;
let escapedAnswers = 0;
let multilineStreams = 0;
let olderProtocol = 0;

export const mcpVariants: McpVariant[] = [
  {
    id: "failure-human-text",
    basis: "Conventions 1-2: content[0].text mirrors the payload on success; a failure is isError true with the envelope in structuredContent, its text unstated.",
    description: "Every failure in the envelope says what went wrong in words in content[0].text",
    response: onResult(
      (_c, r) => !!errorOf(r),
      (r) => ({ ...r, content: [{ type: "text", text: `The call failed (${errorOf(r)!.code}): ${errorOf(r)!.message}` }] }),
    ),
  },
  {
    id: "success-pretty-text",
    basis: "Conventions 1: content[0].text holds the same payload as a JSON string (any JSON formatting of it).",
    description: "Success text is the payload pretty-printed",
    response: onResult((_c, r) => isSuccess(r), (r) => ({ ...r, content: [{ type: "text", text: JSON.stringify(dataOf(r), null, 2) }] })),
  },
  {
    id: "success-wrapped-text",
    basis: "Conventions 1: content[0].text holds the same payload as a JSON string; the text of { data: payload } holds it too.",
    description: "Success text is the whole structuredContent ({ data: … }) as JSON",
    response: onResult((_c, r) => isSuccess(r), (r) => ({ ...r, content: [{ type: "text", text: JSON.stringify({ data: dataOf(r) }) }] })),
  },
  {
    id: "lists-reversed",
    basis: "get_workspaces, list_brands, get_profile (channels) and tools/list state no order for their lists.",
    description: "Workspaces, brands, channels and tools/list's tools in reverse order",
    response: both(
      onToolsList((tools) => [...tools].reverse()),
      onSuccess((data, tool) => {
        if (tool === "get_workspaces" && Array.isArray(data.workspaces)) data.workspaces.reverse();
        if (tool === "list_brands" && Array.isArray(data.brands)) data.brands.reverse();
        if (tool === "get_profile" && Array.isArray(data.channels)) data.channels.reverse();
        return data;
      }),
    ),
  },
  {
    id: "new-output-fields",
    basis: "Conventions 7 and Versioning 5: output can hold more fields than listed; new output fields are not breaking.",
    description: "A new field in every object of every success and every error, advertised in open output schemas",
    response: both(
      advertiseOpen,
      onResult(
        () => true,
        (r) => {
          const data = structuredClone(dataOf(r));
          if (data === undefined) return r;
          eachObject(data, (o) => (o.addedLater = { since: "a newer release" }));
          return r.isError ? { ...r, structuredContent: { data } } : withData(r, data);
        },
      )!,
    ),
  },
  {
    id: "new-enum-values",
    basis: "Conventions 7 and Versioning 5: new enum values can appear in output at any time and are not breaking.",
    description: "A picture's slideTextSource reads a source the contract does not list",
    response: both(
      advertiseOpen,
      onSuccess((data) => {
        eachObject(data, (o) => {
          if (typeof o.slideTextSource === "string") o.slideTextSource = "vision";
        });
        return data;
      }),
    ),
  },
  {
    id: "other-error-messages",
    basis: "Errors: error.message is for people and can change; branch on code, never on message.",
    description: "Every error message reworded",
    response: onResult(
      (_c, r) => !!errorOf(r),
      (r) => withData(r, { ...dataOf(r), error: { ...errorOf(r), message: `Request could not be completed (reference ${errorOf(r)!.code.length}).` } }),
    ),
  },
  {
    id: "plus-offset-times",
    basis: "Conventions 6: times are ISO 8601 with Z or a numeric offset; +00:00 is UTC.",
    description: "Every UTC time in output written with +00:00 instead of Z",
    response: onSuccess((data) => replaceStrings(data, (s) => (iso.test(s) ? s.replace(/Z$/, "+00:00") : s))),
  },
  {
    id: "extra-tools",
    basis: "Tools: other tools exist in the gateway; Versioning 5: new tools are not breaking.",
    description: "tools/list also lists tools the contract does not have",
    response: onToolsList((tools) => [
      ...tools,
      { name: "get_usage_report", description: "Usage per client (new).", inputSchema: { type: "object", properties: { brandId: { type: "string" } }, additionalProperties: false }, outputSchema: { type: "object" }, annotations: { readOnlyHint: true } },
      { name: "create_ad", description: "Ads (new).", inputSchema: { type: "object", properties: {}, additionalProperties: false }, outputSchema: { type: "object" }, annotations: { readOnlyHint: false } },
    ]),
  },
  {
    id: "opaque-ids",
    basis: "Conventions 3: ids (post ids, batchId, jobId) are opaque strings; only brandId must be a UUID where a tool says so.",
    description: "Post, batch and job ids handed out in another shape (no UUID), taken back in it",
    request: onCall((call) => ({ args: replaceStrings(call.args, (s) => plain.get(s) ?? s) as Record<string, any> })),
    response: both(
      onRpcResult((result) => {
        eachObject(result.structuredContent, (o) => {
          for (const k of Object.keys(o)) if (opaqueKeys.has(k) && typeof o[k] === "string" && /^[0-9a-f-]{36}$/.test(o[k])) opaqueOf(o[k]);
          // A post's own id sits beside its postId (view_post: id and postId, the same value).
          if (typeof o.postId === "string" && typeof o.id === "string" && o.id === o.postId) opaqueOf(o.id);
        });
        return result;
      }),
      onResult(
        (_c, r) => dataOf(r) !== undefined,
        (r) => {
          const data = replaceStrings(dataOf(r), (s) => opaque.get(s) ?? s);
          return r.isError ? { ...r, structuredContent: { data } } : withData(r, data);
        },
      )!,
    ),
  },
  {
    id: "optional-fields-omitted",
    basis: "Seed 001 field tables: fields marked Required no (tokenExpiresAt, missingScopes, canPost, canFetchAnalytics, warnings, createdAt, updatedAt, preview, hasMedia, mediaRequiredFor) may be absent.",
    description: "Optional output fields left out everywhere",
    response: onSuccess((data) => {
      eachObject(data, (o) => {
        for (const k of Object.keys(o)) if (optionalFields.has(k)) delete o[k];
      });
      return data;
    }),
  },
  {
    id: "sse-replies",
    basis: "Streamable HTTP (the seed's transport): a POST may be answered with JSON or with a text/event-stream.",
    description: "Every JSON-RPC answer sent as an event stream",
    final: (req, res) => {
      if (req.method !== "POST" || res.status !== 200 || !res.body || typeof res.body !== "object" || !("jsonrpc" in res.body)) return res;
      sseAnswers++;
      const raw = Buffer.from(`event: message\ndata: ${JSON.stringify(res.body)}\n\n`);
      const headers = { ...res.headers, "content-type": "text/event-stream", "cache-control": "no-cache" };
      return { status: 200, headers, body: undefined, raw };
    },
    changed: () => sseAnswers,
  },
  {
    id: "header-casing",
    basis: "HTTP header names are case-insensitive; media type parameters may vary (charset).",
    description: "Answer headers in mixed case, JSON answers with a charset",
    final: (_req, res) => {
      const headers: Record<string, string> = {};
      // The framing headers stay the proxy's own (it sets them for the body it sends).
      for (const [k, v] of Object.entries(res.headers)) if (!["content-length", "transfer-encoding", "connection", "keep-alive"].includes(k)) headers[k.replace(/(^|-)([a-z])/g, (_m, d, c) => d + c.toUpperCase())] = v;
      if (/^application\/json$/i.test(res.headers["content-type"] ?? "")) {
        delete headers["Content-Type"];
        headers["CONTENT-TYPE"] = "application/json; charset=utf-8";
      }
      return { ...res, headers };
    },
  },
  {
    id: "edge-rate-limit",
    basis: "Limits: an edge request rate per IP address per minute exists, exceeding it gives 429 (numeric value not shown); Errors outside the envelope: 429, back off.",
    description: "At most 50 requests a second reach the gateway; the rest get 429 with Retry-After (seconds or an HTTP date)",
    answer: limit.answer,
    changed: limit.limited,
    useTime: limit.useTime,
  },
  {
    id: "session-id-handed-out",
    basis: "What the service does: the gateway is stateless, each request stands alone (a session id handed out and never needed leaves every request standing alone).",
    description: "Every answer carries an Mcp-Session-Id the gateway never asks for again",
    final: (_req, res) => {
      sessionIds++;
      return { ...res, headers: { ...res.headers, "mcp-session-id": "conformance-variant-session" } };
    },
    changed: () => sessionIds,
  },
  {
    id: "unknown-arguments-in-envelope",
    basis: "Conventions 2: every tool refuses arguments it does not take (the form of that refusal is stated only for input-schema violations; the live list is right about the schema).",
    description: "Input schemas advertised without additionalProperties: false; each tool refuses an argument it does not take with bad_request in the envelope",
    response: unknownArguments.response,
    changed: unknownArguments.changed,
  },
  {
    id: "limits-in-envelope",
    basis: "Limits and create_posts: the limits hold and refusals are bad_request (with invalidFields); What the service does: the live tools/list is right, so it may leave the limits out of its schemas.",
    description: "Input schemas advertised without length, size and item limits; the tools refuse a value past a limit with bad_request in the envelope",
    response: limitsInEnvelope.response,
    changed: limitsInEnvelope.changed,
  },
  {
    id: "unknown-tool-envelope",
    basis: "Authentication 3 and create_profile rule 3: calling a tool the caller cannot see fails as an unknown tool (the seed does not say in what form).",
    description: "A call of a tool the token does not see (unknown, or partner-only) answers a not_found envelope",
    response: both(toolsSeen.seen, (req, res) => {
      const call = callOf(req);
      if (!call || toolsSeen.knows(req, call.name) !== false || !refusedFirst(res)) return res;
      unknownToolAnswers++;
      const data = { ok: false, error: { code: "not_found", message: `No tool named ${call.name}.`, retryable: false } };
      return { ...res, status: 200, body: { jsonrpc: "2.0", id: res.body?.id ?? req.body?.id, result: { isError: true, structuredContent: { data }, content: [{ type: "text", text: JSON.stringify(data) }] } } };
    }),
    changed: () => unknownToolAnswers,
  },
  {
    id: "auth-challenge-with-parameters",
    basis: "Authentication 5: a refused token gets 401 with a WWW-Authenticate challenge (any challenge list; MCP's authorization adds resource_metadata).",
    description: "401 answers offer a DPoP challenge first, then Bearer with realm and resource_metadata",
    final: (_req, res) =>
      res.status === 401
        ? { ...res, headers: { ...res.headers, "www-authenticate": 'DPoP algs="ES256", Bearer realm="partner-gateway", resource_metadata="https://gateway.example/.well-known/oauth-protected-resource", error="invalid_token"' } }
        : res,
  },
  {
    id: "fractional-seconds-times",
    basis: "Conventions 6: times are ISO 8601 (fractional seconds are ISO 8601 too).",
    description: "Every UTC time in output written with microseconds",
    response: onSuccess((data) => replaceStrings(data, (s) => (fractional.test(s) ? s.replace(fractional, (_m, base: string, frac?: string) => `${base}${((frac ?? ".") + "000000").slice(0, 7)}Z`) : s))),
  },
  {
    id: "tools-list-paginated",
    basis: "What the service does: tools/list returns every tool (across its pages: MCP's tools/list is paginated with nextCursor).",
    description: "tools/list answers seven tools a page, with nextCursor until the last page",
    request: pages.request,
    response: pages.response,
    changed: pages.changed,
  },
  {
    id: "content-extra-blocks",
    basis: "Conventions 1: content[0].text holds the payload as JSON; the seed says nothing of further content blocks.",
    description: "Every result carries a second content block, a short text for people",
    response: onResult(
      () => true,
      (r) => ({ ...r, content: [...(r.content ?? []), { type: "text", text: r.isError ? "The call did not go through." : "Done." }] }),
    )!,
  },
  {
    id: "result-meta-and-tool-annotations",
    basis: "Conventions 7: output can hold more than listed; tools/list's tools may carry a title and other MCP annotations (only readOnlyHint is the seed's).",
    description: "Every result carries _meta, and every listed tool a title, destructiveHint, idempotentHint and openWorldHint",
    response: both(
      onToolsList((tools) => tools.map((t) => ({ ...t, title: t.name.replace(/_/g, " "), annotations: { ...t.annotations, destructiveHint: false, idempotentHint: false, openWorldHint: true } }))),
      onRpcResult((result) => ("tools" in result ? result : { ...result, _meta: { "gateway.example/trace": "t-1" } })),
    ),
  },
  {
    id: "inferred-only-arguments-refused",
    basis: "Conventions 2: every tool refuses arguments it does not take; What the service does: the live tools/list is right. The seed does not define these arguments (spec/mcp/tools marks them inferred), so a gateway may not take them, leave them out of its schemas and refuse them.",
    description: "Input schemas list no optional argument the seed does not define; every call carrying one is refused with bad_request (invalidFields naming it)",
    request: inferredOnly.request!,
    response: inferredOnly.response!,
    changed: inferredOnly.changed!,
  },
  {
    id: "view-post-schema-own-design",
    basis: "Post view: approval (object or null), and 'Fields of … approval object …: not shown'; Conventions 7: output can hold more fields than listed.",
    description: "view_post advertises its own approval object (no decidedBy or stale, no other members) and a reviewUrl it always sends and requires; its answers follow that schema",
    response: both(
      onToolsList((tools) =>
        tools.map((t) => {
          if (t.name !== "view_post") return t;
          const outputSchema = structuredClone(t.outputSchema);
          const defs = fieldsAt(outputSchema, "$defs")!;
          const [approval, postView] = [fieldsAt(defs, "Approval")!, fieldsAt(defs, "PostView")!];
          const { decidedBy: _by, stale: _stale, ...members } = fieldsAt(approval, "properties")!;
          defs.Approval = { ...approval, properties: members, additionalProperties: false };
          defs.PostView = { ...postView, required: [...listAt(postView, "required"), "reviewUrl"], properties: { ...fieldsAt(postView, "properties"), reviewUrl: { type: "string" } } };
          return { ...t, outputSchema };
        }),
      ),
      onSuccess((data, tool) => {
        if (tool !== "view_post" || !data || typeof data !== "object") return data;
        if (isFields(data.approval)) {
          delete data.approval.decidedBy;
          delete data.approval.stale;
        }
        return { ...data, reviewUrl: `https://review.example.com/p/${data.id}` };
      }),
    ),
  },
  {
    id: "reschedule-moves-reversed",
    basis: "Failures reported inside a successful result: reschedule_posts reports refusals in moves[].error and the other entries still ran (no order of moves is stated).",
    description: "reschedule_posts answers its moves in reverse order",
    response: onSuccess((data, tool) => {
      if (tool === "reschedule_posts" && Array.isArray(data.moves)) data.moves.reverse();
      return data;
    }),
  },
  {
    id: "whole-second-times",
    basis: "Conventions 6: times are ISO 8601 with Z or a numeric offset (a fraction of a second is optional in ISO 8601).",
    description: "Every UTC time in output written in whole seconds, without a fraction",
    response: onSuccess((data) => replaceStrings(data, (s) => (wholeSeconds.test(s) ? s.replace(wholeSeconds, "$1Z") : s))),
  },
  {
    id: "chunked-answers",
    basis: "Streamable HTTP (the seed's transport) runs over HTTP, which frames a body with Content-Length or chunked transfer coding alike.",
    description: "Every answer sent with Transfer-Encoding: chunked, no Content-Length",
    final: (_req, res) => ({ ...res, framing: { chunked: true } }),
  },
  {
    id: "connection-closed-after-each-answer",
    basis: "What the service does: the gateway is stateless, each request stands alone (nothing asks a connection to stay open; HTTP/1.1 lets a server close after any answer).",
    description: "Every answer says Connection: close and the gateway closes the connection after it",
    final: (_req, res) => ({ ...res, framing: { close: true } }),
  },
  {
    id: "batches-settle-after-ten-minutes",
    basis: "Limits: batch polling 5 s the first minute, then 15 s backing off to at most 30 s; give up after about 15 minutes (a batch may take up to then).",
    description: "Every batch's copy settles ten minutes after create_posts (the mock takes one to three)",
    ...batchesSlow,
  },
  {
    id: "ending-takes-five-minutes",
    basis: "Ending a client: work runs in the background, seen by calling again; Limits: deactivation and deletion polling about every 30 seconds, a few minutes.",
    description: "Deactivation and deletion answer deactivation_scheduled / deletion_scheduled for five minutes from the first call",
    ...endingSlow,
  },
  {
    id: "open-set-codes",
    basis: "Readiness blockers (open set; codes, not sentences); channel healthReason: open set of codes, for example …; Conventions 7: new codes can appear at any time.",
    description: "Every non-empty readiness.blockers gains a code the contract does not list; every channel healthReason is a code the contract does not list",
    response: both(
      advertiseOpen,
      onSuccess((data) => {
        eachObject(data, (o) => {
          if (Array.isArray(o.blockers) && o.blockers.length) o.blockers = [...o.blockers, "billing_under_review"];
          if (typeof o.healthReason === "string") o.healthReason = "provider_policy_review";
        });
        return data;
      }),
    ),
  },
  {
    id: "initialize-older-protocol-version",
    basis: "Every call is an MCP tools/call over Streamable HTTP; the seed names no protocol revision (2025-06-18 is the first with structuredContent and outputSchema).",
    description: "initialize answers protocolVersion 2025-06-18 whatever the client asked for",
    response: (req, res) => {
      if (req.body?.method !== "initialize" || !res.body?.result?.protocolVersion) return res;
      olderProtocol++;
      return { ...res, body: { ...res.body, result: { ...res.body.result, protocolVersion: "2025-06-18" } } };
    },
    changed: () => olderProtocol,
  },
  {
    id: "partner-api-version-capability",
    basis: "Versioning 3: with versioning, the initialize result reports capabilities.experimental[\"<vendor>/partner-api\"] with version and latestVersion; latestVersion greater than version means a newer contract shipped.",
    description: "initialize reports an experimental partner-api capability, a newer contract version shipped, and server instructions",
    response: onInitialize((result) => ({
      ...result,
      capabilities: { ...fieldsAt(result, "capabilities"), experimental: { "gateway.example/partner-api": { version: "1", latestVersion: "2" } } },
      instructions: "Partner tool gateway. Poll background work; no webhooks.",
    })),
  },
  {
    id: "sse-primed-streams",
    basis: "Streamable HTTP (the seed's transport): a POST may be answered with a text/event-stream, whose events may carry ids, retry hints and comments.",
    description: "Every JSON-RPC answer sent as an event stream that opens with a comment and a priming event (an id and a retry, no data), then the message with an id",
    final: onJsonRpcAnswer((res) => {
      if (res.status !== 200) return res;
      primedStreams++;
      const raw = Buffer.from(`: stream opened\n\nid: 0\nretry: 1000\ndata:\n\nid: 1\nevent: message\ndata: ${JSON.stringify(res.body)}\n\n`);
      return { status: 200, headers: { ...res.headers, "content-type": "text/event-stream", "cache-control": "no-cache" }, body: undefined, raw };
    }),
    changed: () => primedStreams,
  },
  {
    id: "seed-arguments-only",
    basis: "Conventions 2: every tool refuses arguments it does not take; What the service does: the live tools/list is right; 'Inputs and outputs of all the other tools … not shown'. A gateway may take none of the arguments the seed does not define (spec/mcp/tools marks them inferred), required ones of tools the seed only names included.",
    description: "Input schemas list only the arguments the seed defines; every call carrying another is refused with bad_request (invalidFields naming them)",
    request: seedArgumentsOnly.request!,
    response: seedArgumentsOnly.response!,
    changed: seedArgumentsOnly.changed!,
  },
  {
    id: "sse-multiline-data",
    basis: "Streamable HTTP (the seed's transport): a POST may be answered with a text/event-stream; an event's data may span several data: lines (joined with newlines, as the SSE standard reads them).",
    description: "Every JSON-RPC answer sent as an event stream with CRLF line ends, its message pretty-printed across one data: line per line of JSON",
    final: onJsonRpcAnswer((res) => {
      if (res.status !== 200) return res;
      multilineStreams++;
      const data = JSON.stringify(res.body, null, 2).split("\n").map((l) => `data: ${l}`).join("\r\n");
      return { status: 200, headers: { ...res.headers, "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" }, body: undefined, raw: Buffer.from(`event: message\r\n${data}\r\n\r\n`) };
    }),
    changed: () => multilineStreams,
  },
  {
    id: "tools-list-one-per-page",
    basis: "What the service does: tools/list returns every tool (across its pages: MCP's tools/list is paginated with nextCursor, page size the server's choice).",
    description: "tools/list answers one tool a page, with nextCursor until the last",
    request: singlePages.request,
    response: singlePages.response,
    changed: singlePages.changed,
  },
  {
    id: "json-escaped-slashes",
    basis: "Streamable HTTP carries JSON-RPC messages as JSON; an escaped character (\\/ for /, \\u00e4 for ä) is the same JSON string.",
    description: "Every JSON answer escapes / as \\/ and every non-ASCII character as \\u (as PHP's json_encode does)",
    final: onJsonRpcAnswer((res) => {
      escapedAnswers++;
      return { ...res, body: undefined, raw: Buffer.from(escapedJson(res.body)) };
    }),
    changed: () => escapedAnswers,
  },
  {
    id: "slow-generating-writes",
    basis: "Limits: recommended client request timeout 150 seconds (some writes take up to about 120 seconds); What the service does: create_posts returns a batchId (it may take its time doing so).",
    description: "create_posts and create_profile answer three seconds late (real time: the suite's own timeouts are real seconds)",
    response: async (req, res) => {
      const call = callOf(req);
      if (call?.name !== "create_posts" && call?.name !== "create_profile") return res;
      slowWrites++;
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      return res;
    },
    changed: () => slowWrites,
  },
  {
    id: "batch-items-reversed",
    basis: "create_posts output: items (one per slot: index from 0, status pending); get_post_batch_status Item: index (integer) — each item carries its index, no order of the list is stated.",
    description: "create_posts and get_post_batch_status list their items last slot first",
    response: onSuccess((data, tool) => {
      if ((tool === "create_posts" || tool === "get_post_batch_status") && Array.isArray(data.items) && data.items.length > 1) {
        data.items.reverse();
        reversedItems++;
      }
      return data;
    }),
    changed: () => reversedItems,
  },
  {
    id: "token-refresh-days-fractional",
    basis: "Channel members: tokenRefreshInDays is a number or null (a number, not an integer: 13.5 days counts down as well).",
    description: "Every channel's tokenRefreshInDays that is a number carries half a day more",
    response: onSuccess((data) => {
      eachObject(data, (o) => {
        if (typeof o.tokenRefreshInDays === "number") o.tokenRefreshInDays += 0.5;
      });
      return data;
    }),
  },
];







