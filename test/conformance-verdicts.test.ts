// Honest verdicts (issue 14): the ledger passes a rule only when every case that enforces it ran and passed; the
// probe stops a run against a target it cannot use, in one line, before any check; the gates fail a run in which
// too little ran; every failure carries the exchanges that show it and a reproduction that shows it again.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Check, CheckResult } from "../conformance/core/check.js";
import { runConformance, TargetUnusable, type RunEvent } from "../conformance/index.js";
import { referenceTargetPath } from "../conformance/core/paths.js";
import { buildLedger } from "../conformance/core/report/ledger.js";
import { markdownReport } from "../conformance/core/report/markdown.js";
import { danglingPointers, expandRuleRef, loadRules } from "../conformance/core/rules.js";
import { restContract, wholeContract } from "../lib/contract/index.js";
import { restCatalogue } from "../conformance/suites/rest/catalogue.js";
import { loadTargetFile } from "../conformance/target-file.js";
import { startMcpMock } from "../mock/mcp/server.js";
import { startRestMock } from "../mock/rest/server.js";
import { restTokenEnv } from "../conformance/suites/rest/target.js";
import { mcpTokenEnv, mcpTriggersOf, mcpTriggerTokenEnv, situationTokens, tokenKeys } from "../conformance/suites/mcp/target.js";
import { mcpMutants } from "./mutants/mcp/catalogue.js";
import { throughProxy } from "./mutants/mcp/links.js";
import { mutants as restMutants } from "./mutants/rest/catalogue.js";
import { startMutantProxy, type Mutant } from "./mutants/rest/proxy.js";
import { execFileTracked } from "./support/children.js";
import { drivenTime } from "./support/driven-time.js";
import { hangGuardMs } from "./support/hang-guard.js";

const run = execFileTracked;
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function catalogue(yaml: string) {
  const dir = mkdtempSync(path.join(tmpdir(), "rules-"));
  dirs.push(dir);
  const file = path.join(dir, "rules.yaml");
  writeFileSync(file, yaml);
  return loadRules(file, wholeContract);
}

const result = (id: string, rules: string[], status: CheckResult["status"], cases: CheckResult["cases"] = {}, failures: CheckResult["failures"] = []): CheckResult => ({
  id,
  description: id,
  group: "g",
  rules,
  status,
  ...(status === "skip" ? { reason: "no token" } : {}),
  failures,
  notes: [],
  durationMs: 0,
  requests: 0,
  cases,
});

