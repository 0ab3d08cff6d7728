// A gateway built with the pinned MCP SDK's McpServer (zod schemas, so tools/list advertises draft-07), exposing a
// few of the contract's tools with correct behaviour (test/support/sdk-gateway.ts): the suite's schema checks, and
// the checks of those tools, pass against it. Issue 26's first "done when".
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runConformance, type RunResult } from "../conformance/index.js";
import { startSdkGateway, type SdkGateway } from "./support/sdk-gateway.js";
import { at, listAt } from "./support/json.js";
import { hangGuardMs } from "./support/hang-guard.js";

const token = "sdk-gateway-token";
/** The schema checks, and those that judge the three tools' answers (the others need tools this gateway lacks). */
const checks = ["mcp-tools-list-schemas", "mcp-input-schemas-*", "mcp-output-schemas-*", "mcp-read-only-hints", "mcp-tools-drift-report", "mcp-workspaces-*", "mcp-list-brands", "mcp-workspace-and-brand-fields", "mcp-profile-fields", "mcp-no-token-401", "mcp-bad-token-401", "mcp-unknown-tool-fails", "mcp-unknown-ids-refused", "mcp-partner-only-hidden", "mcp-profile-readiness", "mcp-stateless-tools-call", "mcp-success-conventions"];

let gateway: SdkGateway;
beforeAll(async () => {
  gateway = await startSdkGateway([token]);
});
afterAll(async () => {
  await gateway?.stop();
});

describe("a gateway built with the MCP SDK's McpServer", () => {
  it("advertises its tool schemas in draft-07", async () => {
    const res = await fetch(gateway.url, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
    });
    const text = await res.text();
    const data: unknown = JSON.parse(text.startsWith("{") ? text : /^data: (.*)$/m.exec(text)![1]!);
    const schemas = listAt(data, "result", "tools").flatMap((t) => [at(t, "inputSchema", "$schema"), at(t, "outputSchema", "$schema")]);
    expect(schemas.length).toBe(6);
    expect(new Set(schemas)).toEqual(new Set(["http://json-schema.org/draft-07/schema#"]));
  });

  it("passes the suite's schema checks and the checks of its tools", async () => {
    const result: RunResult = await runConformance({ mcpUrl: gateway.url.href, env: { MCP_TOKEN: token }, only: checks, budgetSeconds: 600 });
    const report = result.checks.filter((c) => c.status !== "pass").map((c) => `${c.id}: ${c.status} ${c.reason ?? ""} ${c.failures.map((f) => `[${f.rules.join(",")}] ${f.message}`).join(" | ")}`);
    expect(report).toEqual([]);
    expect(result.checks.length).toBeGreaterThanOrEqual(10);
    expect(result.exitCode).toBe(0);
  }, hangGuardMs);
});
