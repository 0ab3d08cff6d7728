// A client's look (get_brand_style, update_brand_style, upload_brand_logo): unknown fonts and a concurrent save
// refused with nothing changed, a brand off the design style (palette only), logo addresses refused before any
// fetch, an unusable logo, the saved logo made current, and the update's answer against the read. Each check works
// on a client of its own (create_profile with the partner token), erased at the end; the design-style-unavailable
// brand is the target file's.
import type { RuleId } from "../../../../generated/rules.js";
import type { RuleRef } from "../../../core/judge.js";
import type { AnsweredOutput } from "../answers.js";
import type { RunContext } from "../../../core/check.js";
import { expectError, expectOk, show } from "../expect.js";
import type { McpContext } from "../extension.js";
import { eraseClient, newClient } from "./clients.js";
import { type McpCheck } from "./common.js";

const group = "mcp-branding";
// Each check with these needs works on a client of its own (a profile build: mcp.cost.builds).
const needs = ["mcp:profile-all", "mcp:partner-token", "mcp:cost-builds"] as const;

/** Runs `body` on a client of the check's own, erased afterwards. */
async function withClient(ctx: RunContext, m: McpContext, key: string, body: (brandId: string) => Promise<void>): Promise<void> {
  const { brandId } = await newClient(ctx, m, key);
  try {
    await body(brandId);
  } finally {
    await eraseClient(ctx, m, brandId);
  }
}

/** get_brand_style as the partner; fails the check (for `rule`) when it cannot be read. */
async function readStyle(ctx: RunContext, m: McpContext, brandId: string, rule: RuleRef, as: "partner" | "normal" = "partner"): Promise<AnsweredOutput<"get_brand_style">> {
  const style = expectOk(ctx, await m.session.call("get_brand_style", { brandId }, as), rule);
  if (!style) return ctx.fail(rule, `get_brand_style ${brandId} failed; cannot go on`);
  return style;
}

/** The parts of a style an update writes (palette, colour roles, fonts) and the logos, for before/after comparisons. */
const look = (style: AnsweredOutput<"get_brand_style"> | undefined) => JSON.stringify({ palette: style?.palette, colorRoles: style?.colorRoles, fonts: style?.fonts, logo: style?.logo, logos: style?.logos });

/**
 * A call on `brandId` that must be refused with `code` and leave the brand's look as it was (get_brand_style read
 * before and after). Returns the error.
 */
async function expectRefusedUnchanged(
  ctx: RunContext,
  m: McpContext,
  brandId: string,
  rule: RuleId,
  refused: { tool: string; args: Record<string, unknown>; code: string; as?: "partner" | "normal" },
): Promise<Record<string, any> | undefined> {
  const as = refused.as ?? "partner";
  const before = await readStyle(ctx, m, brandId, rule, as);
  const e = expectError(ctx, await m.session.callRaw(refused.tool, { brandId, ...refused.args }, as), { code: refused.code, rule });
  const after = await readStyle(ctx, m, brandId, rule, as);
  ctx.expect(look(after) === look(before), rule, `${refused.tool}(${show(refused.args)}) changed the brand's look: before ${look(before)}, after ${look(after)}`);
  return e;
}

const sameColor = (a: unknown, b: unknown) => typeof a === "string" && typeof b === "string" && a.toUpperCase() === b.toUpperCase();
/** A colour no fixture uses, set by the checks that must see their change. */
const conformanceBlue = "#0B3D91";

