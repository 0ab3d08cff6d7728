// @inferred("reason"): marks a contract element that the service description does not show and that we
// designed from its conventions. It sets two OpenAPI extensions on the emitted object (schema, property
// schema or operation) so the mark is visible in the generated OpenAPI:
//   x-contract-source: inferred
//   x-contract-reason: <reason>
import { setExtension } from "@typespec/openapi";

function $inferred(context, target, reason) {
  setExtension(context.program, target, "x-contract-source", "inferred");
  setExtension(context.program, target, "x-contract-reason", reason);
}

export const $decorators = {
  IdeasApi: { inferred: $inferred },
};
