// The REST suite's probe (probe.ts): an unknown brand, answered as a brand or in the contract's error envelope.
import { Transport } from "../../core/http.js";
import { quick, sendOnce, shown, TargetUnusable } from "../../core/probe.js";
import type { Redactor } from "../../core/redact.js";
import type { Target } from "./target.js";

/** The REST target answers an unknown brand with a brand or the contract's error envelope, and takes the token. */
export async function probeRest(target: Target, redactor: Redactor, signal: AbortSignal): Promise<void> {
  const transport = new Transport(quick(target), redactor, signal);
  try {
    const path = "/v1/brands/brand_conformance_probe";
    const res = await sendOnce("REST", target.url, () => transport.send({ method: "GET", path, auth: target.tokens.team ? "team" : "none", retry429: false }));
    const where = `${target.url.origin} (GET ${path})`;
    if (res.body === undefined || typeof res.body !== "object" || res.body === null)
      throw new TargetUnusable(`the REST target at ${where} does not answer like the Ideas API: ${shown(res)}`);
    if (res.status === 401 && target.tokens.team)
      throw new TargetUnusable(`the REST target at ${target.url.origin} refused the team token (IDEAS_TOKEN): ${shown(res)}`);
    const looksRight = res.body.object === "brand" || (typeof res.body.error === "object" && res.body.error !== null && typeof res.body.error.type === "string");
    if (!looksRight && res.status !== 429)
      throw new TargetUnusable(`the REST target at ${where} does not answer like the Ideas API (neither a brand nor an error envelope): ${shown(res)}`);
  } finally {
    transport.close();
  }
}
