// The brand the post lifecycles run on: the target file's (mcp.inputs.brand_id), or else the readiest brand the
// normal token reaches (active, ready to publish, able to generate; the one with most generation platforms).
// Found once per run and shared by every check that needs it.
import type { CheckContext } from "../../check.js";
import { okData } from "../../mcp/expect.js";
import type { McpContext } from "../../mcp/extension.js";
import { BudgetExceeded } from "../../http.js";

export interface BrandInfo {
  brandId?: string;
  companyId?: string;
  /** get_profile's payload. */
  profile?: any;
  problem?: string;
}

/** The brand under test (found once per run). */
export function brandUnderTest(m: McpContext): Promise<BrandInfo> {
  return m.run.once("brand-under-test", () => findBrand(m));
}

/** The brand's id; skips the check when there is none. */
export async function brandIdOrSkip(ctx: CheckContext, m: McpContext): Promise<string> {
  const b = await brandUnderTest(m);
  if (!b.brandId) ctx.skip(`needs a brand that can generate and publish: ${b.problem}`);
  return b.brandId;
}

async function findBrand(m: McpContext): Promise<BrandInfo> {
  const s = m.run.session;
  try {
    const profileOf = async (brandId: string) => okData(await s.call("get_profile", { brandId }));
    const given = m.target.inputs.brandId;
    if (given) {
      const profile = await profileOf(given);
      if (!profile) return { problem: `get_profile of the target file's brand ${given} failed` };
      return { brandId: given, companyId: profile.companyId, profile };
    }
    const ws = okData(await s.call("get_workspaces", {}));
    if (!Array.isArray(ws?.workspaces)) return { problem: "get_workspaces did not list workspaces" };
    const platforms = (b: BrandInfo) => (b.profile.generationPlatforms ?? []).length;
    let best: BrandInfo | undefined;
    for (const w of ws.workspaces.slice(0, 10)) {
      const list = okData(await s.call("list_brands", { workspaceId: w.id }));
      for (const b of (list?.brands ?? []).filter((b: any) => b?.isActive && b?.publishReadiness === "ready").slice(0, 5)) {
        const profile = await profileOf(b.id);
        if (!profile?.readiness?.canGenerate || !profile?.readiness?.canPublish) continue;
        const found = { brandId: b.id, companyId: profile.companyId, profile };
        if (!best || platforms(found) > platforms(best)) best = found;
      }
      if (best && platforms(best) >= 2) break;
    }
    return best ?? { problem: "no brand the normal token reaches can generate and publish (give mcp.inputs.brand_id in the target file)" };
  } catch (err) {
    if (err instanceof BudgetExceeded) throw err;
    return { problem: m.run.redact((err as Error).message) };
  }
}