describe("the ledger", () => {
  const rules = catalogue(`rules:
  - id: plain-rule
    statement: A plain rule about one thing.
    section: Conventions
    provenance: seed
    basis: A synthetic claim of a test catalogue.
    testable: direct
    contract: openapi:#/components/schemas/Brand
  - id: value-echoed
    statement: The value {member} is reported back as sent.
    section: Brand object
    provenance: inferred
    reason: A test family whose reason is long enough.
    testable: direct
    contract: openapi:#/components/schemas/Brand
    family:
      members: [first, second, third]
`);

  it("expands a family into one rule per member, with its provenance", () => {
    expect(rules.families.get("value-echoed")?.map((r) => r.id)).toEqual(["value-echoed/first", "value-echoed/second", "value-echoed/third"]);
    expect(rules.byId.get("value-echoed/second")?.statement).toBe("The value second is reported back as sent.");
    expect(rules.byId.get("value-echoed/second")?.provenance).toBe("inferred");
  });

  it("passes a member only when a case for it ran: one tried member leaves the others skipped", () => {
    const ledger = buildLedger(rules, [result("c1", ["value-echoed"], "pass", { "value-echoed/first": "pass" })], new Set(), "rest");
    const status = Object.fromEntries(ledger.map((e) => [e.id, e.status]));
    expect(status).toMatchObject({ "value-echoed/first": "pass", "value-echoed/second": "skipped", "value-echoed/third": "skipped", "plain-rule": "not-covered" });
  });

  it("makes a rule partial, never pass, when one of its cases was skipped", () => {
    const ledger = buildLedger(rules, [result("c1", ["plain-rule"], "pass", { "plain-rule": "pass" }), result("c2", ["plain-rule"], "skip")], new Set(), "rest");
    const entry = ledger.find((e) => e.id === "plain-rule")!;
    expect(entry.status).toBe("partial");
    expect(entry.why).toContain("no token");
  });

  it("never passes a rule on a check that names it but recorded no case of it", () => {
    const entry = buildLedger(rules, [result("c1", ["plain-rule"], "pass")], new Set(), "rest").find((e) => e.id === "plain-rule")!;
    expect(entry.status).toBe("skipped");
    expect(entry.why).toContain("recorded no case");
  });

  it("fails a rule a case failed, skips a rule no case ran, and counts cases recorded before a skip", () => {
    const failed = buildLedger(rules, [result("c1", ["plain-rule"], "fail", { "plain-rule": "fail" }, [{ rules: ["plain-rule"], message: "x" }]), result("c2", ["plain-rule"], "pass", { "plain-rule": "pass" })], new Set(), "rest");
    expect(failed.find((e) => e.id === "plain-rule")?.status).toBe("fail");
    expect(buildLedger(rules, [result("c2", ["plain-rule"], "skip")], new Set(), "rest").find((e) => e.id === "plain-rule")?.status).toBe("skipped");
    const before = buildLedger(rules, [result("c3", ["value-echoed/first"], "skip", { "value-echoed/first": "pass" })], new Set(), "rest");
    expect(before.find((e) => e.id === "value-echoed/first")?.status).toBe("pass");
  });

  it("finds every contract pointer that dangles (npm run check:generated fails on them)", () => {
    const odd = catalogue(`rules:
  - id: fine
    statement: Points at the brand schema.
    section: Brand object
    provenance: seed
    basis: A synthetic claim of a test catalogue.
    testable: direct
    contract: openapi:#/components/schemas/Brand
  - id: gone
    statement: Points at a tool that does not exist.
    section: Tools
    provenance: seed
    basis: A synthetic claim of a test catalogue.
    testable: direct
    contract: tool:no_such_tool#/inputSchema
  - id: code
    statement: Points at an error code the catalogue does not have.
    section: Errors
    provenance: seed
    basis: A synthetic claim of a test catalogue.
    testable: direct
    contract: error:no_such_code
`);
    expect(danglingPointers(odd, wholeContract)).toEqual(["gone: tool:no_such_tool#/inputSchema", "code: error:no_such_code"]);
    expect(danglingPointers(restCatalogue(), restContract)).toEqual([]);
  });

  it("refuses a family source that points at nothing in the contract", () => {
    expect(() =>
      catalogue(`rules:
  - id: dangling
    statement: Every member of nothing at all.
    section: Nowhere
    provenance: seed
    basis: A synthetic claim of a test catalogue.
    testable: direct
    contract: openapi:#/components/schemas/Brand
    family:
      from: openapi:#/components/schemas/NoSuchSchema/enum
`),
    ).toThrow(/dangling.*points at nothing/);
  });
});

