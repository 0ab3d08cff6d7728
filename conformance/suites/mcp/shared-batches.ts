// What the batches several MCP checks share ask for: the suite's shared jobs make them (checks/mcp/batch-scenario.ts)
// and the cost settings count their spend from the same requests (cost.ts).
import type { CreatePostsInput } from "../../../generated/mcp/types.js";
import type { McpTriggers } from "./triggers.js";

/** What the shared batches are sized by (a SpendInput is one). */
interface BatchInput {
  triggers: Pick<McpTriggers, "briefPartial" | "briefFails">;
  cost: { mainBatchPosts: number };
}

export type SharedBatch = "main" | "partial" | "fails";

/** The requests of the shared batches of a brand (the main batch sized by mcp.cost.main_batch_posts). */
export function sharedBatchRequests(input: BatchInput, brandId: string): Record<SharedBatch, CreatePostsInput> {
  const t = input.triggers;
  return {
    /** The posts the lifecycles use: one per check that changes a post. */
    main: { brandId, brief: "Conformance run: the first cold mornings of autumn and warm bread from the oven.", count: input.cost.mainBatchPosts },
    /** Some slots fail. */
    partial: { brandId, brief: `Conformance run: weekend specials ${t.briefPartial ?? ""}`.trim(), count: 4, includeImage: false },
    /** Every slot fails. */
    fails: { brandId, brief: `Conformance run: anything ${t.briefFails ?? ""}`.trim(), count: 2, includeImage: false },
  };
}
