// The MCP gateway mock against hostile input: at least 500 requests per run, made deterministically from every
// tool's inputSchema (one constraint broken at a time) plus unknown and foreign ids, impossible times and generic
// hostility at the HTTP and JSON-RPC levels (tokens, scopes, content types, Accept, methods, malformed/truncated
// JSON, 10,000-level nesting, invalid UTF-8, duplicate keys, unknown arguments, batches, oversized bodies,
// unparseable HTTP). Every answer must be a refusal — HTTP 4xx, a JSON-RPC error, an isError result with text (an
// envelope valid against the tool's result schema, never internal_error) — within a per-request timeout; no tool
// that changes data may succeed, nothing may be logged as a failure, Object.prototype stays clean, and the
// records made before the fuzz read the same afterwards.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startMcpMock, type McpMock } from "../mock/mcp/server.js";
import type { ToolName } from "../generated/mcp/types.js";
import { connectMcp, settleBatch, type McpTestClient } from "./support/mcp-client.js";
import { countRequiredKinds, describeFailure, runCases, tally } from "./support/fuzz.js";
import { checkMcpAnswer, isWriteTool, mcpFuzzCases, type McpFixtures } from "./support/fuzz-mcp.js";

const seed = "fuzz-mcp";
const minimumCases = 600;

let mock: McpMock;
let alex: McpTestClient;
let blake: McpTestClient;
let partner: McpTestClient;
let fixtures: McpFixtures;

async function firstBrand(c: McpTestClient, slug: string): Promise<{ workspace: string; brand: string }> {
  const ws = (await c.ok("get_workspaces", {})).workspaces.find((w) => w.slug === slug)!;
  const list = await c.ok("list_brands", { workspaceId: ws.id });
  return { workspace: ws.id, brand: list.brands[0]!.id };
}

const settle = (c: McpTestClient, batchId: string, pictures = true) => settleBatch(c, mock.clock, batchId, pictures);

beforeAll(async () => {
  mock = await startMcpMock({ port: 0 });
  [alex, blake, partner] = await Promise.all([connectMcp(mock.url, "mcp_user"), connectMcp(mock.url, "mcp_other_user"), connectMcp(mock.url, "mcp_partner")]);
  const mine = await firstBrand(alex, "harbour-bakery");
  const theirs = await firstBrand(blake, "blake-ceramics");
  const batch = (await alex.ok("create_posts", { brandId: mine.brand, brief: "Fuzz fixtures: fresh bread", count: 2 })).batchId as string;
  const otherBatch = (await blake.ok("create_posts", { brandId: theirs.brand, brief: "Fuzz fixtures: new mugs", count: 1 })).batchId as string;
  const [post, post2] = (await settle(alex, batch)).items.map((i) => i.postId!);
  const otherPost = (await settle(blake, otherBatch)).items[0]!.postId!;
  const job = (await alex.ok("regenerate_post_image", { postId: post2 })).jobId as string;
  mock.clock.advance(10 * 60_000);
  const media = (await alex.ok("upload_image", { brandId: mine.brand, sourceUrl: "https://cdn.example.com/fixture-4x5.jpg" })).mediaId as string;
  const partnerBrand = (await partner.ok("create_profile", { websiteUrl: "https://www.fuzz-client.com", name: "Fuzz Client", externalId: "fuzz-fixture" })).brandId as string;
  fixtures = {
    workspace: mine.workspace,
    brand: mine.brand,
    post: post!,
    post2: post2!,
    digest: (await alex.ok("view_post", { id: post })).contentDigest!,
    batch,
    job,
    media,
    partnerBrand,
    otherWorkspace: theirs.workspace,
    otherBrand: theirs.brand,
    otherPost,
    otherBatch,
  };
});
afterAll(async () => {
  await Promise.all([alex?.close(), blake?.close(), partner?.close()]);
  await mock?.stop();
});

/** The records made before the fuzz, read by their owners. */
async function snapshot(): Promise<Record<string, unknown>> {
  const f = fixtures;
  const reads: [string, McpTestClient, ToolName, Record<string, unknown>][] = [
    ["post", alex, "view_post", { id: f.post }],
    ["post2", alex, "view_post", { id: f.post2 }],
    ["post status", alex, "get_post_status", { id: f.post }],
    ["batch", alex, "get_post_batch_status", { batchId: f.batch }],
    ["job", alex, "get_generation_job", { jobId: f.job }],
    ["profile", alex, "get_profile", { brandId: f.brand }],
    ["style", alex, "get_brand_style", { brandId: f.brand }],
    ["brands", alex, "list_brands", { workspaceId: f.workspace }],
    ["workspaces", alex, "get_workspaces", {}],
    ["other post", blake, "view_post", { id: f.otherPost }],
    ["other batch", blake, "get_post_batch_status", { batchId: f.otherBatch }],
    ["other profile", blake, "get_profile", { brandId: f.otherBrand }],
    ["other workspaces", blake, "get_workspaces", {}],
    ["partner profile", partner, "get_profile", { brandId: f.partnerBrand }],
  ];
  const out: Record<string, unknown> = {};
  for (const [label, c, tool, args] of reads) out[label] = await c.ok(tool, args);
  return out;
}

