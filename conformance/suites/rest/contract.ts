// The contract as the checks use it: the operations of the generated OpenAPI with the schema each status
// answers with, the generated validators, and the error table of the seed (status → error type).
import { readFileSync } from "node:fs";
import { validators as generated, type ValidateFunction } from "../../../generated/rest/validators.js";
import { openapiJsonPath } from "../../../lib/contract/documents.js";

import type { OperationId } from "../../../generated/rest/types.js";

export type { OperationId };

export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { schemas: Record<string, JsonSchema> };
}
export interface OpenApiOperation {
  operationId: string;
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, { content?: Record<string, { schema: { $ref?: string } }>; headers?: Record<string, { required?: boolean }> }>;
}
export type JsonSchema = Record<string, any>;

export const openapi = JSON.parse(readFileSync(openapiJsonPath, "utf8")) as OpenApiDocument;
export const validators = generated as Readonly<Record<string, ValidateFunction>>;

export interface Operation {
  id: OperationId;
  method: "GET" | "POST" | "PATCH";
  template: string;
  /** Response schema name by status. */
  responses: Record<number, string>;
  /** Component name of the request body, if any. */
  requestSchema?: string;
}

const refName = (ref: string | undefined) => (ref ? ref.slice(ref.lastIndexOf("/") + 1) : undefined);

/** Every operation of the contract, by operationId. */
export const operations: Readonly<Record<OperationId, Operation>> = (() => {
  const out: Partial<Record<OperationId, Operation>> = {};
  for (const [template, ops] of Object.entries(openapi.paths))
    for (const [method, op] of Object.entries(ops)) {
      if (!op || typeof op !== "object" || !("operationId" in op)) continue;
      const responses: Record<number, string> = {};
      for (const [status, r] of Object.entries(op.responses)) {
        const schema = refName(r.content?.["application/json"]?.schema.$ref);
        if (schema) responses[Number(status)] = schema;
      }
      const requestSchema = refName(op.requestBody?.content["application/json"]?.schema.$ref as string | undefined);
      out[op.operationId as OperationId] = {
        id: op.operationId as OperationId,
        method: method.toUpperCase() as Operation["method"],
        template,
        responses,
        ...(requestSchema ? { requestSchema } : {}),
      };
    }
  return out as Record<OperationId, Operation>;
})();

/** The path of an operation with its parameters filled in. */
export function pathOf(op: OperationId, params: Record<string, string> = {}): string {
  return operations[op].template.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? `missing_${name}`));
}

/** The error `type` each status carries (the seed's error table). */
export const errorTypeForStatus: Readonly<Record<number, string>> = {
  400: "invalid_request",
  401: "authentication_error",
  403: "permission_error",
  404: "not_found",
  409: "invalid_request",
  429: "rate_limit",
  500: "server_error",
};

/** The kind named in `object` and the id prefix of each object of the contract. */
export const kinds = {
  brand: { object: "brand", prefix: "brand_", schema: "Brand" },
  batch: { object: "idea_batch", prefix: "batch_", schema: "IdeaBatch" },
  idea: { object: "idea", prefix: "idea_", schema: "Idea" },
  feedback: { object: "feedback", prefix: "fb_", schema: "Feedback" },
  prediction: { object: "prediction", prefix: null, schema: "Prediction" },
} as const;
export type Kind = keyof typeof kinds;

/** The required members of a component schema (following allOf). */
export function requiredOf(schemaName: string): string[] {
  const schema = openapi.components.schemas[schemaName];
  return schema?.required ? [...(schema.required as string[])] : [];
}

/** Validates against a component schema; the problems as short lines (empty when valid). */
export function validate(schemaName: string, data: unknown): string[] {
  const v = validators[schemaName];
  if (!v) return [`the contract has no schema ${schemaName}`];
  if (v(data)) return [];
  const seen = new Set<string>();
  const lines: string[] = [];
  for (const e of v.errors ?? []) {
    if (["anyOf", "oneOf", "allOf", "if"].includes(e.keyword)) continue;
    const line = `${e.instancePath || "(body)"} ${e.message ?? "is not valid"}${e.keyword === "enum" ? ` (${JSON.stringify((e.params as any).allowedValues)})` : ""}`;
    if (!seen.has(line)) lines.push(line), seen.add(line);
  }
  return lines.length ? lines.slice(0, 5) : ["does not match"];
}

/** A field path as the checks compare `param`: dots between names, array positions left out. */
export function normalizeParam(param: string): string {
  return param
    .replace(/\[(\d+)\]/g, "")
    .replace(/\[([^\]]+)\]/g, ".$1")
    .replace(/\//g, ".")
    .split(".")
    .filter((s) => s !== "" && !/^\d+$/.test(s))
    .join(".");
}

/**
 * ISO 8601 extended format, date and time of day with a zone: `YYYY-MM-DDThh:mm[:ss[.fff]]` then `Z` or `±hh[:mm]`.
 * Not the basic format mixed in (`+0100` after an extended time), not a space or a lowercase `t` for `T`.
 */
const isoDateTime = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:[.,]\d+)?)?(?:Z|[+-](\d{2})(?::(\d{2}))?)$/;
const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();
/** An ISO 8601 date-time with a zone, naming a real day and time (no 30 February, no minute 61; 24:00 ends a day). */
export function isIsoDateTime(v: unknown): v is string {
  const m = typeof v === "string" ? isoDateTime.exec(v) : null;
  if (!m) return false;
  const [year, month, day, hour, minute, second, zoneHour, zoneMinute] = m.slice(1).map((x) => (x === undefined ? 0 : Number(x)));
  const endOfDay = hour === 24 && minute === 0 && second === 0;
  return (
    month! >= 1 && month! <= 12 && day! >= 1 && day! <= daysIn(year!, month!) &&
    (hour! <= 23 || endOfDay) && minute! <= 59 && second! <= 60 && zoneHour! <= 23 && zoneMinute! <= 59
  );
}
