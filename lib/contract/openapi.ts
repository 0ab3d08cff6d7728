// The generated OpenAPI document as rules point into it: `openapi:#/json/pointer`, and the `operations` family
// (every operation, in the document's order: a new endpoint gets the rule, and its gap, unasked).
import { followPointer, pointerStep } from "../json-pointer.js";
import { contractDocument, openapiJsonPath } from "./documents.js";
import type { ContractSource } from "./source.js";

type Paths = Record<string, Record<string, { operationId?: unknown }>>;
const paths = () => (contractDocument(openapiJsonPath) as { paths: Paths }).paths;

export const openapiSource: ContractSource = {
  kind: "openapi",
  resolve: (pointer) => followPointer(contractDocument(openapiJsonPath), pointer),
  families: {
    operations: () =>
      Object.entries(paths()).flatMap(([template, ops]) =>
        Object.entries(ops)
          .filter(([, op]) => typeof op?.operationId === "string")
          .map(([method, op]) => ({ name: op.operationId as string, contract: `openapi:#/paths/${pointerStep(template)}/${method}` })),
      ),
  },
};
