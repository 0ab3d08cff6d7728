// `ideas-contract/proxy`: the contract checked on live traffic, from code.
//
//   const proxy = await startProxy({ restUpstream: "https://api.staging.example.com", mcpUpstream: "https://gw.example.com/mcp" });
//   // point clients at proxy.restUrl / proxy.mcpUrl …
//   const seen = proxy.violations();               // [{ seq, protocol, label, rules, reason, side }, …]
//   writeFileSync("proxy.md", markdownReport(proxy.report())); await proxy.stop();
//
// Needs the optional peers @modelcontextprotocol/sdk (the MCP judge validates with its schema tooling) and yaml.
export {
  startProxy,
  defaultCaptureBytes,
  type ExchangeEvent,
  type ProxyOptions,
  type RunningProxy,
} from "../proxy/server.js";
export { jsonReport, markdownReport, summaryLine } from "../proxy/output.js";
export type { ProxyReport, RuleTally, ShownExchange, ViolationRecord } from "../proxy/recorder.js";
export type { Exchange, Side, Verdict, Violation } from "../proxy/types.js";
export type { TlsOptions } from "../proxy/forward.js";
