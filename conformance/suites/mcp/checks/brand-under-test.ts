// The brand the post lifecycles run on: the target file's (mcp.inputs.brand_id), or else the brand the normal token
// reaches that suits them best (active, able to generate and publish by get_profile's readiness; then by what the
// checks book on), chosen by what it is, never by where the target lists it.
// Found once per run and shared by every check that needs it.
import type { RuleId } from "../../../../generated/rules.js";
import type { RunContext } from "../../../core/check.js";
import type { AnsweredOutput } from "../answers.js";
import { okData, show } from "../expect.js";
import type { McpContext } from "../extension.js";
import { BudgetExceeded } from "../../../core/http.js";

type Profile = AnsweredOutput<"get_profile">;

export interface BrandInfo {
  brandId?: string;
  /** As get_profile answered it. */
  companyId?: string | null;
  /** get_profile's payload. */
  profile?: Profile;
  problem?: string;
  /** The rule the target's own answers broke when they left the suite without a brand (a failure, not a skip). */
  rule?: RuleId;
}

/** The brand under test (found once per run). */
export function brandUnderTest(m: McpContext): Promise<BrandInfo> {
  return m.run.once("brand-under-test", () => findBrand(m));
}

/**
 * The brand's id. Without one, the check fails the rule the target's answers broke (a list that is not a list, a
 * listed brand get_profile refuses); it is skipped only when the token's tenant has no brand that can generate and
 * publish (the caller's setup: mcp.inputs.brand_id names one).
 */
export async function brandIdOrSkip(ctx: RunContext, m: McpContext): Promise<string> {
  return (await brandOrSkip(ctx, m)).brandId;
}

/** The brand under test with its id, workspace and profile; fails or skips as brandIdOrSkip says. */
export async function brandOrSkip(ctx: RunContext, m: McpContext): Promise<BrandInfo & { brandId: string; profile: Profile }> {
  const b = await brandUnderTest(m);
  if (!b.brandId || !b.profile) {
    if (b.rule) ctx.fail(b.rule, `no brand to run on: ${b.problem}`);
    ctx.skip(`needs a brand that can generate and publish: ${b.problem}`);
  }
  return b as BrandInfo & { brandId: string; profile: Profile };
}

/**
 * Destinations a caption and a picture alone cannot book (Reddit needs its options, these take only video): a
 * brand publishing to them makes the lifecycles' posts carry pre-flight problems the checks did not ask for.
 */
const demanding = new Set(["reddit", "tiktok", "youtube"]);
/** The channels the checks book on (FACEBOOK, INSTAGRAM and its story). */
const wanted = ["facebook", "instagram"];

/**
 * A profile's story destinations (lowercase): storyDestinations where it lists them, or else (the field is optional)
 * the stories of its Instagram and Facebook channels, as stories use the base connection (seed 001 Conventions 5).
 */
export function storyDestinationsOf(p: Profile | undefined): { stories: string[]; stated: boolean } {
  if (Array.isArray(p?.storyDestinations)) return { stories: p.storyDestinations.filter((x: unknown): x is string => typeof x === "string"), stated: true };
  const platforms = Array.isArray(p?.generationPlatforms) ? p.generationPlatforms.map((x: unknown) => String(x).toLowerCase()) : [];
  return { stories: ["instagram", "facebook"].filter((x) => platforms.includes(x)).map((x) => `${x}_stories`), stated: false };
}

/** How well a profile suits the lifecycles (higher first): no demanding destination, the wanted channels, stories, breadth. */
const suitability = (p: Profile | undefined): number[] => {
  const platforms: string[] = Array.isArray(p?.generationPlatforms) ? p.generationPlatforms.map((x: unknown) => String(x).toLowerCase()) : [];
  return [
    platforms.some((x) => demanding.has(x)) ? 0 : 1,
    wanted.filter((w) => platforms.includes(w)).length,
    storyDestinationsOf(p).stories.length,
    platforms.length,
  ];
};

/** Compares two candidates: the more suitable first, then the smaller id (never the order the target listed them in). */
function better(a: BrandInfo, b: BrandInfo): boolean {
  const [x, y] = [suitability(a.profile), suitability(b.profile)];
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i]! > y[i]!;
  return a.brandId! < b.brandId!;
}

/** Ids of a list's items, sorted: the suite looks at the same ones whatever order the target lists them in. */
export const sortedIds = (items: unknown): string[] =>
  (Array.isArray(items) ? items : [])
    .map((i: unknown) => (i && typeof i === "object" && "id" in i ? i.id : undefined))
    .filter((id: unknown): id is string => typeof id === "string")
    .sort();

async function findBrand(m: McpContext): Promise<BrandInfo> {
  const s = m.run.session;
  try {
    const profileOf = async (brandId: string) => okData(await s.call("get_profile", { brandId }));
    const given = m.slot("mcp.inputs.brand_id", "optional");
    if (given) {
      const profile = await profileOf(given);
      if (!profile) return { problem: `get_profile of the target file's brand ${given} failed` };
      return { brandId: given, companyId: profile.companyId, profile };
    }
    const ws = okData(await s.call("get_workspaces", {}));
    if (!Array.isArray(ws?.workspaces)) return { problem: `get_workspaces did not list workspaces: ${show(ws)}`, rule: "success-structured-data/get_workspaces" };
    // Matches counted but none listed (no limit given: the default is 50): the list is short, not the tenant empty.
    if (!ws.workspaces.length && typeof ws.totalCount === "number" && ws.totalCount > 0)
      return { problem: `get_workspaces listed no workspace of the ${ws.totalCount} it counts`, rule: "workspaces-limit-truncated/default-limit" };
    let best: BrandInfo | undefined;
    // Every active brand is a candidate, whatever its publishReadiness says: get_profile's readiness decides.
    for (const workspaceId of sortedIds(ws.workspaces).slice(0, 10)) {
      const list = okData(await s.call("list_brands", { workspaceId }));
      if (!Array.isArray(list?.brands)) return { problem: `list_brands of workspace ${workspaceId}, listed by get_workspaces, did not list brands: ${show(list)}`, rule: "success-structured-data/list_brands" };
      const active = new Set(list.brands.filter((b) => b?.isActive === true).map((b) => b.id));
      for (const brandId of sortedIds(list.brands).filter((id) => active.has(id)).slice(0, 10)) {
        const profile = await profileOf(brandId);
        if (!profile) return { problem: `get_profile of brand ${brandId}, listed by list_brands, failed`, rule: "success-structured-data/get_profile" };
        if (profile.readiness?.canGenerate !== true || profile.readiness?.canPublish !== true) continue;
        const found = { brandId, companyId: profile.companyId, profile };
        if (!best || better(found, best)) best = found;
      }
    }
    return best ?? { problem: "no brand the normal token reaches can generate and publish (give mcp.inputs.brand_id in the target file)" };
  } catch (err) {
    if (err instanceof BudgetExceeded) throw err;
    return { problem: m.run.redact((err as Error).message) };
  }
}
