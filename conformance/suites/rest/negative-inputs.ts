// Bad inputs derived from the request schemas of the OpenAPI document: for every field of every request body,
// each constraint broken on its own (required, type, enum, lengths, bounds, item counts, pattern, format),
// starting from a valid body, plus the rules the schema cannot say (website, or name and description; `date`
// beyond the 45-day horizon; a reason on feedback that is not a rejection). Each answer must be 400
// invalid_request with `param` naming the field.
import type { RuleId } from "../../../generated/rules.js";
import { openapi, operations, type JsonSchema, type OperationId } from "./contract.js";
import type { RuleCatalogue } from "../../core/rules.js";
import { restCatalogue } from "./catalogue.js";

let catalogue: RuleCatalogue | undefined;
/** Our design, not the seed's words: a refusal we chose is no case of the seed's "wrong value answers 400". */
const isInferred = (rule: RuleId) => (catalogue ??= restCatalogue()).byId.get(rule)?.provenance === "inferred";

/** What a bad input's valid starting body needs from the target. */
export type BaseNeed = "ready-brand" | "idea" | "brand-to-patch" | "none";

export interface BadInput {
  /** Stable kebab-case, unique; named in the notes of the operation's negative-<operation> check. */
  id: string;
  op: OperationId;
  /** What is wrong, in words. */
  description: string;
  /** The `param` values that name the field (after normalising). */
  params: string[];
  /** The rules (family members of spec/rules/rest.yaml) the input probes: a wrong status or param breaks them. */
  rules: RuleId[];
  base: BaseNeed;
  /** The request body, given what the base needs. */
  body(ctx: BaseValues): Record<string, unknown>;
}

export interface BaseValues {
  brandId: string;
  ideaId: string;
  /** The target's today, YYYY-MM-DD (from its own timestamps). */
  today: string;
}

const schemas = openapi.components.schemas;

/** A schema with its `$ref` and single-`allOf` wrappers merged into one (descriptions dropped). */
export function resolve(schema: JsonSchema): JsonSchema {
  let out: JsonSchema = {};
  const merge = (s: JsonSchema) => {
    if (s.$ref) merge(schemas[String(s.$ref).split("/").pop()!]!);
    if (Array.isArray(s.allOf)) for (const part of s.allOf) merge(part);
    const { $ref: _r, allOf: _a, description: _d, examples: _e, ...rest } = s;
    out = { ...out, ...rest };
  };
  merge(schema);
  return out;
}

/** A valid value for a schema (for filling lists up to a limit). */
export function sample(schema: JsonSchema, i = 0): unknown {
  const s = resolve(schema);
  if (s.enum) return s.enum[i % s.enum.length];
  if (s.const !== undefined) return s.const;
  switch (s.type) {
    case "string":
      if (s.pattern === "^https://\\S+$") return `https://www.example.com/page-${i}`;
      if (s.format === "date") return "2030-01-01";
      return `Entry ${i + 1}`.slice(0, s.maxLength ?? 100);
    case "integer":
    case "number":
      return s.minimum ?? 1;
    case "boolean":
      return true;
    case "array":
      return Array.from({ length: s.minItems ?? 0 }, (_, k) => sample(s.items ?? {}, k));
    case "object": {
      const o: Record<string, unknown> = {};
      for (const r of (s.required as string[] | undefined) ?? []) o[r] = sample(s.properties[r], i);
      return o;
    }
  }
  return "x";
}

const wrongType: Record<string, unknown> = { string: 12345, integer: "3", number: "3", boolean: "yes", array: "carousel", object: "nope" };

/** A string that breaks a pattern, chosen to mean something for the patterns of the contract. */
function patternBreaker(pattern: string): string | undefined {
  const known: Record<string, string> = {
    "^https://\\S+$": "http://www.example.com",
    "^[a-z]{2}$": "EN",
    "^[A-Z]{2}$": "no",
    "\\S": "   ",
    "^[0-9]{4}-[0-9]{2}-[0-9]{2}$": "01/12/2030",
  };
  const re = new RegExp(pattern, "u");
  const prefix = /^\^([a-z]+_)/.exec(pattern)?.[1];
  const candidates = [known[pattern], prefix ? `x${prefix}123abc` : undefined, "not valid!", "", "🙂"];
  return candidates.find((c): c is string => c !== undefined && !re.test(c));
}

