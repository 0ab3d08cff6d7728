// What the MCP judge remembers across exchanges (bounded, LRU): the live tools of the last tools/list, each
// batch's settled flag and requested count, deleted profiles, deactivation progress, create_profile's ids.
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { Lru } from "./lru.js";

export interface BatchSeen {
  settled: boolean;
  status: string;
  /** As the target answered it (compared, never counted with). */
  requestedCount: unknown;
}

/** Default caps; each entry is a few dozen bytes, a live tool its schemas (a few KB). */
export const defaultMcpCaps = { tools: 500, batches: 10_000, profiles: 10_000 };

export class McpState {
  /** The tools of the tools/list answers seen, by name (the newest answer wins). */
  readonly tools: Lru<string, Tool>;
  readonly batches: Lru<string, BatchSeen>;
  /** brandIds whose deletion was seen finished. */
  readonly deleted: Lru<string, true>;
  /** unscheduledPosts and status of the last deactivate_profile answer per brandId. */
  readonly deactivations: Lru<string, { status: string; unscheduledPosts: number }>;
  /** brandId of the profile each externalId made. */
  readonly externalIds: Lru<string, string>;
  constructor(caps: { tools: number; batches: number; profiles: number } = defaultMcpCaps) {
    // Frozen values (lru.ts): the verdict cache knows an entry unchanged by its identity, not by its JSON (a live
    // tool's schemas are kilobytes, read by every tools/call).
    this.tools = new Lru(caps.tools, { frozen: true });
    this.batches = new Lru(caps.batches, { frozen: true });
    this.deleted = new Lru(caps.profiles, { frozen: true });
    this.deactivations = new Lru(caps.profiles, { frozen: true });
    this.externalIds = new Lru(caps.profiles, { frozen: true });
  }
}
