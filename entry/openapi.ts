// `ideas-contract/openapi`: the OpenAPI 3.1 document of the REST API as an object. The files themselves are
// `ideas-contract/openapi.json` and `ideas-contract/openapi.yaml` (resolve them with `import.meta.resolve` or
// `require.resolve`).
import document from "../generated/openapi/openapi.json" with { type: "json" };

export type JsonSchema = Record<string, unknown>;

export interface OpenApiOperation {
  operationId: string;
  summary?: string;
  description?: string;
  parameters?: Record<string, unknown>[];
  requestBody?: { required?: boolean; content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, { description: string; headers?: Record<string, unknown>; content?: Record<string, { schema: JsonSchema }> }>;
  [extension: `x-${string}`]: unknown;
}

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string; [key: string]: unknown };
  servers?: { url: string; description?: string }[];
  paths: Record<string, Partial<Record<"get" | "put" | "post" | "delete" | "patch", OpenApiOperation>> & Record<string, unknown>>;
  components: { schemas: Record<string, JsonSchema>; securitySchemes?: Record<string, unknown>; [key: string]: unknown };
  [key: string]: unknown;
}

export const openapi: OpenApiDocument = document;
