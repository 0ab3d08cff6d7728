// generated/mcp/tools.json as a real gateway would serve it: a real SDK Server lists it over Streamable HTTP and
// real SDK Clients (default draft-07 validator and a 2020-12 one) accept every example result, error envelope
// and cancellation — and refuse a result that breaks the output schema, so the check can fail.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fs from "node:fs";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { createAjv } from "../scripts/lib/ajv.js";
import { generatedDir } from "../lib/paths.js";
import { contractMetaKey } from "../scripts/lib/mcp.js";
import { toolByName } from "./support/mcp-sources.js";
import { resultOf, serveManifest, type RunningServer } from "./support/manifest-server.js";

const manifest = JSON.parse(fs.readFileSync(path.join(generatedDir, "mcp/tools.json"), "utf8")) as { tools: Tool[] };

// What the test server answers: a tool's first valid output, or what the arguments ask for.
const envelope = { ok: false, error: { code: "not_found", message: "No such post.", retryable: false } };
let server: RunningServer;

beforeAll(async () => {
  server = await serveManifest(manifest.tools, (name, args) => {
    if (args.__answer === "error") return resultOf(envelope, true);
    if (args.__answer === "cancelled") return resultOf({ cancelled: true, changed: false });
    if (args.__answer === "broken") return resultOf({ ok: "not an envelope" });
    return resultOf(toolByName.get(name)!.examples.validOutputs[0]);
  });
});
afterAll(() => server.close());

async function connect(validator?: AjvJsonSchemaValidator): Promise<Client> {
  const client = new Client({ name: "manifest-test-client", version: "0.0.0" }, validator ? { jsonSchemaValidator: validator } : {});
  await client.connect(new StreamableHTTPClientTransport(server.url));
  return client;
}

const clients: [string, () => AjvJsonSchemaValidator | undefined][] = [
  ["the SDK's default validator", () => undefined],
  ["a 2020-12 validator", () => new AjvJsonSchemaValidator(createAjv() as never)],
];

describe.each(clients)("a real SDK client with %s", (_label, validator) => {
  let client: Client;
  beforeAll(async () => {
    client = await connect(validator());
  });
  afterAll(() => client.close());

  it("lists all 31 tools with input and output schemas, readOnlyHint and our metadata", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...toolByName.keys()].sort());
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe("object");
      expect(tool.outputSchema?.type).toBe("object");
      expect(typeof tool.annotations?.readOnlyHint).toBe("boolean");
      expect(tool._meta?.[contractMetaKey]).toMatchObject({ status: expect.any(String), scopes: expect.any(Array) });
      expect(JSON.stringify(tool)).not.toContain("../defs/");
    }
  });

  it("accepts every tool's example result, its error envelope, and cancellation for writes", async () => {
    await client.listTools();
    for (const tool of manifest.tools) {
      const ok = await client.callTool({ name: tool.name, arguments: {} });
      expect(ok.isError, tool.name).toBeFalsy();
      const failed = await client.callTool({ name: tool.name, arguments: { __answer: "error" } });
      expect(failed.isError, tool.name).toBe(true);
      if (!tool.annotations?.readOnlyHint) {
        // Accepted by the client's output-schema validation, and handed over as sent.
        const cancelled = await client.callTool({ name: tool.name, arguments: { __answer: "cancelled" } });
        expect(cancelled.structuredContent, tool.name).toEqual({ data: { cancelled: true, changed: false } });
        expect(cancelled.isError, tool.name).toBeFalsy();
      } else {
        await expect(client.callTool({ name: tool.name, arguments: { __answer: "cancelled" } }), tool.name).rejects.toThrow(/output schema/);
      }
    }
  });

  it("refuses a result that breaks the output schema", async () => {
    await client.listTools();
    await expect(client.callTool({ name: "view_post", arguments: { __answer: "broken" } })).rejects.toThrow(/output schema/);
  });
});
