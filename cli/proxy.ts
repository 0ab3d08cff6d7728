// `ideas-contract proxy`: forwards REST and MCP traffic to the real service (or a mock) and judges every
// exchange against the contract as it passes, until Ctrl-C; then the report.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { TargetError } from "../conformance/target.js";
import { printable } from "../conformance/printable.js";
import { jsonReport, markdownReport, serviceFailures, summaryLine } from "../proxy/output.js";
import { startProxy, type ExchangeEvent, type RunningProxy } from "../proxy/server.js";
import { commandArgs } from "./args.js";
import { port } from "./mock.js";

export const defaultPorts = { rest: 4020, mcp: 4021 };

const help = `Usage: ideas-contract proxy [options]

Forwards traffic unchanged to the REST service and/or the MCP gateway (bodies and event streams streamed
as they come, credentials passed through and never printed) and judges every exchange against the
contract: the request and the answer against the generated OpenAPI and the tools' schemas, the contract's
own rules (error envelopes, retryable per code, text mirroring structuredContent, lifecycles that must not
go backwards). Violations name the rule ids of spec/rules/, as the conformance command does.

  ideas-contract proxy --rest-upstream https://api.staging.example.com --mcp-upstream https://gw.staging.example.com/mcp
      then point the clients at http://127.0.0.1:${defaultPorts.rest} (REST) and http://127.0.0.1:${defaultPorts.mcp}/mcp (MCP)

Upstreams (at least one):
  --rest-upstream URL   base URL of the REST service (paths start with /v1)
  --rest-port N         port the REST proxy listens on, on 127.0.0.1 (default ${defaultPorts.rest}; 0 = any free port)
  --mcp-upstream URL    the MCP gateway's Streamable HTTP endpoint
  --mcp-port N          port the MCP proxy listens on (default ${defaultPorts.mcp}; 0 = any free port);
                        clients use the same path as on the gateway
  --insecure            accept an upstream's self-signed TLS certificate
  --ca FILE             trust this CA (PEM) for HTTPS upstreams, besides the system's
  --secret-header NAME  a header whose value is a secret (repeatable), besides Authorization,
                        Proxy-Authorization, Cookie, Set-Cookie and X-Api-Key: never printed, and its
                        value redacted wherever it is echoed

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
  --fail-on-violation   exit 1 at the end when the service broke the contract or left a request
                        unanswered (for CI); what clients did wrong (requests the contract refuses,
                        client faults) is reported but never fails the run
  --ignore-client       accepted for compatibility: client violations never fail the run
  -h, --help            show this help

Ctrl-C (SIGINT) or SIGTERM stops the proxy and prints the violations by rule.
Exit status: 0, or 1 with --fail-on-violation and a violation; 2 for bad usage.
`;

function write(file: string, text: string): void {
  mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  writeFileSync(file, text);
}

/** How often the summary is printed as a line of its own when it cannot be redrawn (a log, not a terminal). */
const summaryEveryMs = 30_000;

/** Prints exchange lines with a summary line redrawn under them on a terminal, or printed now and then in a log. */
function printer(proxy: () => RunningProxy | undefined, options: { quiet: boolean; live: boolean }) {
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

export async function proxyCommand(argv: string[]): Promise<number> {
  const parsed = commandArgs(
    argv,
    {
      "rest-upstream": { type: "string" },
      "rest-port": { type: "string" },
      "mcp-upstream": { type: "string" },
      "mcp-port": { type: "string" },
      insecure: { type: "boolean", default: false },
      ca: { type: "string" },
      "secret-header": { type: "string", multiple: true },
      quiet: { type: "boolean", default: false },
      "no-live": { type: "boolean", default: false },
      "report-json": { type: "string" },
      "report-md": { type: "string" },
      "fail-on-violation": { type: "boolean", default: false },
      "ignore-client": { type: "boolean", default: false },
    },
    help,
  );
  if ("exit" in parsed) return parsed.exit;
  const { values } = parsed;
  let restPort: number, mcpPort: number;
  try {
    if (!values["rest-upstream"] && !values["mcp-upstream"]) throw new Error("give --rest-upstream, --mcp-upstream, or both");
    restPort = port(values["rest-port"], defaultPorts.rest, "--rest-port");
    mcpPort = port(values["mcp-port"], defaultPorts.mcp, "--mcp-port");
  } catch (err) {
    console.error(`${(err as Error).message}\n\n${help}`);
    return 2;
  }

  let proxy: RunningProxy | undefined;
  const live = !values["no-live"] && process.stdout.isTTY === true;
  try {
    proxy = await startProxy({
      ...(values["rest-upstream"] ? { restUpstream: values["rest-upstream"], restPort } : {}),
      ...(values["mcp-upstream"] ? { mcpUpstream: values["mcp-upstream"], mcpPort } : {}),
      tls: { insecure: values.insecure, ...(values.ca ? { caFile: values.ca } : {}) },
      ...(values["secret-header"] ? { secretHeaders: values["secret-header"] } : {}),
      onExchange: printer(() => proxy, { quiet: values.quiet, live }),
    });
  } catch (err) {
    // A bad URL or CA file is bad usage; anything else (a port in use) a failure to start.
    console.error(`${err instanceof TargetError ? "" : "Could not start the proxy: "}${(err as Error).message}`);
    return err instanceof TargetError ? 2 : 1;
  }
  if (proxy.restUrl) console.log(`REST proxy  ${proxy.restUrl.href}  →  ${values["rest-upstream"]}`);
  if (proxy.mcpUrl) console.log(`MCP proxy   ${proxy.mcpUrl.href}  →  ${values["mcp-upstream"]}`);
  console.log("Press Ctrl-C to stop and see the report.\n");

  await new Promise<void>((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });
  await proxy.stop();
  const report = proxy.report();
  if (live) process.stdout.write("\r\x1b[K");
  console.log(`\n${summaryLine({ ...report, byRule: [] })}`);
  for (const t of report.byRule) console.log(printable(`  ${t.rule.padEnd(36)} ${t.count}   e.g. #${t.examples[0]?.seq} ${t.examples[0]?.reason ?? ""}`.slice(0, 240)));
  try {
    if (values["report-json"]) write(values["report-json"], jsonReport(report));
    if (values["report-md"]) write(values["report-md"], markdownReport(report));
  } catch (err) {
    console.error(`Could not write the report: ${(err as Error).message}`);
    return 1;
  }
  return values["fail-on-violation"] && serviceFailures(report) > 0 ? 1 : 0;
}
