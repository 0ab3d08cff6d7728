// One token cannot grow a mock without bound by sending large text fields the seed sets no limit on: 200 brands
// with a 1 MB name (REST) and 200 posts rejected with a ~0.9 MB reason (MCP) leave the mock's retained heap
// within its documented byte budget (mock/rest/store.ts bytesPerTeam, mock/mcp/tenant-budget.ts
// bytesPerTenant), where they used to keep all 200 MB. The MCP tenant whose budget is spent is refused in the
// envelope; another tenant is not affected.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMcpMock, type McpMock } from "../mock/mcp/server.js";
import { bytesPerTenant } from "../mock/mcp/tenant-budget.js";
import { startRestMock, type RestMock } from "../mock/rest/server.js";
import { bytesPerTeam } from "../mock/rest/store.js";
import type { ErrorDetail } from "../generated/mcp/types.js";
import { brandIdBySlug, connectMcp, isEnvelope, type McpTestClient } from "./support/mcp-client.js";
import { hangGuardMs } from "./support/hang-guard.js";

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
  }, hangGuardMs);

  it("200 MCP posts rejected with a 0.9 MB reason stay within the tenant's budget; past it writes are refused, other tenants unaffected", async () => {
    const brandOf = async (client: McpTestClient, slug: string) =>
      (await client.ok("list_brands", { workspaceId: (await client.ok("get_workspaces", {})).workspaces.find((w) => w.slug === slug)!.id })).brands[0]!.id;
    const brandId = await brandIdBySlug(alex, "harbour-bakery", "harbour-bakery");
    // Alex's second workspace shares the tenant's budget.
    const otherBrandOfAlex = await brandOf(alex, "northside-studio");
    const before = retained();
    const refusals: ErrorDetail[] = [];
    const stored: string[] = [];
    for (let i = 0; i < 200; i++) {
      const draft = await alex.attempt("create_draft", { brandId: i % 2 ? brandId : otherBrandOfAlex, caption: `Draft ${i}.` });
      if (isEnvelope(draft)) {
        refusals.push(draft.error);
        continue;
      }
      const rejected = await alex.attempt("reject_post", { id: draft.postId, reason: `${i} ${"r".repeat(900_000)}` });
      if (isEnvelope(rejected)) refusals.push(rejected.error);
      else stored.push(draft.postId);
    }
    const grown = retained() - before;
    expect(grown, `retained ${(grown / MB).toFixed(1)} MB`).toBeLessThan(bytesPerTenant + slack);
    expect(stored.length).toBeGreaterThan(bytesPerTenant / (1.1 * MB)); // the budget was used, not refused early
    expect(refusals.length).toBeGreaterThan(100);
    for (const error of refusals) expect(error).toMatchObject({ code: "writes_disabled", retryable: false, message: expect.stringMatching(/32 MB/) });

    // Another tenant writes as before.
    const blake = await connectMcp(mcp.url, "mcp_other_user");
    try {
      const { postId } = await blake.ok("create_draft", { brandId: await brandOf(blake, "blake-ceramics"), caption: "A vase." });
      await blake.ok("reject_post", { id: postId, reason: "r".repeat(900_000) });
    } finally {
      await blake.close();
    }
    // Alex makes room with delete_post (open while the budget is spent), then may write again.
    expect((await alex.fails("create_draft", { brandId, caption: "One more." })).code).toBe("writes_disabled");
    for (const id of stored.slice(0, 3)) await alex.ok("delete_post", { id });
    expect((await alex.ok("create_draft", { brandId, caption: "One more." })).postId).toBeTruthy();
  }, hangGuardMs);
});
