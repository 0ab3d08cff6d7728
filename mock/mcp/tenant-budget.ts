// A tenant (team) keeps at most `bytesPerTenant` of posts, batches, render jobs and brand style lists (palette
// colours, saved logos) in the gateway mock, measured as JSON over all its brands: captions, briefs and rejection
// reasons have no seed limit, and colours and logos are added call by call, so counts alone would let one token
// hold gigabytes. Once a tenant's budget is spent, its tools that add or change data answer
// writes_disabled in the envelope until it makes room; tools that only take data away stay open, and other
// tenants are not affected. The check runs before a call, so a tenant ends at most one request over.
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { ToolError } from "./context.js";
import type { Gateway } from "./gateway.js";

export const bytesPerTenant = 32 * 1024 * 1024;

/** Tools that make room: they stay open when the budget is spent. */
const freeingTools = new Set(["delete_post", "delete_profile", "deactivate_profile", "unpublish_post", "unschedule_platform"]);

/** Bytes the tenant's brands keep: posts, batches and jobs, and their style lists. */
export const tenantBytes = (gateway: Gateway, tenant: string): number =>
  gateway.profiles.brandsOf(tenant).reduce((n, brandId) => n + gateway.posts.bytesOf(brandId) + gateway.profiles.styleBytesOf(brandId), 0);

/** The refusal for this call when the tenant's budget is spent, or null. */
export function budgetRefusal(gateway: Gateway, tenant: string, tool: Pick<Tool, "name" | "annotations">): ToolError | null {
  if (tool.annotations?.readOnlyHint !== false || freeingTools.has(tool.name)) return null;
  const used = tenantBytes(gateway, tenant);
  if (used < bytesPerTenant) return null;
  const mb = (n: number) => `${Math.round(n / (1024 * 1024))} MB`;
  return new ToolError(
    "writes_disabled",
    `This team has used its ${mb(bytesPerTenant)} of stored data in the mock (${mb(used)} of posts, batches, renders, palette colours and logos): writes are refused until it deletes posts or profiles (delete_post, delete_profile) or the mock is reset.`,
  );
}
