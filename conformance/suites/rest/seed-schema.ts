// The contract's schemas with what we inferred left out: every constraint of a schema the OpenAPI marks
// `x-contract-source: inferred` (the id forms after the prefix, the alpha-2 country, …) is dropped, types and
// required members stay; where such a schema names what the seed itself fixes (`x-seed-pattern`: a language is two
// letters, in either case), that pattern stays instead. A value the generated validator refuses but this one accepts breaks only our design
// (inferred-output-forms), never a seed rule.
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import type { ValidateFunction } from "ajv";
import { openapi, type JsonSchema } from "./contract.js";

const constraints = ["pattern", "enum", "const", "format", "minLength", "maxLength", "minimum", "maximum", "minItems", "maxItems"];

function strip(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(strip);
  if (!node || typeof node !== "object") return node;
  const out: JsonSchema = {};
  const inferred = (node as JsonSchema)["x-contract-source"] === "inferred";
  for (const [k, v] of Object.entries(node)) if (!(inferred && constraints.includes(k))) out[k] = strip(v);
  const seedPattern = (node as JsonSchema)["x-seed-pattern"];
  if (inferred && typeof seedPattern === "string") out.pattern = seedPattern;
  return out;
}

const id = "urn:ideas-contract:seed";
let ajv: InstanceType<typeof Ajv2020.default> | undefined;
const compiled = new Map<string, ValidateFunction | undefined>();

/** The seed-only validator of a component schema (compiled on first use); undefined when there is no such schema. */
export function seedValidator(schema: string): ValidateFunction | undefined {
  if (!compiled.has(schema)) {
    if (!ajv) {
      ajv = new Ajv2020.default({ allErrors: true, strict: false });
      addFormats.default(ajv);
      ajv.addSchema({ $id: id, components: { schemas: strip(openapi.components.schemas) } });
    }
    compiled.set(schema, openapi.components.schemas[schema] ? ajv.getSchema(`${id}#/components/schemas/${schema}`) : undefined);
  }
  return compiled.get(schema);
}
