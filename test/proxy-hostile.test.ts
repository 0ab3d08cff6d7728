// The proxy under hostile clients, in front of the real mocks (in-process, on 127.0.0.1), over HTTP and raw
// sockets: no credential in any report format or log line (1,000 distinct tokens, every scheme and header),
// redaction whose cost does not grow per token, log lines that no client text can break, the protections of
// what it fronts kept (repeated Authorization/Host, foreign Host, time limits, bodies on every refusal, retries),
// and no client fault ever blamed on the service.
import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { printable } from "../conformance/core/printable.js";
import { startMcpMock, type McpMock } from "../mock/mcp/server.js";
import { startRestMock, type RestMock } from "../mock/rest/server.js";
import { maxJudgedDepth } from "../proxy/client-faults.js";
import { jsonReport, markdownReport, serviceFailures, summaryLine } from "../proxy/output.js";
import { startProxy, type ExchangeEvent, type ProxyOptions, type RunningProxy } from "../proxy/server.js";
import { runPool } from "./support/fuzz.js";
import { at } from "./support/json.js";
import { hangGuardMs } from "./support/hang-guard.js";

let rest: RestMock;
let mcp: McpMock;
const stops: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const stop of stops.reverse()) await stop().catch(() => {});
});

/** A proxy with its events, and a promise for the n-th judged exchange (judging follows the answer's end). */
interface Watched {
  proxy: RunningProxy;
  events: ExchangeEvent[];
  judged(n: number): Promise<void>;
}

async function watched(options: ProxyOptions): Promise<Watched> {
  const events: ExchangeEvent[] = [];
  const waiting: { n: number; resolve: () => void }[] = [];
  const proxy = await startProxy({
    ...options,
    onExchange: (e) => {
      events.push(e);
      for (const w of waiting.filter((x) => events.length >= x.n)) w.resolve();
    },
  });
  stops.push(() => proxy.stop());
  return { proxy, events, judged: (n) => (events.length >= n ? Promise.resolve() : new Promise((resolve) => waiting.push({ n, resolve }))) };
}

let front: Watched;
beforeAll(async () => {
  rest = await startRestMock({ timeScale: 0.001 });
  stops.push(() => rest.stop());
  mcp = await startMcpMock({ timeScale: 0.001 });
  stops.push(() => mcp.stop());
  front = await watched({ restUpstream: rest.url.href, mcpUpstream: mcp.url.href, secretHeaders: ["X-Partner-Secret"] });
});

const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
stops.push(async () => agent.destroy());

/** One request with node:http (headers as raw pairs, so repeats and odd schemes go out as written). */
function send(url: URL, method: string, headers: string[], body?: Buffer | string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers: ["Host", url.host, ...headers], agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}

/**
 * Raw bytes on a fresh socket, which stays open for writing (a half-closed client has gone away for Node);
 * resolves with the status and body once the answer is whole or the server closes the socket.
 */
function raw(port: number, bytes: string | Buffer): Promise<{ status: number; body: unknown; text: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      socket.destroy();
      const all = Buffer.concat(chunks).toString("utf8");
      const text = all.slice(all.indexOf("\r\n\r\n") + 4);
      let body: unknown = null;
      try {
        body = JSON.parse(text);
      } catch {
        /* left null: the test says what it expected */
      }
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(all)?.[1] ?? 0), body, text });
    };
    socket.on("data", (c: Buffer) => {
      chunks.push(c);
      const all = Buffer.concat(chunks).toString("latin1");
      const split = all.indexOf("\r\n\r\n");
      const length = /\r\ncontent-length: *(\d+)/i.exec(all.slice(0, split))?.[1];
      if (split >= 0 && length !== undefined && all.length - split - 4 >= Number(length)) finish();
    });
    socket.on("close", finish);
    socket.on("error", (err) => (chunks.length ? finish() : reject(err)));
    socket.write(bytes);
  });
}

const unsafe = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
const rpc = (method: string, params: unknown, id: unknown = 1) => JSON.stringify({ jsonrpc: "2.0", id, method, params });
const mcpHeaders = (token = "mcp_user") => ["Content-Type", "application/json", "Accept", "application/json, text/event-stream", "Authorization", `Bearer ${token}`];
const service = (events: ExchangeEvent[]) => events.filter((e) => e.violations.some((v) => v.side === "service")).map((e) => e.line);

