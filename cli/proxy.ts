// `ideas-contract proxy`: forwards REST and MCP traffic to the real service (or a mock) and judges every
// exchange against the contract as it passes, until Ctrl-C, or while `-- COMMAND` runs; then the reports. The
// judges (and the optional peers they need) are loaded once the options are read.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { ExchangeEvent, RunningProxy } from "../proxy/server.js";
import { mcpRulesPath, restRulesPath } from "../lib/contract/documents.js";
import { printable } from "../conformance/core/printable.js";
import { commandArgs } from "./args.js";
import { shownPath } from "./manifest.js";
import { runWrapped, stopRequested } from "./lifetime.js";
import { port } from "./mock.js";
import { refuseWithoutPeers } from "./peers.js";

export const defaultPorts = { rest: 4020, mcp: 4021 };

/** The environment variables a wrapped command finds the proxy's URLs in. */
export const proxyUrlEnv = { rest: "IDEAS_PROXY_REST_URL", mcp: "IDEAS_PROXY_MCP_URL" } as const;

const help = `Usage: ideas-contract proxy [options]
       ideas-contract proxy [options] -- COMMAND [ARGS…]

Forwards traffic unchanged to the REST service and/or the MCP gateway (bodies and event streams streamed
as they come, credentials passed through and never printed) and judges every exchange against the
contract: the request and the answer against the generated OpenAPI and the tools' schemas, the contract's
own rules (error envelopes, retryable per code, text mirroring structuredContent, lifecycles that must not
go backwards). Violations name the rule ids of the rule catalogues, as the conformance command does:
  ${shownPath(restRulesPath)}
  ${shownPath(mcpRulesPath)}

  ideas-contract proxy --rest-upstream https://api.staging.example.com --mcp-upstream https://gw.staging.example.com/mcp
      then point the clients at http://127.0.0.1:${defaultPorts.rest} (REST) and http://127.0.0.1:${defaultPorts.mcp}/mcp (MCP)

With -- COMMAND (for CI): starts the proxy, runs COMMAND with the proxy's URLs in the environment, stops
the proxy when it ends, writes the reports and exits with COMMAND's status (or 1 when COMMAND passed but
--fail-on-violation found a violation). SIGINT and SIGTERM are passed on to COMMAND.
  ${proxyUrlEnv.rest.padEnd(21)} the REST proxy, e.g. http://127.0.0.1:${defaultPorts.rest} (paths start with /v1)
  ${proxyUrlEnv.mcp.padEnd(21)} the MCP proxy's endpoint, e.g. http://127.0.0.1:${defaultPorts.mcp}/mcp
  e.g. ideas-contract proxy --rest-upstream "$API" --report-junit proxy.xml --fail-on-violation -- npm test

Upstreams (at least one):
  --rest-upstream URL   base URL of the REST service (paths start with /v1)
  --host H              the address the proxy listens on (default 127.0.0.1)
  --rest-port N         port the REST proxy listens on (default ${defaultPorts.rest}; 0 = any free port)
  --mcp-upstream URL    the MCP gateway's Streamable HTTP endpoint
  --mcp-port N          port the MCP proxy listens on (default ${defaultPorts.mcp}; 0 = any free port);
                        clients use the same path as on the gateway
  --insecure            accept an upstream's self-signed TLS certificate
  --ca FILE             trust this CA (PEM) for HTTPS upstreams, besides the system's
  --secret-header NAME  a header whose value is a secret (repeatable), besides Authorization,
                        Proxy-Authorization, Cookie, Set-Cookie, X-Api-Key and any header or query
                        parameter named with a credential word (X-Auth-Token, Api-Key, X-Session-Token,
                        ?token=, client_secret, …): never printed, and its value redacted wherever it
                        is echoed

Clients must address the proxy as 127.0.0.1 or localhost (another Host is refused, 403); a repeated
Authorization or Host is refused (400), never collapsed into one; a client gets 10 s for its headers and
30 s for its whole request, as from the mocks.

Output:
  one line per exchange: what, status or error code, ms, ✓ or the violated rule ids with a short reason
  ("(client)" when the request broke the contract), "✗ no answer" when the service gave none, "client
  fault" when the request cannot be judged (malformed, slow, too deep, not UTF-8, an id JSON-RPC cannot
  carry) and "unjudged" when the proxy could not judge; and a summary line: redrawn live on a terminal,
  printed every 30 s in a log. What clients sent is printed with control characters escaped.
  --quiet               print only exchanges with violations
  --no-live             no redrawn summary line
  --report-json FILE    on exit: the report (violations by rule with the redacted exchanges) as JSON
  --report-md FILE      on exit: the same as Markdown
  --report-junit FILE   on exit: JUnit XML, one testcase per broken rule (for CI test views)
  --fail-on-violation   exit 1 at the end when the service broke the contract or left a request
                        unanswered (for CI); what clients did wrong (requests the contract refuses,
                        client faults) and drift (the service differs only from what the contract
                        inferred where the seeds are silent, marked "(drift)") are reported but never
                        fail the run
  --ignore-client       accepted for compatibility: client violations never fail the run
  -h, --help            show this help

Ctrl-C (SIGINT) or SIGTERM stops the proxy and prints the violations by rule; so does the end of the
process that started it (npx, npm exec), which does not pass SIGTERM on.
Exit status: 0, or 1 with --fail-on-violation and a violation; 2 for bad usage; with -- COMMAND,
COMMAND's status when it is not 0.
`;

function write(file: string, text: string): void {
  mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  writeFileSync(file, text);
}

/** How often the summary is printed as a line of its own when it cannot be redrawn (a log, not a terminal). */
const summaryEveryMs = 30_000;

