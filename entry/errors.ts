// `ideas-contract/errors`: the gateway's error catalogue (every code with its kind, status, retryable flag and
// the tools returning it), the code unions per kind and `expectedRetryable(error)`.
export * from "../generated/mcp/errors.js";