describe("MCP mock under hostile input", () => {
  it(`refuses ${minimumCases}+ schema-derived invalid requests, changes nothing and loses nothing`, async () => {
    const before = await snapshot();
    const cases = mcpFuzzCases(fixtures, seed, minimumCases);
    expect(cases.length).toBeGreaterThanOrEqual(minimumCases);
    // Every kind of invalid request the issue names is sent, several times.
    const kinds = countRequiredKinds(cases);
    for (const [kind, n] of Object.entries(kinds)) expect(n, `${kind}: ${JSON.stringify(kinds)}`).toBeGreaterThanOrEqual(3);
    expect(mcpFuzzCases(fixtures, seed, minimumCases).map((c) => c.label)).toEqual(cases.map((c) => c.label));

    // Count every handler of a tool that changes data returning normally while the fuzz runs.
    const writes: string[] = [];
    const original = { ...mock.gateway.handlers };
    for (const [name, handler] of Object.entries(original)) {
      mock.gateway.handlers[name] = (args, ctx) => {
        const result = handler(args, ctx);
        if (isWriteTool(name)) writes.push(name);
        return result;
      };
    }
    // …and every AI allowance spent (a refusal must not cost anything either).
    const spent: number[] = [];
    const spendAi = mock.gateway.profiles.spendAi;
    mock.gateway.profiles.spendAi = (brand, units) => {
      spent.push(units);
      spendAi(brand, units);
    };
    const logged = vi.spyOn(console, "error");
    const started = performance.now();
    let outcomes;
    try {
      outcomes = await runCases(mock.url, cases, checkMcpAnswer, { concurrency: 8 });
    } finally {
      Object.assign(mock.gateway.handlers, original);
      mock.gateway.profiles.spendAi = spendAi;
    }
    const seconds = (performance.now() - started) / 1000;
    const unexpected = logged.mock.calls.map((args) => args.map(String).join(" "));
    logged.mockRestore();

    const { byKind, byStatus, failures } = tally(outcomes);
    console.log(
      `MCP fuzz: ${outcomes.length} requests in ${seconds.toFixed(1)} s, ${failures.length} failures\n  the issue's kinds: ${JSON.stringify(kinds)}\n  by kind: ${JSON.stringify(byKind)}\n  by HTTP status: ${JSON.stringify(byStatus)}`,
    );
    expect(failures.map(describeFailure).slice(0, 20), `${failures.length} of ${outcomes.length} answers were no refusal`).toEqual([]);
    expect(unexpected, "the mock logged failures").toEqual([]);
    expect(writes, "tools that change data ran to the end").toEqual([]);
    expect(spent, "AI allowance was spent on refused calls").toEqual([]);
    expect(({} as Record<string, unknown>).polluted_by_fuzz, "Object.prototype was polluted").toBeUndefined();

    // Nothing lost or changed; the server still serves.
    expect(await snapshot()).toEqual(before);
  });

  it("treats names of Object.prototype members as unknown channels and refusal codes, never as internal errors", async () => {
    // A connect link for a channel named `constructor` used to be minted, and its page then answered 500.
    const link = await alex.fails("create_connect_link", { brandId: fixtures.brand, platform: "constructor" });
    expect(link.code).toBe("platform_not_supported");
    // A [refuse:<code>] marker whose code is an Object.prototype member used to fail the output schema.
    for (const code of ["constructor", "__proto__", "tostring"]) {
      const draft = await alex.ok("create_draft", { brandId: fixtures.brand, caption: `Prototype check [refuse:${code}]`, platforms: ["INSTAGRAM"], mediaIds: [fixtures.media] });
      const published = await alex.ok("publish_post_now", { id: draft.postId });
      const reason = published.publishResults!.find((r) => r.platform === "INSTAGRAM")!.reason;
      expect(reason).toMatchObject({ code: code.toLowerCase(), retryable: false });
      // Not retryable, so a second attempt is refused the same way.
      const again = await alex.ok("publish_post_now", { id: draft.postId });
      expect(again.publishResults!.find((r) => r.platform === "INSTAGRAM")!.reason).toMatchObject({ code: code.toLowerCase(), retryable: false });
    }
  });
});
