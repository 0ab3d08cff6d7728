// One judge (conformance/core/judge.ts): the suite and the proxy judge a reply with the same assertions, so a violation
// one of them reports, the other reports in the same words. The suite runs through the proxy against a mutant of
// the reference (a brand without its required `country`): every failure the suite records for the broken rule is
// also a violation the proxy recorded on the same traffic, word for word.
import { describe, expect, it } from "vitest";
import { runConformance } from "../conformance/index.js";
import { referenceTargetPath } from "../conformance/core/paths.js";
import { loadTargetFile } from "../conformance/target-file.js";
import { startMcpMock } from "../mock/mcp/server.js";
import { startRestMock } from "../mock/rest/server.js";
import { startProxy, type ExchangeEvent } from "../proxy/server.js";
import { mcpMutants } from "./mutants/mcp/catalogue.js";
import { mutants } from "./mutants/rest/catalogue.js";
import { startMutantProxy } from "./mutants/rest/proxy.js";
import { hangGuardMs } from "./support/hang-guard.js";
import { drivenTime } from "./support/driven-time.js";

const timeScale = 0.001;

/** The suite caught the rule, and every failure it recorded for it is a proxy violation word for word. */
function expectSameWords(result: Awaited<ReturnType<typeof runConformance>>, events: ExchangeEvent[], rule: string): void {
  const { bySuite, byProxy } = messages(result, events, rule);
  expect(bySuite.length, "the suite catches the mutant").toBeGreaterThan(0);
  for (const message of bySuite) expect(byProxy, "the proxy reports the suite's failure word for word").toContain(message);
}

/** The suite's failures and the proxy's service violations that name the rule, as messages. */
function messages(result: Awaited<ReturnType<typeof runConformance>>, events: ExchangeEvent[], rule: string) {
  return {
    bySuite: result.checks.flatMap((c) => c.failures).filter((f) => f.rules.includes(rule)).map((f) => f.message),
    byProxy: events.flatMap((e) => e.violations).filter((v) => v.side === "service" && v.rules.some((r) => r === rule)).map((v) => v.reason),
  };
}

describe("one judge for the suite and the proxy", () => {
  it("reports a broken field rule in the same words through both", async () => {
    const mutant = mutants.find((m) => m.id === "brand-field-missing")!;
    const { clock, mockClock } = drivenTime(timeScale);
    const reference = await startRestMock({ port: 0, clock: mockClock });
    const broken = await startMutantProxy(reference.url, mutant);
    const events: ExchangeEvent[] = [];
    const proxy = await startProxy({ restUpstream: broken.url.href, onExchange: (e) => events.push(e) });
    try {
      const file = loadTargetFile(referenceTargetPath, {});
      const result = await runConformance({ restUrl: proxy.restUrl!.href, targetFile: file, timeScale, env: {}, strict: true, suites: ["rest"], only: ["get-brand", "create-brand"], clock });
      await proxy.settled();
      expectSameWords(result, events, mutant.rule);
    } finally {
      await proxy.stop();
      await broken.stop();
      await reference.stop();
    }
  }, hangGuardMs);
  it("reports a tool's output off its schema in the same words through both", async () => {
    const mutant = mcpMutants.find((m) => m.id === "mcp-output-off-schema")!;
    const { clock, mockClock } = drivenTime(timeScale);
    const gateway = await startMcpMock({ port: 0, clock: mockClock });
    const broken = await startMutantProxy(gateway.url, mutant);
    const events: ExchangeEvent[] = [];
    const proxy = await startProxy({ mcpUpstream: new URL(gateway.url.pathname, broken.url).href, onExchange: (e) => events.push(e) });
    try {
      const file = loadTargetFile(referenceTargetPath, {});
      const result = await runConformance({ mcpUrl: proxy.mcpUrl!.href, targetFile: file, timeScale, env: {}, strict: true, suites: ["mcp"], only: ["mcp-view-post-fields"], clock });
      await proxy.settled();
      expectSameWords(result, events, mutant.rule);
    } finally {
      await proxy.stop();
      await broken.stop();
      await gateway.stop();
    }
  }, hangGuardMs);
});
