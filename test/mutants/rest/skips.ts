// REST mutants whose answers once left the suite without what it needed, so that checks skipped instead of failing
// (issue 25, "a skip is a verdict"): each must now fail the rule the answers break.
import type { Mutant } from "./proxy.js";

/**
 * A mutant run on some checks alone: those that once skipped, so that nothing else can catch it for them, or those
 * that catch it when the whole suite against it is a long run (a mutant that stalls a lifecycle makes every check
 * wait it out), so that the test stays short on a busy host.
 */
export type ScopedMutant = Mutant & { run?: { only: string[] } };

export const restSkipsMutants: ScopedMutant[] = [
  {
    id: "probe-brand-refused",
    rule: "brand-create-website-or-name-description/name_and_description",
    description:
      "POST /v1/brands refuses the suite's stateful probe (a brand from a name and a description) with 400; every check that needs a brand the target keeps once skipped, as against a stateless mock",
    response: (req, res) =>
      req.method === "POST" && req.path.split("?")[0] === "/v1/brands" && typeof req.body?.name === "string" && req.body.name.startsWith("Conformance Probe") && res.status < 300
        ? { ...res, status: 400, body: { error: { type: "invalid_request", code: "invalid_value", message: "This brand cannot be created.", param: null } } }
        : res,
    // Checks that need a brand the target keeps (the probe's), and once skipped as against a stateless mock.
    run: { only: ["brand-reading-to-ready", "other-team-brand-patch-403"] },
  },
];
