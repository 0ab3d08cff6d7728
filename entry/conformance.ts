// `ideas-contract/conformance`: run the conformance suites from code and write their reports.
//
//   const result = await runConformance({ restUrl: "http://127.0.0.1:4010", env: { IDEAS_TOKEN: "…" } });
//   writeFileSync("conformance.xml", junitReport(result)); process.exitCode = result.exitCode;
//
// With no URL it starts the embedded reference servers itself. Needs the optional peers
// @modelcontextprotocol/sdk (the MCP client) and yaml (target files, rule catalogues, baselines).
export {
  embeddedTimeScale,
  mcpChecks,
  restChecks,
  runConformance,
  suites,
  type Check,
  type CheckResult,
  type ConformanceOptions,
  type LedgerEntry,
  type ReportedCheck,
  type RunEvent,
  type RunResult,
  type Suite,
} from "../conformance/index.js";
export { jsonReport } from "../conformance/core/report/json.js";
export { junitReport } from "../conformance/core/report/junit.js";
export { markdownReport } from "../conformance/core/report/markdown.js";
export { consoleReporter, type ConsoleOptions, type ConsoleReporter } from "../conformance/core/report/console.js";