/** A server on 127.0.0.1 answering every request with `handler`. */
async function serve(handler: http.RequestListener) {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`), close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** Runs and expects the probe to stop the run with one line, before any check started. */
async function expectStopped(options: Parameters<typeof runConformance>[0], line: RegExp) {
  const events: RunEvent[] = [];
  const error = await runConformance({ ...options, onEvent: (e) => events.push(e) }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TargetUnusable);
  const message = (error as Error).message;
  expect(message).toMatch(line);
  expect(message).not.toContain("\n");
  expect(events.filter((e) => e.type === "start")).toEqual([]);
  return message;
}

describe("the probe", () => {
  it("stops a run against a port where nothing listens", async () => {
    const gone = await serve(() => {});
    await gone.close();
    await expectStopped({ restUrl: gone.url.href, env: { IDEAS_TOKEN: "t" } }, /cannot reach the REST target .* refused/);
    await expectStopped({ mcpUrl: new URL("/mcp", gone.url).href, env: { MCP_TOKEN: "t" } }, /cannot reach the MCP target .* refused/);
  });

  it("stops a run against a server that answers HTML, for both suites", async () => {
    const page = await serve((_req, res) => res.writeHead(200, { "content-type": "text/html" }).end("<html><body>Welcome to nginx</body></html>"));
    try {
      await expectStopped({ restUrl: page.url.href, env: { IDEAS_TOKEN: "t" } }, /does not answer like the Ideas API: 200, Content-Type "text\/html", body "<html><body>Welcome/);
      await expectStopped({ mcpUrl: new URL("/mcp", page.url).href, env: { MCP_TOKEN: "t" } }, /does not answer like an MCP endpoint/);
    } finally {
      await page.close();
    }
  });

  it("stops a run whose token the target refuses, naming the variable, never the token", async () => {
    const rest = await startRestMock({ port: 0 });
    const mcp = await startMcpMock({ port: 0 });
    try {
      const token = "not-a-token-the-mock-knows";
      const a = await expectStopped({ restUrl: rest.url.href, env: { IDEAS_TOKEN: token } }, /refused the team token \(IDEAS_TOKEN\): 401/);
      const b = await expectStopped({ mcpUrl: mcp.url.href, env: { MCP_TOKEN: token } }, /refused the normal token \(MCP_TOKEN\): 401/);
      expect(a + b).not.toContain(token);
    } finally {
      await rest.stop();
      await mcp.stop();
    }
  });
});

describe("the gates", () => {
  it("a token-less run enforces almost nothing: it passes without gates, fails --fail-on-skip and --min-coverage", async () => {
    // On time the run drives: what the checks see of the mock's clock follows from their steps, not the host's speed.
    const { clock, mockClock } = drivenTime(0.001);
    const rest = await startRestMock({ port: 0, clock: mockClock });
    try {
      const base = { restUrl: rest.url.href, env: {}, timeScale: 0.001, clock };
      const plain = await runConformance(base);
      expect(plain.summary.skipped).toBeGreaterThan(plain.summary.passed);
      expect(plain.summary.enforcement.seed.percent).toBeLessThan(50);
      expect(plain.exitCode).toBe(0);
      const skips = await runConformance({ ...base, failOnSkip: true });
      expect(skips.exitCode).toBe(1);
      expect(skips.summary.gates.join()).toMatch(/checks were skipped \(--fail-on-skip\)/);
      const low = await runConformance({ ...base, minCoverage: 50 });
      expect(low.exitCode).toBe(1);
      expect(low.summary.gates.join()).toMatch(/testable seed rules enforced .* below --min-coverage 50%/);
    } finally {
      await rest.stop();
    }
  }, hangGuardMs);
});

describe("provenance in verdicts", () => {
  it("a failure of inferred rules only is contract drift against another target (exit 0), a failure with --strict", async () => {
    // A mutant that breaks only an inferred rule: predictions are our design (seed 000: "not shown").
    const mutant = restMutants.find((m) => m.id === "predictions-unranked")!;
    const rules = restCatalogue();
    expect((expandRuleRef(rules, mutant.rule) ?? []).map((id) => rules.byId.get(id)?.provenance)).toEqual(["inferred"]);
    // On driven time, as the mutant runs: the rate limit's window (60 ms of real time at this scale on the wall
    // clock) and the batches' thinking then do not depend on how fast a loaded host sends the requests.
    const { clock, mockClock } = drivenTime(0.001);
    const reference = await startRestMock({ port: 0, clock: mockClock });
    const proxy = await startMutantProxy(reference.url, mutant);
    try {
      const file = loadTargetFile(referenceTargetPath, {});
      const run = (strict: boolean) => runConformance({ restUrl: proxy.url.href, targetFile: file, timeScale: 0.001, env: {}, strict, clock });
      const lenient = await run(false);
      const drifted = lenient.checks.filter((c) => c.verdict === "drift");
      expect(drifted.map((c) => c.id)).toContain("predictions-rank-drafts");
      expect(lenient.checks.filter((c) => c.verdict === "fail").map((c) => c.id)).toEqual([]);
      expect(lenient.summary.drift).toBe(drifted.length);
      expect(lenient.exitCode).toBe(0);
      const strict = await run(true);
      expect(strict.checks.find((c) => c.id === "predictions-rank-drafts")?.verdict).toBe("fail");
      expect(strict.exitCode).toBe(1);
    } finally {
      await proxy.stop();
      await reference.stop();
    }
  }, hangGuardMs);

  it("against the embedded reference, everything is strict: the same inferred-only failure fails the run", async () => {
    // A check that always fails on one inferred rule: drift against another target, a failure against the reference.
    const failing: Check = {
      id: "synthetic-inferred-failure",
      description: "fails on an inferred rule, whatever the target",
      rules: ["predictions-rank-drafts"],
      group: "test",
      run: async (ctx) => void ctx.expect(false, "predictions-rank-drafts", "synthetic failure"),
    };
    const embedded = await runConformance({ env: {}, suites: ["rest"], checks: [failing] });
    expect(embedded.target.embedded).toBe(true);
    expect(embedded.checks[0]?.verdict).toBe("fail");
    expect(embedded.exitCode).toBe(1);
    const rest = await startRestMock({ port: 0 });
    try {
      const other = await runConformance({ restUrl: rest.url.href, env: { IDEAS_TOKEN: "test_team_a" }, checks: [failing] });
      expect(other.checks[0]?.verdict).toBe("drift");
      expect(other.exitCode).toBe(0);
    } finally {
      await rest.stop();
    }
  });
});

describe("skips the target causes", () => {
  it("are failures of the rule the target broke: a brand whose read of the target file's readable website fails, and a batch that never leaves thinking", async () => {
    const reference = await startRestMock({ port: 0, timeScale: 0.001 });
    // Every brand read of a website ends failed; every batch reads thinking for ever.
    const broken: Mutant = {
      id: "reads-fail-batches-stall",
      rule: "brand-reading-to-ready/status",
      description: "website reads fail; batches never finish",
      response: (req, res) => {
        const b = res.body;
        if (b?.object === "brand" && b.status === "ready" && b.website) return { ...res, body: { ...b, status: "failed" } };
        if (b?.object === "idea_batch" && b.status !== "thinking") return { ...res, body: { ...b, status: "thinking", data: [], done_at: null, error: null } };
        return res;
      },
    };
    const proxy = await startMutantProxy(reference.url, broken);
    try {
      const file = loadTargetFile(referenceTargetPath, {});
      const result = await runConformance({ restUrl: proxy.url.href, targetFile: file, timeScale: 0.001, env: {}, probe: false });
      const skippedForTarget = result.checks.filter((c) => c.status === "skip" && /needs a (ready brand|done batch)/.test(c.reason ?? ""));
      expect(skippedForTarget.map((c) => `${c.id}: ${c.reason}`)).toEqual([]);
      const failedRules = new Set(result.checks.flatMap((c) => c.failures.flatMap((f) => f.rules)));
      expect(failedRules.has("brand-reading-to-ready/status")).toBe(true);
      const viaFixture = result.checks.filter((c) => c.failures.some((f) => /needs a ready brand, and the target broke brand-reading-to-ready/.test(f.message)));
      expect(viaFixture.length).toBeGreaterThan(3);
      expect(result.exitCode).toBe(1);
    } finally {
      await proxy.stop();
      await reference.stop();
    }
  }, hangGuardMs);
});

describe("suite errors", () => {
  it("a check that throws unexpectedly ends in `error`: no rule of the target fails, the ledger leaves them unenforced, exit 3", async () => {
    const broken: Check = {
      id: "synthetic-suite-bug",
      description: "throws a TypeError of its own after one passing case",
      rules: ["predictions-rank-drafts", "object-field-names-kind/Brand"],
      group: "test",
      run: async (ctx) => {
        ctx.expect(true, "object-field-names-kind/Brand", "a case that passed before the bug");
        throw new TypeError("Cannot read properties of undefined (reading 'x')");
      },
    };
    const result = await runConformance({ env: {}, suites: ["rest"], checks: [broken] });
    const check = result.checks[0]!;
    expect(check.status).toBe("error");
    expect(check.verdict).toBe("error");
    expect(check.failures).toEqual([]);
    expect(check.error?.kind).toBe("suite");
    expect(check.error?.message).toContain("TypeError");
    expect(result.summary.errors).toBe(1);
    expect(result.summary.failed).toBe(0);
    expect(result.exitCode).toBe(3);
    const ledger = (id: string) => result.ledger.find((e) => e.id === id)!;
    expect(ledger("predictions-rank-drafts").status).toBe("skipped");
    expect(ledger("predictions-rank-drafts").why).toContain("ended in error");
    expect(ledger("object-field-names-kind/Brand").status).toBe("pass");
    expect(markdownReport(result)).toContain("**ERROR**");
  });

  it("a run its budget cuts short ends the unfinished MCP checks in error, never as failures of the target", async () => {
    // The shared build and batch scenarios are cut mid-wait; every check awaiting them ends in error (or passes, on a
    // machine fast enough to finish first) — none fails a rule because the budget ran out.
    const result = await runConformance({ env: {}, suites: ["mcp"], budgetSeconds: 1, only: ["mcp-build-completes", "mcp-failed-build-retried", "mcp-pictures-land", "mcp-batch-fields"] });
    expect(result.checks.filter((c) => c.status === "fail").map((c) => `${c.id}: ${c.failures[0]?.message}`)).toEqual([]);
    for (const c of result.checks.filter((c) => c.status === "error")) expect(c.error?.kind).toBe("budget");
    expect([0, 3]).toContain(result.exitCode);
  }, hangGuardMs);

  it("a target failure recorded before the suite broke still fails the run (exit 1), with the error kept", async () => {
    const broken: Check = {
      id: "synthetic-failure-then-bug",
      description: "records a failing case, then throws",
      rules: ["predictions-rank-drafts"],
      group: "test",
      run: async (ctx) => {
        ctx.expect(false, "predictions-rank-drafts", "synthetic failure");
        throw new RangeError("suite bug");
      },
    };
    const result = await runConformance({ env: {}, suites: ["rest"], checks: [broken] });
    expect(result.checks[0]!.status).toBe("fail");
    expect(result.checks[0]!.error?.message).toContain("RangeError");
    expect(result.exitCode).toBe(1);
  });
});

describe("evidence", () => {
  it("a failure judged on a batch another check fetched carries that batch's exchanges and a reproduction", async () => {
    const reference = await startRestMock({ port: 0, timeScale: 0.001 });
    const proxy = await startMutantProxy(reference.url, restMutants.find((m) => m.id === "ranks-out-of-order")!);
    try {
      const file = loadTargetFile(referenceTargetPath, {});
      // Several checks judge the shared main batch; whichever made the requests, each failure shows them.
      const result = await runConformance({ restUrl: proxy.url.href, targetFile: file, timeScale: 0.001, env: {}, probe: false, only: ["batch-ranks-ordered", "get-idea-batch", "batch-thinking-to-done"] });
      const check = result.checks.find((c) => c.id === "batch-ranks-ordered")!;
      expect(check.status).toBe("fail");
      const failure = check.failures[0]!;
      expect(failure.evidence?.some((e) => e.method === "GET" && /\/v1\/ideas\/batch_/.test(e.url) && e.status === 200), JSON.stringify(failure.evidence)).toBe(true);
      expect(failure.reproduce).toMatch(/^curl .*\/v1\/ideas\/batch_.*\$IDEAS_TOKEN/);
    } finally {
      await proxy.stop();
      await reference.stop();
    }
  }, hangGuardMs);

  it("a failure carries the redacted exchange and a curl reproduction that, run by hand, shows it; Markdown escapes what the target sent", async () => {
    const reference = await startRestMock({ port: 0, timeScale: 0.001 });
    const htmlNotFound: Mutant = {
      id: "html-404",
      rule: "error-envelope",
      description: "404 answers are an HTML page",
      response: (_req, res) =>
        res.status === 404 ? { status: 404, headers: { "content-type": "text/html" }, body: undefined, raw: Buffer.from("<html><h1>Not | Found</h1></html>") } : res,
    };
    const proxy = await startMutantProxy(reference.url, htmlNotFound);
    try {
      const file = loadTargetFile(referenceTargetPath, {});
      const token = file.rest?.tokens?.team as string;
      const result = await runConformance({ restUrl: proxy.url.href, targetFile: file, timeScale: 0.001, env: {}, probe: false, only: ["unknown-*-404"] });
      const failure = result.checks.flatMap((c) => c.failures).find((f) => f.evidence?.some((e) => e.status === 404));
      expect(failure, "a failure with the 404 exchange").toBeDefined();
      const exchange = failure!.evidence!.find((e) => e.status === 404)!;
      expect(exchange.responseHeaders["content-type"]).toBe("text/html");
      expect(exchange.responseBody).toContain("<h1>Not | Found</h1>");
      expect(failure!.reproduce).toContain("$IDEAS_TOKEN");
      expect(JSON.stringify(result.checks)).not.toContain(token);
      // Run by hand, the reproduction shows the failure again.
      const last = failure!.evidence!.at(-1)!;
      const shown = await run("sh", ["-c", failure!.reproduce!], { env: { ...process.env, IDEAS_TOKEN: token } });
      expect(shown.stdout).toContain(`HTTP/1.1 ${last.status}`);
      // A message quoting what a target sent (as describeResponse does for a non-JSON body).
      result.checks.find((c) => c.failures.length)!.failures[0]!.message += " — body: <html><h1>Oops | down</h1></html>";
      const md = markdownReport(result);
      // Outside the fenced evidence blocks (where Markdown renders nothing), what the target sent is escaped.
      const prose = md.replace(/^(`{3,})text\n[\s\S]*?^\1$/gm, "");
      expect(md).toContain("<h1>Not | Found</h1>");
      expect(prose).not.toContain("<h1>");
      expect(prose).toContain("&lt;h1&gt;");
      expect(md).not.toContain(token);
    } finally {
      await proxy.stop();
      await reference.stop();
    }
  }, hangGuardMs);

  /** Every token of the reference target file under the variable a reproduction names it by, as a user exports them. */
  function exportedTokens(): Record<string, string> {
    const file = loadTargetFile(referenceTargetPath, {});
    const vars: Record<string, string | undefined> = {
      [restTokenEnv.team]: file.rest?.tokens?.team,
      [restTokenEnv["other-team"]]: file.rest?.tokens?.other_team,
      [restTokenEnv.expired]: file.rest?.tokens?.expired,
    };
    for (const [key, kind] of Object.entries(tokenKeys)) vars[mcpTokenEnv[kind]] = file.mcp?.tokens?.[key as keyof typeof tokenKeys];
    const situations = situationTokens(mcpTriggersOf(file.mcp));
    for (const [code, token] of situations.common) vars[mcpTriggerTokenEnv("common_errors", code)] = token;
    return Object.fromEntries(Object.entries(vars).filter((e): e is [string, string] => e[1] !== undefined));
  }

  /**
   * Runs each failure's reproduction in sh with the tokens exported: the answer has the status the evidence shows;
   * one of them names `variables` (the token the failing request was made with).
   */
  async function expectReproduced(result: Awaited<ReturnType<typeof runConformance>>, variables: RegExp): Promise<void> {
    const failures = result.checks.flatMap((c) => c.failures).filter((f) => f.reproduce && f.evidence?.at(-1)?.status !== undefined);
    expect(failures.length, "a failure with a reproduction").toBeGreaterThan(0);
    const tokens = exportedTokens();
    const env = { ...process.env, ...tokens };
    expect(failures.map((f) => f.reproduce).join("\n")).toMatch(variables);
    for (const f of failures) {
      const command = f.reproduce!;
      // Only variables a user has (a token's own), never a token itself.
      for (const [, name] of command.matchAll(/\$(\w+)/g)) expect(Object.keys(tokens), command).toContain(name);
      for (const token of Object.values(tokens)) expect(command).not.toContain(token);
      const shown = await run("sh", ["-c", command], { env });
      expect(shown.stdout, command).toMatch(new RegExp(`^HTTP/1\\.1 ${f.evidence!.at(-1)!.status} `));
    }
  }

  it("every reproduction of a failing REST run, pasted into sh with the tokens exported, shows the same status", async () => {
    const mutant = restMutants.find((m) => m.id === "cross-team-read-allowed")!;
    const reference = await startRestMock({ port: 0, timeScale: 0.001 });
    const proxy = await startMutantProxy(reference.url, mutant);
    try {
      const file = loadTargetFile(referenceTargetPath, {});
      const result = await runConformance({ restUrl: proxy.url.href, targetFile: file, timeScale: 0.001, env: {}, probe: false, only: ["other-team-brand-get-403"] });
      // The failing request was made with the other team's token, and says so.
      await expectReproduced(result, /Bearer \$IDEAS_OTHER_TEAM_TOKEN"/);
    } finally {
      await proxy.stop();
      await reference.stop();
    }
  }, hangGuardMs);

  it("every reproduction of a failing MCP run names the MCP token it sent (never $IDEAS_TOKEN) and shows the same status", async () => {
    const cases = [
      { id: "mcp-write-scope-ignored", only: ["mcp-write-without-scope-403"], variable: /Bearer \$MCP_READONLY_TOKEN"/ },
      { id: "mcp-writes-disabled-on-reads", only: ["mcp-common-codes"], variable: /Bearer \$MCP_TRIGGER_COMMON_ERRORS_WRITES_DISABLED"/ },
    ];
    for (const c of cases) {
      const mutant = mcpMutants.find((m) => m.id === c.id)!;
      const gateway = await startMcpMock({ port: 0, timeScale: 0.001 });
      const proxy = await startMutantProxy(gateway.url, throughProxy(mutant, gateway.url));
      try {
        const file = loadTargetFile(referenceTargetPath, {});
        const result = await runConformance({ mcpUrl: new URL(gateway.url.pathname, proxy.url).href, targetFile: file, timeScale: 0.001, env: {}, strict: true, only: c.only });
        expect(result.exitCode, c.id).toBe(1);
        await expectReproduced(result, c.variable);
        expect(JSON.stringify(result.checks)).not.toMatch(/\$IDEAS_TOKEN|\$TOKEN\b/);
      } finally {
        await proxy.stop();
        await gateway.stop();
      }
    }
  }, hangGuardMs);
});
