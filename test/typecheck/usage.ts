// Compiled by `npm run typecheck` (tsc --strict, declaration files checked too): a consumer's view of the
// generated types and validators. It runs nothing; a type error here fails CI.
import type { Brand, CreateBrandRequest, IdeaBatch, ErrorEnvelope as RestErrorEnvelope } from "../../generated/rest/types.js";
import { validators } from "../../generated/rest/validators.js";
import type { CreatePostsInput, ToolInputs, ToolName, ToolStructuredContent, ErrorEnvelope } from "../../generated/mcp/types.js";
import { inputValidators, resultValidators } from "../../generated/mcp/validators.js";
import { expectedRetryable, type ErrorCode } from "../../generated/mcp/errors.js";

export const createBrand: CreateBrandRequest = { website: "https://www.bluefjord-bakery.no" };
export const byName: CreateBrandRequest = { name: "Bluefjord Bakery", description: "Sourdough bakery in Bergen." };

export function brandName(brand: Brand): string {
  // name is null until the website has been read.
  return brand.name ?? "(reading)";
}

export function ideaTitles(batch: IdeaBatch): string[] {
  return batch.status === "done" ? batch.data.map((idea) => `${idea.rank}. ${idea.title}`) : [];
}

export function restErrorParam(body: RestErrorEnvelope): string | null {
  return body.error.param;
}

export const brief: CreatePostsInput = { brandId: "b1", brief: "Autumn menu launch", count: 3, platforms: ["INSTAGRAM"] };

export function argumentsOk<N extends ToolName>(name: N, args: ToolInputs[N]): boolean {
  return inputValidators[name](args);
}

export function isFailure<N extends ToolName>(content: ToolStructuredContent<N>): content is { data: ErrorEnvelope } {
  return typeof content.data === "object" && content.data !== null && "ok" in content.data && content.data.ok === false;
}

export const resultOk: boolean = resultValidators.view_post({ data: {} }) || validators.Brand({});
export const retry: boolean | undefined = expectedRetryable({ code: "upstream_503" satisfies ErrorCode });
