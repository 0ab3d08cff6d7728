// What the proxy records of one exchange and what the judges say about it.
import type { IncomingHttpHeaders } from "node:http";

export type Protocol = "rest" | "mcp";

/** One request and its answer as forwarded, with bounded copies of both bodies. */
export interface Exchange {
  protocol: Protocol;
  /** Sequence number within the proxy's run, from 1. */
  seq: number;
  method: string;
  /** Path with the query, as the client sent it. */
  path: string;
  requestHeaders: IncomingHttpHeaders;
  requestText: string;
  /** The request body was longer than the copy kept for judging. */
  requestTruncated: boolean;
  /** 0 when no answer came (the upstream failed). */
  status: number;
  responseHeaders: IncomingHttpHeaders;
  responseText: string;
  responseTruncated: boolean;
  /** Time from the request's arrival to the answer's last byte. */
  ms: number;
  /** Set when forwarding failed: why. */
  failure?: string;
}

/** Which side broke the contract: the client's request, or the service's answer. */
export type Side = "client" | "service";

export interface Violation {
  /** Rule ids of spec/rules/rest.yaml or spec/rules/mcp.yaml. */
  rules: string[];
  reason: string;
  side: Side;
}

export interface Verdict {
  /** What the exchange was: `POST /v1/brands`, `tools/call view_post`, `tools/list`. */
  label: string;
  /** The outcome in brief: the status, and for MCP the error code or `isError`. */
  outcome: string;
  violations: Violation[];
  /** Things worth knowing that break nothing (fields or codes the contract does not list, drift). */
  notes: string[];
}