const kebab = (s: string) => s.replace(/[._]/g, "-").replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** The invalid-field-400 member a kind of broken constraint belongs to. */
function fieldRule(kind: string): RuleId {
  if (kind === "required") return "invalid-field-400/missing";
  if (kind === "type" || kind === "item-type" || kind === "not-integer") return "invalid-field-400/wrong-type";
  return "invalid-field-400/wrong-value";
}

/** Bodies the seed does not show (ours from end to end): their refusals are inferred rules only. */
const inferredBodies: Partial<Record<OperationId, RuleId>> = {
  createFeedback: "inferred-input-constraints/feedback-body",
  createPrediction: "inferred-input-constraints/prediction-body",
};

/** The rules a broken constraint of a field probes, by operation, field path and kind of constraint. */
function rulesFor(op: OperationId, path: string, kind: string): RuleId[] {
  const out: RuleId[] = [];
  const field = path.split(".").pop()!;
  if (path === "count" && kind === "maximum") out.push("limit-count/max");
  if (path === "count" && kind === "minimum") out.push("limit-count/min");
  if (path === "count" && (kind === "not-integer" || kind === "type")) out.push("count-whole-number");
  if (path === "description" && kind === "max-length") out.push("limit-description");
  if (path === "focus" && kind === "max-length") out.push("limit-focus");
  if ((path === "rules.always" || path === "rules.never") && kind === "max-items") out.push(`limit-rules-entries/${field}`);
  if (path === "date" && (kind === "pattern" || kind === "format")) out.push("date-format");
  if (path === "drafts" && kind === "max-items") out.push("limit-drafts");
  if (path === "website" && kind === "pattern") out.push("website-https");
  if (path === "language" && kind === "pattern") out.push("input-language-lowercase");
  if (path === "country" && kind === "pattern") out.push("input-country-alpha-2/lowercase");
  if (path === "archetype" && kind === "enum") out.push("enum-values/archetype");
  if (path === "formats" && kind === "item-enum") out.push("enum-values/formats");
  if (path === "outcome" && kind === "enum") out.push("inferred-enum-values/outcome");
  if (path === "reason" && kind === "enum") out.push("inferred-enum-values/reason");
  if (path === "drafts.format" && kind === "enum") out.push("inferred-enum-values/draft-format");
  if (kind === "min-length") out.push("inferred-input-constraints/min-length");
  if (kind === "not-blank") out.push("inferred-input-constraints/not-blank");
  if (kind === "min-items") out.push("inferred-input-constraints/min-items");
  if (path === "comment" && kind === "max-length") out.push("inferred-input-constraints/comment-max-length");
  if (path === "drafts.id" && kind === "max-length") out.push("inferred-input-constraints/draft-id-max-length");
  // A refusal the seed states is also a case of "a field missing, of the wrong type or value answers 400";
  // one we designed (a minimum, a body the seed does not show) is not.
  const inferredOnly = out.length > 0 && out.every(isInferred);
  if (!inferredOnly) out.push(inferredBodies[op] ?? fieldRule(kind));
  return out;
}

function setPath(body: Record<string, unknown>, path: string[], value: unknown | typeof REMOVE): Record<string, unknown> {
  const copy = structuredClone(body);
  // A list is indexed by its members' numbers as strings, as an object by its keys.
  let node: Record<string, unknown> = copy;
  for (let i = 0; i < path.length - 1; i++) {
    const key = path[i]!;
    const inner = node[key];
    const next = typeof inner === "object" && inner !== null ? inner : /^\d+$/.test(path[i + 1]!) ? [] : {};
    node[key] = next;
    node = next as Record<string, unknown>;
  }
  const last = path[path.length - 1]!;
  if (value === REMOVE) delete node[last];
  else node[last] = value;
  return copy;
}
const REMOVE = Symbol("remove");

