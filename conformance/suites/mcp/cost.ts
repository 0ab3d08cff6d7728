// What an MCP run spends of the tenant's AI allowance (posts generated, pictures rendered with them, picture renders
// on request, profile builds), and how much the target file lets it spend (`mcp.cost`). Against a real gateway the
// default is small: the shared batches only; renders on request, batches of a check's own and builds are opted in.
// `ideas-contract conformance --list` shows the spend per check before anything runs.
import { sharedBatchRequests } from "./shared-batches.js";
import type { McpTriggers } from "./triggers.js";

/** What a check (or the shared jobs) spends at most. */
export interface Spend {
  /** Posts generated (create_posts slots; a failing slot may still count against the allowance). */
  posts: number;
  /** Pictures rendered with generated posts. */
  pictures: number;
  /** Picture renders on request (regenerate_post_image). */
  renders: number;
  /** Profile builds (create_profile). */
  builds: number;
}

/** What the target file lets a run spend beyond the shared batches (`mcp.cost`). */
export interface McpCost {
  /** Picture renders on request (regenerate_post_image). */
  renders: boolean;
  /** Batches a check makes for itself (repeats, triggers, a brand with no connected channel). */
  extraBatches: boolean;
  /** Profile builds (create_profile). */
  builds: boolean;
  /** Posts of the shared main batch (1–20, with pictures): one per check that changes a post; fewer leaves the
   * last of those checks skipped ("no post of the main batch is left"). */
  mainBatchPosts: number;
}

/** A run against a real gateway spends only what most checks share, unless the target file says more. */
export const defaultMcpCost: McpCost = { renders: false, extraBatches: false, builds: false, mainBatchPosts: 20 };

export const costSwitchKeys: Record<string, "renders" | "extraBatches" | "builds"> = { renders: "renders", extra_batches: "extraBatches", builds: "builds" };

/** What a check's spend is judged from: the target's triggers and cost settings. */
export interface SpendInput {
  triggers: McpTriggers;
  cost: McpCost;
}

export const noSpend: Spend = { posts: 0, pictures: 0, renders: 0, builds: 0 };
const add = (a: Spend, b: Partial<Spend>): Spend => ({ posts: a.posts + (b.posts ?? 0), pictures: a.pictures + (b.pictures ?? 0), renders: a.renders + (b.renders ?? 0), builds: a.builds + (b.builds ?? 0) });

/** The shared batches' spend, read from the requests the shared batches make (checks/mcp/batch-scenario.ts). */
export function sharedSpend(input: SpendInput): Spend {
  const requests = sharedBatchRequests(input, "listing");
  const used = { main: true, partial: !!input.triggers.briefPartial, fails: !!input.triggers.briefFails };
  let total = noSpend;
  for (const [key, r] of Object.entries(requests)) {
    if (!used[key as keyof typeof used]) continue;
    const count = Number(r.count ?? 0);
    total = add(total, { posts: count, pictures: r.includeImage === false || r.mediaIds ? 0 : count });
  }
  // The shared profile builds (build-scenario.ts: main, and fails with website_fails_build), when builds are allowed.
  return input.cost.builds ? add(total, { builds: input.triggers.websiteFailsBuild ? 2 : 1 }) : total;
}

/** The needs by which a check asks for a kind of spend (extension.ts says why one is unmet). */
const costNeeds: Record<string, keyof McpCost> = { "mcp:cost-renders": "renders", "mcp:cost-extra-batches": "extraBatches", "mcp:cost-builds": "builds" };

/** What an MCP check spends of the tenant's AI allowance beyond the shared batches (shown by --list). */
export interface Spending {
  spend?: (input: SpendInput) => Partial<Spend>;
}

/** What a check says of its spend: its needs and what it spends. */
interface Spender extends Spending {
  needs?: readonly string[];
}

/** A check's spend for the target: none when it declares none, or when the target file does not allow it (skipped). */
export function spendOf(check: Spender, input: SpendInput): Spend {
  if ((check.needs ?? []).some((n) => costNeeds[n] !== undefined && !input.cost[costNeeds[n]!])) return noSpend;
  return add(noSpend, check.spend?.(input) ?? {});
}

/** `mcp.cost` as the target file spells it: "renders on, extra_batches off, builds off, main_batch_posts 20". */
export const describeCost = (cost: McpCost): string => [...Object.entries(costSwitchKeys).map(([key, name]) => `${key} ${cost[name] ? "on" : "off"}`), `main_batch_posts ${cost.mainBatchPosts}`].join(", ");

/** The spend of a run of `checks`: the shared batches plus each check's own. */
export const runSpend = (checks: readonly Spender[], input: SpendInput): Spend => checks.reduce((s, c) => add(s, spendOf(c, input)), sharedSpend(input));

/** "3 posts, 1 picture, 2 renders" (nothing: "nothing"). */
export function describeSpend(s: Spend): string {
  const parts = (
    [
      [s.posts, "post"],
      [s.pictures, "picture"],
      [s.renders, "render"],
      [s.builds, "profile build"],
    ] as const
  )
    .filter(([n]) => n > 0)
    .map(([n, what]) => `${n} ${what}${n === 1 ? "" : "s"}`);
  return parts.length ? parts.join(", ") : "nothing";
}
