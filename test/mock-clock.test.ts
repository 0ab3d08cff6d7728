// The mocks' clock: "now" follows the wall clock, the time scale shrinks only background work, validity windows
// stay in real time, and advance/freeze move now and pending work together. The wall clock is simulated (a
// `realNow` that stands still until a test moves it) so "ten minutes of running" takes no time and no verdict
// depends on how fast the host runs the requests in between.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClock, holdable } from "../mock/clock.js";
import { startRestMock, type RestMock } from "../mock/rest/server.js";
import { readDurationMs } from "../mock/rest/brands.js";
import { batchDurationMs } from "../mock/rest/ideas.js";
import { startMcpMock, type McpMock } from "../mock/mcp/server.js";
import { client, type Call } from "./support/rest-client.js";
import { connectMcp } from "./support/mcp-client.js";

const minute = 60_000;

/** A wall clock that only tests move: it starts at the real now and stands still in between. */
function simulatedWall() {
  let now = Date.now();
  return { now: () => now, run: (ms: number) => void (now += ms) };
}

describe("createClock", () => {
  it("follows the wall clock whatever the time scale; scales work, not validity windows", () => {
    const wall = simulatedWall();
    const clock = createClock({ timeScale: 0.01, realNow: wall.now });
    wall.run(10 * minute);
    expect(clock.now()).toBe(wall.now());
    expect(clock.work(5 * minute)).toBe(3_000);
    expect(clock.window(30 * minute)).toBe(30 * minute);
    expect(createClock({ timeScale: 0.01, scaleWindows: true }).window(30 * minute)).toBe(18_000);
  });

  it("advance moves now forward; freeze holds it; unfreeze resumes from where it was held; resync goes back to the wall", () => {
    let wall = 1_000_000;
    const clock = createClock({ timeScale: 0.5, realNow: () => wall });
    clock.advance(5_000);
    expect(clock.now()).toBe(1_005_000);
    clock.freeze();
    wall += 60_000;
    expect(clock.now()).toBe(1_005_000);
    expect(clock.frozen).toBe(true);
    clock.advance(1_000);
    expect(clock.now()).toBe(1_006_000);
    clock.unfreeze();
    wall += 2_000;
    expect(clock.now()).toBe(1_008_000);
    clock.resync();
    expect(clock.now()).toBe(wall);
    expect(() => clock.advance(-1)).toThrow(RangeError);
  });

  it("holdable: one instant for the whole of a hold (nested ones too), the clock running underneath", () => {
    let wall = 2_000_000;
    const base = createClock({ timeScale: 0.5, realNow: () => wall });
    const clock = holdable(base);
    const seen = clock.hold(() => {
      const first = clock.now();
      wall += 7;
      clock.advance(3);
      const inner = clock.hold(() => clock.now());
      return [first, inner, clock.now(), Date.parse(clock.iso())];
    });
    expect(seen).toEqual([2_000_000, 2_000_000, 2_000_000, 2_000_000]);
    expect(clock.now()).toBe(2_000_010);
    expect(base.now()).toBe(2_000_010);
    expect(clock.work(10)).toBe(5);
    expect(() => clock.hold(() => {
      throw new Error("boom");
    })).toThrow("boom");
    wall += 1;
    expect(clock.now()).toBe(2_000_011);
  });
});

describe("REST reference at --time-scale 0.01", () => {
  const wall = simulatedWall();
  let mock: RestMock;
  let call: Call;
  beforeAll(async () => {
    mock = await startRestMock({ clock: createClock({ timeScale: 0.01, realNow: wall.now }), seed: "clock" });
    call = client(mock);
  });
  afterAll(() => mock.stop());

  it("stamps a new brand with the wall clock's time after ten minutes of running", async () => {
    wall.run(10 * minute);
    const brand = (await call("POST", "/v1/brands", { body: { website: "https://www.clock-bakery.com" } })).body;
    expect(Date.parse(brand.created_at)).toBe(wall.now());
  });

  it("reads a brand and thinks a batch 100× faster, and accepts today's date", async () => {
    const brand = (await call("POST", "/v1/brands", { body: { website: "https://www.clock-cafe.com" } })).body;
    expect(brand.status).toBe("reading");
    wall.run(readDurationMs.max * 0.01);
    expect((await call("GET", `/v1/brands/${brand.id}`)).body.status).toBe("ready");
    const today = new Date(wall.now()).toISOString().slice(0, 10);
    const created = await call("POST", "/v1/ideas", { body: { brand: brand.id, date: today } });
    expect(created.status).toBe(202);
    wall.run(batchDurationMs.min * 0.01 - 100);
    expect((await call("GET", `/v1/ideas/${created.body.id}`)).body.status).toBe("thinking");
    wall.run(batchDurationMs.max * 0.01);
    const done = (await call("GET", `/v1/ideas/${created.body.id}`)).body;
    expect(done.status).toBe("done");
    // Timestamps are wall-clock times: the batch took seconds, as it did.
    expect(Date.parse(done.done_at) - Date.parse(done.created_at)).toBeLessThanOrEqual(batchDurationMs.max * 0.01);
  });
});

describe("MCP gateway mock at --time-scale 0.01", () => {
  const wall = simulatedWall();
  let mock: McpMock;
  beforeAll(async () => {
    mock = await startMcpMock({ clock: createClock({ timeScale: 0.01, realNow: wall.now }) });
  });
  afterAll(() => mock.stop());

  it("keeps a connect link valid for 30 real minutes after ten minutes of running", async () => {
    wall.run(10 * minute);
    const partner = await connectMcp(mock.url, "mcp_partner");
    try {
      const made = await partner.ok("create_profile", { externalId: "clock-1", name: "Clock Co", websiteUrl: "https://clock.example.com" });
      const link = await partner.ok("create_connect_link", { brandId: made.brandId });
      expect(Date.parse(link.expiresAt ?? "")).toBe(wall.now() + 30 * minute);
      // Twenty-nine real minutes later the link still works.
      wall.run(29 * minute);
      const page = await fetch(link.url, { redirect: "manual" });
      expect(page.status).toBe(200);
    } finally {
      await partner.close();
    }
  });
});