interface Variant {
  /** The variant's name (feedback: its outcome). */
  name: string;
  schema: JsonSchema;
  base: BaseNeed;
  /** The valid body the mutations start from. */
  start(v: BaseValues): Record<string, unknown>;
  /** Fields some other variant requires instead (website, or name and description). */
  alternatives?: string[];
}

function variantsOf(op: OperationId): Variant[] {
  const root = schemas[operations[op].requestSchema!]!;
  switch (op) {
    case "createBrand":
      return [
        { name: "", schema: schemas.CreateBrandFromWebsite!, base: "none", start: () => ({ website: "https://www.example.com" }), alternatives: ["name", "description"] },
        {
          name: "",
          schema: schemas.CreateBrandFromNameAndDescription!,
          base: "none",
          start: () => ({ name: "Conformance Negative", description: "A bakery used to test what the service refuses." }),
          alternatives: ["website"],
        },
      ];
    case "updateBrand":
      return [{ name: "", schema: root, base: "brand-to-patch", start: () => ({}) }];
    case "createIdeas":
      return [{ name: "", schema: root, base: "ready-brand", start: (v) => ({ brand: v.brandId }) }];
    case "createFeedback":
      return (["posted", "saved", "rejected"] as const).map((outcome) => ({
        name: outcome,
        schema: schemas[`${outcome[0]!.toUpperCase()}${outcome.slice(1)}FeedbackRequest`]!,
        base: "idea" as const,
        start: (v: BaseValues) => ({ idea: v.ideaId, outcome }),
      }));
    case "createPrediction":
      return [{ name: "", schema: root, base: "ready-brand", start: (v) => ({ brand: v.brandId, drafts: [{ id: "d1", text: "Fresh bread every morning." }] }) }];
    default:
      return [];
  }
}

const opNames: Partial<Record<OperationId, string>> = {
  createBrand: "create-brand",
  updateBrand: "update-brand",
  createIdeas: "create-ideas",
  createFeedback: "create-feedback",
  createPrediction: "create-prediction",
};

/** One field of a request body as the schema gives it, in the first variant that has it. */
interface Field {
  op: OperationId;
  variant: Variant;
  /** Path into the body (an array's first item as "0"). */
  path: string[];
  /** The path as `param` names it (dots, no array positions). */
  dotted: string;
  /** The field's schema, resolved. */
  schema: JsonSchema;
  required: boolean;
  inArray: boolean;
}

/** Every field of every variant of an operation's request body, nested objects and the items of lists included. */
function fieldsOf(op: OperationId): Field[] {
  const out: Field[] = [];
  for (const variant of variantsOf(op)) {
    const walk = (schema: JsonSchema, path: string[], required: boolean, inArray: boolean) => {
      const s = resolve(schema);
      out.push({ op, variant, path, dotted: path.filter((p) => !/^\d+$/.test(p)).join("."), schema: s, required, inArray });
      if (s.type === "array" && s.items && resolve(s.items).type === "object") walk(s.items, [...path, "0"], false, true);
      if (s.type === "object" && s.properties) {
        const req = new Set<string>((s.required as string[] | undefined) ?? []);
        for (const [name, prop] of Object.entries(s.properties as Record<string, JsonSchema>)) walk(prop, [...path, name], req.has(name), inArray);
      }
    };
    const s = resolve(variant.schema);
    const req = new Set<string>((s.required as string[] | undefined) ?? []);
    for (const [name, prop] of Object.entries(s.properties as Record<string, JsonSchema>)) walk(prop, [name], req.has(name), false);
  }
  return out;
}

