// The conformance suite is the most hostile client this package has: every bad-input class, every auth variant,
// every limit's both edges, to every operation and tool. Sent through the proxy to the reference mocks, which keep
// the contract, none of it may be recorded as the service's violation, and every exchange is judged (nothing set
// aside as unjudged or unanswered). Seeded walks, so every run sends the same traffic.
import { describe, expect, it } from "vitest";
import { runConformance } from "../conformance/index.js";
import { referenceTargetPath } from "../conformance/core/paths.js";
import { loadTargetFile } from "../conformance/target-file.js";
import { startMcpMock } from "../mock/mcp/server.js";
import { startRestMock } from "../mock/rest/server.js";
import { startProxy, type ExchangeEvent } from "../proxy/server.js";
import { drivenTime } from "./support/driven-time.js";
import { hangGuardMs } from "./support/hang-guard.js";
import { serviceBlames } from "./support/contract-proxy.js";

describe("the whole conformance suite through the proxy, in front of the reference", () => {
  it("records no violation of the service, and judges every exchange", async () => {
    const timeScale = 0.001;
    const { clock, mockClock } = drivenTime(timeScale);
    const rest = await startRestMock({ port: 0, clock: mockClock });
    const mcp = await startMcpMock({ port: 0, clock: mockClock });
    const events: ExchangeEvent[] = [];
    const proxy = await startProxy({ restUpstream: rest.url.href, mcpUpstream: mcp.url.href, onExchange: (e) => events.push(e) });
    try {
      const targetFile = loadTargetFile(referenceTargetPath, {});
      const result = await runConformance({ restUrl: proxy.restUrl!.href, mcpUrl: proxy.mcpUrl!.href, targetFile, timeScale, env: {}, clock, walkSeed: "proxy-traffic" });
      await proxy.settled();
      expect(result.checks.filter((c) => c.status === "fail" || c.status === "error").map((c) => c.id)).toEqual([]);
      // Both protocols' traffic went through (thousands of exchanges).
      expect(events.filter((e) => e.exchange.protocol === "rest").length).toBeGreaterThan(500);
      expect(events.filter((e) => e.exchange.protocol === "mcp").length).toBeGreaterThan(500);
      // The answer time is left out: the proxy holds it to the wall clock, which a saturated host may spend.
      expect(serviceBlames(events)).toEqual([]);
      const setAside = events.filter((e) => e.verdict.unjudged || e.verdict.noAnswer).map((e) => e.line);
      expect(setAside).toEqual([]);
    } finally {
      await proxy.stop();
      await mcp.stop();
      await rest.stop();
    }
  }, hangGuardMs);
});
