// HTTP plumbing of the REST mock on node:http: reading a JSON body with a size limit, checking its content
// type, and answering JSON or an error in the contract's envelope `{ error: { type, code, message, param } }`.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { ErrorType } from "../../generated/rest/types.js";

/** Largest request body accepted: 1 MB. A larger one answers 413. */
export const maxBodyBytes = 1024 * 1024;
/** Beyond this many bytes an oversized body is no longer drained: the answer is sent and the connection closed. */
const maxDrainBytes = 16 * maxBodyBytes;

/** An error answer: HTTP status, the envelope's members and extra headers. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: ErrorType,
    message: string,
    readonly param: string | null = null,
    readonly code: string | null = null,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

// rule: error-type-per-status/400
export const badRequest = (message: string, param: string | null = null, code: string | null = "invalid_value") =>
  new ApiError(400, "invalid_request", message, param, code);
// rule: error-type-per-status/404
export const notFound = (message: string, param: string | null) => new ApiError(404, "not_found", message, param);
export const forbidden = (message: string, param: string | null) => new ApiError(403, "permission_error", message, param);

// rule: json-content-type, snake-case-field-names
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": String(Buffer.byteLength(text)),
    "Cache-Control": "no-store",
    ...headers,
  });
  res.end(text);
}

// rule: error-envelope
export function errorBody(err: ApiError) {
  return { error: { type: err.type, code: err.code, message: err.message, param: err.param } };
}

export function sendError(res: ServerResponse, err: ApiError): void {
  sendJson(res, err.status, errorBody(err), err.headers);
}

/** The raw body; 413 when it is larger than `maxBodyBytes` (read to the end first so the client sees the answer). */
export function readBody(req: IncomingMessage, limit = maxBodyBytes): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const tooLarge = () =>
      new ApiError(413, "invalid_request", `The request body is larger than ${limit} bytes.`, null, "body_too_large", {
        Connection: "close",
      });
    const declared = Number(req.headers["content-length"]);
    if (Number.isFinite(declared) && declared > maxDrainBytes) {
      req.resume();
      return reject(tooLarge());
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
      else if (size > maxDrainBytes) {
        req.removeAllListeners("data");
        req.resume();
        reject(tooLarge());
      }
    });
    req.on("end", () => (size > limit ? reject(tooLarge()) : resolve(Buffer.concat(chunks))));
    req.on("error", reject);
  });
}

/** Strict UTF-8; one decoder serves every request (a call without `stream` starts afresh). */
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * The JSON object sent as the body. 400 when Content-Type is missing or not `application/json` (a `charset`
 * other than utf-8 is refused too), when the body is not JSON, or when it is not a JSON object.
 */
export function parseJsonObject(req: IncomingMessage, raw: Buffer): Record<string, unknown> {
  const contentType = req.headers["content-type"];
  if (!contentType) throw badRequest("Send the body as JSON with Content-Type: application/json.", null, "unsupported_content_type");
  const [mediaType, ...params] = contentType.split(";").map((s) => s.trim().toLowerCase());
  if (mediaType !== "application/json")
    throw badRequest(`Content-Type must be application/json, got ${mediaType}.`, null, "unsupported_content_type");
  const charset = params.find((p) => p.startsWith("charset="))?.slice(8).replace(/"/g, "");
  if (charset !== undefined && charset !== "utf-8" && charset !== "utf8")
    throw badRequest(`The body must be UTF-8, got charset ${charset}.`, null, "unsupported_content_type");
  let value: unknown;
  try {
    // JSON is UTF-8: bytes that are not (lone 0xFF, overlong forms) are refused, not replaced with U+FFFD.
    value = JSON.parse(utf8.decode(raw));
  } catch {
    // Not V8's message: it quotes the body, and what a client sent is not echoed back.
    throw badRequest("The body is not valid JSON in UTF-8.", null, "malformed_json");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw badRequest("The body must be a JSON object.", null, "malformed_json");
  return value as Record<string, unknown>;
}
