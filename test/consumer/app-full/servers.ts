// ESM: start the mocks, run the conformance suites against them from code, write a JUnit report, stop.
import * as mock from "ideas-contract/mock";
import { validators } from "ideas-contract/rest";
import { junitReport, runConformance, type RunResult } from "ideas-contract/conformance";
import { startMocks } from "./mocks.js";

const timeScale = 0.001;
const mocks = await startMocks(mock, validators, { prism: true, timeScale });
let result: RunResult;
try {
  result = await runConformance({
    restUrl: mocks.rest.url.href,
    mcpUrl: mocks.mcp.url.href,
    timeScale,
    // The mocks' documented test tokens, given as a CI job would give its secrets.
    env: {
      IDEAS_TOKEN: "test_team_a",
      IDEAS_OTHER_TEAM_TOKEN: "test_team_b",
      IDEAS_EXPIRED_TOKEN: "test_expired",
      MCP_TOKEN: "mcp_user",
      MCP_READONLY_TOKEN: "mcp_readonly",
      MCP_PARTNER_TOKEN: "mcp_partner",
      MCP_OTHER_TENANT_TOKEN: "mcp_other_user",
      MCP_EXPIRED_TOKEN: "mcp_expired",
      MCP_PARTNER_UNCONFIGURED_TOKEN: "mcp_partner_unconfigured",
    },
  });
} finally {
  mocks.observed.stopped = await mocks.stop();
}
const junit = junitReport(result);
console.log(
  JSON.stringify({
    module: "esm",
    observed: mocks.observed,
    conformance: { suites: result.suites, exitCode: result.exitCode, summary: result.summary, junitCases: junit.split("<testcase ").length - 1 },
  }),
);
