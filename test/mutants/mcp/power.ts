// Mutants of issue 25's patterns (MCP): a field wrong only in one view of a reply (one token kind, one read
// variant, a list's later item, a story destination), a structured error field of the wrong type or format, the
// accepting edge of a limit refused, an auth variant or a wrong type or a malformed id let through on one tool only.
// Each was alive before the suite judged every reply, every edge and every variant (the story one excepted: other
// checks judged it in passing). Each runs only the check that now catches it, to keep the catalogue quick.
import type { McpMutant } from "./catalogue.js";
import { behindObjectOutput, callOf, dataOf, onCall, onError, onPayload, onResult, type Result, withData } from "./rewrite.js";

/** The reference's read-only token (conformance/targets/reference.yaml mcp.tokens.readonly). */
const readonly = "mcp_readonly";

/** The fails batches the suite asked for (its brief carries the target file's brief_fails marker). */
const failingBatches = new Set<string>();

/** A refusal as the SDK's input validation answers it: isError, a text, no envelope. */
const validationRefusal = (field: string): Result => ({ isError: true, content: [{ type: "text", text: `MCP error -32602: Input validation error: Invalid arguments: ${field}` }] });

export const powerMutants: McpMutant[] = [
  {
    id: "mcp-readonly-workspaces-count-text",
    rule: "contract-output-shape/get_workspaces",
    description: "get_workspaces answers the read-only token's workspaces with numBrands as a string (every other token sees an integer)",
    response: onPayload("get_workspaces", (d) => ({ ...d, workspaces: (d.workspaces ?? []).map((w) => ({ ...w, numBrands: String(w?.numBrands) })) }), (_c, req) => req.token === readonly),
    run: { only: ["mcp-read-variants"] },
  },
  {
    id: "mcp-readonly-scoped-connected-at",
    rule: "contract-output-shape/get_profile",
    description: "get_profile with includeScopes, for the read-only token only, answers channels' connectedAt as a date without time or zone",
    response: onPayload(
      "get_profile",
      (d) => ({ ...d, channels: (d.channels ?? []).map((c) => (typeof c?.connectedAt === "string" ? { ...c, connectedAt: c.connectedAt.slice(0, 10) } : c)) }),
      (c, req) => req.token === readonly && c.args.includeScopes === true,
    ),
    run: { only: ["mcp-read-variants"] },
  },
  {
    id: "mcp-failed-batch-second-item-retryable-text",
    rule: "contract-output-shape/get_post_batch_status",
    description: "get_post_batch_status of a batch whose every slot failed answers its second item's error.retryable as the text \"false\"",
    response: (req, res, ctx) => {
      const call = callOf(req);
      const r = res.body?.result as Result | undefined;
      const batchId = r && !r.isError ? dataOf(r)?.batchId : undefined;
      if (call?.name === "create_posts" && typeof batchId === "string" && /\[batch-fails\]/.test(String(call.args.brief))) failingBatches.add(batchId);
      const inner = onPayload(
        "get_post_batch_status",
        (d) => ({ ...d, items: (d.items ?? []).map((i, n) => (n === 1 && i?.error ? { ...i, error: { ...i.error, retryable: String(i.error.retryable) } } : i)) }),
        (c) => failingBatches.has(String(c.args.batchId)),
      );
      return inner(req, res, ctx);
    },
    run: { only: ["mcp-shared-replies", "mcp-batch-failed"] },
  },
  {
    id: "mcp-story-character-limit-text",
    rule: "contract-output-shape/view_post",
    run: { only: ["mcp-publish-story-partial"] },
    description: "view_post answers a story destination's characterLimit as a string (feed destinations keep their integer)",
    response: onPayload("view_post", (d) => ({ ...d, destinations: (d.destinations ?? []).map((x) => (/_STORIES$/.test(String(x?.platform)) ? { ...x, characterLimit: String(x.characterLimit) } : x)) })),
  },
  {
    id: "mcp-invalid-fields-joined",
    rule: "error-structured-fields/bad_request",
    description: "bad_request's invalidFields is one comma-joined string instead of an array of paths",
    // Behind outputs declared only as objects (the seed allows it), so that only the suite's own judgement can tell.
    response: behindObjectOutput("*", onError("bad_request", (e) => (Array.isArray(e.invalidFields) ? { ...e, invalidFields: e.invalidFields.join(",") } : e))!),
    run: { only: ["mcp-failure-conventions"] },
  },
  {
    id: "mcp-reset-date-http-date",
    rule: "error-structured-fields/usage_limit_exceeded",
    description: "usage_limit_exceeded's resetDate is an HTTP date (Date.parse reads it) instead of ISO 8601",
    response: behindObjectOutput("create_posts", onError("usage_limit_exceeded", (e) => (typeof e.resetDate === "string" ? { ...e, resetDate: new Date(e.resetDate).toUTCString() } : e))!),
    run: { only: ["mcp-create-posts-generation-refusals"] },
  },
  {
    id: "mcp-brief-at-limit-refused",
    rule: "limit-edge-accepted/create-posts-brief-max",
    description: "create_posts refuses a brief of exactly 4,000 characters before it runs, as if the limit were 3,999",
    response: onResult((c) => c.name === "create_posts" && typeof c.args.brief === "string" && c.args.brief.length === 4000, () => validationRefusal("brief")),
    run: { only: ["mcp-create-posts-limits"] },
  },
  {
    id: "mcp-token-scheme-accepted-on-view-post",
    rule: "unauthenticated-401/missing",
    description: "view_post (only) takes a valid token under the Token scheme as if it were a bearer token",
    request: (req) => {
      const token = /^Token (\S+)$/.exec(req.headers.authorization ?? "")?.[1];
      return token && callOf(req)?.name === "view_post" ? { ...req, token } : req;
    },
    run: { only: ["mcp-no-token-401"] },
  },
  {
    id: "mcp-malformed-post-id-internal-error",
    rule: "unknown-id-refused/get_post_status",
    description: "get_post_status answers an id with path characters with internal_error (retryable) instead of not_found",
    response: onResult(
      (c) => c.name === "get_post_status" && /[/ ?#]/.test(String(c.args.id)),
      (r) => ({ ...withData(r, { ok: false, error: { code: "internal_error", message: "Could not read the post.", retryable: true } }), isError: true }),
    ),
    run: { only: ["mcp-unknown-ids-refused"] },
  },
  {
    id: "mcp-count-text-coerced",
    rule: "schema-violation-refused-first/create_posts",
    description: "create_posts takes a count sent as a string (read as 1) instead of refusing it before it runs",
    request: onCall((call) => (call.name === "create_posts" && typeof call.args.count === "string" ? { args: { ...call.args, count: 1 } } : {})),
    run: { only: ["mcp-wrong-types-refused-first"] },
  },
  {
    id: "mcp-workspaces-keyed-skips-destination-case",
    rule: "success-structured-data/get_workspaces",
    description: "get_workspaces answers workspaces as an object keyed by id, which once left mcp-destination-case without a brand, skipping",
    response: onPayload("get_workspaces", (d) => ({ ...d, workspaces: Object.fromEntries((d.workspaces ?? []).map((w) => [w?.id, w])) })),
    run: { only: ["mcp-destination-case"] },
  },
];
