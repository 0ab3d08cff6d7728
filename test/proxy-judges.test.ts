// The judges on exchanges written by hand, for what the mocks and mutants do not show: MCP output open to
// additions (a new field or enum value is a note, a wrong type a violation), a settled batch that unsettles, a
// brand whose terminal state comes back to reading, a batch asked for with SSE-framed answers, and what the seeds
// leave open (drift from inferred rules and forms, a PATCH answer, optional item fields, priming events).
import { describe, expect, it } from "vitest";
import { judgeMcp } from "../proxy/mcp-judge.js";
import { McpState } from "../proxy/mcp-state.js";
import { judgeRest } from "../proxy/rest-judge.js";
import { RestState } from "../proxy/rest-state.js";
import type { Exchange } from "../proxy/types.js";
import { answer, batchStatus, brand, call } from "./support/judge-fixtures.js";

let seq = 0;
const exchange = (protocol: "rest" | "mcp", method: string, path: string, request: unknown, status: number, response: unknown, contentType = "application/json"): Exchange => ({
  protocol,
  seq: ++seq,
  method,
  path,
  requestHeaders: { authorization: "Bearer [redacted]", ...(request === undefined ? {} : { "content-type": "application/json" }) },
  requestText: request === undefined ? "" : JSON.stringify(request),
  requestTruncated: false,
  status,
  responseHeaders: { "content-type": contentType },
  responseText: typeof response === "string" ? response : JSON.stringify(response),
  responseTruncated: false,
  ms: 2,
});

const statusCall = (data: unknown, state: McpState, sse = false) => {
  const body = answer(data);
  const text = sse ? `event: message\ndata: ${JSON.stringify(body)}\n\n` : body;
  return judgeMcp(exchange("mcp", "POST", "/mcp", call("get_post_batch_status", { batchId: "b5e3d2c1-7a90-4f18-b6e2-0d4c9a8f1e77" }), 200, text, sse ? "text/event-stream" : "application/json"), state);
};
const rulesOf = (v: { violations: { rules: string[] }[] }) => v.violations.flatMap((x) => x.rules);

describe("MCP judge", () => {
  it("takes a new field and a new enum value as notes, a wrong type as a violation", () => {
    const state = new McpState();
    const additions = statusCall(batchStatus({ brandNewField: 1, items: [{ ...batchStatus({}).items[0], status: "created", hasMedia: true }], warnings: [] }), state);
    expect(additions.violations).toEqual([]);
    const newValue = statusCall(batchStatus({ status: "archived", settled: false, extra: { deep: true } }), new McpState());
    expect(newValue.violations.filter((v) => v.rules.includes("result-matches-output-schema"))).toEqual([]);
    expect(newValue.notes.join()).toMatch(/does not list \(allowed\)/);
    const wrongType = statusCall(batchStatus({ requestedCount: "1" }), new McpState());
    expect(rulesOf(wrongType)).toContain("result-matches-output-schema");
  });

  it("reports a settled batch that unsettles, and a requestedCount that changes, from SSE-framed answers", () => {
    const state = new McpState();
    expect(statusCall(batchStatus({}), state, true).violations).toEqual([]);
    const back = statusCall(batchStatus({ status: "generating", settled: false, createdCount: 0, pendingCount: 1, items: [{ index: 0, status: "generating", postId: null, title: null, platforms: [], error: null }] }), state, true);
    expect(rulesOf(back)).toEqual(["batch-stays-settled"]);
    const recount = statusCall(batchStatus({ requestedCount: 2, items: [...batchStatus({}).items, { ...batchStatus({}).items[0], index: 1 }], createdCount: 2 }), state, true);
    expect(rulesOf(recount)).toEqual(["batch-counts-consistent"]);
  });

  it("reports an answer that does not answer the request's id", () => {
    const v = judgeMcp(exchange("mcp", "POST", "/mcp", call("get_workspaces", {}, 5), 200, answer({ workspaces: [], totalCount: 0, truncated: false, needsUserChoice: false }, 6)), new McpState());
    expect(rulesOf(v)).toEqual(["stateless-requests"]);
  });
});