/** Every format the proxy's findings reach people in: its reports, its summary, its log lines and its events. */
function outputsOf(report: ReturnType<RunningProxy["report"]>, { events } = front): Record<string, string> {
  return {
    json: jsonReport(report),
    markdown: markdownReport(report),
    summary: summaryLine(report),
    lines: events.map((e) => e.line).join("\n"),
    "event headers": JSON.stringify(events.map((e) => [e.exchange.requestHeaders, e.exchange.responseHeaders])),
    "event violations": JSON.stringify(events.map((e) => e.violations)),
  };
}

describe("secrets", () => {
  /** The requests of one token: every place a credential travels, and echoes of it in paths and bodies. */
  const shapes = (token: string, i: number): [URL, string, string[], string?][] => {
    const r = front.proxy.restUrl!;
    const m = front.proxy.mcpUrl!;
    const json = ["Content-Type", "application/json"];
    switch (i % 8) {
      case 0:
        return [[new URL(`v1/brands/${token}`, r), "GET", ["Authorization", `Bearer ${token}`]]];
      case 1:
        return [[new URL("v1/ideas", r), "POST", [...json, "Authorization", `Token ${token}`], JSON.stringify({ brand: token, count: 99 })]];
      case 2:
        return [[new URL("v1/brands/brand_x", r), "GET", ["Authorization", token]]];
      case 3:
        return [[new URL("v1/brands/brand_x", r), "GET", ["Authorization", `Basic ${Buffer.from(`partner:${token}`).toString("base64")}`]]];
      case 4:
        return [[new URL(`v1/brands/${token}`, r), "GET", ["Authorization", "Bearer test_team_a", "Proxy-Authorization", `Bearer ${token}`]]];
      case 5:
        return [[new URL("v1/ideas", r), "POST", [...json, "Authorization", "Bearer test_team_a", "X-Api-Key", token], JSON.stringify({ brand: token, count: 99 })]];
      case 6:
        return [[m, "POST", [...mcpHeaders(), "Cookie", `theme=dark; session=${token}`], rpc("tools/call", { name: token, arguments: { note: token } })]];
      default:
        return [[m, "POST", [...mcpHeaders(token), "X-Partner-Secret", token], rpc("tools/call", { name: "get_workspaces", arguments: {} })]];
    }
  };

  async function phase(tokens: string[]): Promise<{ scanned: number; cpuMs: number }> {
    const before = front.proxy.redactionStats().scanned;
    const from = front.events.length;
    const cpu = process.cpuUsage();
    await runPool(tokens, 8, async (token, i) => {
      for (const [url, method, headers, body] of shapes(token, i)) await send(url, method, headers, body);
    });
    await front.judged(from + tokens.length);
    const used = process.cpuUsage(cpu);
    return { scanned: front.proxy.redactionStats().scanned - before, cpuMs: (used.user + used.system) / 1000 };
  }

  it("1,000 distinct tokens: none in any report format or log line, and redaction costs no more per new token", async () => {
    const n = 1000;
    const tokenOf = () => `tok_SECRET_${randomBytes(8).toString("hex")}`;
    await phase(Array.from({ length: 100 }, () => "tok_SECRET_warmup_0000000")); // warm the JIT before measuring
    const one = tokenOf();
    const same = await phase(Array.from({ length: n }, () => one));
    const distinct = Array.from({ length: n }, tokenOf);
    const many = await phase(distinct);
    console.log(`redaction: ${same.scanned} characters scanned and ${same.cpuMs.toFixed(0)} ms CPU for ${n} requests with one token; ${many.scanned} and ${many.cpuMs.toFixed(0)} ms with ${n} distinct tokens (${(many.cpuMs / same.cpuMs).toFixed(2)}×)`);
    // The structural bound (independent of the machine): with 1,000 tokens each text is hashed once per window
    // width in use (one more here), never once per token.
    expect(many.scanned).toBeLessThanOrEqual(same.scanned * 2.5);
    // What that costs in CPU is `npm run bench:redaction`'s to say: a CPU ratio on a busy host is no verdict.
    expect(front.proxy.redactionStats().tokens).toBeGreaterThanOrEqual(n);

    const report = front.proxy.report();
    const outputs = outputsOf(report);
    // The reports did see the tokens: examples of the client's violations, notes on unknown tools.
    expect(report.byRule.length).toBeGreaterThan(0);
    expect(outputs.markdown).toContain("[redacted]");
    const basics = [one, ...distinct].map((t) => Buffer.from(`partner:${t}`).toString("base64"));
    for (const [name, text] of Object.entries(outputs)) {
      expect(text.includes("tok_SECRET"), `${name} shows a token`).toBe(false);
      expect(basics.filter((b) => text.includes(b)), `${name} shows a Basic credential`).toEqual([]);
    }
    expect(report.bySide.service).toBe(0);
  }, hangGuardMs);

  // Any credential, whatever its header: not only the names the proxy lists or is given. One request carries them
  // all, to a proxy of its own, so that the reports show it as their only example.
  it("credentials under any header or query parameter whose name says so: none in any report format or log line", async () => {
    const own = await watched({ restUpstream: rest.url.href });
    const sent: string[] = [];
    const secret = () => {
      const s = `cred_${randomBytes(8).toString("hex")}`;
      sent.push(s);
      return s;
    };
    const names = ["X-Auth-Token", "X-Access-Token", "Api-Key", "X-Session-Token", "Authentication", "X-Amz-Security-Token", "Ocp-Apim-Subscription-Key", "X-CSRF-Token", "X-Client-Secret", "X-Password"];
    const params = ["token", "key", "api-key", "client_secret", "password", "sig", "session_id", "accessToken"];
    const query = params.map((p) => `${p}=${secret()}`).join("&");
    const headers = names.flatMap((name) => [name, secret()]);
    // A request the contract refuses (a website that is no string), which echoes one of them in its body.
    const body = JSON.stringify({ website: 5, note: sent[0] });
    await send(new URL(`v1/brands?${query}`, own.proxy.restUrl!), "POST", ["Content-Type", "application/json", "Authorization", "Bearer test_team_a", ...headers], body);
    await own.judged(1);
    const report = own.proxy.report();
    expect(report.bySide.client).toBe(1);
    const outputs = outputsOf(report, own);
    expect(outputs.json).toContain("[redacted]");
    for (const [name, text] of Object.entries(outputs)) expect(sent.filter((s) => text.includes(s)), `${name} shows a credential`).toEqual([]);
  }, hangGuardMs);

  // Held out from the issue's list: credentials in body members (shown with the example of a client's violation)
  // and in URLs inside headers no credential word names (Referer, a URL header), in requests and tool arguments.
  it("credentials in body members and in URLs inside other headers: none in any report format, log line or event", async () => {
    const own = await watched({ restUpstream: rest.url.href, mcpUpstream: mcp.url.href });
    const sent: string[] = [];
    const secret = (short = false) => {
      const s = short ? `pw${randomBytes(2).toString("hex")}` : `cred_${randomBytes(8).toString("hex")}`;
      sent.push(s);
      return s;
    };
    const urls = ["Referer", `https://app.example/cb?state=1&access_token=${secret()}`, "X-Original-Url", `https://partner:${secret()}@host.example/x?page=2`];
    // A website that is no string: the client's violation, shown with its bodies; a short password is hidden too.
    const body = JSON.stringify({ website: 5, password: secret(true), client: { client_secret: secret(), apiKey: secret() } });
    await send(new URL("v1/brands", own.proxy.restUrl!), "POST", ["Content-Type", "application/json", "Authorization", "Bearer test_team_a", ...urls], body);
    // Arguments the input schema refuses: the client's violation, shown with the call's body.
    await send(own.proxy.mcpUrl!, "POST", [...mcpHeaders(), ...urls], rpc("tools/call", { name: "get_profile", arguments: { brandId: 5, token: secret() } }));
    await own.judged(2);
    const report = own.proxy.report();
    expect(report.bySide).toMatchObject({ client: 2, service: 0 });
    const outputs = outputsOf(report, own);
    expect(outputs.json).toContain(String.raw`\"password\":\"[redacted]\"`);
    expect(outputs["event headers"]).toContain("access_token=[redacted]");
    for (const [name, text] of Object.entries(outputs)) expect(sent.filter((s) => text.includes(s)), `${name} shows a credential`).toEqual([]);
  }, hangGuardMs);

  it("a short value under a name that only looks like a credential's is hidden where its header shows, nowhere else; challenges stay shown", async () => {
    const own = await watched({ restUpstream: rest.url.href });
    const r = own.proxy.restUrl!;
    // "3600" is learnt as no secret: it must not vanish from the body the example shows.
    await send(new URL("v1/brands", r), "POST", ["Content-Type", "application/json", "Authorization", "Bearer test_team_a", "X-Token-Ttl", "3600"], JSON.stringify({ website: 3600 }));
    await send(new URL("v1/brands/brand_x", r), "GET", ["Authorization", "Bearer test_unknown"]);
    await own.judged(2);
    const [refused, challenged] = own.events;
    expect(refused!.exchange.requestHeaders["x-token-ttl"]).toBe("[redacted]");
    expect(jsonReport(own.proxy.report())).toContain(String.raw`"requestBody": "{\"website\":3600}"`);
    expect(challenged!.exchange.status).toBe(401);
    expect(String(challenged!.exchange.responseHeaders["www-authenticate"])).toMatch(/^Bearer /);
  }, hangGuardMs);
});

