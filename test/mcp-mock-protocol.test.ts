// Protocol hygiene of the MCP gateway mock: JSON-RPC error codes as the spec gives them, batches only where the
// negotiated protocol version has them, and a start failure (a taken port) as a rejected promise with one line.
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { mockCommand } from "../cli/mock.js";
import { startMcpMock, type McpMock } from "../mock/mcp/server.js";
import { startRestMock } from "../mock/rest/server.js";
import { at, listAt } from "./support/json.js";

let mock: McpMock;
beforeAll(async () => {
  mock = await startMcpMock({ port: 0 });
});
afterAll(() => mock.stop());

async function rpc(body: string, version: string | null = "2025-06-18"): Promise<{ status: number; body: unknown }> {
  const headers: Record<string, string> = { authorization: "Bearer mcp_user", "content-type": "application/json", accept: "application/json, text/event-stream" };
  if (version) headers["mcp-protocol-version"] = version;
  const res = await fetch(mock.url, { method: "POST", headers, body });
  return { status: res.status, body: await res.json() };
}

const request = (method: string, params?: unknown) => JSON.stringify({ jsonrpc: "2.0", id: 7, method, ...(params === undefined ? {} : { params }) });

describe("JSON-RPC error codes", () => {
  it("-32700 only for a body that is not JSON", async () => {
    expect(at((await rpc("{nope")).body, "error", "code")).toBe(-32700);
  });

  it.each([
    ["an empty object", "{}", null],
    ["a number", "42", null],
    ["jsonrpc 1.0", `{"jsonrpc":"1.0","id":3,"method":"ping"}`, 3],
    ["no method", `{"jsonrpc":"2.0","id":3}`, 3],
    ["a method that is not a string", `{"jsonrpc":"2.0","id":3,"method":5}`, 3],
    ["an id that is an object", `{"jsonrpc":"2.0","id":{},"method":"ping"}`, null],
    ["params that are a string", `{"jsonrpc":"2.0","id":3,"method":"ping","params":"x"}`, 3],
  ])("-32600 for %s", async (_label, body, id) => {
    const r = await rpc(body);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ jsonrpc: "2.0", id, error: { code: -32600 } });
  });

  it.each([
    ["no params", undefined],
    ["no tool name", {}],
    ["an empty tool name", { name: "" }],
    ["a tool name that is a number", { name: 5 }],
    ["arguments that are an array", { name: "get_workspaces", arguments: [1] }],
    ["arguments that are a string", { name: "get_workspaces", arguments: "x" }],
    ["arguments that are null", { name: "get_workspaces", arguments: null }],
  ])("-32602 for a tools/call with %s", async (_label, params) => {
    const r = await rpc(request("tools/call", params));
    expect(r.body).toMatchObject({ jsonrpc: "2.0", id: 7, error: { code: -32602 } });
  });

  it("-32602 for a tools/list cursor it never issued; no cursor lists the tools", async () => {
    expect((await rpc(request("tools/list", { cursor: "garbage" }))).body).toMatchObject({ id: 7, error: { code: -32602 } });
    expect(listAt((await rpc(request("tools/list", {}))).body, "result", "tools").length).toBeGreaterThan(10);
  });

  it("-32601 for an unknown method (the SDK's own answer, kept)", async () => {
    expect(at((await rpc(request("nope/never"))).body, "error", "code")).toBe(-32601);
  });
});

