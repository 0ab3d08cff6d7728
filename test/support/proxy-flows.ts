// Full client flows of both protocols for the proxy tests: plain `fetch` against the REST API and the MCP SDK's
// Client against the gateway, each through whatever URL it is given (the proxy's), moving the mocks' virtual
// clocks by hand so lifecycles finish without waiting. A flow never throws on a bad answer (a mutant behind the
// proxy gives many): it records what went wrong and carries on, so the proxy sees every exchange.
import { randomUUID } from "node:crypto";
import type { Clock } from "../../mock/clock.js";
import type { ToolOutputs } from "../../generated/mcp/types.js";
import { connectMcp, type McpTestClient } from "./mcp-client.js";
import { batchTime, readTime } from "./rest-client.js";

export interface FlowResult {
  /** Calls that failed in a way the clean mocks never produce (a thrown SDK error, a missing id). */
  surprises: string[];
  /** How many requests the flow sent on purpose that the contract refuses (client violations expected). */
  invalidSent: number;
}

interface Answer {
  status: number;
  body: any;
}

/** The REST flow: brands, batches, feedback, predictions, the error paths, and (unless `valid`) invalid requests. */
export async function restFlow(base: URL, clock: Clock, options: { valid?: boolean } = {}): Promise<FlowResult> {
  const surprises: string[] = [];
  let invalidSent = 0;
  const call = async (method: string, path: string, body?: unknown, token: string | null = "test_team_a"): Promise<Answer> => {
    const headers: Record<string, string> = { accept: "application/json" };
    if (token) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers["content-type"] = "application/json";
    const res = await fetch(new URL(path.slice(1), base), { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: res.status, body: parsed as any };
  };
  const expectStatus = (a: Answer, status: number, what: string) => {
    if (a.status !== status) surprises.push(`${what}: ${a.status} ${JSON.stringify(a.body)?.slice(0, 200)}`);
    return a;
  };

  // A brand from a website: reading, then ready (read twice: a terminal state stays).
  const brand = expectStatus(await call("POST", "/v1/brands", { website: "https://www.harbourloaf.ie", country: "IE" }), 201, "create brand").body;
  const brandId = String(brand?.id ?? "brand_missing");
  await call("GET", `/v1/brands/${brandId}`);
  clock.advance(readTime);
  await call("GET", `/v1/brands/${brandId}`);
  await call("GET", `/v1/brands/${brandId}`);
  await call("PATCH", `/v1/brands/${brandId}`, { country: "GB" });
  // A new website: a new read.
  await call("PATCH", `/v1/brands/${brandId}`, { website: "https://www.harbourloaf.co.uk" });
  clock.advance(readTime);
  await call("GET", `/v1/brands/${brandId}`);

  // A batch: thinking, then done (read twice).
  const batch = expectStatus(await call("POST", "/v1/ideas", { brand: brandId, count: 2, formats: ["image", "carousel"] }), 202, "create ideas").body;
  const batchId = String(batch?.id ?? "batch_missing");
  await call("GET", `/v1/ideas/${batchId}`);
  clock.advance(batchTime);
  const done = (await call("GET", `/v1/ideas/${batchId}`)).body;
  await call("GET", `/v1/ideas/${batchId}`);
  const ideaId = String(done?.data?.[0]?.id ?? batch?.data?.[0]?.id ?? "idea_missing");
  await call("POST", "/v1/feedback", { idea: ideaId, outcome: "rejected", reason: "wrong_language" });
  await call("POST", "/v1/predictions", {
    brand: brandId,
    drafts: [
      { id: "draft-1", text: "Christmas cake orders close on 15 December.", format: "image" },
      { id: "draft-2", text: "New: rye sourdough every Saturday.", format: "text" },
      { id: "draft-3", text: "Meet the 4 a.m. bakers.", format: "video" },
    ],
  });

  // A batch that fails, a 500, a brand whose read fails.
  const failing = (await call("POST", "/v1/ideas", { brand: brandId, focus: "Autumn [fail]" })).body;
  clock.advance(batchTime);
  await call("GET", `/v1/ideas/${failing?.id ?? "batch_missing"}`);
  await call("POST", "/v1/ideas", { brand: brandId, focus: "Autumn [server-error]" });
  const closed = (await call("POST", "/v1/brands", { website: "https://closed.invalid" })).body;
  // Not ready yet: 409.
  await call("POST", "/v1/ideas", { brand: closed?.id ?? "brand_missing" });
  clock.advance(readTime);
  await call("GET", `/v1/brands/${closed?.id ?? "brand_missing"}`);

  // Errors: unknown ids, no token, another team, the rate limit.
  await call("GET", "/v1/brands/brand_nothingHere");
  await call("POST", "/v1/ideas", { brand: "brand_nothingHere" });
  await call("POST", "/v1/feedback", { idea: "idea_nothingHere", outcome: "rejected" });
  await call("GET", `/v1/brands/${brandId}`, undefined, null);
  await call("GET", `/v1/brands/${brandId}`, undefined, "test_expired");
  await call("GET", `/v1/brands/${brandId}`, undefined, "test_team_b");
  for (let i = 0; i < 5; i++) await call("GET", `/v1/brands/${brandId}`, undefined, "test_rate_limited");

  if (!options.valid) {
    // Requests the contract refuses: each must be answered 400 (the proxy reports the client for sending it).
    const invalid: [string, string, unknown][] = [
      ["POST", "/v1/ideas", { brand: brandId, count: 11 }],
      ["POST", "/v1/brands", { website: "http://www.harbourloaf.ie" }],
      ["POST", "/v1/brands", { name: "Harbour Loaf", description: "x".repeat(2001) }],
      ["POST", "/v1/ideas", { brand: brandId, formats: ["hologram"] }],
    ];
    for (const [method, path, body] of invalid) {
      invalidSent++;
      await call(method, path, body);
    }
  }
  return { surprises, invalidSent };
}

/** Runs `f`, recording a throw as a surprise (a mutant may make the SDK client refuse an answer). */
async function attempt<T>(surprises: string[], what: string, f: () => Promise<T>): Promise<T | undefined> {
  try {
    return await f();
  } catch (err) {
    surprises.push(`${what}: ${(err as Error).message.slice(0, 200)}`);
    return undefined;
  }
}

/** The MCP flow: a user's posts (batch to settled, view, approve), a partner's profile lifecycle, refusals. */
export async function mcpFlow(url: URL, clock: Clock, options: { valid?: boolean } = {}): Promise<FlowResult> {
  const surprises: string[] = [];
  let invalidSent = 0;
  const expectedThrows: string[] = [];
  const alex = await connectMcp(url, "mcp_user");
  const partner = await connectMcp(url, "mcp_partner");
  const clients: McpTestClient[] = [alex, partner];
  try {
    const ws = await attempt(surprises, "get_workspaces", () => alex.ok("get_workspaces", {}));
    await attempt(surprises, "get_workspaces limit 1", () => alex.ok("get_workspaces", { limit: 1 }));
    const workspace = ws?.workspaces?.find((w) => w.slug === "harbour-bakery") ?? ws?.workspaces?.[0];
    const list = await attempt(surprises, "list_brands", () => alex.ok("list_brands", { workspaceId: workspace?.id ?? randomUUID() }));
    const brandId = String(list?.brands?.[0]?.id ?? randomUUID());
    await attempt(surprises, "get_profile", () => alex.ok("get_profile", { brandId }));
    const batch = await attempt(surprises, "create_posts", () => alex.ok("create_posts", { brandId, brief: "Our new autumn menu: pumpkin sourdough and spiced apple buns.", count: 2 }));
    let status: ToolOutputs["get_post_batch_status"] | undefined;
    for (let i = 0; i < 120 && batch?.batchId; i++) {
      status = await attempt(surprises, "get_post_batch_status", () => alex.ok("get_post_batch_status", { batchId: batch.batchId }));
      if (!status || (status.settled && (status.imagesPendingCount ?? 0) === 0)) break;
      clock.advance(15_000);
    }
    if (batch?.batchId) await attempt(surprises, "get_post_batch_status again", () => alex.ok("get_post_batch_status", { batchId: batch.batchId }));
    const postId = status?.items?.find((i) => i.status === "created")?.postId;
    if (postId) {
      const post = await attempt(surprises, "view_post", () => alex.ok("view_post", { id: postId }));
      if (post?.contentDigest) await attempt(surprises, "approve_post", () => alex.ok("approve_post", { id: postId, contentDigest: post.contentDigest }));
    } else surprises.push("the batch made no post");
    // Failures in the envelope.
    await attempt(surprises, "view_post unknown", () => alex.fails("view_post", { id: randomUUID() }));
    await attempt(surprises, "get_post_batch_status unknown", () => alex.fails("get_post_batch_status", { batchId: randomUUID() }));
    // A tool nobody has: refused as an unknown tool (the SDK may throw or answer isError).
    await alex.client.callTool({ name: "no_such_tool", arguments: {} }).catch(() => expectedThrows.push("no_such_tool"));

    // A partner's profile: made, repeated, deactivated, deleted, deleted again.
    const externalId = `crm-${randomUUID()}`;
    const made = await attempt(surprises, "create_profile", () => partner.ok("create_profile", { websiteUrl: "https://www.harbourbakery.co.uk", name: "Harbour Bakery", externalId }));
    await attempt(surprises, "create_profile repeated", () => partner.ok("create_profile", { websiteUrl: "https://www.harbourbakery.co.uk", name: "Harbour Bakery", externalId }));
    const profile = String(made?.brandId ?? randomUUID());
    await attempt(surprises, "deactivate_profile", () => partner.ok("deactivate_profile", { brandId: profile }));
    clock.advance(10 * 60_000);
    await attempt(surprises, "deactivate_profile again", () => partner.ok("deactivate_profile", { brandId: profile }));
    for (let i = 0; i < 3; i++) {
      await attempt(surprises, `delete_profile ${i + 1}`, () => partner.ok("delete_profile", { brandId: profile, confirm: true }));
      clock.advance(24 * 60 * 60_000);
    }

    // Scopes and tokens: a read-only token reads, cannot write; an expired token is refused with 401.
    const readonly = await attempt(surprises, "connect read-only", () => connectMcp(url, "mcp_readonly"));
    if (readonly) {
      clients.push(readonly);
      await attempt(surprises, "read-only get_workspaces", () => readonly.ok("get_workspaces", {}));
      await readonly.call("create_posts", { brandId, brief: "Read-only tries to write.", count: 1 }).catch(() => expectedThrows.push("read-only write"));
    }
    const expired = await connectMcp(url, "mcp_expired").catch(() => undefined);
    if (expired) {
      clients.push(expired);
      surprises.push("the expired token was accepted");
    }

    if (!options.valid) {
      // Arguments the input schemas refuse: each refused before the tool runs (the proxy reports the client).
      const invalid: [string, Record<string, unknown>][] = [
        ["create_posts", { brandId, brief: "Zero posts.", count: 0 }],
        ["view_post", { id: postId ?? randomUUID(), extra: true }],
        ["delete_profile", { brandId: profile, confirm: false }],
      ];
      for (const [name, args] of invalid) {
        invalidSent++;
        // delete_profile is a partner's tool: only a partner token sees it.
        const who = name === "delete_profile" ? partner : alex;
        await who.client.callTool({ name, arguments: args }).catch(() => expectedThrows.push(name));
      }
    }
  } finally {
    await Promise.all(clients.map((c) => c.close().catch(() => {})));
  }
  return { surprises, invalidSent };
}
