// The mocks' control surface (/__control/ on each mock and the CLI flags that call it) and their request log.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { mockCommand } from "../cli/mock.js";
import { createClock } from "../mock/clock.js";
import { createControl, parseDuration } from "../mock/control.js";
import { startMcpMock, type McpMock } from "../mock/mcp/server.js";
import { startRestMock, type RestMock } from "../mock/rest/server.js";
import { loggedPath } from "../mock/request-log.js";
import { restTestTokens } from "../mock/rest/tokens.js";
import { mcpTestTokens } from "../mock/mcp/tokens.js";
import { client, type Call } from "./support/rest-client.js";
import { connectMcp } from "./support/mcp-client.js";
import { hangGuardMs } from "./support/hang-guard.js";

const lines: string[] = [];
let rest: RestMock;
let mcp: McpMock;
let call: Call;

/** The mocks' wall clock: it stands still unless a test moves it, so no assertion depends on the host's speed. */
let wall = Date.now();

beforeAll(async () => {
  // Started together, as the CLI does: one control, so a reset or an advance acts on both.
  const control = createControl(createClock({ timeScale: 1, realNow: () => wall }));
  rest = await startRestMock({ port: 0, control, log: (l) => lines.push(l) });
  mcp = await startMcpMock({ port: 0, control, log: (l) => lines.push(l) });
  call = client(rest);
});
afterAll(async () => {
  await rest.stop();
  await mcp.stop();
});

const post = (base: URL, path: string) => fetch(new URL(path, base), { method: "POST" });
const clockOf = async (base: URL) => (await (await fetch(new URL("/__control/clock", base))).json()) as { now: string; frozen: boolean; timeScale: number };

describe("durations", () => {
  it("reads 90s, 10m, 1h30m, 2d, 500ms and bare milliseconds; refuses the rest", () => {
    expect(parseDuration("90s")).toBe(90_000);
    expect(parseDuration("1h30m")).toBe(5_400_000);
    expect(parseDuration("2d")).toBe(172_800_000);
    expect(parseDuration("500ms")).toBe(500);
    expect(parseDuration("1500")).toBe(1500);
    for (const bad of ["", "1x", "-5m", "m", "1h 30m", "Infinity"]) expect(parseDuration(bad), bad).toBeNull();
  });
});

describe("/__control/", () => {
  it("advance finishes due work and moves now; freeze holds now; reset drops both mocks' state and resyncs", async () => {
    const brand = (await call("POST", "/v1/brands", { body: { website: "https://www.control-bakery.com" } })).body;
    expect(brand.status).toBe("reading");
    const advanced = await post(rest.url, "/__control/advance?by=1m");
    expect(advanced.status).toBe(200);
    expect((await call("GET", `/v1/brands/${brand.id}`)).body.status).toBe("ready");
    // The MCP mock shares the clock: it sees the minute too.
    expect(Date.parse((await clockOf(mcp.url)).now)).toBe(wall + 60_000);

    expect((await post(mcp.url, "/__control/freeze")).status).toBe(200);
    const held = await clockOf(rest.url);
    expect(held.frozen).toBe(true);
    wall += 30_000;
    expect((await clockOf(rest.url)).now).toBe(held.now);
    expect((await post(rest.url, "/__control/unfreeze")).status).toBe(200);
    expect((await clockOf(rest.url)).frozen).toBe(false);

    const user = await connectMcp(mcp.url, "mcp_partner");
    const made = await user.ok("create_profile", { externalId: "control-1", name: "Control Co", websiteUrl: "https://control.example.com" });
    await user.close();
    expect((await post(mcp.url, "/__control/reset")).status).toBe(200);
    expect((await call("GET", `/v1/brands/${brand.id}`)).status).toBe(404);
    const after = await connectMcp(mcp.url, "mcp_partner");
    expect((await after.fails("get_profile", { brandId: made.brandId })).code).toBe("not_found");
    await after.close();
    expect(Date.parse((await clockOf(rest.url)).now)).toBe(wall);
  });

  it("answers mistakes in each mock's error shape", async () => {
    const bad = await post(rest.url, "/__control/advance?by=soon");
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toMatchObject({ type: "invalid_request", code: "invalid_duration", param: null });
    const badMcp = await post(mcp.url, "/__control/advance");
    expect(badMcp.status).toBe(400);
    expect(await badMcp.json()).toMatchObject({ error: "invalid_duration" });
    expect((await post(rest.url, "/__control/explode")).status).toBe(404);
    expect((await post(rest.url, "/__control/toString")).status).toBe(404);
    const get = await fetch(new URL("/__control/reset", mcp.url));
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
  });
});

