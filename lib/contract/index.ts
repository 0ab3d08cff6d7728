// The contract's resolvers, one per protocol and one for the whole: what a suite (and the generator) gives the
// rule loader so that a catalogue's pointers and family sources resolve against the documents it points into.
import { errorSource } from "./errors.js";
import { openapiSource } from "./openapi.js";
import { contractResolver } from "./source.js";
import { toolSource } from "./tools.js";

/** spec/rules/rest.yaml's: `openapi:` pointers and the `operations` family. */
export const restContract = contractResolver(openapiSource);
/** spec/rules/mcp.yaml's: `tool:` and `error:` pointers and the `tools` and `errors` families. */
export const mcpContract = contractResolver(toolSource, errorSource);
/** Every document's: for the generator, which reads both catalogues. */
export const wholeContract = contractResolver(openapiSource, toolSource, errorSource);
