// The proxy between real clients (fetch, the MCP SDK Client) and the reference mocks, all on 127.0.0.1: the
// clients work through it unchanged, and a full flow of both protocols shows no violation by the service; the
// requests the flows send on purpose that the contract refuses are reported against the client, by rule.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClock } from "../mock/clock.js";
import { startMcpMock, type McpMock } from "../mock/mcp/server.js";
import { startRestMock, type RestMock } from "../mock/rest/server.js";
import { startProxy, type ExchangeEvent, type RunningProxy } from "../proxy/server.js";
import { mcpFlow, restFlow, type FlowResult } from "./support/proxy-flows.js";
import { suiteStart } from "./support/rest-client.js";

let rest: RestMock;
let mcp: McpMock;
let proxy: RunningProxy;
const events: ExchangeEvent[] = [];

beforeAll(async () => {
  rest = await startRestMock({ clock: createClock({ timeScale: 1, start: suiteStart }), seed: "proxy" });
  mcp = await startMcpMock({ clock: createClock({ timeScale: 1 }) });
  proxy = await startProxy({ restUpstream: rest.url.href, mcpUpstream: mcp.url.href, onExchange: (e) => events.push(e) });
});
afterAll(async () => {
  await proxy?.stop();
  await Promise.all([rest?.stop(), mcp?.stop()]);
});

/** The lines of exchanges with a violation by the service. */
const service = (e: ExchangeEvent[]) => e.filter((x) => x.violations.some((v) => v.side === "service")).map((x) => x.line);

/** Runs a flow through the proxy: its exchanges show no service violation, and a client one per invalid request sent. */
async function cleanFlow(protocol: "rest" | "mcp", flow: () => Promise<FlowResult>, clientRules: string[], atLeast: number): Promise<ExchangeEvent[]> {
  const from = events.length;
  const result = await flow();
  await proxy.settled();
  expect(result.surprises).toEqual([]);
  const mine = events.slice(from).filter((e) => e.exchange.protocol === protocol);
  expect(mine.length).toBeGreaterThan(atLeast);
  expect(service(mine)).toEqual([]);
  const client = mine.filter((e) => e.violations.some((v) => v.side === "client"));
  expect(client).toHaveLength(result.invalidSent);
  expect(new Set(client.flatMap((e) => e.violations.flatMap((v) => v.rules)))).toEqual(new Set(clientRules));
  return mine;
}

describe("proxy in front of the reference mocks", () => {
  it("REST: a full flow through the proxy shows no violation by the service", async () => {
    const mine = await cleanFlow("rest", () => restFlow(proxy.restUrl!, rest.clock), ["limit-count/max", "website-https", "limit-description", "enum-values/formats"], 30);
    expect(mine.some((e) => e.exchange.status === 429 && e.line.endsWith("✓"))).toBe(true);
  });

  it("MCP: a full flow of the SDK client through the proxy shows no violation by the service", async () => {
    await cleanFlow("mcp", () => mcpFlow(proxy.mcpUrl!, mcp.clock), ["schema-violation-refused-first", "unknown-argument-refused", "delete-confirm-true"], 20);
  });
});