describe("the request log", () => {
  it("has one line per request with time, mock, what, outcome and ms, and never a token", async () => {
    lines.length = 0;
    await call("POST", "/v1/brands", { body: { website: "https://www.log-bakery.com" } });
    await call("GET", "/v1/brands/brand_nope");
    // A client that puts its own token where the log shows what it asked for.
    await call("GET", "/v1/brands/test_team_a");
    const user = await connectMcp(mcp.url, "mcp_user");
    await user.ok("get_workspaces", {});
    await user.fails("get_profile", { brandId: "00000000-0000-4000-8000-000000000000" });
    await user.close();
    const expected = [
      / rest POST \/v1\/brands 201 /,
      / rest GET \/v1\/brands\/brand_nope 404 not_found /,
      / rest GET \/v1\/brands\/\[redacted\] 404 not_found /,
      / mcp tools\/call get_workspaces 200 ok /,
      / mcp tools\/call get_profile 200 not_found /,
      / mcp initialize 200 /,
    ];
    // A line is written when its answer's "close" event fires, which can come after the client has read the
    // answer: wait for the lines themselves, however long the host takes (a hang is the test's timeout).
    await vi.waitFor(() => {
      for (const re of expected) expect(lines).toContainEqual(expect.stringMatching(re));
    }, { timeout: hangGuardMs, interval: 10 });
    const line = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z (rest|mcp) \S+( \S+)* \d{3}( \S+)? \d+\.\dms$/;
    for (const l of lines) expect(l).toMatch(line);
    const all = lines.join("\n");
    for (const t of [...restTestTokens, ...mcpTestTokens]) expect(all).not.toContain(t.token);
    expect(loggedPath("/connect/abcdef123456?account=x")).toBe("/connect/…");
  });
});

describe("ideas-contract mock control flags", () => {
  it("advance, freeze and unfreeze mocks already running, and refuse bad input", async () => {
    const out = vi.spyOn(console, "log").mockImplementation(() => {});
    const err = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const before = Date.parse((await clockOf(mcp.url)).now);
      expect(await mockCommand(["--mcp-port", mcp.url.port, "--freeze", "--advance", "2h"])).toBe(0);
      const held = await clockOf(rest.url);
      expect(held.frozen).toBe(true);
      expect(Date.parse(held.now) - before).toBeGreaterThanOrEqual(2 * 3_600_000);
      expect(await mockCommand(["--mcp-port", mcp.url.port, "--unfreeze"])).toBe(0);
      expect((await clockOf(rest.url)).frozen).toBe(false);
      expect(await mockCommand(["--mcp-port", mcp.url.port, "--reset"])).toBe(0);
      expect(Date.parse((await clockOf(rest.url)).now)).toBe(wall);
      expect(await mockCommand(["--advance", "later"])).toBe(2);
      expect(await mockCommand(["--freeze", "--unfreeze"])).toBe(2);
      expect(await mockCommand(["--mcp-port", "1", "--reset"])).toBe(1);
      expect(err.mock.calls.flat().join("\n")).toMatch(/No mock answers at 127\.0\.0\.1:1/);
    } finally {
      out.mockRestore();
      err.mockRestore();
    }
  });

  it("print what a server that is not a mock answers escaped: it cannot recolour or forge a line", async () => {
    const forged = "\x1b[2J\nreset: now 2000-01-01T00:00:00.000Z\u2028\u202e";
    let status = 400;
    const other = http.createServer((_, res) => res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify({ error_description: forged, now: forged })));
    await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve));
    const out = vi.spyOn(console, "log").mockImplementation(() => {});
    const err = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const port = String((other.address() as AddressInfo).port);
      expect(await mockCommand(["--mcp-port", port, "--reset"])).toBe(1);
      status = 200;
      expect(await mockCommand(["--mcp-port", port, "--reset"])).toBe(0);
      const printed = [...err.mock.calls, ...out.mock.calls].flat().map(String);
      expect(printed).toEqual([String.raw`reset: 400 \u001b[2J\nreset: now 2000-01-01T00:00:00.000Z\u2028\u202e`, String.raw`reset: now \u001b[2J\nreset: now 2000-01-01T00:00:00.000Z\u2028\u202e`]);
    } finally {
      out.mockRestore();
      err.mockRestore();
      await new Promise((resolve) => other.close(resolve));
    }
  });
});
