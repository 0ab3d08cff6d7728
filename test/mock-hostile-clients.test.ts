// The hostile-client layer of the mocks (issue 28): every case a hostile run found open, replayed over raw
// sockets against both stateful mocks started together (one control), and judged as a whole — 0 control
// actions from a foreign origin, host or path trick, 0 refusals with an empty body, 0 raw validation dumps or
// echoed absolute targets, 0 answers of 500 or above — plus what each case must answer.
import http from "node:http";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClock } from "../mock/clock.js";
import { createControl } from "../mock/control.js";
import { startMcpMock, type McpMock } from "../mock/mcp/server.js";
import { startRestMock, type RestMock } from "../mock/rest/server.js";
import { send, sendRawBytes, type RawAnswer } from "./support/fuzz.js";
import { at } from "./support/json.js";

let rest: RestMock;
let mcp: McpMock;
/** A brand made before the replay: a reset by any trick would remove it. */
let keptBrand: string;
beforeAll(async () => {
  const control = createControl(createClock({ timeScale: 1 }));
  rest = await startRestMock({ port: 0, control });
  mcp = await startMcpMock({ port: 0, control });
  const made = await fetch(new URL("/v1/brands", rest.url), {
    method: "POST",
    headers: { authorization: "Bearer test_team_a", "content-type": "application/json" },
    body: JSON.stringify({ website: "https://www.kept-bakery.com" }),
  });
  keptBrand = ((await made.json()) as { id: string }).id;
});
afterAll(async () => {
  agent.destroy();
  await rest?.stop();
  await mcp?.stop();
});

type Mock = "rest" | "mcp";
interface Case {
  name: string;
  mock: Mock;
  method: string;
  /** Request target; `{port}` becomes the mock's port. */
  target: string;
  headers: string[];
  body?: Buffer | string;
  /** What this case must answer, beyond the rules every answer keeps. */
  status: number;
  check?: (answer: RawAnswer, body: unknown) => void;
}

const restAuth = ["Authorization: Bearer test_team_a", "Content-Type: application/json"];
const mcpAuth = ["Authorization: Bearer mcp_user", "Content-Type: application/json", "Accept: application/json, text/event-stream"];
const mocksOf = (): { mock: Mock; path: string; auth: string[] }[] => [
  { mock: "rest", path: "/v1/brands", auth: restAuth },
  { mock: "mcp", path: "/mcp", auth: mcpAuth },
];
const jsonrpc = (id: unknown, method: string, params?: unknown) => JSON.stringify({ jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) });

function controlCases(): Case[] {
  const own = "Host: 127.0.0.1:{port}";
  const tricks: [string, string, string[], number][] = [
    ["foreign Origin", "/__control/{action}", [own, "Origin: https://evil.example"], 403],
    ["Origin null", "/__control/{action}", [own, "Origin: null"], 403],
    ["loopback page on another port", "/__control/{action}", [own, "Origin: http://localhost:5173"], 403],
    ["rebinding Host", "/__control/{action}", ["Host: rebind.evil.example:{port}"], 403],
    ["cross-site fetch", "/__control/{action}", [own, "Sec-Fetch-Site: cross-site"], 403],
    ["guessed token", "/__control/{action}", [own, "X-Control-Token: ctl_guess"], 403],
    ["dot-dot", "/v1/../__control/{action}", [own], 400],
    ["double slash", "//__control/{action}", [own], 400],
    ["encoded dots", "/v1/%2e%2e/__control/{action}", [own], 400],
    ["encoded dots, upper case", "/v1/%2E%2E/__control/{action}", [own], 400],
    ["encoded underscore", "/%5f_control/{action}", [own], 400],
    ["dot segment", "/__control/./{action}", [own], 400],
    ["absolute form", "http://127.0.0.1:{port}/__control/{action}", [own], 400],
  ];
  return (["rest", "mcp"] as const).flatMap((mock) =>
    ["reset", "freeze"].flatMap((action) =>
      tricks.map(([name, target, headers, status]) => ({ name: `control ${action}: ${name}`, mock, method: "POST", target: target.replace("{action}", action), headers, status })),
    ),
  );
}

