// Request validation with the generated validators: the first problem ajv reports becomes a 400
// `invalid_request` whose `param` names the field (`/count` → `count`, `/rules/never` → `rules.never`, a missing
// required property → its name; array positions are left out of `param` and kept in the message).
import type { ErrorObject, ValidateFunction } from "../../generated/rest/validators.js";
import { validators } from "../../generated/rest/validators.js";
import { badRequest, type ApiError } from "./http.js";

type Schema = keyof typeof validators;
/** The type a component schema's validator proves. */
type Validated<S extends Schema> = (typeof validators)[S] extends ValidateFunction<infer T> ? T : never;

/** `param` for an ajv error: the dotted path of the field, without array positions. */
// rule: invalid-field-400, error-type-per-status/400, inferred-input-constraints, inferred-enum-values
export function paramOf(error: ErrorObject): string | null {
  const segments = error.instancePath.split("/").slice(1).map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
  if (error.keyword === "required") segments.push(String((error.params as { missingProperty: string }).missingProperty));
  const named = segments.filter((s) => !/^\d+$/.test(s));
  return named.length ? named.join(".") : null;
}

/** The field as written in a message, with array positions: `formats[1]`. */
function fieldOf(error: ErrorObject): string {
  const segments = error.instancePath.split("/").slice(1);
  if (error.keyword === "required") segments.push(String((error.params as { missingProperty: string }).missingProperty));
  return segments.reduce((out, s) => (/^\d+$/.test(s) ? `${out}[${s}]` : out ? `${out}.${s}` : s), "") || "The body";
}

const typeNames: Record<string, string> = {
  string: "a string",
  integer: "an integer",
  number: "a number",
  boolean: "true or false",
  array: "a list",
  object: "an object",
  null: "null",
};

/** A sentence for people about one ajv error. */
export function messageOf(error: ErrorObject): string {
  const field = fieldOf(error);
  const p = error.params as Record<string, any>;
  switch (error.keyword) {
    case "required":
      return `${field} is required.`;
    case "type":
      return `${field} must be ${String(p.type)
        .split(",")
        .map((t) => typeNames[t] ?? t)
        .join(" or ")}.`;
    case "enum":
    case "const":
      return `${field} must be one of ${(p.allowedValues ?? [p.allowedValue]).join(", ")}.`;
    case "maxLength":
      return `${field} must be at most ${p.limit} characters.`;
    case "minLength":
      return p.limit === 1 ? `${field} must not be empty.` : `${field} must be at least ${p.limit} characters.`;
    case "maxItems":
      return `${field} must hold at most ${p.limit} items.`;
    case "minItems":
      return `${field} must hold at least ${p.limit} items.`;
    case "maximum":
      return `${field} must be at most ${p.limit}.`;
    case "minimum":
      return `${field} must be at least ${p.limit}.`;
    case "format":
      return p.format === "date" ? `${field} must be a real day written YYYY-MM-DD.` : `${field} must be a valid ${p.format}.`;
    case "pattern": {
      const pattern = String(p.pattern);
      if (pattern.startsWith("^https://")) return `${field} must start with https://.`;
      const prefix = /^\^([a-z]+_)/.exec(pattern)?.[1];
      if (prefix) return `${field} must be an id starting with ${prefix}.`;
      if (pattern === "^[a-z]{2}$") return `${field} must be an ISO 639-1 code of two lowercase letters, such as en.`;
      if (pattern === "\\S") return `${field} must not be blank.`;
      if (pattern === "^[A-Z]{2}$") return `${field} must be an ISO 3166-1 alpha-2 code of two uppercase letters, such as NO.`;
      if (pattern.includes("[0-9]{4}-")) return `${field} must be a day written YYYY-MM-DD.`;
      return `${field} must match ${pattern}.`;
    }
    default:
      return `${field} ${error.message ?? "is not valid"}.`;
  }
}

/** Keywords that only summarise errors of their branches. */
const summaries = new Set(["anyOf", "oneOf", "allOf", "if", "not", "discriminator"]);

/** The error to report: the first one about a field, preferring concrete keywords over summaries. */
export function firstError(errors: readonly ErrorObject[]): ErrorObject | undefined {
  return errors.find((e) => !summaries.has(e.keyword)) ?? errors[0];
}

/** Throws 400 naming the field when `body` does not validate against the component schema; else `body` is of its type. */
export function check<S extends Schema>(schema: S, body: unknown): asserts body is Validated<S> {
  const validate = validators[schema];
  if (!validate) throw new Error(`no validator for ${String(schema)}`);
  if (validate(body)) return;
  const error = firstError(validate.errors ?? []);
  if (!error) throw badRequest("The body is not valid.");
  throw requestError(error);
}

export function requestError(error: ErrorObject): ApiError {
  const code = error.keyword === "required" ? "missing_field" : "invalid_value";
  return badRequest(messageOf(error), paramOf(error), code);
}
