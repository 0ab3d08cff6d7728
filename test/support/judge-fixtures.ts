// Answers the judges' tests write by hand: a brand, a post batch's status, an MCP tools/call and its answer, and a
// REST exchange as the proxy records it.
import type { Exchange } from "../../proxy/types.js";

/** A REST brand with `status` (and `website`). */
export const brand = (status: string, website = "https://www.harbourloaf.ie") => ({
  object: "brand",
  id: "brand_7Hq2LmX9c",
  status,
  website,
  name: "Harbour Loaf",
  language: "en",
  country: "IE",
  description: "A bakery.",
  archetype: { name: "caregiver", rationale: "It cares." },
  offerings: [],
  rules: { always: [], never: [] },
  created_at: "2026-11-10T09:00:00Z",
});

/** get_post_batch_status's data for a settled batch of one created post, with `over` changed. */
export const batchStatus = (over: Record<string, unknown>) => ({
  batchId: "b5e3d2c1-7a90-4f18-b6e2-0d4c9a8f1e77",
  brandId: "4f1c2b9e-5d0a-4c1e-9a55-3f7f0d6b2a11",
  companyId: "c7d1a3f0-2b64-4e9a-8f15-6a0c9e4b7d22",
  status: "ready",
  settled: true,
  requestedCount: 1,
  createdCount: 1,
  failedCount: 0,
  pendingCount: 0,
  items: [{ index: 0, status: "created", postId: "7c2e9a14-3b5d-4f0e-8a61-2d9c4b7e1f30", title: "Autumn", platforms: ["INSTAGRAM"], error: null }],
  appOrigin: "https://app.example.com",
  ...over,
});
export const call = (name: string, args: Record<string, unknown>, id = 1) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } });
export const answer = (data: unknown, id = 1) => ({ jsonrpc: "2.0", id, result: { content: [{ type: "text", text: JSON.stringify(data) }], structuredContent: { data } } });

/** A REST exchange as the proxy records it (a token sent and echoed), for the recorder's and reports' tests. */
export const restExchange = (seq: number, over: Partial<Exchange> = {}): Exchange => ({
  protocol: "rest",
  seq,
  method: "GET",
  path: "/v1/brands/brand_1",
  requestHeaders: { authorization: "Bearer secret-token-abcdef" },
  requestText: "",
  requestTruncated: false,
  status: 200,
  responseHeaders: { "content-type": "application/json" },
  responseText: '{"echo":"secret-token-abcdef"}',
  responseTruncated: false,
  ms: 3,
  ...over,
});
