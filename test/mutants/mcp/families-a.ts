// Mutants of the tools/list, argument-name, UUID, background-generation and input-limit families (issue 16): each
// breaks one member (not the first the fixtures use) and runs only the check that declares it.
import type { Answer, Exchange, Mutant, ProxyContext } from "../rest/proxy.js";
import type { McpMutant } from "./catalogue.js";
import { behindObjectOutput, type Call, cutTo, dataOf, isSuccess, type ListedTool, onCall, onResult, payloadOf, type Result, toolsOf, withData, withTools } from "./rewrite.js";
import { at, fieldsAt, listAt } from "../../support/json.js";

/** tools/list with one tool's definition rewritten (a deep copy: the mock's own list is never touched). */
const onListedTool =
  (name: string, edit: (tool: ListedTool) => unknown) =>
  (req: Exchange, res: Answer): Answer => {
    const listed = req.body?.method === "tools/list" ? toolsOf(res) : undefined;
    return listed ? withTools(res, listed.flatMap((t) => (t.name === name ? [edit(structuredClone(t))].filter(Boolean) : [t]))) : res;
  };

/** tools/list rewritten as onListedTool does, every other answer by `other`. */
const listedAnd =
  (list: ReturnType<typeof onListedTool>, other: Mutant["response"]): Mutant["response"] =>
  (req: Exchange, res: Answer, ctx: ProxyContext) =>
    req.body?.method === "tools/list" ? list(req, res) : other!(req, res, ctx);

/** Successes of `tool` rewritten, with tools/list declaring its output only as an object (the seed allows it) so they get through. */
const successesBehindObjectOutput = (tool: string, rewrite: (result: Result, call: Call) => Result): Mutant["response"] =>
  behindObjectOutput(tool, onResult((c, r) => c.name === tool && isSuccess(r), rewrite)!);

/** A refusal before the tool ran (isError, no envelope), as the SDK's input validation answers it. */
const refusedFirst = (r: Result) => r.isError === true && dataOf(r)?.ok !== false;

/** The limit checked inside the tool: a refusal before it ran turns into a bad_request envelope naming the field. */
const limitInEnvelope = (tool: string, field: string, beyond: (value: unknown) => boolean) =>
  onResult(
    (c, r) => c.name === tool && beyond(c.args[field]) && refusedFirst(r),
    (r) => ({ ...withData(r, { ok: false, error: { code: "bad_request", message: `${field} is too long or too large.`, retryable: false, invalidFields: [field] } }), isError: true }),
  );

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** brandId typed as any string: the listed schema loses its UUID form and the tool runs, answering not_found. */
const brandIdAnyString = (tool: string): Mutant["response"] =>
  listedAnd(
    onListedTool(tool, (t) => ({ ...t, inputSchema: { ...t.inputSchema, properties: { ...fieldsAt(t.inputSchema, "properties"), brandId: { type: "string" } } } })),
    onResult(
      (c, r) => c.name === tool && typeof c.args.brandId === "string" && !uuid.test(c.args.brandId) && refusedFirst(r),
      (r) => ({ ...withData(r, { ok: false, error: { code: "not_found", message: "No such brand.", retryable: false } }), isError: true }),
    ),
  );

/** A tool whose post argument is named `to` instead of `from`: listed so, and calls renamed back for the mock. */
const postArgRenamed = (tool: string, from: string, to: string): Pick<Mutant, "request" | "response"> => ({
  response: onListedTool(tool, (t) => {
    const { [from]: arg, ...rest } = fieldsAt(t.inputSchema, "properties") ?? {};
    const required = listAt(t.inputSchema, "required").map((r) => (r === from ? to : r));
    return { ...t, inputSchema: { ...t.inputSchema, properties: { [to]: arg, ...rest }, required } };
  }),
  request: onCall((call) => {
    if (call.name !== tool || !(to in call.args)) return {};
    const { [to]: value, ...args } = call.args;
    return { args: { ...args, [from]: value } };
  }),
});

