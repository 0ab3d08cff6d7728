// Who may use /__control/: the run's control token, or a request from this machine a web page cannot forge. Every
// trick a page (or a rebinding domain) could use is refused in the mock's error shape and changes nothing: each
// attempt is a freeze, and the shared clock must still be running afterwards.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClock } from "../mock/clock.js";
import { controlTarget } from "../mock/control-guard.js";
import { createControl } from "../mock/control.js";
import { startMcpMock, type McpMock } from "../mock/mcp/server.js";
import { startRestMock, type RestMock } from "../mock/rest/server.js";
import { sendRawBytes } from "./support/fuzz.js";

let rest: RestMock;
let mcp: McpMock;
beforeAll(async () => {
  const control = createControl(createClock({ timeScale: 1 }));
  rest = await startRestMock({ port: 0, control });
  mcp = await startMcpMock({ port: 0, control });
});
afterAll(async () => {
  await rest.stop();
  await mcp.stop();
});

const mocks = () => [
  { name: "rest", origin: new URL(rest.url.origin), port: rest.url.port },
  { name: "mcp", origin: new URL(mcp.url.origin), port: mcp.url.port },
];

/** A raw POST (no client normalizes the target or the headers). */
const post = (origin: URL, target: string, headers: string[]) =>
  sendRawBytes(origin, `POST ${target} HTTP/1.1\r\n${headers.map((h) => `${h}\r\n`).join("")}Content-Length: 0\r\nConnection: close\r\n\r\n`, 30_000);

/**
 * The error shape each mock answers in. The MCP mock refuses a foreign Host or Origin before any route (its
 * DNS-rebinding rule), as a JSON-RPC error; what reaches its control surface is answered OAuth-style.
 */
function expectEnvelope(name: string, text: string, code: string): void {
  const body = JSON.parse(text);
  if (name === "rest") expect(body.error, text).toMatchObject({ type: expect.any(String), code, message: expect.any(String), param: null });
  else if ("jsonrpc" in body) expect(body, text).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32000, message: expect.stringMatching(/^Forbidden/) } });
  else expect(body, text).toMatchObject({ error: code, error_description: expect.any(String) });
}

describe("the control token", () => {
  it("is per run, shared by mocks started together, and returned to callers", async () => {
    expect(rest.controlToken).toMatch(/^ctl_[\w-]{20,}$/);
    expect(mcp.controlToken).toBe(rest.controlToken);
    const other = await startRestMock({ port: 0 });
    try {
      expect(other.controlToken).not.toBe(rest.controlToken);
    } finally {
      await other.stop();
    }
  });
});