function rpcCases(): Case[] {
  const v = (version: string) => [...mcpAuth, `MCP-Protocol-Version: ${version}`];
  const client = { name: "t", version: "1" };
  const bad: [string, string, number][] = [
    ["id 2.5", `{"jsonrpc":"2.0","id":2.5,"method":"ping"}`, -32600],
    ["id 9007199254740993", `{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}`, -32600],
    ["_meta 5", `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":5}}`, -32602],
    ["initialize protocolVersion 42", jsonrpc(1, "initialize", { protocolVersion: 42, capabilities: {}, clientInfo: client }), -32602],
    ["initialize without params", jsonrpc(1, "initialize"), -32602],
    ["initialize capabilities 5", jsonrpc(1, "initialize", { protocolVersion: "2025-06-18", capabilities: 5, clientInfo: client }), -32602],
    ["tools/call task 5", jsonrpc(1, "tools/call", { name: "get_workspaces", arguments: {}, task: 5 }), -32602],
  ];
  return [
    ...bad.map(([name, body, code]): Case => ({
      name: `json-rpc: ${name}`,
      mock: "mcp",
      method: "POST",
      target: "/mcp",
      headers: v("2025-06-18"),
      body,
      status: code === -32600 ? 400 : 200,
      check: (_a, b) => expect(at(b, "error", "code")).toBe(code),
    })),
    {
      name: "json-rpc: one-element batch",
      mock: "mcp",
      method: "POST",
      target: "/mcp",
      headers: v("2025-03-26"),
      body: `[${jsonrpc(1, "ping")}]`,
      status: 200,
      check: (_a, b) => expect(b).toEqual([{ jsonrpc: "2.0", id: 1, result: {} }]),
    },
    {
      name: "json-rpc: two requests with one id",
      mock: "mcp",
      method: "POST",
      target: "/mcp",
      headers: v("2025-03-26"),
      body: `[${jsonrpc(1, "ping")},${jsonrpc(1, "ping")}]`,
      status: 200,
      check: (_a, b) => expect(b).toMatchObject([{ id: 1, result: {} }, { id: 1, error: { code: -32600 } }]),
    },
    {
      name: "json-rpc: a batch under 2025-06-18",
      mock: "mcp",
      method: "POST",
      target: "/mcp",
      headers: v("2025-06-18"),
      body: `[${jsonrpc(1, "ping")}]`,
      status: 400,
      check: (_a, b) => expect(at(b, "error", "code")).toBe(-32600),
    },
  ];
}

function privateWebsiteCases(): Case[] {
  const hosts = ["169.254.169.254", "0x7f000001", "[::ffff:127.0.0.1]", "2130706433", "0177.0.0.1", "127.1", "localhost", "[::1]", "10.0.0.1", "192.168.0.1", "172.16.0.1", "0.0.0.0", "metadata.google.internal"];
  return hosts.map((host) => ({
    name: `rest: private website ${host}`,
    mock: "rest",
    method: "POST",
    target: "/v1/brands",
    headers: restAuth,
    body: JSON.stringify({ website: `https://${host}` }),
    status: 400,
    check: (_a, b) => expect(at(b, "error")).toMatchObject({ type: "invalid_request", param: "website" }),
  }));
}

/** One chunk and the last chunk (Transfer-Encoding: chunked). */
const chunked = (data: Buffer) => Buffer.concat([Buffer.from(`${data.length.toString(16)}\r\n`), data, Buffer.from("\r\n0\r\n\r\n")]);

function httpCases(): Case[] {
  const body = (mock: Mock) => (mock === "rest" ? JSON.stringify({ website: "https://www.zip-bakery.com" }) : jsonrpc(1, "tools/list"));
  return mocksOf().flatMap(({ mock, path, auth }): Case[] => [
    ...["gzip", "br", "deflate", "x-custom", "identity, gzip"].map((coding): Case => ({
      name: `${mock}: Content-Encoding ${coding}`,
      mock,
      method: "POST",
      target: path,
      headers: [...auth, `Content-Encoding: ${coding}`],
      body: coding === "gzip" ? gzipSync(body(mock)) : body(mock),
      status: 415,
      check: (a) => expect(a.headers["accept-encoding"]).toBe("identity"),
    })),
    {
      name: `${mock}: Transfer-Encoding gzip, chunked`,
      mock,
      method: "POST",
      target: path,
      headers: [...auth, "Transfer-Encoding: gzip, chunked"],
      body: chunked(gzipSync(body(mock))),
      status: 415,
    },
    {
      name: `${mock}: Content-Encoding identity is plain`,
      mock,
      method: "POST",
      target: path,
      headers: [...auth, "Content-Encoding: identity"],
      body: body(mock),
      status: mock === "rest" ? 201 : 200,
    },
    {
      name: `${mock}: two Host headers`,
      mock,
      method: "POST",
      target: path,
      headers: [...auth, "Host: evil.example"],
      body: body(mock),
      status: 400,
    },
    {
      name: `${mock}: a body that is not JSON`,
      mock,
      method: "POST",
      target: path,
      headers: auth,
      body: '{"website": http://evil.example}',
      status: 400,
    },
    {
      name: `${mock}: absolute-form target`,
      mock,
      method: "GET",
      target: mock === "rest" ? "http://evil.example/v2/brands/x" : "http://evil.example/nothing-here",
      headers: auth,
      // Routed by its path (RFC 9112 §3.2.2), never echoed; the MCP mock takes the host from the target and
      // refuses a foreign one as it refuses a foreign Host (DNS-rebinding protection).
      status: mock === "rest" ? 404 : 403,
    },
  ]);
}

const all = (): Case[] => [
  ...controlCases(),
  ...rpcCases(),
  ...privateWebsiteCases(),
  ...httpCases(),
  { name: "mcp: protected-resource metadata", mock: "mcp", method: "GET", target: "/.well-known/oauth-protected-resource/mcp", headers: [], status: 200, check: (_a, b) => expect(at(b, "scopes_supported")).toEqual(["mcp:read", "mcp:write"]) },
];

