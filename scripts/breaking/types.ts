// Shared shapes of the breaking-change gate: one Change per difference between two contracts.
import type { Json, JsonObject } from "../../lib/schema-walk.js";

export type { Json, JsonObject };

/**
 * How a difference lands on clients.
 * - breaking: some existing client can fail (the gate refuses it without a major bump / new REST version path).
 * - compatible: existing clients keep working (new optional things, looser requests, narrower responses).
 * - review: a person must decide (a description, a default being documented, an annotation): the words may
 *   change what a field or code means, which the seeds call breaking, but a machine cannot tell.
 * - docs: examples, titles, summaries and `x-` annotations; never affects clients.
 */
export type Kind = "breaking" | "compatible" | "review" | "docs";

export type Protocol = "rest" | "mcp";

/**
 * Which way data flows through a schema. Clients WRITE requests (MCP tool inputs, REST parameters and
 * bodies), so anything that accepts less breaks them. Clients READ responses (MCP outputs, REST response
 * bodies and headers), so anything that can now hold more or other values breaks them.
 */
export type Direction = "request" | "response";

export interface Change {
  protocol: Protocol;
  kind: Kind;
  /** Rule id from the catalogue in rules.ts, e.g. `request.enum-value-removed`. */
  rule: string;
  /** Where: `POST /v1/ideas › body.count`, `tool get_profile › output.data(GetProfileOutput).channels[]`. */
  path: string;
  message: string;
  /** Extra context (why this classification, what to check). */
  note?: string;
  /** Other places the same shared schema change shows up (a `$ref`'d definition used more than once). */
  alsoAt?: string[];
  /** REST only: the breaking change is confined to a new version path (e.g. `/v2`) while the old one stays. */
  allowedBy?: string;
}

/** A Change before the protocol is known and before duplicates are folded (origin identifies the source). */
export interface RawChange extends Omit<Change, "protocol" | "alsoAt"> {
  origin: number;
}

/** One side of the comparison: the three generated artefacts plus the package version. */
export interface Contract {
  /** How the side was named on the command line (`v0.1.0`, `HEAD~3`, `working tree`, a tarball path). */
  label: string;
  /** package.json `version` on that side, when known. */
  version?: string;
  openapi?: Json;
  tools?: Json;
  errors?: Json;
  /** True when the side is "nothing" (no release tag yet). */
  empty?: boolean;
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
