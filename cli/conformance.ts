// `ideas-contract conformance`: runs the REST and MCP conformance suites against the embedded reference servers
// or any other implementation, with a live view and JSON / JUnit / Markdown reports. The suites (and the optional
// peers they need) are loaded once the options are read.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { RunResult, Suite } from "../conformance/index.js";
import { mcpRulesPath, restRulesPath } from "../lib/contract/documents.js";
import { referenceTargetPath } from "../conformance/core/paths.js";
import { printableBlock } from "../conformance/core/printable.js";
import { readFileSync } from "node:fs";
import { defaultWalks } from "../conformance/suites/rest/walks/defaults.js";
import { defaultMcpWalks } from "../conformance/suites/mcp/walks/defaults.js";
import { commandArgs } from "./args.js";
import { shownPath } from "./manifest.js";
import { refuseWithoutPeers } from "./peers.js";

const help = `Usage: ideas-contract conformance [options]

Runs the conformance suites of the Ideas REST API and of the Partner Tool Gateway (MCP). Every check
names the rules it enforces; the run ends with a coverage ledger of every rule. The rule catalogues:
  ${shownPath(restRulesPath)}
  ${shownPath(mcpRulesPath)}

With no target, starts the embedded reference servers (REST reference and MCP gateway mock) on ephemeral
ports with a fast clock and runs both suites against them. Against another
implementation, the suites whose URL is given run:

  ideas-contract conformance --rest-url https://api.example.com
      tokens from IDEAS_TOKEN (the team), IDEAS_OTHER_TEAM_TOKEN (cross-tenant checks) and,
      optionally, IDEAS_EXPIRED_TOKEN
  ideas-contract conformance --mcp-url https://gateway.example.com/mcp --mcp-profile preview
      tokens from MCP_TOKEN (normal, mcp:read + mcp:write), MCP_READONLY_TOKEN, MCP_PARTNER_TOKEN,
      MCP_OTHER_TENANT_TOKEN, MCP_EXPIRED_TOKEN, MCP_PARTNER_UNCONFIGURED_TOKEN (each optional
      but the first: checks that need a missing one are skipped)
  ideas-contract conformance --config my-target.yaml
      a target file with the URL, tokens and the triggers for paths a caller cannot force
      (a website the target fails to read, a focus that fails a batch, a rate-limited token);
      ${shownPath(referenceTargetPath)} is the example (the reference server's own)

Checks whose needs are not met are reported as skipped, with the reason. Before any check, one probe
per target stops the run (exit 2) with one line when the target cannot be used: nothing listens, something
other than the API answers (an HTML page, another service), or it refuses the token outright.
Exit codes: 0 pass; 1 a failure of the target (or a gate); 2 the probe refused the target; 3 the suite
itself broke or ran out of budget in some check, with nothing failing (no verdict on those checks).

Verdicts. Every rule is a seed statement split to one observable fact (the catalogues above): provenance
"seed" (the seeds state it) or "inferred" (our design where the seeds say "not shown"). A rule counts
as enforced only when every case that enforces it ran and passed; the summary opens with "N of M
testable seed rules enforced in this run". Against a target other than the embedded reference, a check
that fails on inferred rules only is reported as contract drift (a warning with the evidence, exit 0);
--strict fails on it. Output may carry fields, enum values and codes the contract does not list (the
seeds allow it): they are accepted. Each failure carries the exchanges that show it and a curl command
that reproduces it, with the token as the variable it is kept in ($IDEAS_TOKEN, $IDEAS_OTHER_TEAM_TOKEN,
$MCP_TOKEN, $MCP_READONLY_TOKEN, …; a target file's trigger token as $MCP_TRIGGER_<KEY>, e.g.
$MCP_TRIGGER_PARTNER_DOWNSTREAM_AUTH_FAILS), never the token itself: export them to paste it.

Target:
  --rest-url URL             base URL of the REST implementation (paths start with /v1)
  --mcp-url URL              the MCP gateway's Streamable HTTP endpoint
  --mcp-profile P            preview (default): the Preview tools only; all: the tools in
                             development too (create_profile, branding, ending a client, …)
  --suite S                  run only this suite (rest or mcp); repeatable
  --config FILE              target file (YAML)
  --insecure                 accept a self-signed TLS certificate (the token still goes only to the target)
  --https                    serve the embedded reference over HTTPS (runs the HTTPS-only check)

Pace (polite by default):
  --time-scale F             real seconds per second of the target: scales every poll interval
                             (REST: brand 10 s, batch 15 s; MCP: batch 5 s, then 15 s backing off to
                             30 s, build 60 s, ending 30 s) and deadline (default 1, or the target
                             file's; the embedded references run faster)
  --concurrency N            requests in flight at most (default 4)
  --request-timeout SECONDS  per request (default 30 for REST, 150 for MCP as the seed advises)
  --budget SECONDS           the whole run, in real seconds (default 1800 × time scale for REST,
                             3600 × time scale for MCP, at least 30 and 60)

Selection:
  --only PATTERN             run only checks whose id matches (* wildcard); repeatable
  --list                     list the checks with their rules and needs, and what each MCP check
                             spends of the tenant's AI allowance (posts, pictures, renders, builds;
                             sized by the target file's mcp.cost and triggers), then exit

Stateful walks (checks rest-walks and mcp-walks; docs/walks.md):
  --walks N                  random walks per protocol (default ${defaultWalks.walks} REST, ${defaultMcpWalks.walks} MCP; 0 skips them), each
                             step's effects read back through every view and judged by a model of
                             what the seeds fix; a failing walk is shrunk to its shortest failing steps
  --walk-steps K             steps per walk, at most (default ${defaultWalks.steps} REST, ${defaultMcpWalks.steps} MCP)
  --walk-seed S              the walks' seed (default: a new one, printed at the end); the same seed
                             gives the same walks
  --replay FILE              run the one walk in FILE (as a failing walk's report prints it) instead;
                             a REST walk runs in rest-walks, an MCP walk in mcp-walks

Gates:
  --strict                   fail on inferred rules too (drift becomes failure)
  --fail-on-skip             fail the run when any check was skipped
  --min-coverage PCT         fail the run when under PCT% of the testable seed rules were enforced
  --skip-probe               run the checks even when the probe finds the target unusable

Reports:
  --report-json FILE         the whole run as JSON
  --report-junit FILE        JUnit XML (one testcase per check)
  --report-md FILE           Markdown (failures, skipped with reasons, coverage ledger)
  --expected-failures FILE   YAML list of check ids expected to fail: a new failure fails the run,
                             and so does a listed check that passes now
  --quiet                    print only failures and the summary
  --no-live                  no redrawn status line (each wait is printed once instead)
  -h, --help                 show this help

Exit status: 0 when nothing unexpected failed and every gate held, 1 otherwise, 2 for bad usage or a
target that cannot be used.
The bearer tokens never appear in any output.
`;

