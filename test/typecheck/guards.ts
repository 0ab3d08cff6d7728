// Compiled by `npm run typecheck` (tsc --strict): the generated validators are type guards. A passing check
// narrows `unknown` to the contract's type with no cast; each `@ts-expect-error` line is a wrong guess that must
// not compile (tsc fails on an unused directive, so these lines prove the errors exist).
import type { Brand, IdeaBatch } from "../../generated/rest/types.js";
import { validateBrand, validators } from "../../generated/rest/validators.js";
import type { CreateProfileOutput, ErrorEnvelope, ToolInputs } from "../../generated/mcp/types.js";
import { inputValidators, outputValidators, resultValidators, validateErrorEnvelope } from "../../generated/mcp/validators.js";

export function brandOf(body: unknown): Brand {
  if (!validators.Brand(body)) throw new Error(JSON.stringify(validators.Brand.errors?.[0]?.message));
  return body;
}

export function brandById(body: unknown): string | undefined {
  return validateBrand(body) ? body.id : undefined;
}

export function unchecked(body: unknown): Brand {
  // @ts-expect-error unknown until a validator says otherwise
  return body;
}

export function wrongGuess(body: unknown): IdeaBatch | undefined {
  if (!validators.Brand(body)) return undefined;
  // @ts-expect-error a Brand is not an IdeaBatch
  return body;
}

export function postsArgs(args: unknown): ToolInputs["create_posts"] | undefined {
  return inputValidators.create_posts(args) ? args : undefined;
}

/** Output enums are open: the known values autocomplete, a future one reaches the default branch. */
export function buildState(data: unknown): "starting" | "usable" | "broken" | "newer than this package" | "invalid" {
  if (!outputValidators.create_profile(data)) return "invalid";
  const status: CreateProfileOutput["status"] = data.status;
  switch (status) {
    case "building":
      return "starting";
    case "ready":
      return "usable";
    case "failed":
      return "broken";
    default:
      return "newer than this package";
  }
}

export function wrongTool(data: unknown): number {
  if (!outputValidators.create_profile(data)) return 0;
  // @ts-expect-error create_profile's payload has no posts
  return data.posts.length;
}

export function failure(content: unknown): ErrorEnvelope | undefined {
  if (!resultValidators.view_post(content)) return undefined;
  return validateErrorEnvelope(content.data) ? content.data : undefined;
}

export function errorCode(data: unknown): string | undefined {
  return validateErrorEnvelope(data) ? (data.error.retryable ? `retry ${data.error.code}` : data.error.code) : undefined;
}
