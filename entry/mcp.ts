// `ideas-contract/mcp`: the Partner Tool Gateway's tool types (`ToolInputs`, `ToolOutputs`,
// `ToolStructuredContent<N>`, one type per tool input and output) and standalone ajv validators
// (`inputValidators`, `outputValidators`, `resultValidators`). Needs only ajv and ajv-formats at run time.
export type * from "../generated/mcp/types.js";
export * from "../generated/mcp/validators.js";