export const brandingChecks: McpCheck[] = [
  {
    id: "mcp-brand-style-fonts",
    description: "update_brand_style with a font in neither the brand library nor the public families answers font_not_found with invalidFields, and no role changes (not even a known font sent with it)",
    rules: ["brand-style-fonts"],
    group,
    needs,
    spend: () => ({ builds: 1 }),
    async run(ctx) {
      const m = ctx.mcp;
      const rule = "brand-style-fonts";
      await withClient(ctx, m, "fonts", async (brandId) => {
        // A known font with an unknown one: the whole call is refused, the known font is not set either.
        const fonts = { heading: "Inter", body: `Conformance Nowhere Sans ${m.run.id}` };
        const e = await expectRefusedUnchanged(ctx, m, brandId, rule, { tool: "update_brand_style", args: { fonts }, code: "font_not_found" });
        if (!e) return;
        const fields = e.invalidFields;
        ctx.expect(Array.isArray(fields) && fields.some((f: unknown) => typeof f === "string" && f.includes("body")), rule, `font_not_found names invalidFields ${show(fields)}; expected the refused body font`);
        ctx.expect(!Array.isArray(fields) || !fields.some((f: unknown) => typeof f === "string" && f.includes("heading")), rule, `font_not_found names the known heading font among invalidFields ${show(fields)}`);
      });
    },
  },
  {
    id: "mcp-design-style-busy",
    description: "A save that meets a concurrent one answers design_style_busy (retryable) and changes nothing",
    rules: ["design-style-busy"],
    group,
    needs,
    spend: () => ({ builds: 1 }),
    async run(ctx) {
      const m = ctx.mcp;
      const rule = "design-style-busy";
      const busy = ctx.slot("mcp.triggers.design_style_busy");
      await withClient(ctx, m, "busy", async (brandId) => {
        const e = await expectRefusedUnchanged(ctx, m, brandId, rule, { tool: "update_brand_style", args: { addColors: [busy], colorRoles: { accent: busy } }, code: "design_style_busy" });
        if (e) ctx.expect(e.retryable === true, rule, `design_style_busy answered retryable ${show(e.retryable)}; the seed says retry with the same arguments`);
      });
    },
  },
  {
    id: "mcp-design-style-unavailable",
    description: "A brand not on the design style gets design_style_unavailable from role and font changes, while palette colours can still be added",
    rules: ["design-style-unavailable"],
    group,
    needs: ["mcp:profile-all"],
    async run(ctx) {
      const m = ctx.mcp;
      const rule = "design-style-unavailable";
      const brandId = ctx.slot("mcp.triggers.design_style_unavailable_brand");
      for (const args of [{ fonts: { heading: "Inter" } }, { colorRoles: { primary: conformanceBlue } }])
        await expectRefusedUnchanged(ctx, m, brandId, rule, { tool: "update_brand_style", args, code: "design_style_unavailable", as: "normal" });
      // Palette colours alone still go in (adding one the palette holds changes nothing on a second run).
      const added = expectOk(ctx, await m.session.call("update_brand_style", { brandId, addColors: [conformanceBlue] }), rule);
      if (added) ctx.expect((added.palette ?? []).some((c: unknown) => sameColor(c, conformanceBlue)), rule, `addColors ${conformanceBlue} answered palette ${show(added.palette)}`);
      const after = await readStyle(ctx, m, brandId, rule, "normal");
      ctx.expect((after.palette ?? []).some((c: unknown) => sameColor(c, conformanceBlue)), rule, `get_brand_style after addColors shows palette ${show(after.palette)}, without ${conformanceBlue}`);
    },
  },
  {
    id: "mcp-brand-style-views",
    description: "update_brand_style answers the look as saved (palette, roles, fonts set), and get_brand_style then reads the same",
    rules: ["brand-style-views-agree"],
    group,
    needs,
    spend: () => ({ builds: 1 }),
    async run(ctx) {
      const m = ctx.mcp;
      const rule = "brand-style-views-agree";
      await withClient(ctx, m, "look", async (brandId) => {
        const update = { brandId, addColors: [conformanceBlue], colorRoles: { primary: conformanceBlue }, fonts: { heading: "Playfair Display" } };
        const saved = expectOk(ctx, await m.session.callRaw("update_brand_style", update, "partner"), rule);
        if (!saved) return;
        ctx.expect((saved.palette ?? []).some((c: unknown) => sameColor(c, conformanceBlue)), rule, `update_brand_style answered palette ${show(saved.palette)}, without the colour it added`);
        ctx.expect(sameColor(saved.colorRoles?.primary, conformanceBlue), rule, `update_brand_style answered colorRoles ${show(saved.colorRoles)}, primary not ${conformanceBlue}`);
        ctx.expect(saved.fonts?.heading === "Playfair Display", rule, `update_brand_style answered fonts ${show(saved.fonts)}, heading not Playfair Display`);
        const read = await readStyle(ctx, m, brandId, rule);
        ctx.expect(look(read) === look(saved), rule, `update_brand_style answered ${look(saved)}; get_brand_style then read ${look(read)}`);
      });
    },
  },
  {
    id: "mcp-logo-source-refused",
    description: "upload_brand_logo refuses a sourceUrl that is not https (source_not_https) or not public (source_not_public), and saves nothing",
    rules: ["logo-source"],
    group,
    needs,
    spend: () => ({ builds: 1 }),
    async run(ctx) {
      const m = ctx.mcp;
      await withClient(ctx, m, "logo-source", async (brandId) => {
        const cases = [
          { member: "not-https", code: "source_not_https", sourceUrl: "http://www.example.com/conformance-logo.png" },
          { member: "not-public", code: "source_not_public", sourceUrl: "https://192.168.20.7/conformance-logo.png" },
        ] as const;
        for (const c of cases) await expectRefusedUnchanged(ctx, m, brandId, `logo-source/${c.member}`, { tool: "upload_brand_logo", args: { sourceUrl: c.sourceUrl }, code: c.code });
      });
    },
  },
  {
    id: "mcp-logo-unreadable",
    description: "A logo that is not a usable image answers logo_unreadable and nothing is saved",
    rules: ["logo-unreadable"],
    group,
    needs,
    spend: () => ({ builds: 1 }),
    async run(ctx) {
      const m = ctx.mcp;
      const rule = "logo-unreadable";
      const sourceUrl = ctx.slot("mcp.triggers.logo_unreadable");
      await withClient(ctx, m, "logo-unreadable", async (brandId) => {
        await expectRefusedUnchanged(ctx, m, brandId, rule, { tool: "upload_brand_logo", args: { sourceUrl }, code: "logo_unreadable" });
      });
    },
  },
  {
    id: "mcp-logo-made-current",
    description: "upload_brand_logo saves the logo as the one in use (get_brand_style then shows it), and with makeCurrent false only adds it",
    rules: ["logo-made-current"],
    group,
    needs,
    spend: () => ({ builds: 1 }),
    optionalSlots: { "mcp.inputs.logo_url": "a usable logo address; the check is skipped without one" },
    async run(ctx) {
      const m = ctx.mcp;
      const rule = "logo-made-current";
      const sourceUrl = m.slot("mcp.inputs.logo_url", "optional");
      if (!sourceUrl) return ctx.skip("no usable logo address (mcp.inputs.logo_url in the target file)");
      await withClient(ctx, m, "logo", async (brandId) => {
        const saved = expectOk(ctx, await m.session.call("upload_brand_logo", { brandId, sourceUrl }, "partner"), rule);
        if (!saved) return;
        const logo = saved.logo;
        ctx.expect(logo?.isCurrent === true, rule, `upload_brand_logo answered ${show(logo)}: not the logo in use`);
        const style = await readStyle(ctx, m, brandId, rule);
        ctx.expect(style.logo === logo?.url, rule, `get_brand_style shows logo ${show(style.logo)}; the saved one is ${show(logo?.url)}`);
        const current = (style.logos ?? []).filter((l) => l?.isCurrent === true).map((l) => l?.id);
        ctx.expect(current.length === 1 && current[0] === logo?.id, rule, `get_brand_style marks ${show(current)} as current; the saved logo is ${show(logo?.id)}`);
        // Told otherwise: the logo is kept, the one in use stays.
        const extra = expectOk(ctx, await m.session.call("upload_brand_logo", { brandId, sourceUrl, makeCurrent: false }, "partner"), rule);
        if (!extra) return;
        ctx.expect(extra.logo?.isCurrent === false, rule, `upload_brand_logo with makeCurrent false answered ${show(extra.logo)}: made current`);
        const again = await readStyle(ctx, m, brandId, rule);
        ctx.expect(again.logo === logo?.url, rule, `after an upload with makeCurrent false get_brand_style shows logo ${show(again.logo)}, not the one in use ${show(logo?.url)}`);
        ctx.expect((again.logos ?? []).some((l) => l?.id === extra.logo?.id), rule, `get_brand_style does not list the logo kept with makeCurrent false (${show(extra.logo?.id)})`);
      });
    },
  },
];
