// The contract's schemas with what we inferred left out: every constraint of a schema the OpenAPI marks
// `x-contract-source: inferred` (the id forms after the prefix, the alpha-2 country, …) is dropped, types and
// required members stay; where such a schema names what the seed itself fixes (`x-seed-pattern`: a language is two
// letters, in either case), that pattern stays instead. A value the generated validator refuses but this one accepts breaks only our design
// (inferred-output-forms), never a seed rule.
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import type { ValidateFunction } from "ajv";
import { openapi, type JsonSchema } from "./contract.js";

/** The keywords of a schema node marked inferred that are ours (types and required members stay the seed's). */
export const inferredConstraints: ReadonlySet<string> = new Set(["pattern", "enum", "const", "format", "minLength", "maxLength", "minimum", "maximum", "minItems", "maxItems"]);

function strip(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(strip);
  if (!node || typeof node !== "object") return node;
  const out: JsonSchema = {};
  const inferred = (node as JsonSchema)["x-contract-source"] === "inferred";
  for (const [k, v] of Object.entries(node)) if (!(inferred && inferredConstraints.has(k))) out[k] = strip(v);
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

/** A pattern that is one ASCII character class with a quantifier, e.g. `^[a-z]{2}$`: its class and quantifier. */
const classPattern = (pattern: unknown) => (typeof pattern === "string" ? /^\^\[([\x20-\x5b\x5e-\x7e]*)\](\{\d+(?:,\d*)?\}|\+|\*|\?)?\$$/.exec(pattern) : null);

/**
 * Whether the seed pattern takes every string the contract's pattern takes. Proven only for the one shape the
 * contract uses (a character class with a quantifier, the same quantifier in both, every ASCII character of the
 * contract's class in the seed's); anything else counts as unproven.
 */
function widens(pattern: unknown, seedPattern: string): boolean {
  const [contract, seed] = [classPattern(pattern), classPattern(seedPattern)];
  if (!contract || !seed || contract[1]!.startsWith("^") || seed[1]!.startsWith("^") || contract[2] !== seed[2]) return false;
  const [inContract, inSeed] = [new RegExp(`^[${contract[1]}]$`, "u"), new RegExp(`^[${seed[1]}]$`, "u")];
  for (let c = 0; c < 128; c++) if (inContract.test(String.fromCharCode(c)) && !inSeed.test(String.fromCharCode(c))) return false;
  return true;
}

let implied: boolean | undefined;

/**
 * Whether every body the contract's `schema` takes, its seed schema takes too: then a body the generated validator
 * takes needs no second validation against the seed. The seed schema only drops constraints, which widens it,
 * except where an `x-seed-pattern` stands in for a pattern: proven there to widen too, or not relied on (any
 * schema of the contract with an unproven one, and the seed validator always runs).
 */
export function seedImpliedByContract(schema: string): boolean {
  if (!openapi.components.schemas[schema]) return false;
  if (implied === undefined) {
    implied = true;
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) return node.forEach(walk);
      if (!node || typeof node !== "object") return;
      const n = node as JsonSchema;
      const seedPattern = n["x-seed-pattern"];
      if (n["x-contract-source"] === "inferred" && typeof seedPattern === "string" && !widens(n.pattern, seedPattern)) implied = false;
      for (const v of Object.values(n)) walk(v);
    };
    walk(openapi.components.schemas);
  }
  return implied;
}
