// Mutants of issue 25's held-out audit (MCP): statements of seed 001, sampled every 20th line, that a mutant broke
// without the run failing a rule naming them. Each runs only the check that now catches it, to keep the catalogue quick.
import type { McpMutant } from "./catalogue.js";
import { behindObjectOutput, dataOf, errorOf, isSuccess, onCall, onPayload, onResult, payloadOf, type Result, withData } from "./rewrite.js";

/** A refusal as the SDK's input validation answers it: isError, a text, no envelope. */
const validationRefusal = (field: string): Result => ({ isError: true, content: [{ type: "text", text: `MCP error -32602: Input validation error: Invalid arguments: ${field}` }] });
/** A failure in the envelope. */
const envelope = (error: Record<string, unknown>): Result => ({ ...withData({}, { ok: false, error }), isError: true });

export const auditMutants: McpMutant[] = [
  {
    id: "mcp-success-is-error-false",
    rule: "success-structured-data/get_generation_job",
    description: "get_generation_job's successes carry isError: false (Conventions 1: absent)",
    response: onResult((c, r) => c.name === "get_generation_job" && isSuccess(r), (r) => ({ ...r, isError: false })),
    run: { only: ["mcp-regenerate-job"] },
  },
  {
    id: "mcp-envelope-ok-text",
    rule: "failure-envelope/ok-false",
    description: "update_post's failures say ok \"false\" (a string), behind outputs declared only as objects",
    response: behindObjectOutput("*", onResult((c, r) => c.name === "update_post" && !!errorOf(r), (r) => withData(r, { ...payloadOf(r, "update_post"), ok: "false" }))!),
    run: { only: ["mcp-unknown-ids-refused"] },
  },
  {
    id: "mcp-website-url-at-limit-refused",
    rule: "limit-create-profile-edge-accepted/website-url-max",
    description: "create_profile refuses a websiteUrl of exactly 2,048 characters as bad_request, as if the limit were 2,047",
    response: onResult(
      (c) => c.name === "create_profile" && String(c.args.websiteUrl ?? "").length === 2048,
      () => envelope({ code: "bad_request", message: "websiteUrl is too long.", retryable: false, invalidFields: ["websiteUrl"] }),
    ),
    run: { only: ["mcp-create-profile-inputs"] },
  },
  {
    id: "mcp-profile-name-at-limit-refused",
    rule: "limit-create-profile-edge-accepted/name-max",
    description: "create_profile refuses a name of exactly 100 characters before it runs, as if the limit were 99",
    response: onResult((c) => c.name === "create_profile" && String(c.args.name ?? "").length === 100, () => validationRefusal("name")),
    run: { only: ["mcp-create-profile-inputs"] },
  },
  {
    id: "mcp-count-boolean-coerced",
    rule: "schema-violation-refused-first/create_posts",
    description: "create_posts takes a count sent as a boolean (read as 1); a count sent as a string is still refused",
    request: onCall((call) => (call.name === "create_posts" && typeof call.args.count === "boolean" ? { args: { ...call.args, count: 1 } } : {})),
    run: { only: ["mcp-wrong-types-refused-first"] },
  },
  {
    id: "mcp-basic-scheme-accepted",
    rule: "unauthenticated-401/missing",
    description: "A valid token under the Basic scheme is served as if it were a bearer token (the Token scheme is still refused)",
    request: (req) => {
      const token = /^Basic (\S+)$/.exec(req.headers.authorization ?? "")?.[1];
      return token ? { ...req, token } : req;
    },
    run: { only: ["mcp-no-token-401"] },
  },
  {
    id: "mcp-workspaces-default-limit-one",
    rule: "workspaces-limit-truncated/default-limit",
    description: "get_workspaces without a limit lists one workspace (a default of 1, not 50), truncated and counted consistently",
    response: onPayload("get_workspaces", (d, c) => (c.args.limit === undefined && (d.workspaces ?? []).length > 1 ? { ...d, workspaces: d.workspaces.slice(0, 1), truncated: true } : d)),
    run: { only: ["mcp-workspaces-limit-truncated"] },
  },
  {
    id: "mcp-items-done-not-created",
    rule: "batch-counts-consistent/created",
    description: "get_post_batch_status reports every created item as done (counts unchanged): a check that needs a post of the main batch fails, it does not skip",
    response: onPayload("get_post_batch_status", (d) => ({ ...d, items: (d.items ?? []).map((i, n) => (i?.status === "created" ? { ...i, status: "done" } : i)) })),
    run: { only: ["mcp-approval-stale"] },
  },
];