/** The JSON types a schema takes (`integer` counts as a number; `null` where it is allowed). */
function jsonTypesOf(s: JsonSchema): Set<string> {
  const types = new Set<string>();
  const add = (t: unknown) => (t === "integer" ? types.add("number") : typeof t === "string" && types.add(t));
  if (Array.isArray(s.type)) s.type.forEach(add);
  else add(s.type);
  if (s.enum) for (const v of s.enum as unknown[]) types.add(v === null ? "null" : Array.isArray(v) ? "array" : typeof v);
  for (const alt of [...(s.anyOf ?? []), ...(s.oneOf ?? [])] as JsonSchema[]) for (const t of jsonTypesOf(resolve(alt))) types.add(t);
  return types;
}

/** A value of each JSON type, for sending where the field takes another. */
const ofJsonType: Record<string, unknown> = { string: "3", number: 12345, boolean: true, object: { value: "x" }, array: ["x"], null: null };
const jsonTypeOf = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v);

/** Every bad input of every operation with a request body, ids unique. */
export function badInputs(): BadInput[] {
  const out: BadInput[] = [];
  const seen = new Set<string>();
  const add = (b: BadInput) => {
    if (seen.has(b.id)) return;
    seen.add(b.id);
    out.push(b);
  };

  for (const op of Object.keys(opNames) as OperationId[]) {
    for (const { variant, path, dotted, schema: s, required, inArray } of fieldsOf(op)) {
      {
        const idPath = kebab(dotted);
        const mk = (kind: string, description: string, value: unknown | typeof REMOVE, params: string[] = [dotted], extraRules: RuleId[] = [], suffix = "") =>
          add({
            // Variants share most fields; the first variant that has a field probes it.
            id: `${opNames[op]}-${idPath}-${kind}${suffix}`,
            op,
            description: `${op}: ${description}`,
            params,
            rules: [...new Set([...rulesFor(op, dotted, kind), ...extraRules])],
            base: variant.base,
            body: (v) => setPath(variant.start(v), path, value),
          });
        // The discriminator `outcome` is its own thing: an unknown value, not each variant's const.
        if (op === "createFeedback" && dotted === "outcome") {
          if (variant.name === "posted") {
            mk("enum", "outcome is not one of posted, saved, rejected", "liked", ["outcome"]);
            mk("required", "outcome is missing", REMOVE);
          }
          continue;
        }
        if (required && !inArray) {
          const alts = variant.alternatives ?? [];
          if (alts.length)
            mk("required", `${dotted} is missing (and the other way to create a brand is not complete)`, REMOVE, [dotted, ...alts], ["brand-create-needs-something-to-read"]);
          else mk("required", `${dotted} is missing`, REMOVE);
        } else if (required && inArray) mk("required", `${dotted} is missing in an item`, REMOVE);
        if (typeof s.type === "string" && wrongType[s.type] !== undefined)
          mk("type", `${dotted} is ${JSON.stringify(wrongType[s.type])} instead of a${s.type === "integer" || s.type === "array" || s.type === "object" ? "n" : ""} ${s.type}`, wrongType[s.type]);
        // Each other JSON type as well (one case each): a service that refuses a number may still take a list.
        const takes = jsonTypesOf(s);
        if (takes.size)
          for (const [type, value] of Object.entries(ofJsonType))
            if (!takes.has(type) && !(typeof s.type === "string" && jsonTypeOf(wrongType[s.type]) === type))
              mk("type", `${dotted} is ${JSON.stringify(value)} (${type === "null" ? "null" : `a${type === "array" || type === "object" ? "n" : ""} ${type}`}), which it does not take`, value, [dotted], [], `-${type}`);
        if (Array.isArray(s.enum)) mk("enum", `${dotted} is not one of ${s.enum.join(", ")}`, `not-a-${dotted.split(".").pop()}`);
        if (typeof s.maxLength === "number") mk("max-length", `${dotted} is ${s.maxLength + 1} characters (at most ${s.maxLength})`, "x".repeat(s.maxLength + 1));
        if (typeof s.minLength === "number" && s.minLength > 0) mk("min-length", `${dotted} is shorter than ${s.minLength} characters`, "");
        if (typeof s.maximum === "number") mk("maximum", `${dotted} is ${s.maximum + 1} (at most ${s.maximum})`, s.maximum + 1);
        if (typeof s.minimum === "number") mk("minimum", `${dotted} is ${s.minimum - 1} (at least ${s.minimum})`, s.minimum - 1);
        if (s.type === "integer") mk("not-integer", `${dotted} is 2.5, not a whole number`, 2.5);
        if (typeof s.pattern === "string") {
          const bad = patternBreaker(s.pattern);
          // "Not blank" (\S) is a constraint of ours, not a format of the seed: its own kind and rule.
          if (bad !== undefined) mk(s.pattern === "\\S" ? "not-blank" : "pattern", `${dotted} is ${JSON.stringify(bad)}, which does not match ${s.pattern}`, bad);
        }
        if (s.format === "date" && typeof s.pattern === "string") mk("format", `${dotted} is 2030-02-30, not a real day`, "2030-02-30");
        if (s.type === "array") {
          if (typeof s.maxItems === "number")
            mk("max-items", `${dotted} holds ${s.maxItems + 1} items (at most ${s.maxItems})`, Array.from({ length: s.maxItems + 1 }, (_, i) => sample(s.items ?? {}, i)));
          if (typeof s.minItems === "number" && s.minItems > 0) mk("min-items", `${dotted} is empty (at least ${s.minItems})`, []);
          if (s.items) {
            // Break the first item, keeping the array otherwise valid (an object item's fields are fields of their own).
            const item = resolve(s.items);
            if (item.type !== "object") {
              const arr = (value: unknown) => [value];
              if (Array.isArray(item.enum)) mk("item-enum", `${dotted} holds a value that is not one of ${item.enum.join(", ")}`, arr("not-a-format"), [dotted]);
              if (typeof item.type === "string" && wrongType[item.type] !== undefined)
                mk("item-type", `${dotted} holds ${JSON.stringify(wrongType[item.type])} instead of a ${item.type}`, arr(wrongType[item.type]));
            }
          }
        }
      }
    }
  }

  // What the schema cannot say.
  add({
    id: "create-brand-nothing-to-read",
    op: "createBrand",
    description: "createBrand: neither a website nor a name and a description",
    params: ["website", "name", "description"],
    rules: ["brand-create-needs-something-to-read", "invalid-field-400/missing"],
    base: "none",
    body: () => ({ language: "en", country: "IE" }),
  });
  add({
    id: "create-ideas-date-beyond-horizon",
    op: "createIdeas",
    description: "createIdeas: date 46 days ahead (at most 45)",
    params: ["date"],
    rules: ["limit-date-horizon", "invalid-field-400/wrong-value"],
    base: "ready-brand",
    body: (v) => ({ brand: v.brandId, date: addDays(v.today, 46) }),
  });
  add({
    id: "create-ideas-date-in-past",
    op: "createIdeas",
    description: "createIdeas: date yesterday",
    params: ["date"],
    rules: ["date-not-in-past"],
    base: "ready-brand",
    body: (v) => ({ brand: v.brandId, date: addDays(v.today, -1) }),
  });
  // Other malformed forms the seed implies, beyond the one each constraint is broken with above.
  // Values are functions of the target's today where the day itself must be acceptable (only the form is wrong).
  type Form = { id: string; op: OperationId; field: string; value: string | ((v: BaseValues) => string); what: string; rule: RuleId; base: BaseNeed; start: (v: BaseValues) => Record<string, unknown> };
  const forms: Form[] = [
    { id: "create-ideas-date-timestamp", op: "createIdeas", field: "date", value: (v) => `${addDays(v.today, 1)}T09:00:00Z`, what: "a timestamp, not a day", rule: "date-format", base: "ready-brand", start: (v) => ({ brand: v.brandId }) },
    { id: "create-ideas-date-no-dashes", op: "createIdeas", field: "date", value: "20300101", what: "a day without dashes", rule: "date-format", base: "ready-brand", start: (v) => ({ brand: v.brandId }) },
  ];
  // A brand field's malformed forms go to create and update alike (PATCH takes any subset of the create fields).
  const brandForms: { field: string; name: string; value: string; what: string; rule: RuleId }[] = [
    { field: "language", name: "region", value: "en-GB", what: "a language tag with a region, not ISO 639-1", rule: "input-language-iso-639-1" },
    { field: "language", name: "three-letters", value: "eng", what: "ISO 639-2, not 639-1", rule: "input-language-iso-639-1" },
    { field: "country", name: "alpha-3", value: "NOR", what: "ISO 3166-1 alpha-3, not the alpha-2 the contract takes", rule: "input-country-alpha-2/alpha-3" },
    { field: "country", name: "numeric", value: "578", what: "ISO 3166-1 numeric, not the alpha-2 the contract takes", rule: "input-country-alpha-2/numeric" },
    { field: "country", name: "name", value: "Norway", what: "a country name, not an ISO 3166-1 code", rule: "input-country-iso-3166-1/name" },
    { field: "country", name: "lowercase", value: "ie", what: "a lowercase code, not ISO 3166-1 alpha-2", rule: "input-country-alpha-2/lowercase" },
    { field: "website", name: "no-scheme", value: "www.example.com", what: "a website without https://", rule: "website-https" },
    { field: "website", name: "http", value: "http://www.example.org", what: "a website over plain http", rule: "website-https" },
  ];
  for (const b of brandForms) {
    const create = b.field === "website" ? () => ({}) : () => ({ website: "https://www.example.com" });
    forms.push({ id: `create-brand-${b.field}-${b.name}`, op: "createBrand", field: b.field, value: b.value, what: b.what, rule: b.rule, base: "none", start: create });
    forms.push({ id: `update-brand-${b.field}-${b.name}`, op: "updateBrand", field: b.field, value: b.value, what: b.what, rule: b.rule, base: "brand-to-patch", start: () => ({}) });
  }
  for (const f of forms)
    add({
      id: f.id,
      op: f.op,
      description: `${f.op}: ${f.field} is ${typeof f.value === "string" ? JSON.stringify(f.value) : "a value"}, ${f.what}`,
      params: [f.field],
      rules: isInferred(f.rule) ? [f.rule] : [f.rule, "invalid-field-400/wrong-value"],
      base: f.base,
      body: (v) => ({ ...f.start(v), [f.field]: typeof f.value === "string" ? f.value : f.value(v) }),
    });
  add({
    id: "create-feedback-reason-without-rejection",
    op: "createFeedback",
    description: "createFeedback: a reason with outcome posted (a reason belongs to a rejection)",
    params: ["reason"],
    rules: ["feedback-reason-only-on-rejection"],
    base: "idea",
    body: (v) => ({ idea: v.ideaId, outcome: "posted", reason: "wrong_language" }),
  });
  return out;
}