export const familiesAMutants: McpMutant[] = [
  {
    id: "mcp-get-profile-schema-invalid-in-dialect",
    rule: "tools-list-schemas/get_profile",
    description: "tools/list gives get_profile an output schema named draft-07 that draft-07 refuses (a property's type is 5)",
    // The checks that judge get_profile's answers run too: they must go on (by the contract's schema), not crash.
    run: { only: ["mcp-tools-list-schemas", "mcp-output-schemas-accept-contract-outputs", "mcp-profile-fields", "mcp-success-conventions"] },
    response: onListedTool("get_profile", (t) => ({
      ...t,
      outputSchema: { $schema: "http://json-schema.org/draft-07/schema#", ...t.outputSchema, properties: { ...fieldsAt(t.outputSchema, "properties"), note: { type: 5 } } },
    })),
  },
  {
    id: "mcp-upload-image-no-output-schema",
    rule: "tools-list-schemas/upload_image",
    description: "tools/list gives upload_image no outputSchema",
    run: { only: ["mcp-tools-list-schemas"] },
    response: onListedTool("upload_image", ({ outputSchema: _dropped, ...t }) => t),
  },
  {
    id: "mcp-reject-post-output-refuses-cancelled",
    rule: "output-schema-allows-cancelled/reject_post",
    description: "reject_post's listed output schema leaves out the { cancelled: true, changed: false } answer",
    run: { only: ["mcp-output-schemas-allow-cancelled"] },
    response: onListedTool("reject_post", (t) => {
      const members = listAt(t.outputSchema, "properties", "data", "anyOf");
      return { ...t, outputSchema: { ...t.outputSchema, properties: { data: { anyOf: members.filter((s) => at(s, "$ref") !== "#/$defs/Cancelled") } } } };
    }),
  },
  {
    id: "mcp-regenerate-in-foreground",
    rule: "generation-in-background/regenerate_post_image",
    description:
      "regenerate_post_image renders in the foreground and answers the post with no jobId (tools/list declares its output only as an object so the answer gets through)",
    run: { only: ["mcp-regenerate-job"] },
    response: successesBehindObjectOutput("regenerate_post_image", (r, c) => withData(r, { postId: c.args.postId, status: "succeeded" })),
  },
  {
    id: "mcp-delete-profile-brand-id-any-string",
    rule: "uuid-brand-id/delete_profile",
    description: "delete_profile takes any string as brandId (listed so) and answers not_found for one that is no UUID",
    run: { only: ["mcp-uuid-brand-id"] },
    response: brandIdAnyString("delete_profile"),
  },
  {
    id: "mcp-connect-options-brand-id-any-string",
    rule: "uuid-brand-id-inferred/get_connect_options",
    description: "get_connect_options takes any string as brandId (listed so) and answers not_found for one that is no UUID",
    run: { only: ["mcp-uuid-brand-id"] },
    response: brandIdAnyString("get_connect_options"),
  },
  {
    id: "mcp-generate-caption-takes-id",
    rule: "post-id-argument-names/generate_caption",
    description: "generate_caption takes the post as id instead of postId",
    run: { only: ["mcp-post-id-argument-names"] },
    ...postArgRenamed("generate_caption", "postId", "id"),
  },
  {
    id: "mcp-unpublish-post-takes-post-id",
    rule: "post-id-argument-inferred/unpublish_post",
    description: "unpublish_post takes the post as postId instead of id",
    run: { only: ["mcp-post-id-argument-names"] },
    ...postArgRenamed("unpublish_post", "id", "postId"),
  },
  {
    id: "mcp-unschedule-platform-unlisted",
    rule: "contract-tools-listed/unschedule_platform",
    description: "tools/list leaves out unschedule_platform (calls to it still run)",
    run: { only: ["mcp-contract-tools-listed"] },
    response: onListedTool("unschedule_platform", () => undefined),
  },
  {
    id: "mcp-update-post-caption-required",
    rule: "inferred-input-not-tightened/update_post",
    description: "update_post's listed input schema requires caption, which the contract leaves optional",
    run: { only: ["mcp-input-schemas-accept-contract-inputs"] },
    response: onListedTool("update_post", (t) => ({ ...t, inputSchema: { ...t.inputSchema, required: [...listAt(t.inputSchema, "required"), "caption"] } })),
  },
  {
    id: "mcp-create-posts-listed-count-unbounded",
    rule: "input-schema-keeps-limits/create_posts",
    description: "create_posts' listed input schema drops the maximum of count",
    run: { only: ["mcp-input-schemas-refuse-contract-invalid"] },
    response: onListedTool("create_posts", (t) => {
      const { maximum: _dropped, ...count } = fieldsAt(t.inputSchema, "properties", "count") ?? {};
      return { ...t, inputSchema: { ...t.inputSchema, properties: { ...fieldsAt(t.inputSchema, "properties"), count } } };
    }),
  },
  {
    id: "mcp-generate-image-output-requires-post",
    rule: "inferred-output-schema-accepts/generate_image",
    description: "generate_image's listed output schema requires postId and imageIndex, which a library picture leaves out",
    run: { only: ["mcp-output-schemas-accept-contract-outputs"] },
    response: onListedTool("generate_image", (t) => {
      const defs = fieldsAt(t.outputSchema, "$defs");
      return { ...t, outputSchema: { ...t.outputSchema, $defs: { ...defs, GenerateImageOutput: { ...fieldsAt(defs, "GenerateImageOutput"), required: ["postId", "imageIndex"] } } } };
    }),
  },
  {
    id: "mcp-view-post-output-image-urls-string",
    rule: "output-schema-accepts-contract/view_post",
    description: "view_post's listed output schema types imageUrls (a seed field, string[]) as a single string",
    run: { only: ["mcp-output-schemas-accept-contract-outputs"] },
    response: onListedTool("view_post", (t) => {
      const defs = fieldsAt(t.outputSchema, "$defs");
      return { ...t, outputSchema: { ...t.outputSchema, $defs: { ...defs, PostView: { ...fieldsAt(defs, "PostView"), properties: { ...fieldsAt(defs, "PostView", "properties"), imageUrls: { type: "string" } } } } } };
    }),
  },
  {
    id: "mcp-create-posts-count-max-in-envelope",
    rule: "limit-create-posts-count/max",
    description: "create_posts checks count's maximum inside the tool: over 20 is refused with a bad_request envelope, not before it runs",
    run: { only: ["mcp-create-posts-limits"] },
    response: limitInEnvelope("create_posts", "count", (v) => typeof v === "number" && v > 20),
  },
  {
    id: "mcp-create-posts-brief-max-in-envelope",
    rule: "limit-create-posts-brief/max",
    description: "create_posts checks the brief's maximum length inside the tool: over 4000 characters is refused with a bad_request envelope",
    run: { only: ["mcp-create-posts-limits"] },
    response: limitInEnvelope("create_posts", "brief", (v) => typeof v === "string" && v.length > 4000),
  },
  {
    id: "mcp-reschedule-moves-truncated",
    rule: "limit-reschedule-moves/max",
    description: "reschedule_posts takes more than 25 moves and acts on the first 25 instead of refusing them",
    run: { only: ["mcp-create-posts-limits"] },
    request: cutTo("reschedule_posts", "moves", 25),
  },
  {
    id: "mcp-create-profile-website-max-in-envelope",
    rule: "limit-create-profile-website-url/max",
    description: "create_profile checks websiteUrl's maximum length inside the tool: a longer one is refused with a bad_request envelope",
    run: { only: ["mcp-create-profile-inputs"] },
    response: limitInEnvelope("create_profile", "websiteUrl", (v) => typeof v === "string" && v.length > 2048),
  },
  {
    id: "mcp-create-profile-name-truncated",
    rule: "limit-create-profile-name/max",
    description: "create_profile takes a name over 100 characters and cuts it to 100 instead of refusing it",
    run: { only: ["mcp-create-profile-inputs"] },
    request: cutTo("create_profile", "name", 100),
  },
  {
    id: "mcp-create-profile-external-id-max-in-envelope",
    rule: "limit-create-profile-external-id/max",
    description: "create_profile checks externalId's maximum length inside the tool: over 200 characters is refused with a bad_request envelope",
    run: { only: ["mcp-create-profile-inputs"] },
    response: limitInEnvelope("create_profile", "externalId", (v) => typeof v === "string" && v.length > 200),
  },
  // Families every check records on the calls it makes (callRules): the killer is the check whose call meets it.
  {
    id: "mcp-reject-post-cancelled-for-backend",
    rule: "no-cancelled-for-partner/reject_post",
    description: "reject_post answers a backend call with { cancelled: true, changed: false }, as if an assistant user had declined",
    run: { only: ["mcp-approval-rejected"] },
    response: onResult((c, r) => c.name === "reject_post" && isSuccess(r), (r) => withData(r, { cancelled: true, changed: false })),
  },
  {
    id: "mcp-list-brands-slug-dropped",
    rule: "contract-output-shape/list_brands",
    description:
      "list_brands leaves out each brand's required slug, and tools/list declares its output only as an object (the seed allows it): only the contract's own schema can tell",
    run: { only: ["mcp-partner-workspaces"] },
    response: successesBehindObjectOutput("list_brands", (r) => withData(r, { ...payloadOf(r, "list_brands"), brands: payloadOf(r, "list_brands").brands.map(({ slug: _dropped, ...b }) => b) })),
  },
];