describe("log lines", () => {
  it("escape control characters, line separators and ANSI escapes in everything a client sent", async () => {
    const from = front.events.length;
    const forged = "tools/call x 200 1 ms ✓\n#999 mcp  forged line ✓\x1b[2J\u2028";
    const m = front.proxy.mcpUrl!;
    await send(m, "POST", mcpHeaders(), rpc(forged, {}));
    await send(m, "POST", mcpHeaders(), rpc("tools/call", { name: "get_profile\r\n\x1b[31mFAKE\x1b[0m", arguments: {} }));
    await send(m, "POST", mcpHeaders(), rpc("tools/call", { name: "get_workspaces", arguments: { "a\nb\x1b[1m": 1 } }));
    await send(new URL("v1/brands/%0A%1B%5B31m", front.proxy.restUrl!), "GET", ["Authorization", "Bearer test_team_a"]);
    await front.judged(from + 4);
    const mine = front.events.slice(from);
    for (const e of mine) expect(unsafe.test(e.line), JSON.stringify(e.line)).toBe(false);
    expect(mine.some((e) => e.line.includes("\\n#999 mcp  forged line ✓\\u001b[2J\\u2028"))).toBe(true);
    const report = front.proxy.report();
    expect(unsafe.test(summaryLine(report))).toBe(false);
    expect(markdownReport(report)).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(printable("a\nb\x1b[31m\u2028\u202e")).toBe("a\\nb\\u001b[31m\\u2028\\u202e");
  });
});