describe("batches", () => {
  const batch = JSON.stringify([{ jsonrpc: "2.0", id: 1, method: "ping" }]);
  it("are refused with -32600 under 2025-06-18 and later", async () => {
    for (const version of ["2025-06-18", "2025-11-25"]) {
      const r = await rpc(batch, version);
      expect(r.status).toBe(400);
      expect(at(r.body, "error")).toMatchObject({ code: -32600, message: expect.stringMatching(/no JSON-RPC batches/) });
    }
    const init = JSON.stringify([{ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } } }]);
    expect(at((await rpc(init, null)).body, "error", "code")).toBe(-32600);
  });

  it("are answered under 2025-03-26 (and without a version header, which means 2025-03-26)", async () => {
    for (const version of ["2025-03-26", null]) {
      const r = await rpc(batch, version);
      expect(r.status, String(version)).toBe(200);
      expect(JSON.stringify(r.body)).toContain('"result"');
    }
    expect(at((await rpc("[]", "2025-03-26")).body, "error", "code")).toBe(-32600);
    const many = await rpc(JSON.stringify(Array.from({ length: 101 }, (_, i) => ({ jsonrpc: "2.0", id: i, method: "ping" }))), "2025-03-26");
    expect(many.status).toBe(400);
    expect(at(many.body, "error")).toMatchObject({ code: -32600, message: expect.stringMatching(/at most 100/) });
    expect((await rpc(JSON.stringify(Array.from({ length: 100 }, (_, i) => ({ jsonrpc: "2.0", id: i, method: "ping" }))), "2025-03-26")).body).toHaveLength(100);
  });

  it("a one-element batch is answered with a one-element array; an invalid member in place, with -32600", async () => {
    const one = await rpc(batch, "2025-03-26");
    expect(one.body).toEqual([{ jsonrpc: "2.0", id: 1, result: {} }]);
    const mixed = await rpc(JSON.stringify([{ jsonrpc: "2.0", id: 1 }, 5, { jsonrpc: "2.0", id: "b", method: "ping" }, { jsonrpc: "2.0", method: "notifications/initialized" }]), "2025-03-26");
    expect(mixed.status).toBe(200);
    expect(mixed.body).toMatchObject([{ id: 1, error: { code: -32600 } }, { id: null, error: { code: -32600 } }, { id: "b", result: {} }]);
    expect(mixed.body).toHaveLength(3);
    const call = await rpc(JSON.stringify([{ jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "get_workspaces", arguments: {} } }]), "2025-03-26");
    expect(call.body).toMatchObject([{ id: 9, result: { structuredContent: { data: expect.anything() } } }]);
  });

  it("notifications alone: 202 without a body", async () => {
    const headers = { authorization: "Bearer mcp_user", "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-03-26" };
    const res = await fetch(mock.url, { method: "POST", headers, body: JSON.stringify([{ jsonrpc: "2.0", method: "notifications/initialized" }]) });
    expect(res.status).toBe(202);
    expect(await res.text()).toBe("");
  });

  it("two requests with the same id: each answered, the later one refused with -32600 (MCP: ids are not reused)", async () => {
    const r = await rpc(JSON.stringify([{ jsonrpc: "2.0", id: 4, method: "ping" }, { jsonrpc: "2.0", id: 4, method: "tools/list" }]), "2025-03-26");
    expect(r.body).toHaveLength(2);
    expect(at(r.body, 0)).toEqual({ jsonrpc: "2.0", id: 4, result: {} });
    expect(at(r.body, 1)).toMatchObject({ jsonrpc: "2.0", id: 4, error: { code: -32600, message: expect.stringMatching(/already used/) } });
  });

  it("an initialize in a batch is refused in place (2025-03-26 lifecycle)", async () => {
    const init = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "t", version: "1" } } };
    const r = await rpc(JSON.stringify([init]), "2025-03-26");
    expect(r.body).toMatchObject([{ id: 1, error: { code: -32600 } }]);
  });

  it("what the SDK's transport refuses (no text/event-stream in Accept) stays its answer", async () => {
    const res = await fetch(mock.url, { method: "POST", headers: { authorization: "Bearer mcp_user", "content-type": "application/json", accept: "application/json" }, body: batch });
    expect(res.status).toBe(406);
  });
});