describe("REST judge", () => {

  it("reports a failed brand that reads as reading again, unless a new website started a new read", () => {
    const state = new RestState();
    const get = (b: unknown) => judgeRest(exchange("rest", "GET", "/v1/brands/brand_7Hq2LmX9c", undefined, 200, b), state);
    get(brand("failed"));
    expect(rulesOf(get(brand("reading")))).toContain("brand-terminal-stays");
    get(brand("ready"));
    const patched = judgeRest(exchange("rest", "PATCH", "/v1/brands/brand_7Hq2LmX9c", { website: "https://www.harbourloaf.co.uk" }, 200, { ...brand("reading"), website: "https://www.harbourloaf.co.uk" }), state);
    expect(rulesOf(patched)).not.toContain("brand-terminal-stays");
    expect(rulesOf(patched)).not.toContain("brand-patch-website-rereads");
  });

  // Seed 000: PATCH's body and the status during a re-read are not shown; a read shows only through its outcome.
  it("after a PATCH with a new website, takes any status until the read's outcome, whatever the PATCH answered", () => {
    const id = "brand_7Hq2LmX9c";
    const website = (n: number) => `https://www.harbourloaf${n}.ie`;
    const cases: [string, (n: number) => [number, unknown]][] = [
      ["an empty answer (204)", () => [204, ""]],
      ["only what changed", (n) => [200, { object: "brand", id, website: website(n) }]],
      ["the brand still ready", (n) => [200, { ...brand("ready"), website: website(n) }]],
    ];
    cases.forEach(([name, answer], n) => {
      const state = new RestState();
      // The lifecycle's rules only: the hand-written brands break others (a failed brand with an archetype).
      const lifecycle = (v: Parameters<typeof rulesOf>[0]) => rulesOf(v).filter((r) => r === "brand-terminal-stays" || r === "brand-patch-website-rereads");
      const get = (b: unknown) => lifecycle(judgeRest(exchange("rest", "GET", `/v1/brands/${id}`, undefined, 200, b), state));
      const patch = () => lifecycle(judgeRest(exchange("rest", "PATCH", `/v1/brands/${id}`, { website: website(n) }, ...answer(n)), state));
      get(brand("ready"));
      expect(patch(), name).toEqual([]);
      // Shown ready during the read, then its outcome: failed.
      expect([...get(brand("ready")), ...get(brand("failed"))], name).toEqual([]);
      // Once the outcome is seen, the brand is held to it again.
      expect(get(brand("reading")), name).toContain("brand-terminal-stays");
      // A read shown as reading that ends ready is an outcome too.
      get(brand("ready"));
      patch();
      const again = { ...brand("ready"), website: website(n + 10) };
      judgeRest(exchange("rest", "PATCH", `/v1/brands/${id}`, { website: again.website }, 204, ""), state);
      expect([...get({ ...again, status: "reading" }), ...get(again)], name).toEqual([]);
      expect(get({ ...again, status: "failed" }), name).toContain("brand-terminal-stays");
    });
    // A brand the proxy first sees in a PATCH with a website (it started mid-session): its read may have begun.
    const state = new RestState();
    judgeRest(exchange("rest", "PATCH", `/v1/brands/${id}`, { website: website(9) }, 200, { ...brand("ready"), website: website(9) }), state);
    const later = judgeRest(exchange("rest", "GET", `/v1/brands/${id}`, undefined, 200, { ...brand("failed"), website: website(9) }), state);
    expect(rulesOf(later)).not.toContain("brand-terminal-stays");
  });
});