/** Raw request bytes: the own Host first (unless the case sends its own first), then the case's headers. */
function bytesOf(c: Case, port: string): Buffer {
  const headers = c.headers.map((h) => h.replace("{port}", port));
  const ownHost = headers.some((h) => /^host:/i.test(h)) && !c.name.includes("two Host") ? [] : [`Host: 127.0.0.1:${port}`];
  const body = c.body === undefined ? Buffer.alloc(0) : Buffer.isBuffer(c.body) ? c.body : Buffer.from(c.body);
  const length = headers.some((h) => /^transfer-encoding:/i.test(h)) ? "" : `Content-Length: ${body.length}\r\n`;
  const head = `${c.method} ${c.target.replace("{port}", port)} HTTP/1.1\r\n${[...ownHost, ...headers].map((h) => `${h}\r\n`).join("")}${length}Connection: close\r\n\r\n`;
  return Buffer.concat([Buffer.from(head, "latin1"), body]);
}

/** A raw validation dump: ajv's or zod's issue objects, a stack, or a multi-line message. */
const dump = /instancePath|"expected"|"received"|invalid_type|ZodError|\n\s+at |"path":\[/;

/** Sends a case over a raw socket (bytes exactly as written) or through node:http (what an HTTP client sends). */
type Sender = (c: Case, origin: URL) => Promise<RawAnswer>;
const overSocket: Sender = (c, origin) => sendRawBytes(origin, bytesOf(c, origin.port), 30_000);
const agent = new http.Agent({ keepAlive: false });
const overHttp: Sender = (c, origin) => {
  const headers: Record<string, string> = { host: `127.0.0.1:${origin.port}` };
  for (const h of c.headers) {
    const at = h.indexOf(":");
    headers[h.slice(0, at).trim().toLowerCase()] = h.slice(at + 1).trim().replace("{port}", origin.port);
  }
  return send(origin, { method: c.method, path: c.target.replace("{port}", origin.port), headers, body: c.body ?? "" }, agent, 30_000);
};

/** Replays every case and judges each answer and the whole: returns what was wrong and the tally. */
async function replay(cases: readonly Case[], sender: Sender) {
  const tally = { cases: cases.length, controlActions: 0, fiveHundreds: 0, emptyRefusals: 0, dumps: 0, echoes: 0 };
  const wrong: string[] = [];
  for (const c of cases) {
    const origin = new URL(c.mock === "rest" ? rest.url.origin : mcp.url.origin);
    const answer = await sender(c, origin);
    if (c.name.startsWith("control") && answer.status < 300) tally.controlActions++;
    if (answer.status >= 500) tally.fiveHundreds++;
    if (answer.status >= 400 && answer.text.trim() === "") tally.emptyRefusals++;
    if (dump.test(answer.text)) tally.dumps++;
    if (answer.text.includes("evil.example")) tally.echoes++;
    let body: unknown = null;
    try {
      body = JSON.parse(answer.text);
    } catch {
      /* judged below */
    }
    try {
      expect(answer.status).toBe(c.status);
      if (answer.status >= 400) {
        // The protocol's error shape: the REST envelope; for MCP a JSON-RPC error or an OAuth-style error.
        if (c.mock === "rest") expect(at(body, "error")).toMatchObject({ type: expect.any(String), code: expect.any(String), message: expect.any(String) });
        else expect(typeof at(body, "error") === "string" ? at(body, "error_description") : at(body, "error", "message")).toEqual(expect.any(String));
      }
      c.check?.(answer, body);
    } catch (err) {
      wrong.push(`${c.name}: ${answer.status} ${answer.text.slice(0, 160)} (${(err as Error).message.split("\n")[0]})`);
    }
  }
  return { wrong, tally };
}

/** Nothing was reset (the brand made first is still there) and nothing frozen. */
async function expectNoControlAction(): Promise<void> {
  const kept = await fetch(new URL(`/v1/brands/${keptBrand}`, rest.url), { headers: { authorization: "Bearer test_team_a" } });
  expect(kept.status).toBe(200);
  expect(((await (await fetch(new URL("/__control/clock", rest.url))).json()) as { frozen: boolean }).frozen).toBe(false);
}

describe("the hostile replay", () => {
  it("over raw sockets: every case as required; 0 control actions, 0 empty refusals, 0 dumps or echoed targets, 0 5xx", async () => {
    const cases = all();
    const { wrong, tally } = await replay(cases, overSocket);
    expect(wrong).toEqual([]);
    expect(tally).toEqual({ cases: cases.length, controlActions: 0, fiveHundreds: 0, emptyRefusals: 0, dumps: 0, echoes: 0 });
    expect(tally.cases).toBeGreaterThanOrEqual(96);
    await expectNoControlAction();
  });

  it("through node:http (one Host header: what an HTTP client can send), the same", async () => {
    const cases = all().filter((c) => !c.name.includes("two Host") && !c.name.includes("Transfer-Encoding"));
    const { wrong, tally } = await replay(cases, overHttp);
    expect(wrong).toEqual([]);
    expect(tally).toEqual({ cases: cases.length, controlActions: 0, fiveHundreds: 0, emptyRefusals: 0, dumps: 0, echoes: 0 });
    await expectNoControlAction();
  });
});
