// Prism's default answer (no Prefer header) to a valid call of every operation, checked against the contract and
// against what seed 000 states for it: status codes, lifecycle states and the nulls that go with them. Prism
// serves the schema's first example unless the response names one, so the examples' order is part of the contract.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPrism, type PrismServer } from "../mock/prism.js";
import type { Brand, IdeaBatch } from "../generated/rest/types.js";
import { bodyOf, expectContract, type Answer } from "./support/rest-client.js";
import { track } from "./support/children.js";
import { hangGuardMs } from "./support/hang-guard.js";

let prism: PrismServer;
beforeAll(async () => {
  prism = await startPrism({ port: 0 });
  track(prism.process); // ended with the test process too (interrupted, killed), not only by afterAll
}, hangGuardMs);
afterAll(() => prism?.stop());

async function call(method: string, path: string, body?: unknown): Promise<Answer> {
  const res = await fetch(new URL(path, prism.url), {
    method,
    headers: { authorization: "Bearer test_team_a", ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const parsed: unknown = await res.json();
  const schema = expectContract(method, path, res.status, res.headers, parsed);
  return { status: res.status, headers: res.headers, body: parsed, schema };
}

/** What seed 000 says a brand in each state looks like. */
function expectBrandTrueToState(brand: Brand, sent: Record<string, unknown> = {}): void {
  if (brand.status === "reading") {
    for (const field of ["name", "language", "description", "archetype"] as const) if (!(field in sent)) expect(brand[field], `reading brand: ${field}`).toBeNull();
    expect(brand.offerings).toEqual([]);
  } else if (brand.status === "ready") {
    for (const field of ["name", "language", "description"] as const) expect(brand[field], `ready brand: ${field}`).not.toBeNull();
    expect(brand.archetype).not.toBeNull();
  } else expect(brand.status).toBe("failed");
}

/** What seed 000 says a batch in each state looks like. */
function expectBatchTrueToState(batch: IdeaBatch): void {
  if (batch.status === "thinking") expect(batch).toMatchObject({ data: [], left_out: [], error: null, done_at: null });
  else if (batch.status === "done") {
    expect(batch.error).toBeNull();
    expect(Date.parse(batch.done_at!)).toBeGreaterThanOrEqual(Date.parse(batch.created_at));
  } else {
    expect(batch.status).toBe("failed");
    expect(batch.error).not.toBeNull();
  }
}

describe("Prism's default answers are true to the seed", () => {
  it("POST /v1/brands: 201 with a brand reading, name, language, description and archetype null, no offerings", async () => {
    const r = await call("POST", "/v1/brands", { website: "https://www.harbourloaf.ie" });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ status: "reading", name: null, language: null, description: null, archetype: null, offerings: [] });
  });

  it("GET and PATCH /v1/brands/{id}: 200 with a brand whose fields fit its state", async () => {
    const got = await call("GET", "/v1/brands/brand_7Hq2LmX9c");
    expect(got.status).toBe(200);
    expectBrandTrueToState(got.body);
    const patched = await call("PATCH", "/v1/brands/brand_7Hq2LmX9c", { rules: { always: ["Say it is baked that morning."] } });
    expect(patched.status).toBe(200);
    expectBrandTrueToState(patched.body);
  });

  it("POST /v1/ideas: 202 with a batch thinking, data and left_out empty, error and done_at null", async () => {
    const r = await call("POST", "/v1/ideas", { brand: "brand_7Hq2LmX9c" });
    expect(r.status).toBe(202);
    expect(r.body).toMatchObject({ status: "thinking", data: [], left_out: [], error: null, done_at: null });
  });

  it("GET /v1/ideas/{id}: 200 with a batch whose fields fit its state", async () => {
    const r = await call("GET", "/v1/ideas/batch_3fK8wQz1R");
    expect(r.status).toBe(200);
    expectBatchTrueToState(r.body);
  });

  it("POST /v1/feedback: 201 with the feedback record", async () => {
    const r = await call("POST", "/v1/feedback", { idea: "idea_4Rb8Jc6Lw", outcome: "posted" });
    expect(r.status).toBe(201);
    expect(r.body.id).toMatch(/^fb_/);
  });

  it("POST /v1/predictions: 200 with every draft ranked once", async () => {
    const r = await call("POST", "/v1/predictions", { brand: "brand_7Hq2LmX9c", drafts: [{ text: "Warm bread at seven.", format: "image" }, { text: "Buns.", format: "text" }] });
    expect(r.status).toBe(200);
    const ranks = bodyOf(r, "Prediction").data.map((d) => d.rank).sort();
    expect(ranks).toEqual(ranks.map((_, i) => i + 1));
  });
});
