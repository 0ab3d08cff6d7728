// Allowed variants of the MCP gateway: the MCP mock behind the mutant proxy (../mutants/rest/proxy.ts, with the
// MCP rewriters of ../mutants/mcp/rewrite.ts), each changing the answers only in a way seed 001 allows. Each cites
// the seed's words it rests on (`basis`). The MCP suite must pass every one: a failure here is a false failure of
// the suite, not a defect of the variant.
import { openOutput } from "../../lib/open-output.js";
import type { Answer, Exchange, Mutant } from "../mutants/rest/proxy.js";
import { dataOf, errorOf, isSuccess, onCall, onResult, withData } from "../mutants/mcp/rewrite.js";

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
}

/** A JSON-RPC answer's result, rewritten (a tools/list or tools/call result alike). */
const onRpcResult = (rewrite: (result: any, req: Exchange) => any): NonNullable<Mutant["response"]> => (req, res) => {
  const result = res.body?.result;
  if (!result || typeof result !== "object") return res;
  return { ...res, body: { ...res.body, result: rewrite(structuredClone(result), req) } };
};

/** tools/list rewritten (each tool). */
const onToolsList = (rewrite: (tools: any[]) => any[]): NonNullable<Mutant["response"]> =>
  onRpcResult((result) => (Array.isArray(result.tools) ? { ...result, tools: rewrite(result.tools) } : result));

/** A success's payload rewritten, the text kept in step. */
const onSuccess = (rewrite: (data: any, tool: string) => any): NonNullable<Mutant["response"]> =>
  onResult((_c, r) => isSuccess(r), (r, c) => withData(r, rewrite(structuredClone(dataOf(r)), c.name)))!;

/** Two rewriters in turn. */
const both =
  (...steps: NonNullable<Mutant["response"]>[]): NonNullable<Mutant["response"]> =>
  async (req, res, ctx) => {
    let out = res;
    for (const step of steps) out = await step(req, out, ctx);
    return out;
  };

/** Every object inside a value (found first, then visited: a visit may add objects of its own), changed in place. */
function eachObject(value: unknown, visit: (o: Record<string, any>) => void): void {
  const found: Record<string, any>[] = [];
  const walk = (v: unknown) => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === "object") {
      found.push(v as Record<string, any>);
      Object.values(v).forEach(walk);
    }
  };
  walk(value);
  found.forEach(visit);
}

/** Each tool's output schema opened to new fields and enum values, as a gateway that added them would advertise. */
const advertiseOpen = onToolsList((tools) => tools.map((t) => ({ ...t, outputSchema: openOutput(t.outputSchema, { enums: true }) })));

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

function replaceStrings(value: unknown, map: (s: string) => string): unknown {
  if (typeof value === "string") return map(value);
  if (Array.isArray(value)) return value.map((v) => replaceStrings(v, map));
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, replaceStrings(v, map)]));
  return value;
}

/** The fields seed 001 lists as optional (Required "no"), left out wherever they appear in a success. */
const optionalFields = new Set(["tokenExpiresAt", "missingScopes", "canPost", "canFetchAnalytics", "warnings", "createdAt", "updatedAt", "preview", "hasMedia", "mediaRequiredFor"]);

/**
 * A low rate limit in front of a service: at most `perSecond` requests each wall-clock second (per token when
 * `perToken`, as REST's per-client limit; else per address, as the gateway's edge), the rest answered 429 with
 * Retry-After: whole seconds, or in turn an HTTP date (the end of the second) when `dates`.
 */
export function rateLimit(perSecond: number, options: { perToken?: boolean; dates?: boolean; body: unknown }): { answer: NonNullable<Mutant["answer"]>; limited: () => number } {
  const windows = new Map<string, { second: number; count: number }>();
  let limited = 0;
  return {
    limited: () => limited,
    answer: (req) => {
      const now = Date.now();
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

const limit = rateLimit(50, { dates: true, body: { error: "rate_limited", error_description: "Too many requests from this address." } });
let sseAnswers = 0;

export const mcpVariants: McpVariant[] = [
  {
    id: "failure-human-text",
    basis: "Conventions 1-2: content[0].text mirrors the payload on success; a failure is isError true with the envelope in structuredContent, its text unstated.",
    description: "Every failure in the envelope says what went wrong in words in content[0].text",
    response: onResult(
      (_c, r) => !!errorOf(r),
      (r) => ({ ...r, content: [{ type: "text", text: `The call failed (${errorOf(r).code}): ${errorOf(r).message}` }] }),
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
      (r) => withData(r, { ...dataOf(r), error: { ...errorOf(r), message: `Request could not be completed (reference ${errorOf(r).code.length}).` } }),
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
  },
];

