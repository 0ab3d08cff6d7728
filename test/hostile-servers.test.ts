// The conformance runner against hostile servers: each scenario starts a small misbehaving server on 127.0.0.1,
// runs the whole REST suite against it with fake tokens, a fast clock and a tight budget, and checks that
// - the run ends within its budget (loosely: a safety bound, not a performance assertion),
// - runConformance neither throws nor hangs, and the affected checks fail (or are skipped) with a reason that
//   names the problem,
// - no token reaches another origin, and none shows up in anything the run printed or wrote.
import { describe, expect, it } from "vitest";
import { Transport } from "../conformance/core/http.js";
import { Redactor } from "../conformance/core/redact.js";
import { resolveTarget } from "../conformance/suites/rest/target.js";
import {
  allSecrets,
  bearerOf,
  hostileMcpTokens,
  hostileReferenceTimeScale,
  hostileTokens,
  outputsOf,
  reasonsOf,
  runCli,
  runHostile,
  secretMark,
  startHttpServer,
  startRawServer,
  startChaosServer,
  startHostileReference,
  startRecorder,
  unmetNeedReason,
  type HostileRun,
  type HostileServer,
} from "./support/hostile.js";


type OnFinished = (fn: () => Promise<void>) => void;

/** Closes the servers when the test ends (the test's own hook: tests here run concurrently). */
function closeAfter(onTestFinished: OnFinished, ...servers: HostileServer[]) {
  onTestFinished(async () => {
    await Promise.all(servers.map((s) => s.close()));
  });
}

/** What every hostile run must satisfy, whatever the server did. */
function expectSafeRun(run: HostileRun, budgetSeconds: number, others: HostileServer[] = []) {
  expect(run.hung, "runConformance did not end").toBe(false);
  expect(run.error, `runConformance threw: ${String((run.error as Error)?.stack ?? run.error)}`).toBeUndefined();
  expect(run.result).toBeDefined();
  // That it ended is what `hung` says (a watchdog, not a timing assertion: wall time on a busy machine says nothing).
  const result = run.result!;
  expect(result.exitCode).toBe(1);
  expect(result.checks.filter((c) => c.status === "pass").map((c) => c.id), "nothing should pass against a hostile server").toEqual([]);
  for (const [where, text] of Object.entries(outputsOf(run))) {
    // In any case: a host name carrying a token comes out lower-cased.
    expect(text.toLowerCase(), `a secret in ${where}`).not.toContain(secretMark.toLowerCase());
    for (const s of allSecrets) expect(text, `${s} in ${where}`).not.toContain(s);
  }
  expect(run.printed).toContain("FAIL");
  expect(run.reports.md).toContain("## Coverage ledger");
  expect(JSON.parse(run.reports.json).summary.unexpectedFailures).toBeGreaterThan(0);
  for (const other of others) {
    expect(other.received().toLowerCase(), "a secret reached another origin").not.toContain(secretMark.toLowerCase());
    expect(other.received().toLowerCase(), "an Authorization header reached another origin").not.toContain("authorization");
    for (const seen of other.requests) expect(bearerOf(seen)).toBeUndefined();
  }
  // No check broke on something it did not expect (a crash inside a check is a bug of the suite).
  for (const r of reasonsOf(result)) expect(r.text, `${r.id}`).not.toMatch(/the suite broke/);
}

/**
 * Every failure and every skip (other than a need the target file does not meet) names the problem: one of
 * `patterns`, the budget, or a request the server left unanswered past its timeout (on a busy machine a hostile
 * server's slow answers can run out the clock before what the test provokes shows; each test's own count of
 * `patterns` still requires that it did).
 */
function expectReasons(run: HostileRun, patterns: RegExp[]) {
  const bad = reasonsOf(run.result!).filter(
    (r) => !(r.status === "skip" && unmetNeedReason.test(r.text)) && !patterns.some((p) => p.test(r.text)) && !/budget|no answer within \d+(\.\d+)? s/.test(r.text),
  );
  expect(bad.map((r) => `${r.id} (${r.status}): ${r.text.slice(0, 300)}`)).toEqual([]);
}

