// get_brand_style, update_brand_style and upload_brand_logo. Updates are all-or-nothing (any refusal changes
// nothing). upload_brand_logo never fetches its sourceUrl; the magic table decides what the "fetch" finds.
import { ToolError, type ToolContext } from "../context.js";
import { choose } from "../../rest/hash.js";
import type { BrandStyle, UploadBrandLogoOutput } from "../../../generated/mcp/types.js";
import { isPrivateHost } from "../../private-address.js";
import { busyColor, logoMagic, publicFonts } from "./magic.js";
import type { BrandState, LogoState, ProfilesStore } from "./store.js";

/** Address of the brand's logo in use, or null. */
export function logoUrl(brand: BrandState, origin: URL): string | null {
  const current = brand.style.logos.find((l) => l.id === brand.style.currentLogoId);
  return current ? new URL(current.path, origin).href : null;
}

function logoView(brand: BrandState, logo: LogoState, origin: URL) {
  return { id: logo.id, url: new URL(logo.path, origin).href, isCurrent: logo.id === brand.style.currentLogoId, width: logo.width, height: logo.height };
}

export function styleView(brand: BrandState, origin: URL): BrandStyle {
  const ds = brand.style.designStyle;
  return {
    brandId: brand.id,
    palette: [...brand.style.palette],
    colorRoles: ds ? { ...ds.colorRoles } : null,
    fonts: ds ? { ...ds.fonts } : null,
    logo: logoUrl(brand, origin),
    logos: brand.style.logos.map((l) => logoView(brand, l, origin)),
  };
}

export function getBrandStyle(store: ProfilesStore, args: Record<string, any>, ctx: ToolContext): BrandStyle {
  return styleView(store.brandFor(ctx.principal, args.brandId as string), ctx.origin);
}

/** A family from the brand's library, then the public families (case-insensitive), in its proper spelling. */
function resolveFont(brand: BrandState, family: string): string | undefined {
  const wanted = family.trim().toLowerCase();
  return [...brand.style.fontLibrary, ...publicFonts].find((f) => f.toLowerCase() === wanted);
}

// rule: brand-style-fonts design-style-busy design-style-unavailable brand-style-views-agree
export function updateBrandStyle(store: ProfilesStore, args: Record<string, any>, ctx: ToolContext): BrandStyle {
  const brand = store.brandFor(ctx.principal, args.brandId as string);
  const addColors: string[] = (args.addColors ?? []).map((c: string) => c.toUpperCase());
  const roles: Record<string, string> = args.colorRoles ?? {};
  const fonts: Record<string, string> = args.fonts ?? {};
  const ds = brand.style.designStyle;
  if ((args.colorRoles || args.fonts) && !ds) {
    throw new ToolError("design_style_unavailable", "This brand is not on a design style, so colour roles and fonts cannot be set; palette colours alone can still be added.");
  }
  const resolved: Record<string, string> = {};
  const unknown: string[] = [];
  for (const [role, family] of Object.entries(fonts)) {
    const found = resolveFont(brand, family);
    if (found) resolved[role] = found;
    else unknown.push(role);
  }
  if (unknown.length) {
    throw new ToolError("font_not_found", `No font ${unknown.map((r) => `"${fonts[r]}"`).join(", ")} in the brand's library or the public families; no role changed.`, {
      invalidFields: unknown.map((r) => `fonts.${r}`),
    });
  }
  if ([...addColors, ...Object.values(roles)].some((c) => c.toUpperCase() === busyColor)) {
    throw new ToolError("design_style_busy", "Another save of the design style is running; retry with the same arguments in a few seconds.");
  }
  for (const c of addColors) if (!brand.style.palette.includes(c)) brand.style.palette.push(c);
  if (ds) {
    for (const [role, color] of Object.entries(roles)) ds.colorRoles[role as keyof typeof ds.colorRoles] = color.toUpperCase();
    for (const [role, family] of Object.entries(resolved)) ds.fonts[role as keyof typeof ds.fonts] = family;
  }
  return styleView(brand, ctx.origin);
}

const logoSizes = [[512, 512], [1200, 400], [800, 800], [600, 200]] as const;
const logoColors = ["#0B3D91", "#F2A900", "#2E7D32", "#6A1B9A", "#C62828", "#00838F"] as const;

// rule: logo-source logo-unreadable logo-made-current
export function uploadBrandLogo(store: ProfilesStore, args: Record<string, any>, ctx: ToolContext): UploadBrandLogoOutput {
  const brand = store.brandFor(ctx.principal, args.brandId as string);
  const source = args.sourceUrl as string;
  let url: URL;
  try {
    url = new URL(source);
  } catch {
    throw new ToolError("bad_request", "sourceUrl is not an absolute address.", { invalidFields: ["sourceUrl"], fieldErrors: [{ field: "sourceUrl", message: "Give a public https address of the image." }] });
  }
  if (url.protocol !== "https:") throw new ToolError("source_not_https", `sourceUrl uses ${url.protocol.replace(/:$/, "")}, not https; nothing was fetched.`);
  if (isPrivateHost(url.hostname)) throw new ToolError("source_not_public", `sourceUrl points at ${url.hostname}, a private or internal address; nothing was fetched.`);
  const magic = logoMagic.find((m) => url.href.toLowerCase().includes(m.contains));
  if (magic?.code === "design_style_busy") throw new ToolError("design_style_busy", "Another save of the design style is running; retry with the same arguments in a few seconds.");
  if (magic) throw new ToolError("logo_unreadable", `The image at sourceUrl is not a usable logo (${magic.note}); nothing was saved.`, { invalidFields: ["sourceUrl"] });

  const id = store.nextId("logo");
  const [width, height] = choose(logoSizes, "logo-size", url.href);
  const logo: LogoState = { id, path: `brand-assets/${id}.png`, width, height, color: choose(logoColors, "logo-color", url.href) };
  brand.style.logos.push(logo);
  if (args.makeCurrent !== false) brand.style.currentLogoId = id;
  return { brandId: brand.id, logo: logoView(brand, logo, ctx.origin) };
}

/** The stored logo behind a /brand-assets/<id>.png path, if its brand still exists. */
export function findLogo(store: ProfilesStore, logoId: string): LogoState | undefined {
  for (const brand of store.brands.values()) {
    const logo = brand.style.logos.find((l) => l.id === logoId);
    if (logo) return logo;
  }
  return undefined;
}
