// Every rule id the proxy can report exists in the rule catalogues (spec/rules/rest.yaml, spec/rules/mcp.yaml):
// the proxy's own (proxy/rules.ts) and those of the conformance assertions it reuses. A renamed or split rule
// fails here, naming the id, so the one map in proxy/rules.ts is fixed.
import { describe, expect, it } from "vitest";
import { R as restAssertions } from "../conformance/suites/rest/expect.js";
import { R as mcpAssertions } from "../conformance/suites/mcp/expect.js";
import { mcpCatalogue } from "../conformance/suites/mcp/catalogue.js";
import { expandRuleRef } from "../conformance/core/rules.js";
import { restCatalogue } from "../conformance/suites/rest/catalogue.js";
import { allRuleIds } from "../proxy/rules.js";

describe("the proxy's rule ids", () => {
  it.each([
    ["rest", restCatalogue(), [...allRuleIds.rest, ...Object.values(restAssertions)]],
    ["mcp", mcpCatalogue(), [...allRuleIds.mcp, ...Object.values(mcpAssertions)]],
  ] as const)("every %s id is a rule of the catalogue", (_name, catalogue, ids) => {
    const unknown = ids.filter((id) => !expandRuleRef(catalogue, id));
    expect(unknown, `ids the catalogue does not hold: ${unknown.join(", ")}`).toEqual([]);
  });
});
