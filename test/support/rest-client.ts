// Test helpers for the REST reference server: a client whose every answer is checked against the contract
// (the schema of the OpenAPI operation and status it answers; the error envelope for answers the contract
// has no operation or status for, such as an unknown route, 405 or 413), plus fixtures.
import { readFileSync } from "node:fs";
import { expect } from "vitest";
import { validators as generated, type ValidateFunction } from "../../generated/rest/validators.js";
import type { Brand, ErrorEnvelope, Feedback, Idea, IdeaBatch, Prediction } from "../../generated/rest/types.js";
import type { RestMock } from "../../mock/rest/server.js";
import { closeAfterAnswer } from "./fresh-connection.js";

const openapi = JSON.parse(readFileSync(new URL("../../generated/openapi/openapi.json", import.meta.url), "utf8")) as {
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: { $ref: string } }>; headers?: Record<string, unknown> }> }>>;
};

/** The generated validators, by component name. */
// By a name held in a string: checked as data of any shape (a guard to `unknown` would hide what callers read next).
export const validators = generated as Readonly<Record<string, ValidateFunction<any>>>;

const templates = Object.keys(openapi.paths).map((template) => ({
  template,
  re: new RegExp(`^${template.replace(/\{[^}]+\}/g, "[^/]+")}$`),
}));

/** The error `type` each status must carry. */
export const errorTypes: Record<number, string> = {
  400: "invalid_request",
  401: "authentication_error",
  403: "permission_error",
  404: "not_found",
  405: "invalid_request",
  409: "invalid_request",
  413: "invalid_request",
  429: "rate_limit",
  500: "server_error",
};

/** The component schema the contract gives the answer to `method path` with `status`, or null when it gives none. */
export function schemaFor(method: string, path: string, status: number): string | null {
  const template = templates.find((t) => t.re.test(path))?.template;
  const op = template ? openapi.paths[template]?.[method.toLowerCase()] : undefined;
  const ref = op?.responses[String(status)]?.content?.["application/json"]?.schema.$ref;
  return ref ? ref.slice(ref.lastIndexOf("/") + 1) : null;
}

export interface Answer {
  status: number;
  headers: Headers;
  /**
   * The parsed body, checked against `schema`. Tests read it as the contract's type with bodyOf; hostile tests read
   * fields of bodies the contract has no type for, so it stays loosely typed here.
   */
  body: any;
  /** The schema the body was checked against. */
  schema: string;
}

/** The contract's types of the answers tests read, by the name of the schema the client checks them against. */
export interface AnswerSchemas {
  Brand: Brand;
  IdeaBatch: IdeaBatch;
  Feedback: Feedback;
  Prediction: Prediction;
  ErrorEnvelope: ErrorEnvelope;
}

/** An answer's body as `schema`'s type: the answer must have been checked against that very schema. */
export function bodyOf<S extends keyof AnswerSchemas>(answer: Answer, schema: S): AnswerSchemas[S] {
  expect(answer.schema, `the answer (${answer.status}) was checked as ${answer.schema}, not ${schema}: ${JSON.stringify(answer.body)}`).toBe(schema);
  return answer.body as AnswerSchemas[S];
}

/** Checks a body against the schema of its operation and status (ErrorEnvelope when the contract has none). */
export function expectContract(method: string, path: string, status: number, headers: Headers, body: unknown): string {
  const schema = schemaFor(method, path, status) ?? "ErrorEnvelope";
  // A status the contract lists for the operation must be used only as listed; others must be errors.
  if (schema === "ErrorEnvelope") expect(status, `${method} ${path} answered ${status} outside the contract`).toBeGreaterThanOrEqual(400);
  const validate = validators[schema]!;
  expect(validate(body), `${method} ${path} → ${status} is not a valid ${schema}: ${JSON.stringify(validate.errors)}\n${JSON.stringify(body)}`).toBe(true);
  if (status >= 400) expect((body as ErrorEnvelope).error.type).toBe(errorTypes[status]);
  if (status === 429) {
    const retry = headers.get("retry-after");
    expect(retry, "429 without Retry-After").toMatch(/^[1-9][0-9]*$/);
    expect(validators.RetryAfterSeconds!(Number(retry))).toBe(true);
  }
  expect(headers.get("content-type")).toMatch(/^application\/json/);
  return schema;
}

export interface CallOptions {
  /** Bearer token; null sends no Authorization header. Default test_team_a. */
  token?: string | null;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as is (no Content-Type unless given). */
  raw?: string | Uint8Array;
  contentType?: string | null;
  headers?: Record<string, string>;
}

export type Call = (method: string, path: string, options?: CallOptions) => Promise<Answer>;

/** A client for the mock that checks every answer against the contract. */
export function client(mock: Pick<RestMock, "url">): Call {
  return async (method, path, options = {}) => {
    const headers: Record<string, string> = { ...closeAfterAnswer, ...options.headers };
    const token = options.token === undefined ? "test_team_a" : options.token;
    if (token !== null) headers.authorization = `Bearer ${token}`;
    let body: string | Uint8Array | undefined;
    if (options.raw !== undefined) body = options.raw;
    else if (options.body !== undefined) body = new TextEncoder().encode(JSON.stringify(options.body));
    const contentType = options.contentType === undefined ? (body !== undefined ? "application/json" : null) : options.contentType;
    if (contentType !== null) headers["content-type"] = contentType;
    const res = await fetch(new URL(path.replace(/^\//, ""), mock.url), { method, headers, body: body as BodyInit | undefined });
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new Error(`${method} ${path} → ${res.status} is not JSON: ${text.slice(0, 200)}`);
    }
    const schema = expectContract(method, new URL(path, "http://x").pathname, res.status, res.headers, parsed);
    return { status: res.status, headers: res.headers, body: parsed, schema };
  };
}

/** Virtual time that settles any read (40 s) or batch (6 min). */
export const readTime = 40_000;
export const batchTime = 360_000;

/** 10 November 2026, 09:00 UTC: the virtual start of the suites, so dates and holidays are fixed. */
export const suiteStart = Date.UTC(2026, 10, 10, 9, 0, 0);

/** Every string in an idea that people read (not ids, enums or URLs). */
export function ideaTexts(idea: Pick<Idea, "title" | "hook" | "angle" | "why_now" | "prompt" | "outline" | "sources">): string[] {
  return [
    idea.title,
    idea.hook,
    idea.angle,
    idea.why_now,
    idea.prompt,
    idea.outline.opening,
    ...idea.outline.key_points,
    idea.outline.call_to_action,
    idea.outline.visual,
    ...idea.sources.flatMap((s) => [s.title, s.quote ?? ""]),
  ];
}
