// The gateway mock's triggers for situations no caller can force (issue 16, area D): situation tokens for the
// common codes and upstream_<status>, a render that stays running, pictures held until a settled read, a batch
// that moves one phase per read, and slots failing with each item error code. The clock is advanced by hand.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMcpMock, type McpMock } from "../mock/mcp/server.js";
import { situationToken } from "../mock/mcp/tokens.js";
import { connectMcp, type McpTestClient } from "./support/mcp-client.js";

let mock: McpMock;
let alex: McpTestClient;
let harbour: string;

beforeAll(async () => {
  mock = await startMcpMock({ port: 0, timeScale: 1 });
  alex = await connectMcp(mock.url, "mcp_user");
  const ws = await alex.ok("get_workspaces", {});
  const list = await alex.ok("list_brands", { workspaceId: ws.workspaces.find((w) => w.slug === "harbour-bakery")!.id });
  harbour = list.brands[0]!.id;
});

afterAll(async () => {
  await alex?.close();
  await mock?.stop();
});

describe("situation tokens", () => {
  it("answer their common code on every call (writes_disabled on writes only), with the catalogue's retryable", async () => {
    expect(situationToken("mcp_fails_bad_request")).toBeUndefined();
    expect(situationToken("mcp_fails_partner_only")).toBeUndefined();
    expect(situationToken("mcp_fails_upstream_200")).toBeUndefined();
    const failing = await connectMcp(mock.url, "mcp_fails_internal_error");
    const disabled = await connectMcp(mock.url, "mcp_fails_writes_disabled");
    const upstream = await connectMcp(mock.url, "mcp_fails_upstream_409");
    try {
      expect(await failing.fails("get_workspaces", {})).toMatchObject({ code: "internal_error", retryable: true });
      expect((await disabled.ok("get_workspaces", {})).workspaces.length).toBeGreaterThan(0);
      expect(await disabled.fails("create_draft", { brandId: harbour, caption: "Never made." })).toMatchObject({ code: "writes_disabled", retryable: false });
      expect(await upstream.fails("get_workspaces", {})).toMatchObject({ code: "upstream_409", retryable: false });
      // Arguments are still checked first: a schema violation is refused before the situation answers.
      expect((await failing.call("get_profile", { brandId: 42 })).data).toBeUndefined();
    } finally {
      await Promise.all([failing.close(), disabled.close(), upstream.close()]);
    }
  });
});

describe("renders and pictures", () => {
  it("[render-stuck] keeps a render running until its post is deleted, refusing another with its jobId", async () => {
    const draft = await alex.ok("create_draft", { brandId: harbour, caption: "A draft for a stuck render." });
    const { jobId } = await alex.ok("regenerate_post_image", { postId: draft.id, prompt: "Anything [render-stuck]" });
    mock.clock.advance(3_600_000);
    expect((await alex.ok("get_generation_job", { jobId })).status).toBe("running");
    expect(await alex.fails("regenerate_post_image", { postId: draft.id })).toMatchObject({ code: "image_generation_in_progress", jobId });
    await alex.ok("delete_post", { id: draft.id });
    expect(await alex.ok("get_generation_job", { jobId })).toMatchObject({ status: "failed", error: { code: "generation_failed" } });
  });

  it("[pictures-held] keeps a batch's pictures rendering until it is read settled, and lands them by the next read", async () => {
    const { batchId } = await alex.ok("create_posts", { brandId: harbour, brief: "Pictures that wait [pictures-held]", count: 1 });
    mock.clock.advance(3_600_000);
    const settled = await alex.ok("get_post_batch_status", { batchId });
    expect(settled).toMatchObject({ settled: true, imagesPendingCount: 1 });
    const landed = await alex.ok("get_post_batch_status", { batchId });
    expect(landed).toMatchObject({ imagesPendingCount: 0 });
    expect(landed.items[0]).toMatchObject({ imagePending: false, hasMedia: true });
  });
});

describe("batches", () => {
  it("[stepwise] shows queued on the first read and generating on the second, whatever the clock", async () => {
    const { batchId } = await alex.ok("create_posts", { brandId: harbour, brief: "One phase per read [stepwise]", count: 2, includeImage: false });
    mock.clock.advance(3_600_000);
    expect(await alex.ok("get_post_batch_status", { batchId })).toMatchObject({ status: "queued", settled: false });
    expect(await alex.ok("get_post_batch_status", { batchId })).toMatchObject({ status: "generating", settled: false });
    expect(await alex.ok("get_post_batch_status", { batchId })).toMatchObject({ status: "ready", settled: true });
  });

  it("[item-fails:<code>] fails one slot per marker with that code and its retryable, in order", async () => {
    const brief = "Slots that fail [item-fails:platform_not_connected] [item-fails:internal_error] [item-fails:no_such_code]";
    const { batchId } = await alex.ok("create_posts", { brandId: harbour, brief, count: 4, includeImage: false });
    mock.clock.advance(3_600_000);
    const b = await alex.ok("get_post_batch_status", { batchId });
    expect(b).toMatchObject({ status: "partial", createdCount: 1, failedCount: 3 });
    expect(b.items.map((i) => [i.status, i.error?.code ?? null, i.error?.retryable ?? null])).toEqual([
      ["failed", "platform_not_connected", false],
      ["failed", "internal_error", true],
      ["failed", "internal_error", true],
      ["created", null, null],
    ]);
  });
});
