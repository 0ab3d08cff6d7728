// Mutants of the tool tour, branding, connecting and media rules (issue 16): each breaks one rule (a member other
// than the first the fixtures use, where a family is involved) and runs only the checks that should catch it.
import type { McpMutant } from "./catalogue.js";
import { callOf, dataOf, errorOf, isSuccess, onCall, onlyObjectOutput, onResult, onToolSuccess, payloadOf, type Result, upstreamCall, withData } from "./rewrite.js";

/** An envelope failure in place of a result, with text and structuredContent in step. */
const failWith = (r: Result, code: string, message: string): Result => ({ ...withData(r, { ok: false, error: { code, message, retryable: false } }), isError: true });

export const toolsBrandingMutants: McpMutant[] = [
  // Tools only the tour calls successfully: each breaks one per-tool result convention of one such tool.
  {
    id: "mcp-structured-content-dropped-upload-brand-logo",
    rule: "success-structured-data/upload_brand_logo",
    description: "Successes of upload_brand_logo carry the payload as text only, no structuredContent",
    run: { only: ["mcp-success-conventions"] },
    response: onResult((c, r) => c.name === "upload_brand_logo" && isSuccess(r), (r) => (delete r.structuredContent, r)),
  },
  {
    id: "mcp-text-differs-unpublish-post",
    rule: "text-mirrors-data/unpublish_post",
    description: "content[0].text of unpublish_post's successes holds a field structuredContent.data does not",
    run: { only: ["mcp-success-conventions"] },
    response: onResult(
      (c, r) => c.name === "unpublish_post" && isSuccess(r),
      (r) => ({ ...r, content: [{ type: "text", text: JSON.stringify({ ...payloadOf(r, "unpublish_post"), textOnly: true }) }] }),
    ),
  },
  {
    id: "mcp-output-off-schema-complete-connect",
    rule: "result-matches-output-schema/complete_connect",
    description: "complete_connect answers the bound channel's platform as a number, against its output schema",
    run: { only: ["mcp-success-conventions"] },
    response: onToolSuccess("complete_connect", () => true, (d) => ({ ...d, channel: { ...d.channel, platform: 42 } })),
  },
  {
    id: "mcp-every-output-object-only-brand-style-palette-dropped",
    rule: "inferred-output-shape/get_brand_style",
    description:
      "tools/list declares every tool's output only as an object, and get_brand_style leaves out the required palette: the live schemas cannot tell, the contract's own can",
    run: { only: ["mcp-success-conventions"] },
    response: (req, res, ctx) =>
      req.body?.method === "tools/list"
        ? onlyObjectOutput(res, "*")
        : onResult(
            (c, r) => c.name === "get_brand_style" && isSuccess(r),
            (r) => {
              const { palette: _dropped, ...rest } = payloadOf(r, "get_brand_style");
              return withData(r, rest);
            },
          )!(req, res, ctx),
  },
  {
    id: "mcp-font-not-found-sets-known-roles",
    rule: "brand-style-fonts",
    description: "update_brand_style with an unknown font sets the fonts it knows before it answers font_not_found",
    run: { only: ["mcp-brand-style-fonts"] },
    response: async (req, res, ctx) => {
      const call = callOf(req);
      const e = res.body?.result ? errorOf(res.body.result) : undefined;
      if (call?.name !== "update_brand_style" || e?.code !== "font_not_found") return res;
      const refused = new Set((e.invalidFields ?? []).map((f: string) => f.replace(/^fonts\./, "")));
      const known = Object.fromEntries(Object.entries(call.args.fonts ?? {}).filter(([role]) => !refused.has(role)));
      if (Object.keys(known).length) await upstreamCall(ctx, req, "update_brand_style", { brandId: call.args.brandId, fonts: known });
      return res;
    },
  },
  {
    id: "mcp-design-style-busy-saves-anyway",
    rule: "design-style-busy",
    description: "A save refused as design_style_busy has changed the colour roles all the same",
    run: { only: ["mcp-design-style-busy"] },
    response: async (req, res, ctx) => {
      const call = callOf(req);
      if (call?.name !== "update_brand_style" || errorOf(res.body?.result ?? {})?.code !== "design_style_busy") return res;
      await upstreamCall(ctx, req, "update_brand_style", { brandId: call.args.brandId, colorRoles: { primary: "#123456" } });
      return res;
    },
  },
  {
    id: "mcp-palette-refused-off-design-style",
    rule: "design-style-unavailable",
    description: "A brand not on the design style cannot add palette colours either (design_style_unavailable)",
    run: { only: ["mcp-design-style-unavailable"] },
    response: onResult(
      (c, r) => c.name === "update_brand_style" && isSuccess(r) && payloadOf(r, "update_brand_style").colorRoles === null,
      (r) => failWith(r, "design_style_unavailable", "This brand is not on a design style."),
    ),
  },
  {
    id: "mcp-brand-style-update-answers-old-fonts",
    rule: "brand-style-views-agree",
    description: "update_brand_style answers the fonts as they were before the change",
    run: { only: ["mcp-brand-style-views"] },
    response: onResult(
      (c, r) => c.name === "update_brand_style" && isSuccess(r) && !!c.args.fonts,
      (r) => withData(r, { ...payloadOf(r, "update_brand_style"), fonts: { heading: null, body: null } }),
    ),
  },
  {
    id: "mcp-logo-private-source-fetched",
    rule: "logo-source/not-public",
    description: "upload_brand_logo fetches a logo from a private address (the mutant swaps it for a public one) instead of refusing it",
    run: { only: ["mcp-logo-source-refused"] },
    request: onCall((call) => {
      if (call.name !== "upload_brand_logo") return {};
      const url = new URL(String(call.args.sourceUrl));
      return url.protocol === "https:" && /^(10|127|192\.168|172\.(1[6-9]|2\d|3[01]))\./.test(url.hostname) ? { args: { ...call.args, sourceUrl: `https://www.example.com${url.pathname}` } } : {};
    }),
  },
  {
    id: "mcp-logo-unreadable-saves-another",
    rule: "logo-unreadable",
    description: "An unusable logo answers logo_unreadable, but a logo is saved all the same",
    run: { only: ["mcp-logo-unreadable"] },
    response: async (req, res, ctx) => {
      const call = callOf(req);
      if (call?.name !== "upload_brand_logo" || errorOf(res.body?.result ?? {})?.code !== "logo_unreadable") return res;
      await upstreamCall(ctx, req, "upload_brand_logo", { brandId: call.args.brandId, sourceUrl: "https://www.example.com/mutant-logo.png" });
      return res;
    },
  },
  {
    id: "mcp-logo-kept-not-current",
    rule: "logo-made-current",
    description: "upload_brand_logo only adds the logo, as if makeCurrent were false, unless told true",
    run: { only: ["mcp-logo-made-current"] },
    request: onCall((call) => (call.name === "upload_brand_logo" && call.args.makeCurrent === undefined ? { args: { ...call.args, makeCurrent: false } } : {})),
  },
  {
    id: "mcp-connect-channels-uppercase",
    rule: "connect-platform-not-supported",
    description: "create_connect_link's platform_not_supported lists supportedChannels in uppercase",
    run: { only: ["mcp-connect-platform-refused"] },
    response: onResult(
      (c, r) => c.name === "create_connect_link" && Array.isArray(errorOf(r)?.supportedChannels),
      (r) => withData(r, { ...payloadOf(r, "create_connect_link"), error: { ...errorOf(r), supportedChannels: errorOf(r)?.supportedChannels?.map((s) => s.toUpperCase()) } }),
    ),
  },
  {
    id: "mcp-headless-connect-falls-back-to-hosted",
    rule: "headless-connect-unavailable",
    description: "create_connect_link for a platform without a headless flow drops returnUrl and mints a hosted link instead of refusing",
    run: { only: ["mcp-headless-connect-unavailable"] },
    request: onCall((call) => {
      if (call.name !== "create_connect_link" || call.args.platform !== "threads") return {};
      const { returnUrl: _dropped, ...args } = call.args;
      return { args };
    }),
  },
  {
    id: "mcp-expired-session-complete-not-found",
    rule: "connect-session-expired",
    description: "complete_connect with an expired connectToken answers not_found (get_connect_options still says connect_session_expired)",
    run: { only: ["mcp-connect-session-expired"] },
    response: onResult(
      (c, r) => c.name === "complete_connect" && errorOf(r)?.code === "connect_session_expired",
      (r) => withData(r, { ...payloadOf(r, "complete_connect"), error: { ...errorOf(r), code: "not_found" } }),
    ),
  },
  {
    id: "mcp-finished-connect-session-reused",
    rule: "connect-completed/session-used-up",
    description: "After complete_connect the session still lists options (an empty list) instead of being spent",
    run: { only: ["mcp-connect-completed"] },
    response: onResult(
      (c, r) => c.name === "get_connect_options" && errorOf(r)?.code === "connect_session_expired",
      (r) => ({ ...withData(r, { platform: "facebook", options: [], expiresAt: new Date(Date.now() + 600_000).toISOString() }), isError: undefined }),
    ),
  },
  {
    id: "mcp-upload-image-private-source-fetched",
    rule: "upload-image-source/not-public",
    description: "upload_image takes a picture from a private address (the mutant swaps it for a public one) instead of refusing it",
    run: { only: ["mcp-upload-image-source"] },
    request: onCall((call) => {
      if (call.name !== "upload_image") return {};
      const url = new URL(String(call.args.sourceUrl));
      return url.protocol === "https:" && /^10\./.test(url.hostname) ? { args: { ...call.args, sourceUrl: `https://www.example.com${url.pathname}` } } : {};
    }),
  },
  {
    id: "mcp-generate-image-answers-another-address",
    rule: "generate-image-on-post",
    description: "generate_image made for a post answers an address other than the picture it put on the post",
    run: { only: ["mcp-generate-image-on-post"] },
    response: onToolSuccess("generate_image", (_d, c) => typeof c.args.postId === "string", (d) => ({ ...d, imageUrl: `${d.imageUrl}?mutant=1` })),
  },
];
