// Which request-schema errors are against a constraint only we inferred: one the OpenAPI marks
// `x-contract-source: inferred` (an id's characters after its prefix, the alpha-2 country, the lowercase language, a
// blank description), read as the seed-only schema reads them (conformance/suites/rest/seed-schema.ts; a pattern
// with an `x-seed-pattern` is the seed's where the value passes that one). A service that takes such a value
// differs from our design, not from the seed: drift, never a seed rule's violation.
import type { ErrorObject } from "ajv";
import { openapi, type JsonSchema } from "../conformance/suites/rest/contract.js";
import { inferredConstraints as constraints } from "../conformance/suites/rest/seed-schema.js";
import { followPointer } from "../lib/json-pointer.js";

const schemas = openapi.components.schemas;

const deref = (node: JsonSchema | undefined): JsonSchema | undefined =>
  typeof node?.$ref === "string" ? schemas[node.$ref.slice(node.$ref.lastIndexOf("/") + 1)] : node;

/** A node with the branches it is made of (allOf, anyOf, oneOf, $ref), each followed. */
function withBranches(node: JsonSchema | undefined, out: JsonSchema[] = [], depth = 0): JsonSchema[] {
  const n = deref(node);
  if (!n || depth > 8 || out.includes(n)) return out;
  out.push(n);
  for (const key of ["allOf", "anyOf", "oneOf"]) if (Array.isArray(n[key])) for (const b of n[key]) withBranches(b, out, depth + 1);
  return out;
}

/** The schema nodes an error's schemaPath (relative to the request's component, `$defs` for others) may stand for. */
function nodesAt(component: string, schemaPath: string): JsonSchema[] {
  const steps = schemaPath.replace(/^#\/?/, "").split("/").slice(0, -1).map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
  let at: JsonSchema[] = withBranches(schemas[component]);
  for (let i = 0; i < steps.length; i++) {
    if (steps[i] === "$defs") {
      at = withBranches(schemas[steps[++i]!]);
      continue;
    }
    at = at.flatMap((n) => (n[steps[i]!] === undefined ? [] : withBranches(n[steps[i]!])));
  }
  return at;
}

/** Whether the error, on the request `body`, is against a constraint of our design alone (see above). */
export function againstInferredForm(component: string, e: ErrorObject, body: unknown): boolean {
  if (!constraints.has(e.keyword)) return false;
  return nodesAt(component, e.schemaPath).some((n) => {
    if (n["x-contract-source"] !== "inferred" || n[e.keyword] === undefined) return false;
    const seedPattern = n["x-seed-pattern"];
    if (e.keyword !== "pattern" || typeof seedPattern !== "string") return true;
    const value = followPointer(body, e.instancePath);
    return typeof value === "string" && new RegExp(seedPattern, "u").test(value);
  });
}