function number(value: string | undefined, flag: string, integer = false): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0 || (integer && !Number.isInteger(n))) throw new Error(`${flag} must be a positive ${integer ? "whole " : ""}number, got "${value}"`);
  return n;
}

function percentage(value: string, flag: string): number {
  const n = Number(value.replace(/%$/, ""));
  if (!Number.isFinite(n) || n < 0 || n > 100) throw new Error(`${flag} must be a percentage from 0 to 100, got "${value}"`);
  return n;
}

function walkSeed(value: string): string {
  if (!/^[\w.-]{1,64}$/.test(value)) throw new Error(`--walk-seed must be 1 to 64 letters, digits, '.', '_' or '-', got "${value.slice(0, 80)}"`);
  return value;
}

async function replayOf(file: string) {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    throw new Error(`--replay: cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  // Loaded here, after the peers were checked: the walk steps read the contract through the suite.
  const { parseReplay } = await import("../conformance/replay.js");
  return parseReplay(text, `--replay ${file}`);
}

function suiteName(value: string, suites: readonly Suite[]): Suite {
  if (!(suites as readonly string[]).includes(value)) throw new Error(`--suite must be one of ${suites.join(", ")}, got "${value}"`);
  return value as Suite;
}

function write(file: string, text: string): string {
  mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  writeFileSync(file, text);
  return file;
}

export async function conformanceCommand(argv: string[]): Promise<number> {
  const parsed = commandArgs(
    argv,
    {
      "rest-url": { type: "string" },
      "mcp-url": { type: "string" },
      "mcp-profile": { type: "string" },
      suite: { type: "string", multiple: true },
      config: { type: "string" },
      insecure: { type: "boolean", default: false },
      https: { type: "boolean", default: false },
      "time-scale": { type: "string" },
      concurrency: { type: "string" },
      "request-timeout": { type: "string" },
      budget: { type: "string" },
      only: { type: "string", multiple: true },
      list: { type: "boolean", default: false },
      "report-json": { type: "string" },
      "report-junit": { type: "string" },
      "report-md": { type: "string" },
      "expected-failures": { type: "string" },
      strict: { type: "boolean", default: false },
      "skip-probe": { type: "boolean", default: false },
      "fail-on-skip": { type: "boolean", default: false },
      "min-coverage": { type: "string" },
      walks: { type: "string" },
      "walk-steps": { type: "string" },
      "walk-seed": { type: "string" },
      replay: { type: "string" },
      quiet: { type: "boolean", default: false },
      "no-live": { type: "boolean", default: false },
    },
    help,
  );
  if ("exit" in parsed) return parsed.exit;
  const { values } = parsed;
  const refused = refuseWithoutPeers("conformance", argv);
  if (refused) return refused;
  const [
    { mcpChecks, restChecks, runConformance, spendInputFor, suites },
    { mcpTokenEnv, parseProfile },
    { consoleReporter },
    { jsonReport },
    { junitReport },
    { markdownReport },
    { selectChecks, suiteOf },
    { Redactor },
    { listLines },
    { TargetUnusable },
  ] = await Promise.all([
    import("../conformance/index.js"),
    import("../conformance/suites/mcp/target.js"),
    import("../conformance/core/report/console.js"),
    import("../conformance/core/report/json.js"),
    import("../conformance/core/report/junit.js"),
    import("../conformance/core/report/markdown.js"),
    import("../conformance/select.js"),
    import("../conformance/core/redact.js"),
    import("./conformance-list.js"),
    import("../conformance/core/probe.js"),
  ]);
  if (values.list) {
    const chosen = values.suite?.length ? values.suite : suites;
    let spend;
    try {
      spend = spendInputFor({ ...(values.config ? { config: values.config } : {}), ...(values["rest-url"] ? { restUrl: values["rest-url"] } : {}), ...(values["mcp-url"] ? { mcpUrl: values["mcp-url"] } : {}) });
    } catch (err) {
      console.error((err as Error).message);
      return 2;
    }
    const checks = selectChecks([...restChecks, ...mcpChecks].filter((c) => chosen.includes(suiteOf(c))), values.only ?? []);
    process.stdout.write(`${listLines(checks, spend).join("\n")}\n`);
    return 0;
  }
  let options;
  try {
    options = {
      ...(values["rest-url"] ? { restUrl: values["rest-url"] } : {}),
      ...(values["mcp-url"] ? { mcpUrl: values["mcp-url"] } : {}),
      ...(values["mcp-profile"] !== undefined ? { mcpProfile: parseProfile(values["mcp-profile"], "--mcp-profile") } : {}),
      ...(values.suite?.length ? { suites: values.suite.map((v) => suiteName(v, suites)) } : {}),
      ...(values.config ? { config: values.config } : {}),
      insecure: values.insecure,
      embeddedHttps: values.https,
      ...(values["time-scale"] !== undefined ? { timeScale: number(values["time-scale"], "--time-scale") } : {}),
      ...(values.concurrency !== undefined ? { concurrency: number(values.concurrency, "--concurrency", true) } : {}),
      ...(values["request-timeout"] !== undefined ? { requestTimeoutSeconds: number(values["request-timeout"], "--request-timeout") } : {}),
      ...(values.budget !== undefined ? { budgetSeconds: number(values.budget, "--budget") } : {}),
      ...(values.only ? { only: values.only } : {}),
      ...(values["expected-failures"] ? { expectedFailures: values["expected-failures"] } : {}),
      strict: values.strict,
      probe: !values["skip-probe"],
      failOnSkip: values["fail-on-skip"],
      ...(values["min-coverage"] !== undefined ? { minCoverage: percentage(values["min-coverage"], "--min-coverage") } : {}),
      ...(values.walks !== undefined ? { walks: values.walks === "0" ? 0 : number(values.walks, "--walks", true) } : {}),
      ...(values["walk-steps"] !== undefined ? { walkSteps: number(values["walk-steps"], "--walk-steps", true) } : {}),
      ...(values["walk-seed"] !== undefined ? { walkSeed: walkSeed(values["walk-seed"]) } : {}),
      ...(values.replay !== undefined ? { walkReplay: await replayOf(values.replay) } : {}),
    };
  } catch (err) {
    console.error((err as Error).message);
    return 2;
  }
  const view = consoleReporter({ quiet: values.quiet, ...(values["no-live"] ? { live: false } : {}) });
  let result: RunResult;
  try {
    result = await runConformance({ ...options, onEvent: (e) => view.onEvent(e) } as Parameters<typeof runConformance>[0]);
  } catch (err) {
    // Whatever went wrong, keep tokens out of the message.
    const env = process.env;
    const names = ["IDEAS_TOKEN", "IDEAS_OTHER_TEAM_TOKEN", "IDEAS_EXPIRED_TOKEN", ...Object.values(mcpTokenEnv)];
    const redactor = new Redactor(names.map((n) => env[n]).filter((s): s is string => !!s));
    // The probe's refusal: a target the run cannot use, unless the user knows better.
    const skip = err instanceof TargetUnusable ? "\n(--skip-probe runs the checks anyway.)" : "";
    // The message may quote the target (its answer's start): escaped, so that it cannot recolour or forge a line.
    console.error(printableBlock(redactor.text(`conformance: ${(err as Error).message}${skip}`)));
    return 2;
  }
  const written: string[] = [];
  try {
    if (values["report-json"]) written.push(write(values["report-json"], jsonReport(result)));
    if (values["report-junit"]) written.push(write(values["report-junit"], junitReport(result)));
    if (values["report-md"]) written.push(write(values["report-md"], markdownReport(result)));
  } catch (err) {
    console.error(printableBlock(result.redactor.text(`could not write a report: ${(err as Error).message}`)));
    view.finish(result, written);
    return 1;
  }
  view.finish(result, written);
  return result.exitCode;
}