/** YYYY-MM-DD plus n days. */
export function addDays(day: string, n: number): string {
  const t = Date.parse(`${day}T00:00:00Z`) + n * 86_400_000;
  return new Date(t).toISOString().slice(0, 10);
}

/** A value accepted at a limit of a request field, sent on its own: the other side of a refusal above. */
export interface AcceptedEdge {
  /** Stable kebab-case, unique: `<operation>-<field>-<kind>-accepted` (enum values: `-<value>`). */
  id: string;
  op: OperationId;
  description: string;
  /** Where the value goes in the body. */
  path: string[];
  value: unknown;
  /** The rules the edge is a case of (the limit's, or the kept-value rule of the field). */
  rules: RuleId[];
  base: BaseNeed;
  body(v: BaseValues): Record<string, unknown>;
}

/** Words of exactly `n` characters, not blank. */
const wordsOf = (n: number) => "Fresh bread at dawn. ".repeat(Math.ceil(n / 21) + 1).slice(0, n).replace(/ $/, ".");

/**
 * Limits whose accepting side a check of its own sends value by value, each making background work (a brand read,
 * a batch): every archetype on create (brand-archetype-each-value), each format alone (ideas-each-format-accepted,
 * which is also formats at one item), each outcome and reason of feedback (feedback-recorded, …).
 */
