// The gateway answers plain tools/list and tools/call requests without building an SDK Server per request
// (mock/mcp/sdk-shortcut.ts). A request with `_meta` in its params takes the SDK's path, so the same question
// asked both ways must get the same answer; and the gzip answer of tools/list (a deflate stream prepared once, the
// id spliced on) must inflate to exactly the plain one.
import http from "node:http";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMcpMock, type McpMock } from "../mock/mcp/server.js";
import { connectMcp } from "./support/mcp-client.js";

let mock: McpMock;
let brandId: string;
let postId: string;
beforeAll(async () => {
  mock = await startMcpMock({ port: 0 });
  const alex = await connectMcp(mock.url, "mcp_user");
  const ws = await alex.ok("get_workspaces", {});
  brandId = (await alex.ok("list_brands", { workspaceId: ws.workspaces[0]!.id })).brands[0]!.id;
  postId = (await alex.ok("create_draft", { brandId, caption: "A loaf." })).postId;
  await alex.close();
});
afterAll(() => mock.stop());

/** A raw POST to /mcp: status, headers and the body bytes as sent (no decompression). */
function post(body: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders; bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.request(mock.url, {
      method: "POST",
      headers: { authorization: "Bearer mcp_user", "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    });
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, bytes: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

const rpc = (id: unknown, method: string, params: unknown) => JSON.stringify({ jsonrpc: "2.0", id, method, params });

describe("tools/call without a per-request SDK server", () => {
  it.each([
    ["a read", () => ({ name: "get_profile", arguments: { brandId } })],
    ["a post", () => ({ name: "view_post", arguments: { id: postId } })],
    ["an envelope failure", () => ({ name: "get_profile", arguments: { brandId: "00000000-0000-4000-8000-000000000000" } })],
    ["an unknown argument", () => ({ name: "get_profile", arguments: { brandId, nope: 1 } })],
    ["a partner-only tool", () => ({ name: "delete_profile", arguments: { brandId, confirm: true } })],
    ["an unknown tool", () => ({ name: "no_such_tool", arguments: {} })],
    ["no arguments", () => ({ name: "get_workspaces" })],
  ])("answers %s as the SDK does", async (_label, params) => {
    const plain = await post(rpc(11, "tools/call", params()));
    const viaSdk = await post(rpc(11, "tools/call", { ...params(), _meta: {} }));
    expect(plain.status).toBe(200);
    expect(plain.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(plain.bytes.toString())).toEqual(JSON.parse(viaSdk.bytes.toString()));
  });

  it("refuses a fractional id as the SDK does", async () => {
    const answer = JSON.parse((await post(rpc(2.5, "tools/call", { name: "get_workspaces", arguments: {} }))).bytes.toString());
    expect(answer.result).toBeUndefined();
    expect(answer.error).toBeDefined();
  });

  it("keeps the id as sent (string or integer)", async () => {
    for (const id of ["call-ü-1", 0, -3, 2 ** 40]) {
      const answer = JSON.parse((await post(rpc(id, "tools/call", { name: "get_workspaces", arguments: {} }))).bytes.toString());
      expect(answer).toMatchObject({ jsonrpc: "2.0", id });
      expect(answer.result.structuredContent.data.workspaces.length).toBeGreaterThan(0);
    }
  });
});

describe("tools/list, prepared and gzipped", () => {
  it("answers as the SDK does, for each audience", async () => {
    for (const token of ["mcp_user", "mcp_partner"]) {
      const plain = await post(rpc(3, "tools/list", {}), { authorization: `Bearer ${token}` });
      const viaSdk = await post(rpc(3, "tools/list", { _meta: {} }), { authorization: `Bearer ${token}` });
      expect(plain.headers["content-encoding"]).toBeUndefined();
      expect(JSON.parse(plain.bytes.toString())).toEqual(JSON.parse(viaSdk.bytes.toString()));
    }
  });

  it.each([
    ["a number id", 42],
    ["a string id", "list-1"],
    ["an id longer than one stored block", "x".repeat(70_000)],
  ])("gzip with %s inflates to the plain answer", async (_label, id) => {
    const plain = await post(rpc(id, "tools/list", {}));
    const gzipped = await post(rpc(id, "tools/list", {}), { "accept-encoding": "br, gzip;q=0.8" });
    expect(gzipped.headers["content-encoding"]).toBe("gzip");
    expect(Number(gzipped.headers["content-length"])).toBe(gzipped.bytes.length);
    expect(gzipped.bytes.length).toBeLessThan(plain.bytes.length / 5 + 2 * JSON.stringify(id).length);
    // gunzipSync checks the CRC and length in the trailer.
    expect(zlib.gunzipSync(gzipped.bytes).equals(plain.bytes)).toBe(true);
  });

  it("sends plain JSON when gzip is refused", async () => {
    for (const encoding of ["gzip;q=0", "identity", "br"]) {
      const answer = await post(rpc(1, "tools/list", {}), { "accept-encoding": encoding });
      expect(answer.headers["content-encoding"]).toBeUndefined();
      expect(JSON.parse(answer.bytes.toString()).result.tools.length).toBeGreaterThan(10);
    }
  });

  it("is read by fetch (which asks for gzip) like any answer", async () => {
    const res = await fetch(mock.url, {
      method: "POST",
      headers: { authorization: "Bearer mcp_user", "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: rpc(5, "tools/list", {}),
    });
    expect(res.headers.get("content-encoding")).toBe("gzip");
    expect((await res.json()).id).toBe(5);
  });
});
