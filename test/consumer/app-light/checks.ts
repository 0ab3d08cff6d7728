// What a project that only wants the contract's types and validators does with them. Compiled with tsc --strict
// (declaration files checked too) against the installed package, then run from ESM (esm.ts) and CommonJS
// (cjs.cts), each passing the modules it loaded its own way.
import type { Brand, CreateBrandRequest, ErrorEnvelope } from "ideas-contract/rest";
import type { CreatePostsInput, ToolName, ToolStructuredContent } from "ideas-contract/mcp";
import type { ErrorCode } from "ideas-contract/errors";

export interface ContractModules {
  rest: typeof import("ideas-contract/rest");
  mcp: typeof import("ideas-contract/mcp");
  errors: typeof import("ideas-contract/errors");
  openapi: typeof import("ideas-contract/openapi");
  tools: typeof import("ideas-contract/tools");
}

// The types are the contract's, not `any`: each line below must fail to compile.
// @ts-expect-error the website is a string
export const wrongWebsite: CreateBrandRequest = { website: 42 };
// @ts-expect-error count is a number
export const wrongCount: CreatePostsInput = { brandId: "b1", brief: "Autumn menu", count: "3" };
// @ts-expect-error not a tool of the gateway
export const notATool: ToolName = "drop_database";
// @ts-expect-error not a code of the catalogue
export const notACode: ErrorCode = "teapot";

export const brandName = (brand: Brand): string => brand.name ?? "(reading)";
export const errorParam = (body: ErrorEnvelope): string | null => body.error.param;
export const failed = (content: ToolStructuredContent<"view_post">): boolean =>
  typeof content.data === "object" && content.data !== null && "ok" in content.data && content.data.ok === false;

/** The README's recipe: a passing validator narrows, no cast; a wrong guess does not compile. */
export function brandOf(m: ContractModules, body: unknown): Brand {
  if (!m.rest.validators.Brand(body)) throw new Error(`not a Brand: ${JSON.stringify(m.rest.validators.Brand.errors)}`);
  return body;
}
export function notABatch(m: ContractModules, body: unknown): number {
  if (!m.rest.validators.Brand(body)) return 0;
  // @ts-expect-error a Brand has no ideas
  return body.data.length;
}

function check(what: string, ok: boolean): string {
  if (!ok) throw new Error(`consumer check failed: ${what}`);
  return what;
}

/** Runs every check; throws on the first that fails, else returns their names. */
export function contractChecks(m: ContractModules): string[] {
  const request: CreateBrandRequest = { website: "https://www.bluefjord-bakery.no" };
  const posts: CreatePostsInput = { brandId: "4f1c2b9e-5d0a-4c1e-9a55-3f7f0d6b2a11", brief: "Our new autumn menu.", count: 3 };
  const missing = { brandId: posts.brandId, count: 3 };
  return [
    check("a valid REST request passes its validator", m.rest.validators.CreateBrandRequest(request)),
    check("an invalid REST request fails it, with reasons", !m.rest.validateCreateBrandRequest({ website: 42 }) && (m.rest.validateCreateBrandRequest.errors?.length ?? 0) > 0),
    check("a valid tool input passes its validator", m.mcp.inputValidators.create_posts(posts)),
    check("a tool input missing a required field fails", !m.mcp.inputValidators.create_posts(missing)),
    check("an output with an enum value newer than this package passes (seed 001: output can grow)", m.mcp.outputValidators.create_profile({ brandId: "b1", companyId: "c1", status: "rebuilding", created: true })),
    check("every tool of the manifest has validators", m.tools.toolsManifest.tools.every((t) => typeof m.mcp.resultValidators[t.name] === "function")),
    check("the catalogue knows the retryable flag of a code", m.errors.expectedRetryable({ code: "upstream_503" }) === true && m.errors.catalogue.length > 0),
    check("the OpenAPI document has the brand operations", m.openapi.openapi.paths["/v1/brands"]?.post?.operationId === "createBrand"),
  ];
}