describe("valid JSON that is not a valid request is never a parse error, nor a dump", () => {
  const init = (params: unknown) => JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", ...(params === undefined ? {} : { params }) });
  const client = { name: "t", version: "1" };
  it.each([
    ["an id of 2.5", `{"jsonrpc":"2.0","id":2.5,"method":"ping"}`, 400, null, -32600],
    ["an id of 9007199254740993", `{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}`, 400, null, -32600],
    ["a member JSON-RPC does not define", `{"jsonrpc":"2.0","id":3,"method":"ping","_meta":5}`, 400, 3, -32600],
    ["params._meta of 5", `{"jsonrpc":"2.0","id":3,"method":"ping","params":{"_meta":5}}`, 200, 3, -32602],
    ["params._meta of 5 on tools/list", `{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"_meta":5}}`, 200, 3, -32602],
    ["params as an array", `{"jsonrpc":"2.0","id":3,"method":"ping","params":[1]}`, 200, 3, -32602],
    ["a response whose error is a number", `{"jsonrpc":"2.0","id":3,"error":5}`, 400, 3, -32600],
    ["a response whose result is a string", `{"jsonrpc":"2.0","id":3,"result":"x"}`, 400, 3, -32600],
    ["a request with a null id", `{"jsonrpc":"2.0","id":null,"method":"ping"}`, 400, null, -32600],
    ["a notification with params._meta of 5", `{"jsonrpc":"2.0","method":"notifications/initialized","params":{"_meta":5}}`, 400, null, -32602],
    ["initialize with protocolVersion 42", init({ protocolVersion: 42, capabilities: {}, clientInfo: client }), 200, 1, -32602],
    ["initialize without params", init(undefined), 200, 1, -32602],
    ["initialize with capabilities 5", init({ protocolVersion: "2025-06-18", capabilities: 5, clientInfo: client }), 200, 1, -32602],
    ["initialize without clientInfo", init({ protocolVersion: "2025-06-18", capabilities: {} }), 200, 1, -32602],
    ["tools/call with task 5", request("tools/call", { name: "get_workspaces", arguments: {}, task: 5 }), 200, 7, -32602],
    ["tools/call with _meta 5", request("tools/call", { name: "get_workspaces", arguments: {}, _meta: 5 }), 200, 7, -32602],
  ] as const)("%s", async (_label, body, status, id, code) => {
    for (const version of [null, "2025-06-18"]) {
      const r = await rpc(body, version);
      expect(r.status, JSON.stringify(r.body)).toBe(status);
      expect(r.body).toMatchObject({ jsonrpc: "2.0", id, error: { code } });
      // Short, one line, and no validation dump (zod's JSON of issues, "expected", "received", brackets).
      expect(at(r.body, "error", "message")).toMatch(/^.{0,199}$/s);
      expect(at(r.body, "error", "message")).not.toMatch(/[\n[{]|"code"|received/);
    }
  });

  it("initialize, tools/call with task {} and ping with _meta {} still work", async () => {
    expect(at((await rpc(init({ protocolVersion: "2025-06-18", capabilities: {}, clientInfo: client }))).body, "result", "protocolVersion")).toBe("2025-06-18");
    expect(at((await rpc(request("tools/call", { name: "get_workspaces", arguments: {}, _meta: { progressToken: 1 } }))).body, "result", "structuredContent")).toBeDefined();
    expect((await rpc(request("ping", { _meta: {} }))).body).toMatchObject({ id: 7, result: {} });
  });
});

describe("start failures", () => {
  it("a taken port rejects startMcpMock and startRestMock with one line naming the port", async () => {
    const blocker = net.createServer();
    await new Promise<void>((r) => blocker.listen(0, "127.0.0.1", r));
    const port = (blocker.address() as net.AddressInfo).port;
    try {
      for (const start of [() => startMcpMock({ port }), () => startRestMock({ port })]) {
        const err = await start().then(() => null, (e: Error) => e);
        expect(err?.message).toMatch(new RegExp(`port ${port} on 127\\.0\\.0\\.1 is already in use \\(EADDRINUSE\\)`));
        expect(err?.message).not.toContain("\n");
      }
      const lines: string[] = [];
      const spy = vi.spyOn(console, "error").mockImplementation((l: string) => void lines.push(l));
      const out = vi.spyOn(console, "log").mockImplementation(() => {});
      try {
        expect(await mockCommand(["--no-prism", "--quiet", "--rest-port", "0", "--mcp-port", String(port)])).toBe(1);
      } finally {
        spy.mockRestore();
        out.mockRestore();
      }
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^Could not start the mocks: MCP gateway mock: port \d+ on 127\.0\.0\.1 is already in use \(EADDRINUSE\)/);
      expect(lines[0]).not.toContain("\n");
    } finally {
      blocker.close();
    }
  });

  it("a host that is not this machine's rejects too", async () => {
    await expect(startMcpMock({ port: 0, host: "192.0.2.1" })).rejects.toThrow(/MCP gateway mock: 192\.0\.2\.1 is not an address of this machine/);
  });
});

describe("tools/list from the prepared cache", () => {
  it("answers each audience exactly the manifest's tools it may see, echoing the id", async () => {
    const { default: manifest } = await import("../generated/mcp/tools.json", { with: { type: "json" } });
    const all = (manifest as { tools: { name: string; _meta: Record<string, { partnerOnly: boolean }> }[] }).tools;
    for (const [token, partner] of [["mcp_partner", true], ["mcp_user", false]] as const) {
      const res = await fetch(mock.url, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: "list-1", method: "tools/list" }),
      });
      const body = await res.json();
      expect(body.id).toBe("list-1");
      expect(body.result.tools).toEqual(all.filter((t) => partner || !t._meta["ideas-contract/contract"]!.partnerOnly));
    }
  });

  it("leaves what the SDK refuses to the SDK (406 without text/event-stream; an unsupported version)", async () => {
    const list = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" });
    const plain = await fetch(mock.url, { method: "POST", headers: { authorization: "Bearer mcp_user", "content-type": "application/json", accept: "application/json" }, body: list });
    expect(plain.status).toBe(406);
    expect((await rpc(list, "1999-01-01")).status).toBe(400);
  });
});
