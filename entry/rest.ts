// `ideas-contract/rest`: the REST API's TypeScript types (every schema of the OpenAPI) and its standalone ajv
// validators (`validators.Brand(data)`, `validateBrand(data)`). Needs only ajv and ajv-formats at run time.
export type * from "../generated/rest/types.js";
export * from "../generated/rest/validators.js";
