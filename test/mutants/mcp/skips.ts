// Mutants whose answers once left the suite without what it needed, so that checks skipped instead of failing
// (issue 25, "a skip is a verdict"): each must now fail the rule the answers break.
import type { McpMutant } from "./catalogue.js";
import { dataOf, isSuccess, onPayload, onResult, payloadOf, withData } from "./rewrite.js";

/** The batches the suite's main batch was answered with (its brief is the suite's own). */
const mainBatches = new Set<string>();

export const skipsMutants: McpMutant[] = [
  {
    id: "mcp-publish-readiness-uppercase",
    rule: "brand-item-fields/publishReadiness",
    description: "list_brands answers publishReadiness READY instead of ready (a listed value in another case, not a new value)",
    response: onPayload("list_brands", (d) => ({ ...d, brands: (d.brands ?? []).map((b) => (b?.publishReadiness === "ready" ? { ...b, publishReadiness: "READY" } : b)) })),
    // With a check that once skipped for want of a brand listed exactly "ready": it must run now.
    run: { only: ["mcp-workspace-and-brand-fields", "mcp-destination-case"] },
  },
  {
    id: "mcp-main-batch-unreadable",
    rule: "success-structured-data/get_post_batch_status",
    description: "get_post_batch_status refuses the main batch create_posts just handed out (not_found)",
    response: onResult(
      (c, r) => (c.name === "create_posts" && isSuccess(r) && /first cold mornings/.test(String(c.args.brief)) && !!mainBatches.add(payloadOf(r, "create_posts").batchId)) || (c.name === "get_post_batch_status" && mainBatches.has(String(c.args.batchId))),
      (r, c) => (c.name === "create_posts" ? r : { ...withData(r, { ok: false, error: { code: "not_found", message: "No such batch.", retryable: false } }), isError: true }),
    ),
    // Checks that need the main batch and once skipped without it.
    run: { only: ["mcp-destination-case", "mcp-times-to-utc"] },
  },

  {
    id: "mcp-workspaces-listed-empty",
    rule: "workspaces-limit-truncated/default-limit",
    description: "get_workspaces lists no workspace while its totalCount still counts them; the brand under test is then not found, and checks that need it once skipped as if the tenant had none",
    response: onPayload("get_workspaces", (d) => (Array.isArray(d.workspaces) && d.workspaces.length ? { ...d, workspaces: [] } : d)),
    // Checks that need the brand under test and once skipped without it.
    run: { only: ["mcp-destination-case", "mcp-times-to-utc"] },
  },
];
