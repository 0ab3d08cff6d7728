// The stateful REST reference honours `Prefer: code=NNN` and `Prefer: example=NAME` as Prism does: the contract's
// own answer for that status or that named example (with its declared headers), after authentication and without
// touching state; a preference the contract has no answer for is refused 400 with what it lists.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import openapi from "../generated/openapi/openapi.json" with { type: "json" };
import { startRestMock, type RestMock } from "../mock/rest/server.js";

const doc = openapi as any;
const example = (path: string, method: string, code: number, name: string) => {
  const r = doc.paths[path][method].responses[code];
  const response = r.$ref ? doc.components.responses[r.$ref.split("/").pop()] : r;
  return response.content["application/json"].examples[name].value;
};

let rest: RestMock;
beforeAll(async () => {
  rest = await startRestMock({ port: 0, timeScale: 0.001 });
});
afterAll(() => rest?.stop());

async function send(method: string, path: string, prefer?: string, body?: unknown, token: string | null = "test_team_a") {
  const res = await fetch(new URL(path, rest.url), {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(prefer ? { prefer } : {}), ...(body ? { "content-type": "application/json" } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, headers: res.headers, body: await res.json() };
}

describe("Prefer on the REST reference", () => {
  it("code= answers the contract's example for that status, with its declared headers", async () => {
    const missing = await send("GET", "/v1/brands/brand_anything", "code=404");
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual(example("/v1/brands/{brand_id}", "get", 404, "not_found"));
    const notReady = await send("POST", "/v1/ideas", "code=409", { brand: "brand_x" });
    expect(notReady.status).toBe(409);
    expect(notReady.body.error.code).toBe("brand_not_ready");
    const limited = await send("GET", "/v1/brands/brand_x", "code=429");
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("30");
    const refused = await send("GET", "/v1/brands/brand_x", "code=401");
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toMatch(/^Bearer /);
    // No example on the response itself: the schema's.
    const failed = await send("GET", "/v1/ideas/batch_x", "code=500");
    expect(failed.status).toBe(500);
    expect(failed.body.error.type).toBe("server_error");
  });

  it("example= answers that named example, alone or with code=", async () => {
    const ready = await send("GET", "/v1/brands/brand_x", "example=ready");
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual(example("/v1/brands/{brand_id}", "get", 200, "ready"));
    const done = await send("GET", "/v1/ideas/batch_x", 'code=200, example="done"');
    expect(done.body).toEqual(example("/v1/ideas/{batch_id}", "get", 200, "done"));
  });

  it("refuses what the contract has no answer for, saying what it has", async () => {
    const teapot = await send("GET", "/v1/brands/brand_x", "code=418");
    expect(teapot.status).toBe(400);
    expect(teapot.body.error).toMatchObject({ type: "invalid_request", code: "prefer_unavailable" });
    expect(teapot.body.error.message).toContain("lists 200, 400, 401, 403, 404, 429, 500");
    const unnamed = await send("GET", "/v1/brands/brand_x", "example=nope");
    expect(unnamed.status).toBe(400);
    expect(unnamed.body.error.message).toMatch(/no example of that name .* it has reading \(200\), ready \(200\)/);
    expect((await send("GET", "/v1/brands/brand_x", "code=abc")).body.error.code).toBe("invalid_prefer");
  });

  it("authenticates first and leaves state untouched", async () => {
    expect((await send("GET", "/v1/brands/brand_x", "code=200", undefined, null)).status).toBe(401);
    const created = await send("POST", "/v1/brands", "code=201", { website: "https://www.harbourloaf.ie" });
    expect(created.status).toBe(201);
    expect(created.body).toEqual(example("/v1/brands", "post", 201, "created"));
    // The example was answered, not made: the reference does not know its id.
    expect((await send("GET", `/v1/brands/${created.body.id}`)).status).toBe(404);
    // Other headers than Prefer leave the reference stateful as ever.
    const real = await send("POST", "/v1/brands", undefined, { website: "https://www.harbourloaf.ie" });
    expect((await send("GET", `/v1/brands/${real.body.id}`)).status).toBe(200);
  });
});
