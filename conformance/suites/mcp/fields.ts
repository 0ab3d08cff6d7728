// Field-by-field judgement of an output payload against the contract's schema for it (not the target's advertised
// one): each property of a contract object schema is one member of a field family — present when required, and of
// the contract's type and nullability when present. Open as seed 001 says (Conventions 7, Versioning 5): unknown
// fields are ignored and an enum is judged by the type of its values only, so new enum values pass.
import type { Judge } from "../../core/judge.js";
import type { ValidateFunction } from "ajv/dist/2020.js";
import { openOutput } from "../../../lib/open-output.js";
import { collectRefs, mapObjects, reachableDefs, type Json } from "../../../lib/schema-walk.js";
import { compileLive, contractTool } from "./contract.js";

/**
 * An output schema open as seed 001 says (new fields and enum values are not breaking): the same transform the
 * generated output validators are made with (lib/open-output.ts), so the suite and consumers agree.
 */
export const openEnums = (schema: unknown): unknown => openOutput(schema as Json, { enums: true });

/**
 * A documented tool's schema as the seed states it: a part the contract marks `x-contract-source: inferred` (the
 * approval object, which the seed names but does not show) is kept to its type, so a seed rule never judges our
 * design of it (approval-fields does). The schemas of tools the seed does not show stay whole (inferred rules).
 */
function seedOnly(tool: string, schema: unknown): unknown {
  if (contractTool.get(tool)?.meta.source !== "documented") return schema;
  const strip = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(strip);
    if (!node || typeof node !== "object") return node;
    const n = node as Record<string, unknown>;
    if (n["x-contract-source"] === "inferred") return n.type === undefined ? {} : { type: n.type };
    return Object.fromEntries(Object.entries(n).map(([k, v]) => [k, strip(v)]));
  };
  return strip(schema);
}

interface Def {
  properties: Record<string, unknown>;
  required: string[];
  defs: unknown;
}
const defsSeen = new Map<string, Def>();

/** The contract's object schema `$defs/<def>` of a tool's output, with the (opened) $defs its properties refer to. */
function contractDef(tool: string, def: string): Def {
  const key = `${tool}#${def}`;
  const known = defsSeen.get(key);
  if (known) return known;
  const outputDefs = contractTool.get(tool)?.outputSchema.$defs as Record<string, any> | undefined;
  const d = outputDefs?.[def];
  if (!d?.properties) throw new Error(`the contract's ${tool} output has no object $defs/${def}`);
  const out = { properties: d.properties, required: d.required ?? [], defs: openEnums(seedOnly(tool, outputDefs)) };
  defsSeen.set(key, out);
  return out;
}

/** Keywords by which a schema can be reached otherwise than by a plain `#/$defs/<name>` $ref. */
const otherWays = new Set(["$id", "$anchor", "$dynamicAnchor", "$recursiveAnchor", "$dynamicRef", "$recursiveRef"]);

/**
 * `defs` cut to the definitions `schema` reaches (transitively): what a field's validator needs. Compiling a field
 * with every definition of its tool costs ~4× as much (ajv walks and checks them all) for the same validator. Kept
 * whole when anything could reach a definition otherwise than by a plain `#/$defs/<name>` $ref.
 */