const countMatching = (run: HostileRun, re: RegExp) => reasonsOf(run.result!).filter((r) => re.test(r.text)).length;

/** How the runner says a check ran out of the run's budget (conformance/core/http.ts, conformance/core/runner.ts). */
const budgetSpent = /the run's budget is spent|not finished within the run's budget/;

/**
 * Against a server that answers at once (however badly) the run never waits for its budget: no check ran out
 * of it. (Said by the run itself, so it holds on a slow machine too.)
 */
function expectBudgetUnspent(run: HostileRun) {
  expect(reasonsOf(run.result!).filter((r) => budgetSpent.test(r.text)).map((r) => `${r.id}: ${r.text.slice(0, 200)}`)).toEqual([]);
}

/** Writes `text` one byte a second (then spaces, for ever) until the connection closes. */
function drip(out: { write(chunk: string): unknown; readonly destroyed: boolean; on(event: "close", listener: () => void): unknown }, text: string) {
  let i = 0;
  const timer = setInterval(() => (out.destroyed ? clearInterval(timer) : out.write(text[i++] ?? " ")), 1000);
  out.on("close", () => clearInterval(timer));
}

describe.concurrent("the conformance runner against hostile servers", () => {
  for (const [what, start, requestTimeoutSeconds] of [
    ["accepts connections and never answers", () => startRawServer(() => {}), 1],
    [
      "drips its body one byte a second",
      () =>
        startHttpServer((_req, res) => {
          res.writeHead(200, { "content-type": "application/json", "content-length": "100000" });
          res.flushHeaders();
          drip(res, `{"id":"brand_${"x".repeat(99_980)}"}`);
        }),
      1.5,
    ],
    [
      "drips its status line and headers one byte a second",
      () => startRawServer((socket) => drip(socket, `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-Drip: ${"a".repeat(10_000)}`)),
      1.5,
    ],
  ] as const)
    it(`ends when the server ${what}`, async ({ onTestFinished }) => {
      const server = await start();
      closeAfter(onTestFinished, server);
      const budgetSeconds = 6;
      const run = await runHostile(server.url, { budgetSeconds, requestTimeoutSeconds });
      expectSafeRun(run, budgetSeconds);
      const noAnswer = new RegExp(`no answer within ${String(requestTimeoutSeconds).replace(".", "\\.")} s`);
      expectReasons(run, [noAnswer]);
      expect(countMatching(run, noAnswer)).toBeGreaterThan(0);
      // The token went to the target (its own origin) and nowhere else.
      expect(server.requests.some((r) => bearerOf(r) === hostileTokens.team)).toBe(true);
    });

  for (const [name, contentType, body] of [
    ["text/plain garbage", "text/plain", "Hello! This is not JSON <html><body>at all</body></html>"],
    ["invalid JSON labelled application/json", "application/json", '{"id": "brand_abc", "name": "Trunc'],
  ] as const)
    it(`reports ${name} (200 to everything)`, async ({ onTestFinished }) => {
      const server = await startHttpServer((_req, res) => {
        res.writeHead(200, { "content-type": contentType });
        res.end(body);
      });
      closeAfter(onTestFinished, server);
      const budgetSeconds = 10;
      const run = await runHostile(server.url, { budgetSeconds, requestTimeoutSeconds: 2 });
      expectSafeRun(run, budgetSeconds);
      // Every failure shows what came back; the stateful probe reads a body without the name it sent as a
      // stateless target (see the report: a better reason belongs in fixtures.ts).
      expectReasons(run, [new RegExp(`(→|answered) 200:? ${body.slice(0, 10).replace(/[{[]/g, "\\$&")}`), /does not keep what it is sent/, /expected a JSON body/]);
      expectBudgetUnspent(run);
    });

  it("reports invalid JSON with the right statuses (the reference behind a proxy that truncates every body)", async ({ onTestFinished }) => {
    const server = await startHostileReference((_req, res) => ({ ...res, body: undefined, raw: res.raw.subarray(0, Math.ceil(res.raw.length / 2)) }));
    onTestFinished(() => server.close());
    const budgetSeconds = 15;
    const run = await runHostile(server.url, { budgetSeconds, requestTimeoutSeconds: 5, timeScale: hostileReferenceTimeScale, targetFile: server.targetFile });
    expectSafeRun(run, budgetSeconds);
    // Checks name it; the shared fixtures show the truncated body they got (no brand id to go on: "not
    // stateful", no ready brand); feedback on an idea that never came is a 404.
    expectReasons(run, [/not JSON/, /does not keep what it is sent/, /POST \/v1\/brands answered 201: \{/, /POST \/v1\/feedback → 404/]);
    expect(countMatching(run, /a body that is not JSON/)).toBeGreaterThan(5);
  });

  for (const chunked of [false, true])
    it(`stops reading a 100 MB body (${chunked ? "chunked" : "with Content-Length"}) at the size limit`, async ({ onTestFinished }) => {
      const total = 100 * 1024 * 1024;
      const chunk = Buffer.alloc(256 * 1024, 0x20);
      const sentPerAnswer: number[] = [];
      const server = await startHttpServer((_req, res) => {
        res.writeHead(200, { "content-type": "application/json", ...(chunked ? {} : { "content-length": String(total) }) });
        let sent = 0;
        res.write("[");
        sent++;
        const pump = () => {
          while (sent < total && !res.destroyed) {
            const ok = res.write(chunk);
            sent += chunk.length;
            if (!ok) return void res.once("drain", pump);
          }
          if (!res.destroyed) res.end("]");
        };
        res.on("close", () => sentPerAnswer.push(sent));
        pump();
      });
      closeAfter(onTestFinished, server);
      const budgetSeconds = 10;
      const before = process.memoryUsage().rss;
      const run = await runHostile(server.url, { budgetSeconds, requestTimeoutSeconds: 5 });
      expectSafeRun(run, budgetSeconds);
      expectReasons(run, [/the answer is too large/]);
      // With a Content-Length the answer is refused before a byte of the body is read; without, at the limit.
      expect(countMatching(run, chunked ? /too large \(over \d+ bytes and counting/ : /too large \(Content-Length 104857600 bytes/)).toBeGreaterThan(0);
      // Every answer was cut short long before 100 MB (what was sent is what the client read plus socket buffers).
      expect(sentPerAnswer.length).toBeGreaterThan(0);
      expect(Math.max(...sentPerAnswer)).toBeLessThan(32 * 1024 * 1024);
      // Loose: the run did not keep the bodies (hundreds of them, 100 MB each).
      expect(process.memoryUsage().rss - before).toBeLessThan(512 * 1024 * 1024);
    });

  it("reports a connection reset mid-answer", async ({ onTestFinished }) => {
    const server = await startRawServer((socket, _seen, index) => {
      // Alternately: cut in the middle of the headers, and in the middle of the body (with a TCP reset).
      if (index % 2 === 0) socket.write("HTTP/1.1 200 OK\r\nContent-Type: appli");
      else socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{"id":"brand_');
      setTimeout(() => socket.resetAndDestroy(), 5);
    });
    closeAfter(onTestFinished, server);
    const budgetSeconds = 10;
    const run = await runHostile(server.url, { budgetSeconds, requestTimeoutSeconds: 2 });
    expectSafeRun(run, budgetSeconds);
    expectReasons(run, [/the connection was reset before the answer was complete/]);
    expectBudgetUnspent(run);
  });

  for (const [status, tokenInHost] of [
    [302, false],
    [307, false],
    [308, false],
    [301, true],
  ] as const)
    it(`refuses a ${status} redirect to another origin${tokenInHost ? " named after the token" : ""}: the token never reaches it`, async ({ onTestFinished }) => {
      const other = await startRecorder();
      const server = await startHttpServer((req, res, seen) => {
        // A hostile redirect: to another origin, with the token it was sent in the Location and in the body
        // (and, in one variant, in the host name, where it comes out lower-cased).
        const location = new URL(req.url ?? "/", other.url);
        if (tokenInHost && bearerOf(seen)) location.hostname = `${bearerOf(seen)}.invalid`;
        location.searchParams.set("stolen", bearerOf(seen) ?? "");
        res.writeHead(status, { location: location.href, "content-type": "application/json" });
        res.end(JSON.stringify({ moved: location.href, token: bearerOf(seen) }));
      });
      closeAfter(onTestFinished, server, other);
      const budgetSeconds = 10;
      const run = await runHostile(server.url, { budgetSeconds, requestTimeoutSeconds: 2 });
      expectSafeRun(run, budgetSeconds, [other]);
      expect(other.connections, "a redirect was followed").toBe(0);
      expectReasons(run, [/redirect refused/]);
      expect(countMatching(run, /redirect refused/)).toBeGreaterThan(0);
      if (!tokenInHost) expect(run.reports.md).toContain(`to another origin (${other.url.origin})`);
      expectBudgetUnspent(run);
    });

  it("reports JSON served as text/html (the reference behind a proxy that says text/html)", async ({ onTestFinished }) => {
    const server = await startHostileReference((_req, res) => ({ ...res, headers: { ...res.headers, "content-type": "text/html; charset=utf-8" } }));
    onTestFinished(() => server.close());
    const budgetSeconds = 15;
    const run = await runHostile(server.url, { budgetSeconds, requestTimeoutSeconds: 5, timeScale: hostileReferenceTimeScale, targetFile: server.targetFile });
    expect(run.error).toBeUndefined();
    expect(run.hung).toBe(false);
    const result = run.result!;
    expect(result.exitCode).toBe(1);
    // Everything else is right: what fails, fails for the content type alone.
    const failed = result.checks.filter((c) => c.status === "fail");
    expect(failed.length).toBeGreaterThan(10);
    for (const c of failed) expect(c.failures.some((f) => f.rules.includes("json-content-type") && /got text\/html/.test(f.message)), c.id).toBe(true);
    expect(result.ledger.find((e) => e.id === "json-content-type")?.status).toBe("fail");
    for (const [where, text] of Object.entries(outputsOf(run))) expect(text.toLowerCase(), `a secret in ${where}`).not.toContain(secretMark.toLowerCase());
  });

  it("keeps the tokens out of every output when the server echoes them back in every form", async ({ onTestFinished }) => {
    // Tokens with the characters a bearer token may hold (+ / =) and some it should not (" \ < &), echoed raw,
    // URL-encoded, JSON-escaped, lower- and upper-cased, in the body and in headers.
    const tokens = { team: 'tok_SECRET+Team/A==', otherTeam: 'tok_SECRET"Team\\B<&>', expired: "tok_SECRET_Expired_C" };
    const server = await startHttpServer((req, res, seen) => {
      const t = bearerOf(seen) ?? "none";
      const forms = [t, encodeURIComponent(t), JSON.stringify(t), t.toLowerCase(), t.toUpperCase()];
      const status = req.method === "POST" && req.url === "/v1/brands" ? 201 : 400;
      res.writeHead(status, { "content-type": "application/json", "x-echo": encodeURIComponent(t), location: `/v1/${encodeURIComponent(t)}` });
      res.end(JSON.stringify({ id: `brand_${t}`, object: "brand", name: t, status: t, error: { type: t, code: t, message: forms.join(" | "), param: t } }));
    });
    closeAfter(onTestFinished, server);
    const budgetSeconds = 10;
    const run = await runHostile(server.url, { budgetSeconds, requestTimeoutSeconds: 2, tokens });
    expectSafeRun(run, budgetSeconds);
    for (const [where, text] of Object.entries(outputsOf(run)))
      for (const t of Object.values(tokens))
        for (const form of [t, encodeURIComponent(t), JSON.stringify(t).slice(1, -1), t.toLowerCase(), t.toUpperCase()])
          expect(text, `${JSON.stringify(form)} in ${where}`).not.toContain(form);
  });

  for (const [name, retryAfter] of [
    ["999999 seconds", () => "999999"],
    ["an HTTP date far in the future", () => "Fri, 31 Dec 9999 23:59:59 GMT"],
    ["an HTTP date a few days ahead", () => new Date(Date.now() + 3 * 86_400_000).toUTCString()],
  ] as const)
    it(`does not sleep through a storm of 500s and 429s with Retry-After ${name}`, async ({ onTestFinished }) => {
      let n = 0;
      const server = await startHttpServer((_req, res) => {
        if (n++ % 3 === 0) {
          res.writeHead(500, { "content-type": "application/json" });
          res.end(JSON.stringify({ error: { type: "server_error", code: null, message: "boom", param: null } }));
        } else {
          res.writeHead(429, { "content-type": "application/json", "retry-after": retryAfter() });
          res.end(JSON.stringify({ error: { type: "rate_limit", code: null, message: "slow down", param: null } }));
        }
      });
      closeAfter(onTestFinished, server);
      const budgetSeconds = 10;
      const run = await runHostile(server.url, { budgetSeconds, requestTimeoutSeconds: 2 });
      expectSafeRun(run, budgetSeconds);
      expectReasons(run, [/→ (429|500)|answered (429|500)/, /Retry-After/]);
      expect(run.warnings.map((w) => w.name)).not.toContain("TimeoutOverflowWarning");
      // The 429s it would not wait out are noted, with why.
      expect(run.result!.checks.flatMap((c) => c.notes).join("\n")).toMatch(/429 with Retry-After .* longer than the \d+ s left of the run's budget: not waited out/);
      // No 429 was waited out (the budget is never spent waiting)…
      expectBudgetUnspent(run);
      // …and it did not hammer the server either: a request or two per check, not a retry loop.
      expect(server.requests.length).toBeLessThan(run.result!.checks.length * 8);
    });
});

describe.concurrent("the conformance CLI against a hostile server", () => {
  it("ends within its budget, exits 1, and prints and writes no token, however the server misbehaves", async ({ onTestFinished }) => {
    const other = await startRecorder();
    const server = await startChaosServer(other.url);
    closeAfter(onTestFinished, server, other);
    const budgetSeconds = 8;
    const run = await runCli(
      ["--rest-url", server.url.href, "--skip-probe", "--time-scale", "0.001", "--budget", String(budgetSeconds), "--request-timeout", "1", "--no-live"],
      { IDEAS_TOKEN: hostileTokens.team, IDEAS_OTHER_TEAM_TOKEN: hostileTokens.otherTeam, IDEAS_EXPIRED_TOKEN: hostileTokens.expired },
      // A hang detector, generous: a busy host starts node and writes three reports slowly.
      (budgetSeconds + 60) * 1000,
    );
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toContain("FAIL");
    expect(run.stderr).not.toMatch(/TimeoutOverflowWarning|Unhandled|uncaught/i);
    for (const [where, text] of Object.entries({ stdout: run.stdout, stderr: run.stderr, ...run.reports }))
      expect(text.toLowerCase(), `a secret in ${where}`).not.toContain(secretMark.toLowerCase());
    expect(JSON.parse(run.reports.json).summary.unexpectedFailures).toBeGreaterThan(0);
    expect(run.reports.md).toContain("## Coverage ledger");
    expect(run.reports.junit).toContain("<testsuites");
    expect(other.connections, "a redirect was followed").toBe(0);
    expect(other.received().toLowerCase()).not.toContain(secretMark.toLowerCase());
    expect(server.requests.some((r) => bearerOf(r) === hostileTokens.team)).toBe(true);
  });
});

describe("the polite client, answer by answer", () => {
  it("hands checks a redacted answer that is still the answer (a __proto__ key stays data)", async ({ onTestFinished }) => {
    const server = await startHttpServer((_req, res, seen) => {
      res.writeHead(200, { "content-type": "application/json", "x-echo": bearerOf(seen) ?? "" });
      res.end(`{"__proto__": {"status": "ready"}, "id": "brand_x", "echo": "${bearerOf(seen)}"}`);
    });
    closeAfter(onTestFinished, server);
    const target = resolveTarget({ overrides: { restUrl: server.url.href, tokens: { team: hostileTokens.team } }, env: {} });
    const transport = new Transport(target, new Redactor(target.secrets), new AbortController().signal);
    try {
      const res = await transport.send({ method: "GET", path: "/v1/brands/brand_x" });
      expect(Object.keys(res.body)).toEqual(["__proto__", "id", "echo"]);
      expect(res.body.status).toBeUndefined();
      expect(res.body.echo).toBe("[redacted]");
      expect(res.header("x-echo")).toBe("[redacted]");
      expect(res.text).not.toContain(hostileTokens.team);
    } finally {
      transport.close();
    }
  });
});

// The MCP suite shares the REST suite's client (conformance/suites/mcp/http.ts): the same hostile servers, met at the MCP
// endpoint, through the SDK client and the raw JSON-RPC requests alike.
describe.concurrent("the MCP suite against hostile servers", () => {
  const endpoint = (server: HostileServer) => new URL("/mcp", server.url);

  it("ends when the server never answers", async ({ onTestFinished }) => {
    const server = await startRawServer(() => {});
    closeAfter(onTestFinished, server);
    const budgetSeconds = 6;
    const run = await runHostile(endpoint(server), { mcp: true, budgetSeconds, requestTimeoutSeconds: 1 });
    expectSafeRun(run, budgetSeconds);
    expectReasons(run, [/no answer within 1 s/]);
    expect(server.requests.some((r) => bearerOf(r) === hostileMcpTokens.normal)).toBe(true);
  });

  it("reports garbage instead of JSON-RPC (200 text/plain to everything)", async ({ onTestFinished }) => {
    const server = await startHttpServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      res.end("Hello! This is not JSON-RPC <html><body>at all</body></html>");
    });
    closeAfter(onTestFinished, server);
    const budgetSeconds = 10;
    const run = await runHostile(endpoint(server), { mcp: true, budgetSeconds, requestTimeoutSeconds: 2 });
    expectSafeRun(run, budgetSeconds);
    // The SDK client cannot even connect (every check says so); the raw requests quote what came back.
    expectReasons(run, [/connecting as \w+: /, /This is not JSON-RPC/]);
    expectBudgetUnspent(run);
  });

  it("refuses a redirect to another origin: the tokens never reach it", async ({ onTestFinished }) => {
    const other = await startRecorder();
    const server = await startHttpServer((req, res, seen) => {
      const location = new URL(req.url ?? "/", other.url);
      location.searchParams.set("stolen", bearerOf(seen) ?? "");
      res.writeHead(307, { location: location.href, "content-type": "application/json" });
      res.end(JSON.stringify({ moved: location.href, token: bearerOf(seen) }));
    });
    closeAfter(onTestFinished, server, other);
    const budgetSeconds = 10;
    const run = await runHostile(endpoint(server), { mcp: true, budgetSeconds, requestTimeoutSeconds: 2 });
    expectSafeRun(run, budgetSeconds, [other]);
    expect(other.connections, "a redirect was followed").toBe(0);
    expect(countMatching(run, /redirect refused/)).toBeGreaterThan(0);
    expectBudgetUnspent(run);
  });

  it("does not wait out 429s whose Retry-After reaches past the budget", async ({ onTestFinished }) => {
    const server = await startHttpServer((_req, res) => {
      res.writeHead(429, { "retry-after": "86400", "content-type": "application/json" });
      res.end('{"error":"slow down"}');
    });
    closeAfter(onTestFinished, server);
    const budgetSeconds = 8;
    const run = await runHostile(endpoint(server), { mcp: true, budgetSeconds, requestTimeoutSeconds: 2 });
    expectSafeRun(run, budgetSeconds);
    expectReasons(run, [/HTTP 429/]);
    expect(run.warnings.map((w) => w.name)).not.toContain("TimeoutOverflowWarning");
    expectBudgetUnspent(run);
  });
});