describe("refused control requests act on nothing", () => {
  const tricks: [string, (port: string) => { target: string; headers: string[] }, number, string][] = [
    ["a foreign Origin", (p) => ({ target: "/__control/freeze", headers: [`Host: 127.0.0.1:${p}`, "Origin: https://evil.example"] }), 403, "foreign_origin"],
    ["a loopback Origin on another port", (p) => ({ target: "/__control/freeze", headers: [`Host: 127.0.0.1:${p}`, "Origin: http://localhost:5173"] }), 403, "foreign_origin"],
    ["Origin null", (p) => ({ target: "/__control/freeze", headers: [`Host: 127.0.0.1:${p}`, "Origin: null"] }), 403, "foreign_origin"],
    ["a foreign Origin with the token", (p) => ({ target: "/__control/freeze", headers: [`Host: 127.0.0.1:${p}`, "Origin: https://evil.example", `X-Control-Token: ${rest.controlToken}`] }), 403, "foreign_origin"],
    ["a rebinding Host", (p) => ({ target: "/__control/freeze", headers: [`Host: evil.example:${p}`] }), 403, "foreign_host"],
    ["a loopback Host on another port", () => ({ target: "/__control/freeze", headers: ["Host: 127.0.0.1:1"] }), 403, "foreign_host"],
    ["a cross-site fetch", (p) => ({ target: "/__control/freeze", headers: [`Host: 127.0.0.1:${p}`, "Sec-Fetch-Site: cross-site"] }), 403, "cross_site"],
    ["a wrong token", (p) => ({ target: "/__control/freeze", headers: [`Host: 127.0.0.1:${p}`, "X-Control-Token: ctl_guessed"] }), 403, "invalid_control_token"],
    ["/v1/../__control/freeze", (p) => ({ target: "/v1/../__control/freeze", headers: [`Host: 127.0.0.1:${p}`] }), 400, "non_canonical_path"],
    ["//__control/freeze", (p) => ({ target: "//__control/freeze", headers: [`Host: 127.0.0.1:${p}`] }), 400, "non_canonical_path"],
    ["/v1/%2e%2e/__control/freeze", (p) => ({ target: "/v1/%2e%2e/__control/freeze", headers: [`Host: 127.0.0.1:${p}`] }), 400, "non_canonical_path"],
    ["/%5f_control/freeze", (p) => ({ target: "/%5f_control/freeze", headers: [`Host: 127.0.0.1:${p}`] }), 400, "non_canonical_path"],
    ["/__control/%66reeze", (p) => ({ target: "/__control/%66reeze", headers: [`Host: 127.0.0.1:${p}`] }), 400, "non_canonical_path"],
    ["/__control/./freeze", (p) => ({ target: "/__control/./freeze", headers: [`Host: 127.0.0.1:${p}`] }), 400, "non_canonical_path"],
    ["an absolute-form target", (p) => ({ target: `http://127.0.0.1:${p}/__control/freeze`, headers: [`Host: 127.0.0.1:${p}`] }), 400, "non_canonical_path"],
  ];

  it.each(tricks)("%s", async (_label, make, status, code) => {
    for (const m of mocks()) {
      const { target, headers } = make(m.port);
      const r = await post(m.origin, target, headers);
      expect(r.status, `${m.name}: ${r.text}`).toBe(status);
      expectEnvelope(m.name, r.text, code);
      const clock = await fetch(new URL("/__control/clock", m.origin));
      expect((await clock.json()).frozen, m.name).toBe(false);
    }
  });
});

describe("accepted control requests", () => {
  it("from this machine with the own Host (any loopback name) and no Origin, or the own Origin", async () => {
    for (const m of mocks()) {
      for (const headers of [[`Host: 127.0.0.1:${m.port}`], [`Host: localhost:${m.port}`], [`Host: 127.0.0.1:${m.port}`, `Origin: http://127.0.0.1:${m.port}`, "Sec-Fetch-Site: same-origin"]]) {
        const r = await post(m.origin, "/__control/freeze", headers);
        expect(r.status, `${m.name} ${headers.join(" ")}: ${r.text}`).toBe(200);
        expect(JSON.parse(r.text).frozen).toBe(true);
        expect((await post(m.origin, "/__control/unfreeze", headers)).status).toBe(200);
      }
    }
  });

  it("with the run's token under any Host", async () => {
    for (const m of mocks()) {
      const r = await post(m.origin, "/__control/freeze", [`Host: mocks.internal:${m.port}`, `X-Control-Token: ${m.name === "rest" ? rest.controlToken : mcp.controlToken}`]);
      // The MCP mock refuses a Host off its list before any route (DNS-rebinding rule of the transport spec).
      if (m.name === "mcp") expect(r.status).toBe(403);
      else {
        expect(r.status, r.text).toBe(200);
        expect((await post(m.origin, "/__control/unfreeze", [`Host: 127.0.0.1:${m.port}`])).status).toBe(200);
      }
    }
  });
});

describe("controlTarget", () => {
  it("tells canonical control paths from tricks and from everything else", () => {
    expect(controlTarget("/__control/reset")).toBe("canonical");
    expect(controlTarget("/__control/advance?by=1h")).toBe("canonical");
    for (const t of ["/x/../__control/reset", "/__control//reset", "/__control/reset/", "/%255f_control/reset", "http://evil/__control/reset", "/__control/reset#x"])
      expect(controlTarget(t), t).toBe("trick");
    for (const t of ["/v1/brands", "/mcp", "/", "http://evil/v1/brands/x", "/v1/brands/%zz", "/v1/brands?q=__control"]) expect(controlTarget(t), t).toBeNull();
  });
});
