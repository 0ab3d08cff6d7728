// More allowed variants of the MCP gateway (the corpus of ./mcp.ts goes on here): each changes the mock's answers
// only in a way seed 001 allows, citing the seed's words (`basis`). test/conformance-variants-mcp.test.ts runs them
// with the others; a failure is a false failure of the suite.
import type { McpVariant } from "./mcp.js";
import { eachObject, onSuccess } from "./mcp.js";

/** A batch as create_posts and get_post_batch_status answer it (its items are the batch's slots). */
const isBatch = (o: Record<string, any>) => typeof o.batchId === "string" && Array.isArray(o.items);

/**
 * Every output field seed 001 marks optional (Required "no", or "optional" in its prose), left out wherever it is
 * optional: the batch's imagesPendingCount (when 0: the seed reads it absent as 0), warnings, error, createdAt and updatedAt and create_posts' includeImage;
 * each slot's preview, hasMedia, imagePending, mediaRequiredFor and appUrl; a profile's storyDestinations and a
 * channel's tokenExpiresAt, missingScopes, canPost and canFetchAnalytics; a destination's images (in development).
 */
function withoutOptional(data: any, tool: string): any {
  eachObject(data, (o) => {
    if (isBatch(o)) {
      for (const k of ["warnings", "error", "createdAt", "updatedAt", "includeImage"]) delete o[k];
      // "Treat absent as 0": a count left out says no picture is rendering, so it is left out only when it is 0.
      if (o.imagesPendingCount === 0) delete o.imagesPendingCount;
      for (const item of o.items) if (item && typeof item === "object") for (const k of ["preview", "hasMedia", "imagePending", "mediaRequiredFor", "appUrl"]) delete item[k];
    }
    if (tool === "get_profile" && typeof o.brandId === "string" && Array.isArray(o.channels)) delete o.storyDestinations;
    if (typeof o.health === "string" && "healthReason" in o) for (const k of ["tokenExpiresAt", "missingScopes", "canPost", "canFetchAnalytics"]) delete o[k];
    if (typeof o.platform === "string" && typeof o.characterLimit === "number" && Array.isArray(o.imageUrls)) delete o.images;
  });
  return data;
}

let optionalDropped = 0;

export const moreMcpVariants: McpVariant[] = [
  {
    id: "more-optional-fields-omitted",
    basis:
      "get_post_batch_status: imagesPendingCount, warnings, error, createdAt, updatedAt are Required no (imagesPendingCount: 'treat absent as 0', so left out only when 0); items: preview, hasMedia, imagePending, mediaRequiredFor, appUrl are optional; create_posts: includeImage optional; Profile: storyDestinations, channel tokenExpiresAt, missingScopes, canPost, canFetchAnalytics Required no; destination images Required no (in development).",
    description: "Every output field the seed marks optional left out wherever it is optional (a batch's picture counts and each slot's imagePending and appUrl included)",
    response: onSuccess((data, tool) => {
      const before = JSON.stringify(data);
      const out = withoutOptional(data, tool);
      if (JSON.stringify(out) !== before) optionalDropped++;
      return out;
    }),
    changed: () => optionalDropped,
  },
];