describe("what the seeds leave open", () => {
  const sides = (v: { violations: { rules: string[]; side: string }[] }) => v.violations.map((x) => `${x.side} ${x.rules.join(",")}`);
  const post = (path: string, body: unknown, status: number, answer: unknown) => judgeRest(exchange("rest", "POST", path, body, status, answer), new RestState());

  it("a service breaking only inferred rules is drift; a seed rule stays the service's", () => {
    // The feedback record's fields are our design (seed 000 shows no record): a bare answer is drift.
    const bare = post("/v1/feedback", { idea: "idea_3Kd9", outcome: "posted" }, 201, { object: "feedback", id: "fb_1" });
    expect(sides(bare).length).toBeGreaterThan(0);
    expect(sides(bare).filter((s) => !s.startsWith("drift "))).toEqual([]);
    // The 2,000-character description is the seed's own limit: accepting more is the service's violation.
    const long = post("/v1/brands", { name: "Harbour Loaf", description: "d".repeat(2001) }, 201, { ...brand("reading"), website: null });
    expect(sides(long)).toContain("service limit-description");
  });

  it("accepting a value only our inferred forms refuse is a note, not invalid-field-400", () => {
    for (const body of [
      { website: "https://www.harbourloaf.ie", country: "IRL" },
      { website: "https://www.harbourloaf.ie", language: "EN" },
      { name: "Harbour Loaf", description: "  " },
    ]) {
      const v = post("/v1/brands", body, 201, brand("reading"));
      expect(sides(v).filter((s) => s.includes("invalid-field-400")), JSON.stringify(body)).toEqual([]);
      expect(v.notes.join(), JSON.stringify(body)).toMatch(/drift: .*accepted a request only the contract's inferred forms refuse/);
    }
    // An id sent back as the service made it (opaque, no prefix form): judged by its outcome's branch only.
    const opaque = post("/v1/feedback", { idea: "3f2a-91", outcome: "posted" }, 201, { object: "feedback", id: "fb_1" });
    expect(sides(opaque).filter((s) => s.startsWith("service "))).toEqual([]);
    // A language that is no two letters breaks the seed too: the service's violation.
    expect(sides(post("/v1/brands", { website: "https://www.harbourloaf.ie", language: "english" }, 201, brand("reading"))).join()).toMatch(/^service /);
  });

  it("a 404 to a request with a session id the service ended is the client's; without one it is the service's", () => {
    const headers = { authorization: "Bearer [redacted]", "content-type": "application/json", accept: "application/json, text/event-stream" };
    const refused = (extra: Record<string, string>) => judgeMcp({ ...exchange("mcp", "POST", "/mcp", call("get_workspaces", {}), 404, ""), requestHeaders: { ...headers, ...extra } }, new McpState());
    const stale = refused({ "mcp-session-id": "s-1" });
    expect(stale.violations).toEqual([]);
    expect(stale.clientFault).toMatch(/^session: the service knows no session "s-1"/);
    expect(rulesOf(refused({}))).toEqual(["stateless-requests"]);
  });

  it("an SSE priming event (an id and a retry, no data) is no message", () => {
    const text = `: opened\n\nid: 0\nretry: 1000\ndata:\n\nid: 1\nevent: message\ndata: ${JSON.stringify(answer({ workspaces: [], totalCount: 0, truncated: false, needsUserChoice: false }))}\n\n`;
    const v = judgeMcp(exchange("mcp", "POST", "/mcp", call("get_workspaces", {}), 200, text, "text/event-stream"), new McpState());
    expect(v.violations).toEqual([]);
  });

  it("holds imagesPendingCount against the items only when each created one states imagePending", () => {
    const item = batchStatus({}).items[0]!;
    const quiet = statusCall(batchStatus({ imagesPendingCount: 1 }), new McpState());
    expect(rulesOf(quiet)).not.toContain("settled-copy-only");
    const stated = statusCall(batchStatus({ imagesPendingCount: 1, items: [{ ...item, imagePending: false }] }), new McpState());
    expect(rulesOf(stated)).toContain("settled-copy-only");
  });
});