function defsReachedBy(schema: unknown, defs: unknown): unknown {
  if (!defs || typeof defs !== "object" || Array.isArray(defs)) return defs;
  const bag = defs as Record<string, Json>;
  let plain = true;
  mapObjects([schema as Json, bag], (obj) => {
    if (Object.keys(obj).some((k) => otherWays.has(k))) plain = false;
    return undefined;
  });
  if (!plain) return defs;
  const names = reachableDefs([schema as Json], bag);
  const refs = collectRefs([schema as Json, ...[...names].map((n) => bag[n]!)]);
  if (![...refs].every((r) => /^#\/\$defs\/[^/~%]+$/.test(r) && r.slice("#/$defs/".length) in bag)) return defs;
  return Object.fromEntries(Object.entries(bag).filter(([n]) => names.has(n)));
}

const validators = new Map<string, ValidateFunction | Error>();

/** The compiled (opened) schema of one field of a contract def, once per process. */
function fieldValidator(tool: string, def: string, field: string, schema: unknown, defs: unknown): ValidateFunction | Error {
  const key = `${tool}#${def}#${field}`;
  let v = validators.get(key);
  if (!v) {
    const open = openEnums(schema) as object;
    validators.set(key, (v = compileLive({ $defs: defsReachedBy(open, defs), ...open })));
  }
  return v;
}

const closedValidators = new Map<string, ValidateFunction | Error>();

/** The value at a JSON pointer inside `root` (ajv's instancePath). */
function at(root: unknown, pointer: string): unknown {
  let v: any = root;
  for (const part of pointer.split("/").slice(1)) v = v?.[part.replace(/~1/g, "/").replace(/~0/g, "~")];
  return v;
}

/**
 * Enum values that are a listed value in another letter case (`READY` for `ready`): not a new value, which seed 001
 * allows, but a listed one written wrong (the seed fixes the case of what it lists). From a closed validator's errors.
 */
function caseVariants(errors: readonly { keyword: string; instancePath: string; params: any }[] | null | undefined, root: unknown): string[] {
  const out: string[] = [];
  for (const e of errors ?? []) {
    if (e.keyword !== "enum") continue;
    const got = at(root, e.instancePath);
    const listed = (e.params?.allowedValues ?? []).find((a: unknown) => typeof a === "string" && typeof got === "string" && a !== got && a.toLowerCase() === got.toLowerCase());
    if (listed !== undefined) out.push(`${e.instancePath || "(root)"} is ${JSON.stringify(got)}, the listed value ${JSON.stringify(listed)} in another case`);
  }
  return [...new Set(out)];
}

/** The closed (contract's own) validator of one field of a contract def, once per process. */
function closedFieldValidator(tool: string, def: string, field: string, schema: unknown): ValidateFunction | Error {
  const key = `${tool}#${def}#${field}`;
  let closed = closedValidators.get(key);
  if (!closed) closedValidators.set(key, (closed = compileLive({ $defs: defsReachedBy(schema, seedOnly(tool, contractTool.get(tool)?.outputSchema.$defs)), ...(schema as object) })));
  return closed;
}

/**
 * Problems of one field's value against the contract's `$defs/<def>` of `tool`: its type and format (open to new
 * enum values, as seed 001 allows, but not to a listed value in another case); [] when it conforms or the def does
 * not name the field.
 */
export function contractFieldProblems(tool: string, def: string, field: string, value: unknown): string[] {
  const { properties, defs } = contractDef(tool, def);
  const schema = properties[field];
  if (schema === undefined) return [];
  const v = fieldValidator(tool, def, field, schema, defs);
  if (v instanceof Error) return [`the contract's schema of ${field} does not compile: ${v.message}`];
  if (!v(value)) return (v.errors ?? []).slice(0, 3).map((e) => `${field}${e.instancePath} ${e.message ?? "is invalid"} (got ${JSON.stringify(value)?.slice(0, 80)})`);
  const closed = closedFieldValidator(tool, def, field, schema);
  return closed instanceof Error || closed(value) ? [] : caseVariants(closed.errors, value).map((p) => `${field}: ${p}`);
}

/**
 * A value the open schema accepts but the contract's own (closed) schema does not carries a field or an enum value
 * the contract does not list yet: accepted, as seed 001 says, and noted so the report shows what evolved — unless
 * it is a listed enum value in another case. Returns those problems ([] when none).
 */
function judgeEvolution(ctx: Judge, tool: string, def: string, field: string, schema: unknown, got: unknown, where: string): string[] {
  const closed = closedFieldValidator(tool, def, field, schema);
  if (closed instanceof Error || closed(got)) return [];
  const wrong = caseVariants(closed.errors, got);
  if (wrong.length) return wrong;
  const what = (closed.errors ?? []).map((e) => `${e.instancePath || field} ${e.message}`).join("; ");
  ctx.note(`${where}: ${field} holds what the contract does not list yet (${what}): accepted, as seed 001 allows new output fields and enum values`);
  return [];
}

/**
 * Judges `value` field by field against the contract's `$defs/<def>` of `tool`'s output: one case of
 * `<family>/<field>` per required field, and per optional field that is present. Returns whether all passed.
 */
export function expectContractFields(ctx: Judge, family: string, tool: string, def: string, value: unknown, where: string): boolean {
  const { properties, required, defs } = contractDef(tool, def);
  if (!value || typeof value !== "object" || Array.isArray(value)) {
    for (const f of required) ctx.expect(false, `${family}/${f}`, `${where}: not an object, so no ${f}: ${JSON.stringify(value)?.slice(0, 120)}`);
    return false;
  }
  let ok = true;
  for (const [field, schema] of Object.entries(properties)) {
    const present = field in value && (value as Record<string, unknown>)[field] !== undefined;
    if (!present) {
      if (required.includes(field)) ok = ctx.expect(false, `${family}/${field}`, `${where}: required field ${field} is missing`) && ok;
      continue;
    }
    const v = fieldValidator(tool, def, field, schema, defs);
    const got = (value as Record<string, unknown>)[field];
    const valid = !(v instanceof Error) && v(got);
    const wrongCase = valid ? judgeEvolution(ctx, tool, def, field, schema, got, where) : [];
    const why = v instanceof Error ? v.message : wrongCase.length ? wrongCase.join("; ") : (v.errors ?? []).map((e) => `${e.instancePath} ${e.message}`).join("; ");
    ok = ctx.expect(valid && !wrongCase.length, `${family}/${field}`, `${where}: ${field} ${JSON.stringify(got)?.slice(0, 120)} is not what the contract gives (${why})`) && ok;
  }
  return ok;
}

const outputValidators = new Map<string, ValidateFunction | Error>();
const closedOutputValidators = new Map<string, ValidateFunction | Error>();

/** Problems of a tool's structuredContent against the contract's (opened) output schema; [] when it conforms. */
export function contractOutputProblems(tool: string, structuredContent: unknown): string[] {
  const t = contractTool.get(tool);
  if (!t) return [];
  let v = outputValidators.get(tool);
  if (!v) outputValidators.set(tool, (v = compileLive(openEnums(seedOnly(tool, t.outputSchema)))));
  if (v instanceof Error) return [`the contract's output schema does not compile: ${v.message}`];
  if (!v(structuredContent)) return (v.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || "(root)"} ${e.message ?? "is invalid"}`);
  // The closed schema only tells a listed value in another case from a new one: compiled when a string could be one.
  if (!mayHoldCaseVariant(structuredContent, listedValues(tool, t.outputSchema))) return [];
  let closed = closedOutputValidators.get(tool);
  if (!closed) closedOutputValidators.set(tool, (closed = compileLive(seedOnly(tool, t.outputSchema))));
  return closed instanceof Error || closed(structuredContent) ? [] : caseVariants(closed.errors, structuredContent).slice(0, 5);
}

const listedByTool = new Map<string, Map<string, Set<string>>>();

/** Every string an `enum` of the tool's output schema lists, by its lowercase form. */
function listedValues(tool: string, schema: unknown): Map<string, Set<string>> {
  let out = listedByTool.get(tool);
  if (out) return out;
  out = new Map();
  const walk = (s: unknown): void => {
    if (!s || typeof s !== "object") return;
    if (Array.isArray(s)) return s.forEach(walk);
    for (const [k, v] of Object.entries(s)) {
      if (k === "enum" && Array.isArray(v)) for (const x of v) if (typeof x === "string") out!.set(x.toLowerCase(), (out!.get(x.toLowerCase()) ?? new Set()).add(x));
      if (k !== "examples" && k !== "default" && k !== "const") walk(v);
    }
  };
  walk(schema);
  listedByTool.set(tool, out);
  return out;
}

/** Whether a string in `value` is a listed enum value in another letter case (then the closed schema says where). */
function mayHoldCaseVariant(value: unknown, listed: Map<string, Set<string>>): boolean {
  if (typeof value === "string") {
    const same = listed.get(value.toLowerCase());
    return !!same && !same.has(value);
  }
  if (!value || typeof value !== "object") return false;
  return (Array.isArray(value) ? value : Object.values(value)).some((v) => mayHoldCaseVariant(v, listed));
}
