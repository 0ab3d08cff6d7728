// What the proxy records of one exchange and what the judges say about it.
import type { RuleId } from "../generated/rules.js";
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
  /**
   * Time the service took: from the request's last byte to the answer's last byte (what its timing is judged
   * on: a client that drips its body slowly must not make the service look slow).
   */
  serviceMs?: number;
  /** Set when forwarding failed: why. */
  failure?: string;
  /** Whose the failure was: the client went away, or the upstream could not be reached or broke off. */
  failureBy?: Side;
}

/** Which side broke the contract: the client's request, or the service's answer. */
export type Side = "client" | "service";

/**
 * Whose a violation is: the client's, the service's, or `drift`: the service differs only from what the contract
 * inferred where the seeds say nothing (inferred rules only), which is reported and never fails a run.
 */
export type ViolationSide = Side | "drift";

export interface Violation {
  /** Rule ids of spec/rules/rest.yaml or spec/rules/mcp.yaml. */
  rules: RuleId[];
  reason: string;
  side: ViolationSide;
}

export interface Verdict {
  /** What the exchange was: `POST /v1/brands`, `tools/call view_post`, `tools/list`. */
  label: string;
  /** The outcome in brief: the status, and for MCP the error code or `isError`. */
  outcome: string;
  violations: Violation[];
  /** Things worth knowing that break nothing (fields or codes the contract does not list, drift). */
  notes: string[];
  /**
   * Why the exchange was not judged against the service because of the client (a malformed, slow, too deep or
   * undecodable request, an id JSON-RPC cannot carry, a request the proxy refused): never the service's violation.
   */
  clientFault?: string;
  /** Why the proxy could not judge the exchange (the answer nests too deep, the judge failed). */
  unjudged?: string;
  /** The service gave no answer (unreachable, broke off): a failure, never a pass. */
  noAnswer?: string;
}

/** An exchange as forwarded, before judging: headers hidden (secrets.ts hideShared: as the judges read them), bodies as bytes. */
export interface ExchangeData {
  protocol: Protocol;
  seq: number;
  method: string;
  path: string;
  requestHeaders: IncomingHttpHeaders;
  request: Uint8Array;
  requestTruncated: boolean;
  status: number;
  responseHeaders: IncomingHttpHeaders;
  response: Uint8Array;
  responseTruncated: boolean;
  ms: number;
  serviceMs: number;
  failure?: string;
  failureBy?: Side;
}