const acceptedElsewhere = new Set(["createBrand archetype enum", "createIdeas formats min-items", "createIdeas formats item-enum", "createFeedback outcome enum", "createFeedback reason enum"]);

/**
 * The rules an accepted edge is a case of: the limit's own rules without the refusal-only ones (a 400's status and
 * param, a body the seed does not show); without a limit rule, the rule that the value is kept (PATCH of one field
 * changes that field; values supplied on create are kept). None: the edge has nothing to be a case of.
 */
function acceptRulesFor(op: OperationId, dotted: string, kind: string): RuleId[] {
  const refusalOnly = (r: RuleId) => r.startsWith("invalid-field-400/") || r.startsWith("enum-values/") || r.startsWith("inferred-enum-values/") || Object.values(inferredBodies).includes(r);
  const own = kind === "enum" ? [] : rulesFor(op, dotted, kind).filter((r) => !refusalOnly(r));
  if (own.length) return own;
  const top = dotted.split(".")[0]!;
  if (op === "updateBrand") return [`brand-patch-partial/${top}`];
  if (op === "createBrand" && ["name", "description", "language", "country", "website", "archetype", "rules"].includes(top)) return [`brand-supplied-values-kept/${top}`];
  return [];
}

/**
 * Every limit of every request field at its accepting edge, on every operation that takes the field (create and
 * update alike), derived from the request schemas: the longest string (maxLength), the fullest list (maxItems), the
 * largest and smallest number (maximum, minimum), the shortest string and list we accept (minLength, minItems), and
 * each listed value of an enum. One limit per request.
 */
