// The proxy between real clients (fetch, the MCP SDK Client) and the reference mocks, all on 127.0.0.1: the
// clients work through it unchanged, and a full flow of both protocols shows no violation by the service; the
// requests the flows send on purpose that the contract refuses are reported against the client, by rule.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClock } from "../mock/clock.js";
import { startMcpMock, type McpMock } from "../mock/mcp/server.js";
import { startRestMock, type RestMock } from "../mock/rest/server.js";
import { startProxy, type ExchangeEvent, type RunningProxy } from "../proxy/server.js";
import { mcpFlow, restFlow } from "./support/proxy-flows.js";
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

const service = (e: ExchangeEvent[]) => e.flatMap((x) => x.violations.filter((v) => v.side === "service").map((v) => `${x.line}`));

describe("proxy in front of the reference mocks", () => {
  it("REST: a full flow through the proxy shows no violation by the service", async () => {
    const from = events.length;
    const flow = await restFlow(proxy.restUrl!, rest.clock);
    expect(flow.surprises).toEqual([]);
    const mine = events.slice(from).filter((e) => e.exchange.protocol === "rest");
    expect(mine.length).toBeGreaterThan(30);
    expect(service(mine)).toEqual([]);
    const client = mine.filter((e) => e.violations.some((v) => v.side === "client"));
    expect(client).toHaveLength(flow.invalidSent);
    expect(new Set(client.flatMap((e) => e.violations.flatMap((v) => v.rules)))).toEqual(new Set(["limit-count", "website-https", "limit-description", "enum-values"]));
    expect(mine.some((e) => e.exchange.status === 429 && e.line.endsWith("✓"))).toBe(true);
  });

  it("MCP: a full flow of the SDK client through the proxy shows no violation by the service", async () => {
    const from = events.length;
    const flow = await mcpFlow(proxy.mcpUrl!, mcp.clock);
    expect(flow.surprises).toEqual([]);
    const mine = events.slice(from).filter((e) => e.exchange.protocol === "mcp");
    expect(mine.length).toBeGreaterThan(20);
    expect(service(mine)).toEqual([]);
    const client = mine.filter((e) => e.violations.some((v) => v.side === "client"));
    expect(client).toHaveLength(flow.invalidSent);
    expect(new Set(client.flatMap((e) => e.violations.flatMap((v) => v.rules)))).toEqual(new Set(["schema-violation-refused-first", "unknown-argument-refused", "delete-confirm-true"]));
  });
});