describe("what the proxy fronts keeps its protections", () => {
  const cases = () => [
    { name: "rest", port: Number(front.proxy.restUrl!.port), path: "/v1/brands/brand_x", auth: "Bearer test_team_a", shape: (b: unknown) => expect(at(b, "error")).toMatchObject({ type: expect.any(String), code: expect.any(String), message: expect.any(String), param: null }) },
    { name: "mcp", port: Number(front.proxy.mcpUrl!.port), path: "/mcp", auth: "Bearer mcp_user", shape: (b: unknown) => expect(b).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: expect.any(Number), message: expect.any(String) } }) },
  ];

  it("a repeated Authorization or Host is refused (400), a foreign Host (also in an absolute target) refused (403), all with bodies", async () => {
    for (const t of cases()) {
      const from = front.events.length;
      const requests: [string, number][] = [
        [`GET ${t.path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${t.auth}\r\nAuthorization: Bearer other\r\n\r\n`, 400],
        [`GET ${t.path} HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\nAuthorization: ${t.auth}\r\n\r\n`, 400],
        [`GET ${t.path} HTTP/1.1\r\nHost: evil.example\r\nAuthorization: ${t.auth}\r\n\r\n`, 403],
        [`GET http://evil.example${t.path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${t.auth}\r\n\r\n`, 403],
        // No Host names a user (RFC 9110 §7.2), nor a path: a URL parser would read 127.0.0.1 out of either.
        [`GET ${t.path} HTTP/1.1\r\nHost: user:hostpw_SECRET@127.0.0.1:${t.port}\r\nAuthorization: ${t.auth}\r\n\r\n`, 403],
        [`GET ${t.path} HTTP/1.1\r\nHost: 127.0.0.1:${t.port}/x\r\nAuthorization: ${t.auth}\r\n\r\n`, 403],
      ];
      for (const [bytes, status] of requests) {
        const r = await raw(t.port, bytes);
        expect(r.status, `${t.name}: ${bytes.split("\r\n")[0]} → ${r.text}`).toBe(status);
        t.shape(r.body);
      }
      await front.judged(from + requests.length);
      for (const e of front.events.slice(from)) expect(e.verdict.clientFault).toMatch(/^refused by the proxy/);
      // The absolute form naming the proxy is taken (its authority stands for the Host) and forwarded as a path.
      const ok = await raw(t.port, `GET http://127.0.0.1:${t.port}${t.path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${t.auth}\r\nConnection: close\r\n\r\n`);
      expect(ok.status, ok.text).not.toBe(403);
      await front.judged(from + requests.length + 1);
      expect(front.events[from + requests.length]!.verdict.clientFault, `${front.events[from + requests.length]!.line} ${JSON.stringify(ok.text)}`).toBeUndefined();
      // HTTP/1.1 without Host: refused with a body (Node's own refusal would have none).
      const hostless = await raw(t.port, `GET ${t.path} HTTP/1.1\r\nAuthorization: ${t.auth}\r\n\r\n`);
      expect(hostless.status).toBe(400);
      t.shape(hostless.body);
    }
  });

  it("what Node's parser refuses and an unmeetable Expect get bodies in the protocol's shape", async () => {
    for (const t of cases())
      for (const [bytes, status] of [
        [`GET ${t.path} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Bad: a\x01b\r\n\r\n`, 400],
        [`POST ${t.path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`, 400],
        [`GET ${t.path} HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: bogus\r\nConnection: close\r\n\r\n`, 417],
      ] as const) {
        const r = await raw(t.port, bytes);
        expect(r.status, `${t.name}: ${r.text}`).toBe(status);
        t.shape(r.body);
      }
    expect(front.proxy.report().clientFaults.byKind.map((k) => k.kind)).toContain("malformed HTTP");
  });

  it("time limits are the mocks' at most: a slow header or body gets 408 with a body", async () => {
    await expect(startProxy({ restUpstream: rest.url.href, limits: { headersTimeoutMs: 60_000 } })).rejects.toThrow(/must not exceed/);
    const quick = await watched({ restUpstream: rest.url.href, mcpUpstream: mcp.url.href, limits: { headersTimeoutMs: 300, requestTimeoutMs: 600 } });
    const restPort = Number(quick.proxy.restUrl!.port);
    const mcpPort = Number(quick.proxy.mcpUrl!.port);
    const slowHead = await raw(restPort, "GET /v1/brands/brand_x HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthori");
    expect(slowHead.status).toBe(408);
    expect(at(slowHead.body, "error")).toMatchObject({ code: "request_timeout" });
    const slowBody = await raw(mcpPort, "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer mcp_user\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 100\r\n\r\n{");
    expect(slowBody.status).toBe(408);
    expect(slowBody.body).toMatchObject({ jsonrpc: "2.0", error: { code: -32600 } });
    expect(quick.proxy.report().clientFaults.byKind.find((k) => k.kind === "slow")?.count).toBeGreaterThanOrEqual(1);
  });

  it("retries an idempotent request whose connection was reset before any answer; a failed forward is a failure, never ✓", async () => {
    const seen = new Map<string, number>();
    const upstream = http.createServer((req, res) => {
      const n = (seen.get(req.url!) ?? 0) + 1;
      seen.set(req.url!, n);
      req.resume();
      if (n === 1) return void req.socket.destroy(); // "socket hang up" / ECONNRESET on a fresh connection
      if (req.url === "/deep") return void res.writeHead(200, { "content-type": "application/json" }).end("[".repeat(10_000) + "]".repeat(10_000));
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
    await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
    stops.push(() => new Promise((resolve) => (upstream.closeAllConnections(), upstream.close(() => resolve()))));
    const base = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/`;
    const w = await watched({ restUpstream: base });
    const get = await send(new URL("again", w.proxy.restUrl!), "GET", []);
    expect(get.status).toBe(200);
    const post = await send(new URL("once", w.proxy.restUrl!), "POST", ["Content-Type", "application/json"], "{}");
    expect(post.status).toBe(502);
    expect(JSON.parse(post.text).error).toMatchObject({ type: "server_error", code: "upstream_unreachable" });
    seen.set("/deep", 1);
    const deep = await send(new URL("deep", w.proxy.restUrl!), "GET", []);
    expect(deep.status).toBe(200);
    await w.judged(3);
    const [g, p, d] = w.events;
    expect(g!.line).toMatch(/✓$/);
    expect(p!.line).toMatch(/✗ no answer: the upstream .* could not be reached/);
    expect(p!.line).not.toContain("✓");
    // An answer too deep to walk is unjudged, with why, never passed.
    expect(d!.line).toContain(`unjudged: too deep: the answer nests more than ${maxJudgedDepth} levels`);
    expect(d!.line).not.toContain("✓");
    const report = w.proxy.report();
    expect(report.noAnswer.count).toBe(1);
    expect(report.unjudged.count).toBe(1);
    expect(serviceFailures(report)).toBe(1);
  });
});

describe("client faults are the client's", () => {
  it("undecodable, too deep, unrepresentable ids and a dripped body are set aside, never the service's violations", async () => {
    const from = front.events.length;
    const r = front.proxy.restUrl!;
    const m = front.proxy.mcpUrl!;
    const auth = ["Authorization", "Bearer test_team_a"];
    const latin1 = Buffer.concat([Buffer.from('{"name":"Caf'), Buffer.from([0xe9]), Buffer.from('","description":"Coffee and cake"}')]);
    const deep = "[".repeat(10_000) + "]".repeat(10_000);
    const sent: [URL, string, string[], string | Buffer, RegExp][] = [
      [new URL("v1/brands", r), "POST", [...auth, "Content-Type", "application/json"], latin1, /^undecodable: the body is not valid UTF-8/],
      [new URL("v1/brands", r), "POST", [...auth, "Content-Type", "application/json; charset=latin1"], '{"name":"Cafe","description":"Coffee"}', /^undecodable: the body is declared latin1/],
      [new URL("v1/brands", r), "POST", [...auth, "Content-Type", "application/json"], deep, /^too deep/],
      [m, "POST", mcpHeaders(), `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_profile","arguments":{"brandId":${deep}}}}`, /^too deep/],
      [m, "POST", mcpHeaders(), '{"jsonrpc":"2.0","id":1e309,"method":"tools/list"}', /unrepresentable id/],
      [m, "POST", mcpHeaders(), '{"jsonrpc":"2.0","id":2.5,"method":"tools/list"}', /unrepresentable id|^$/],
      [m, "POST", mcpHeaders(), '{"jsonrpc":"2.0","id":9007199254740993,"method":"tools/list"}', /unrepresentable id|^$/],
    ];
    for (const [url, method, headers, body] of sent) {
      const res = await send(url, method, headers, body);
      expect(res.text, `${method} ${url.pathname}`).not.toBe("");
    }
    await front.judged(from + sent.length);
    const mine = front.events.slice(from);
    expect(service(mine)).toEqual([]);
    sent.forEach(([, , , , why], i) => {
      expect(mine[i]!.verdict.clientFault ?? "", mine[i]!.line).toMatch(why);
      if (mine[i]!.verdict.clientFault) expect(mine[i]!.line).not.toMatch(/✓$/);
    });
  });

  // Held out of the first round: requests the transport refuses before any field, and bodies beyond a service's size.
  it("a request in another type, to another path, too large, or that Streamable HTTP refuses is the client's, never the service's", async () => {
    const from = front.events.length;
    const r = front.proxy.restUrl!;
    const m = front.proxy.mcpUrl!;
    const auth = ["Authorization", "Bearer test_team_a"];
    const brand = JSON.stringify({ website: "https://www.harbourloaf.ie" });
    const list = rpc("tools/list", {});
    const sent: [URL, string, string[], string, RegExp][] = [
      [new URL("v1/brands", r), "POST", [...auth, "Content-Type", "text/plain"], brand, /^not JSON: the request's Content-Type is "text\/plain"/],
      [new URL("v1/brands", r), "POST", [...auth, "Content-Type", "application/merge-patch+json"], brand, /^not JSON/],
      // Past the reference's 1 MB: it answers 413, which the contract does not list and does not forbid.
      [new URL("v1/brands", r), "POST", [...auth, "Content-Type", "application/json"], JSON.stringify({ name: "x".repeat(1_100_000), description: "d" }), /^too large: the service refused the request's body \(413/],
      // Not the contract's path (the reference answers 404 unknown_route): no operation's rules apply.
      [new URL("v1/brands/", r), "POST", [...auth, "Content-Type", "application/json"], brand, /^$/],
      [m, "POST", ["Content-Type", "application/json", "Accept", "application/json", "Authorization", "Bearer mcp_user"], list, /^not acceptable/],
      [m, "POST", ["Content-Type", "application/json", "Accept", "text/event-stream", "Authorization", "Bearer mcp_user"], list, /^not acceptable/],
      [m, "POST", [...mcpHeaders(), "MCP-Protocol-Version", "1999-01-01"], list, /^protocol version: the service refused MCP-Protocol-Version "1999-01-01"/],
      [m, "POST", ["Content-Type", "text/plain", "Accept", "application/json, text/event-stream", "Authorization", "Bearer mcp_user"], list, /^not JSON/],
    ];
    for (const [url, method, headers, body] of sent) {
      const res = await send(url, method, headers, body);
      expect(res.status, `${method} ${url.pathname}`).toBeGreaterThanOrEqual(400);
    }
    await front.judged(from + sent.length);
    const mine = front.events.slice(from);
    expect(service(mine)).toEqual([]);
    sent.forEach(([, , , , why], i) => expect(mine[i]!.verdict.clientFault ?? "", mine[i]!.line).toMatch(why));
    expect(mine[3]!.verdict.notes.join(" ")).toMatch(/not an operation of the contract/);
  }, hangGuardMs);

  it("a valid MCP request refused with a 4xx and no answer to its call stays the service's violation", async () => {
    const refusing = http.createServer((req, res) => {
      req.resume();
      req.on("end", () => res.writeHead(400, { "content-type": "application/json" }).end("{}"));
    });
    await new Promise<void>((resolve) => refusing.listen(0, "127.0.0.1", resolve));
    stops.push(() => new Promise<void>((resolve) => refusing.close(() => resolve())));
    const w = await watched({ mcpUpstream: `http://127.0.0.1:${(refusing.address() as AddressInfo).port}/mcp` });
    await send(w.proxy.mcpUrl!, "POST", mcpHeaders(), rpc("tools/list", {}));
    await w.judged(1);
    expect(w.events[0]!.verdict.clientFault).toBeUndefined();
    expect(service(w.events).join("\n")).toMatch(/no JSON-RPC response with id 1/);
  }, hangGuardMs);

  it("a valid body dripped over more than the service's answer time is not the service's timing violation", async () => {
    // A mock on real time: on the fast clock, the 11 s of the drip would be hours and the new brand read already.
    const realTime = await startRestMock({ timeScale: 1 });
    stops.push(() => realTime.stop());
    const w = await watched({ restUpstream: realTime.url.href });
    const from = 0;
    const body = JSON.stringify({ website: "https://www.harbourloaf.ie" });
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(new URL("v1/brands", w.proxy.restUrl!), { method: "POST", headers: { authorization: "Bearer test_team_a", "content-type": "application/json", "content-length": Buffer.byteLength(body) } }, (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      });
      req.on("error", reject);
      // The drip is the scenario itself: 12 pieces a second apart (11 s, beyond the contract's 10 s answer time).
      const pieces = Array.from({ length: 12 }, (_, k) => body.slice(Math.floor((k * body.length) / 12), Math.floor(((k + 1) * body.length) / 12)));
      const drip = (k: number) => {
        req.write(pieces[k]!);
        if (k + 1 < pieces.length) setTimeout(() => drip(k + 1), 1000);
        else req.end();
      };
      drip(0);
    });
    expect(status).toBe(201);
    await w.judged(from + 1);
    const e = w.events[from]!;
    expect(e.violations, e.line).toEqual([]);
    expect(e.verdict.clientFault ?? "", e.line).toMatch(/^slow: the client took \d+\.\d s/);
    expect(serviceFailures(w.proxy.report())).toBe(0);
    expect(serviceFailures(front.proxy.report())).toBe(0);
  }, hangGuardMs);
});
