// One token cannot grow a mock without bound by sending large text fields the seed sets no limit on: 200 brands
// with a 1 MB name (REST) and 200 posts rejected with a ~0.9 MB reason (MCP) leave the mock's retained heap
// within its documented byte budget (mock/rest/store.ts bytesPerTeam, mock/mcp/posts/store.ts
// postBytesPerBrand), where they used to keep all 200 MB.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMcpMock, type McpMock } from "../mock/mcp/server.js";
import { postBytesPerBrand } from "../mock/mcp/posts/store.js";
import { startRestMock, type RestMock } from "../mock/rest/server.js";
import { bytesPerTeam } from "../mock/rest/store.js";
import { connectMcp, type McpTestClient } from "./support/mcp-client.js";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;
const MB = 1024 * 1024;
/** Heap in use after a full collection. */
const retained = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};
/** Room for everything that is not the stored text: compiled code, sockets, the SDK (generous, not a timing). */
const slack = 24 * MB;

let rest: RestMock;
let mcp: McpMock;
let alex: McpTestClient;
beforeAll(async () => {
  rest = await startRestMock({ port: 0 });
  mcp = await startMcpMock({ port: 0 });
  alex = await connectMcp(mcp.url, "mcp_user");
});
afterAll(async () => {
  await alex?.close();
  await rest?.stop();
  await mcp?.stop();
});

describe("byte budgets", () => {
  it("200 REST brands with a 1 MB name stay within the team's brand budget", async () => {
    const before = retained();
    for (let i = 0; i < 200; i++) {
      const name = `${i} ${"n".repeat(1_000_000)}`;
      const res = await fetch(new URL("v1/brands", rest.url), {
        method: "POST",
        headers: { authorization: "Bearer test_team_a", "content-type": "application/json" },
        body: JSON.stringify({ name, description: "A shop." }),
      });
      expect(res.status).toBe(201);
      await res.arrayBuffer();
    }
    const grown = retained() - before;
    expect(grown, `retained ${(grown / MB).toFixed(1)} MB`).toBeLessThan(bytesPerTeam.brands + slack);
  }, 120_000);

  it("200 MCP posts rejected with a 0.9 MB reason stay within the brand's post budget", async () => {
    const ws = await alex.ok("get_workspaces", {});
    const brands = await alex.ok("list_brands", { workspaceId: ws.workspaces.find((w: any) => w.slug === "harbour-bakery").id });
    const brandId = brands.brands.find((b: any) => b.slug === "harbour-bakery").id;
    const before = retained();
    for (let i = 0; i < 200; i++) {
      const { postId } = await alex.ok("create_draft", { brandId, caption: `Draft ${i}.` });
      await alex.ok("reject_post", { id: postId, reason: `${i} ${"r".repeat(900_000)}` });
    }
    const grown = retained() - before;
    expect(grown, `retained ${(grown / MB).toFixed(1)} MB`).toBeLessThan(postBytesPerBrand + slack);
  }, 180_000);
});