/** Prints exchange lines with a summary line redrawn under them on a terminal, or printed now and then in a log. */
function printer(proxy: () => RunningProxy | undefined, summaryLine: (r: ReturnType<RunningProxy["report"]>) => string, options: { quiet: boolean; live: boolean }) {
  let drawn = false;
  let lastSummary = performance.now();
  return (e: ExchangeEvent) => {
    if (drawn) process.stdout.write("\r\x1b[K");
    if (!options.quiet || e.violations.length) process.stdout.write(`${e.line}\n`);
    const p = proxy();
    if (!p) return;
    if (options.live) {
      process.stdout.write(summaryLine(p.report()));
      drawn = true;
    } else if (performance.now() - lastSummary >= summaryEveryMs) {
      lastSummary = performance.now();
      process.stdout.write(`-- ${summaryLine(p.report())}\n`);
    }
  };
}

const bare = (url: URL) => url.href.replace(/\/$/, "");

export async function proxyCommand(argv: string[]): Promise<number> {
  const parsed = commandArgs(
    argv,
    {
      "rest-upstream": { type: "string" },
      "rest-port": { type: "string" },
      "mcp-upstream": { type: "string" },
      "mcp-port": { type: "string" },
      host: { type: "string" },
      insecure: { type: "boolean", default: false },
      ca: { type: "string" },
      "secret-header": { type: "string", multiple: true },
      quiet: { type: "boolean", default: false },
      "no-live": { type: "boolean", default: false },
      "report-json": { type: "string" },
      "report-md": { type: "string" },
      "report-junit": { type: "string" },
      "fail-on-violation": { type: "boolean", default: false },
      "ignore-client": { type: "boolean", default: false },
    },
    help,
    true,
  );
  if ("exit" in parsed) return parsed.exit;
  const { values, command } = parsed;
  let restPort: number, mcpPort: number;
  try {
    if (!values["rest-upstream"] && !values["mcp-upstream"]) throw new Error("give --rest-upstream, --mcp-upstream, or both");
    restPort = port(values["rest-port"], defaultPorts.rest, "--rest-port");
    mcpPort = port(values["mcp-port"], defaultPorts.mcp, "--mcp-port");
  } catch (err) {
    console.error(`${(err as Error).message}\n\n${help}`);
    return 2;
  }
  const refused = refuseWithoutPeers("proxy", argv);
  if (refused) return refused;
  const [{ startProxy }, { TargetError }, { jsonReport, markdownReport, serviceFailures, summaryLine }, { proxyJunitReport }] = await Promise.all([
    import("../proxy/server.js"),
    import("../conformance/suites/rest/target.js"),
    import("../proxy/output.js"),
    import("../proxy/junit.js"),
  ]);

  let proxy: RunningProxy | undefined;
  // A wrapped command owns the terminal: no redrawn line under its output.
  const live = !values["no-live"] && !command.length && process.stdout.isTTY === true;
  try {
    proxy = await startProxy({
      ...(values.host ? { host: values.host } : {}),
      ...(values["rest-upstream"] ? { restUpstream: values["rest-upstream"], restPort } : {}),
      ...(values["mcp-upstream"] ? { mcpUpstream: values["mcp-upstream"], mcpPort } : {}),
      tls: { insecure: values.insecure, ...(values.ca ? { caFile: values.ca } : {}) },
      ...(values["secret-header"] ? { secretHeaders: values["secret-header"] } : {}),
      onExchange: printer(() => proxy, summaryLine, { quiet: values.quiet, live }),
      // Judging beside forwarding, on the machine's other core: a busy proxy forwards at its own pace.
      judgeWorker: true,
    });
  } catch (err) {
    // A bad URL or CA file is bad usage; anything else (a port in use) a failure to start.
    console.error(`${err instanceof TargetError ? "" : "Could not start the proxy: "}${(err as Error).message}`);
    return err instanceof TargetError ? 2 : 1;
  }
  const urls: Record<string, string> = {};
  if (proxy.restUrl) {
    urls[proxyUrlEnv.rest] = bare(proxy.restUrl);
    console.log(`REST proxy  ${proxy.restUrl.href}  →  ${values["rest-upstream"]}`);
  }
  if (proxy.mcpUrl) {
    urls[proxyUrlEnv.mcp] = proxy.mcpUrl.href;
    console.log(`MCP proxy   ${proxy.mcpUrl.href}  →  ${values["mcp-upstream"]}`);
  }
  let commandStatus = 0;
  if (command.length) commandStatus = await runWrapped(command, urls);
  else {
    console.log("Press Ctrl-C to stop and see the report.\n");
    await stopRequested().reason;
  }
  await proxy.stop();
  const report = proxy.report();
  if (live) process.stdout.write("\r\x1b[K");
  console.log(`\n${summaryLine({ ...report, byRule: [] })}`);
  for (const t of report.byRule) {
    // The example shown is the service's when it broke the rule (what fails a run), else the first.
    const e = t.examples.find((x) => x.side === "service") ?? t.examples[0];
    console.log(printable(`  ${t.rule.padEnd(36)} ${t.count}   e.g. #${e?.seq} ${e?.reason ?? ""}`.slice(0, 240)));
  }
  try {
    if (values["report-json"]) write(values["report-json"], jsonReport(report));
    if (values["report-md"]) write(values["report-md"], markdownReport(report));
    if (values["report-junit"]) write(values["report-junit"], proxyJunitReport(report));
  } catch (err) {
    console.error(`Could not write the report: ${(err as Error).message}`);
    return commandStatus || 1;
  }
  const violated = values["fail-on-violation"] && serviceFailures(report) > 0 ? 1 : 0;
  return commandStatus || violated;
}