export function acceptedEdges(): AcceptedEdge[] {
  const out = new Map<string, AcceptedEdge>();
  for (const op of Object.keys(opNames) as OperationId[]) {
    // The last variant that has a field sends it: a brand from a name and a description needs no website read.
    for (const { variant, path, dotted, schema: s } of fieldsOf(op).reverse()) {
      const edge = (kind: string, what: string, value: unknown, suffix = "") => {
        const id = `${opNames[op]}-${kebab(dotted)}-${kind}${suffix}-accepted`;
        const rules = acceptRulesFor(op, dotted, kind);
        if (out.has(id) || !rules.length || acceptedElsewhere.has(`${op} ${dotted} ${kind}`)) return;
        out.set(id, { id, op, description: `${op}: ${dotted} ${what} is accepted`, path, value, rules, base: variant.base, body: (v) => setPath(variant.start(v), path, value) });
      };
      if (op === "createFeedback" && dotted === "outcome") continue;
      if (s.type === "string" && typeof s.maxLength === "number") edge("max-length", `of ${s.maxLength} characters, the most`, wordsOf(s.maxLength));
      if (s.type === "string" && typeof s.minLength === "number" && s.minLength > 0) edge("min-length", `of ${s.minLength} character${s.minLength === 1 ? "" : "s"}, the fewest`, wordsOf(s.minLength).replace(/^\s+|\s+$/g, "F").slice(0, s.minLength));
      if (typeof s.maximum === "number") edge("maximum", `at ${s.maximum}, the largest`, s.maximum);
      if (typeof s.minimum === "number") edge("minimum", `at ${s.minimum}, the smallest`, s.minimum);
      if (s.type === "array" && typeof s.maxItems === "number") edge("max-items", `with ${s.maxItems} items, the most`, Array.from({ length: s.maxItems }, (_, i) => sample(s.items ?? {}, i)));
      if (s.type === "array" && typeof s.minItems === "number" && s.minItems > 0) edge("min-items", `with ${s.minItems} item${s.minItems === 1 ? "" : "s"}, the fewest`, Array.from({ length: s.minItems }, (_, i) => sample(s.items ?? {}, i)));
      if (Array.isArray(s.enum)) for (const value of s.enum as unknown[]) edge("enum", `${JSON.stringify(value)}, a listed value,`, value, `-${kebab(String(value))}`);
    }
  }
  return [...out.values()];
}
