// Hostile servers for the conformance runner: small HTTP servers on 127.0.0.1 that misbehave on purpose (never
// answer, drip, send garbage, a huge body, reset the connection, redirect elsewhere, lie about the content type,
// storm with 500s and 429s), a recorder that stands for "another origin" and keeps every byte it receives, and a
// helper that runs the REST conformance suite against one of them the way the CLI would (live and quiet console
// views, JSON / JUnit / Markdown reports written to a temporary folder) and collects everything it printed.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { runConformance, type ConformanceOptions, type RunResult } from "../../conformance/index.js";
import { referenceTargetPath, repoRoot } from "../../conformance/core/paths.js";
import { loadTargetFile, type TargetFile } from "../../conformance/target-file.js";
import { startRestMock } from "../../mock/rest/server.js";
import { startMutantProxy, type Answer, type Exchange } from "../mutants/rest/proxy.js";
import { consoleReporter } from "../../conformance/core/report/console.js";
import { jsonReport } from "../../conformance/core/report/json.js";
import { junitReport } from "../../conformance/core/report/junit.js";
import { markdownReport } from "../../conformance/core/report/markdown.js";
import { spawnTracked } from "./children.js";

/** Fake tokens of the run; none may ever show up in any output or reach another origin. */
export const hostileTokens = { team: "tok_SECRET_team_a_123", otherTeam: "tok_SECRET_team_b_456", expired: "tok_SECRET_expired_789" } as const;
export const hostileRateLimitedToken = "tok_SECRET_rate_limited_000";
/** What every secret of the run contains: a leak of any of them, or of a part of one, shows up as this. */
export const secretMark = "tok_SECRET";
/** The MCP suite's fake tokens (every kind, so that no check is skipped for want of one). */
export const hostileMcpTokens = {
  normal: "tok_SECRET_mcp_normal_1",
  readonly: "tok_SECRET_mcp_readonly_2",
  partner: "tok_SECRET_mcp_partner_3",
  otherTenant: "tok_SECRET_mcp_other_4",
  expired: "tok_SECRET_mcp_expired_5",
  partnerUnconfigured: "tok_SECRET_mcp_unconfigured_6",
} as const;
export const allSecrets = [...Object.values(hostileTokens), hostileRateLimitedToken, ...Object.values(hostileMcpTokens)];

/** One request as a server saw it. */
export interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface HostileServer {
  url: URL;
  /** Every request seen (for raw servers: every request head that could be parsed). */
  requests: Seen[];
  /** Every byte received on every connection, as latin1 text (headers, URL and body alike). */
  received(): string;
  connections: number;
  close(): Promise<void>;
}

async function listen(server: net.Server): Promise<URL> {
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as net.AddressInfo;
  return new URL(`http://127.0.0.1:${port}/`);
}

function tracked(server: net.Server) {
  const sockets = new Set<net.Socket>();
  const raw: Buffer[] = [];
  let connections = 0;
  server.on("connection", (s: net.Socket) => {
    connections++;
    sockets.add(s);
    s.on("data", (c: Buffer) => raw.push(Buffer.from(c)));
    s.on("error", () => {});
    s.on("close", () => sockets.delete(s));
  });
  return {
    received: () => Buffer.concat(raw).toString("latin1"),
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      }),
  };
}

/** A node:http server; the handler sees each request with its body read. */
export async function startHttpServer(handler: (req: http.IncomingMessage, res: http.ServerResponse, seen: Seen) => void): Promise<HostileServer> {
  const requests: Seen[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const seen: Seen = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString("utf8") };
      requests.push(seen);
      res.on("error", () => {});
      handler(req, res, seen);
    });
  });
  // Keep hostile sockets open as long as the handler wants (no server-side timeouts getting in the way).
  server.requestTimeout = 0;
  server.headersTimeout = 0;
  server.keepAliveTimeout = 60_000;
  return handle(server, requests);
}

/** A started hostile server: listening on 127.0.0.1, with what it saw. */
async function handle(server: net.Server, requests: Seen[]): Promise<HostileServer> {
  const t = tracked(server);
  const url = await listen(server);
  return {
    url,
    requests,
    received: t.received,
    get connections() {
      return t.connections();
    },
    close: t.close,
  };
}

/**
 * A node:net server speaking just enough HTTP/1.1 to read request heads (and bodies by Content-Length); each
 * request goes to `onRequest` with the raw socket, to answer (or not) byte by byte.
 */
export async function startRawServer(onRequest: (socket: net.Socket, seen: Seen, index: number) => void): Promise<HostileServer> {
  const requests: Seen[] = [];
  const server = net.createServer((socket) => {
    let buffer = Buffer.alloc(0);
    let busy = false;
    socket.on("data", (chunk: Buffer) => {
      if (busy) return; // one request per connection is all these servers ever answer
      buffer = Buffer.concat([buffer, chunk]);
      const end = buffer.indexOf("\r\n\r\n");
      if (end < 0) return;
      const head = buffer.subarray(0, end).toString("latin1").split("\r\n");
      const [method = "", url = ""] = head[0]!.split(" ");
      const headers: http.IncomingHttpHeaders = {};
      for (const line of head.slice(1)) {
        const i = line.indexOf(":");
        if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
      }
      const length = Number(headers["content-length"] ?? 0);
      if (buffer.length < end + 4 + length) return;
      busy = true;
      const seen: Seen = { method, url, headers, body: buffer.subarray(end + 4, end + 4 + length).toString("utf8") };
      requests.push(seen);
      onRequest(socket, seen, requests.length - 1);
    });
  });
  return handle(server, requests);
}

/** "Another origin": answers every request with 200 {} and keeps everything it received. */
export function startRecorder(): Promise<HostileServer> {
  return startHttpServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end("{}");
  });
}

/** The bearer token a request carried, if any. */
export const bearerOf = (seen: Seen): string | undefined => /^Bearer\s+(\S+)/i.exec(String(seen.headers.authorization ?? ""))?.[1];

export interface HostileRun {
  result: RunResult | undefined;
  /** What runConformance threw, if it threw (it must not). */
  error: unknown;
  /** True when the run had not ended `hardStopMs` after its start (then `result` is undefined). */
  hung: boolean;
  wallMs: number;
  /** Everything the console views printed (live view with its status line, and the quiet view). */
  printed: string;
  /** The reports as written to disk. */
  reports: { json: string; junit: string; md: string };
  /** Process warnings emitted during the run (e.g. a TimeoutOverflowWarning from a huge Retry-After). */
  warnings: Error[];
}

export interface HostileRunOptions extends Omit<ConformanceOptions, "restUrl" | "mcpUrl" | "env"> {
  /** Run the MCP suite against `url` (the endpoint) instead of the REST suite. */
  mcp?: boolean;
  /** The overall budget, in real seconds (required: every hostile run must end). */
  budgetSeconds: number;
  /**
   * Give up waiting for runConformance this long after the budget (default 5 min): then `hung` is true. A hang
   * detector, not a timing verdict: on a CI runner with both cores busy, setting up and writing every report
   * took more than the 5 s this once was, and a run that ended was reported as hung; 30 s is no safer a bound
   * when a whole test run and two busy loops share 2 cores. (Below the tests' own hang guard, hangGuardMs.)
   */
  graceMs?: number;
}

/** Runs the REST suite (or the MCP suite) against `url` with the fake tokens, printing and writing every report. */
export async function runHostile(url: URL, options: HostileRunOptions): Promise<HostileRun> {
  const printed: string[] = [];
  const sink = (isTTY: boolean) =>
    Object.assign(new Writable({ write: (c, _e, cb) => (printed.push(String(c)), cb()) }), { isTTY, columns: 200 });
  const live = consoleReporter({ out: sink(true), live: true, color: true });
  const quiet = consoleReporter({ out: sink(false), live: false, quiet: true });
  const warnings: Error[] = [];
  const onWarning = (w: Error) => warnings.push(w);
  process.on("warning", onWarning);
  const { graceMs = 5 * 60_000, mcp = false, ...rest } = options;
  const target = mcp
    ? { mcpUrl: url.href, mcpTokens: { ...hostileMcpTokens }, mcpProfile: "all" as const }
    : { restUrl: url.href, tokens: { ...hostileTokens }, triggers: { rateLimitedToken: hostileRateLimitedToken } };
  const started = performance.now();
  let error: unknown;
  let result: RunResult | undefined;
  let hung = false;
  let timer: NodeJS.Timeout | undefined;
  try {
    // The probe would stop most of these runs before any check; what is tested here is the runner after it.
    const run = runConformance({
      probe: false,
      timeScale: 0.001,
      concurrency: 4,
      ...rest,
      ...target,
      env: {},
      onEvent: (e) => {
        live.onEvent(e);
        quiet.onEvent(e);
        options.onEvent?.(e);
      },
    });
    const stop = new Promise<"hung">((resolve) => (timer = setTimeout(() => resolve("hung"), options.budgetSeconds * 1000 + graceMs)));
    const outcome = await Promise.race([run, stop]);
    if (outcome === "hung") hung = true;
    else result = outcome;
  } catch (err) {
    error = err;
  } finally {
    clearTimeout(timer);
    process.off("warning", onWarning);
  }
  const wallMs = performance.now() - started;
  const reports = { json: "", junit: "", md: "" };
  if (result) {
    live.finish(result, ["report.json"]);
    quiet.finish(result);
    const dir = mkdtempSync(path.join(os.tmpdir(), "conformance-hostile-"));
    try {
      const files = { json: path.join(dir, "r.json"), junit: path.join(dir, "r.xml"), md: path.join(dir, "r.md") };
      writeFileSync(files.json, jsonReport(result));
      writeFileSync(files.junit, junitReport(result));
      writeFileSync(files.md, markdownReport(result));
      reports.json = readFileSync(files.json, "utf8");
      reports.junit = readFileSync(files.junit, "utf8");
      reports.md = readFileSync(files.md, "utf8");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return { result, error, hung, wallMs, printed: printed.join(""), reports, warnings };
}

/** Every text a run produced: console output, the three reports, the result itself (as JSON), the error. */
export function outputsOf(run: HostileRun): Record<string, string> {
  return {
    printed: run.printed,
    json: run.reports.json,
    junit: run.reports.junit,
    md: run.reports.md,
    result: JSON.stringify(run.result ?? null),
    error: run.error === undefined ? "" : `${(run.error as Error)?.message}\n${(run.error as Error)?.stack}`,
    warnings: run.warnings.map((w) => `${w.name}: ${w.message}`).join("\n"),
  };
}

/** Every failure message and skip reason of a run, one per line, prefixed with the check id. */
export function reasonsOf(result: RunResult): { id: string; status: string; text: string }[] {
  return result.checks
    .filter((c) => c.status !== "pass")
    .map((c) => ({ id: c.id, status: c.status, text: c.status === "skip" ? (c.reason ?? "") : [...c.failures.map((f) => f.message), ...(c.error ? [c.error.message] : [])].join(" | ") }));
}

/** Skip reasons that only say the target file lacks something (not the fault of the server under test). */
// A check skipped for an MCP trigger slot or input the target file leaves out names it: "no … (mcp.triggers.<slot>…)",
// "no … (mcp.inputs.<input>…)".
export const unmetNeedReason = /^needs [\w.]+ in the target file|^no (token|expired token|website|focus)|^the target is plain HTTP|^no [^(]*\(mcp\.(triggers|inputs)\.|allow_publishing|mcp\.cost\./;

/** The reference server's time scale behind `startHostileReference` (runs against it must use the same). */
export const hostileReferenceTimeScale = 0.002;

export interface HostileReference {
  url: URL;
  /** The reference's target file without its URL, tokens and rate-limited token (runHostile gives the fake ones). */
  targetFile: TargetFile;
  close(): Promise<void>;
}

/**
 * The reference server behind a proxy that maps the fake tokens onto the reference's and rewrites every answer:
 * a server right in everything but what `rewrite` breaks.
 */
export async function startHostileReference(rewrite: (req: Exchange, res: Answer) => Answer): Promise<HostileReference> {
  const ref = await startRestMock({ port: 0, timeScale: hostileReferenceTimeScale });
  const reference = loadTargetFile(referenceTargetPath, {});
  const map: Record<string, string> = {
    [hostileTokens.team]: reference.rest!.tokens!.team!,
    [hostileTokens.otherTeam]: reference.rest!.tokens!.other_team!,
    [hostileTokens.expired]: reference.rest!.tokens!.expired!,
    [hostileRateLimitedToken]: reference.rest!.triggers!.rate_limited_token!,
  };
  const proxy = await startMutantProxy(ref.url, {
    id: "hostile",
    rule: "none",
    description: "the reference, its answers rewritten",
    request: (req) => ({ ...req, token: req.token && (map[req.token] ?? req.token) }),
    response: (req, res) => rewrite(req, res),
  });
  const { url: _url, tokens: _tokens, ...rest } = reference.rest!;
  const { rate_limited_token: _limited, ...triggers } = rest.triggers ?? {};
  return {
    url: proxy.url,
    targetFile: { ...reference, rest: { ...rest, triggers } },
    close: async () => {
      await proxy.stop();
      await ref.stop();
    },
  };
}

/**
 * Every misbehaviour at once, one per request in turn: no answer, garbage, a reset, a redirect to `elsewhere`
 * with the token in it, a 429 with a Retry-After of days, a 100 MB body, and the token echoed back.
 */
export function startChaosServer(elsewhere: URL): Promise<HostileServer> {
  let n = 0;
  return startHttpServer((req, res, seen) => {
    const token = bearerOf(seen) ?? "";
    switch (n++ % 7) {
      case 0:
        return; // never answers
      case 1:
        res.writeHead(200, { "content-type": "application/json" });
        return void res.end('{"id": "brand_');
      case 2:
        res.writeHead(200, { "content-type": "application/json", "content-length": "1000" });
        res.write('{"id":');
        return void setTimeout(() => res.socket?.resetAndDestroy(), 5);
      case 3: {
        const to = new URL(req.url ?? "/", elsewhere);
        to.searchParams.set("token", token);
        res.writeHead(307, { location: to.href });
        return void res.end();
      }
      case 4:
        res.writeHead(429, { "content-type": "application/json", "retry-after": "999999" });
        return void res.end(JSON.stringify({ error: { type: "rate_limit", code: null, message: `slow down, ${token}`, param: null } }));
      case 5: {
        res.writeHead(200, { "content-type": "application/json", "content-length": String(100 * 1024 * 1024) });
        const chunk = Buffer.alloc(1024 * 1024, 0x20);
        let left = 100;
        const pump = () => {
          while (left-- > 0 && !res.destroyed) if (!res.write(chunk)) return void res.once("drain", pump);
          if (!res.destroyed) res.end();
        };
        return pump();
      }
      default:
        res.writeHead(400, { "content-type": "application/json", "x-token": token });
        return void res.end(JSON.stringify({ error: { type: "invalid_request", code: token, message: `bad token ${token}`, param: token } }));
    }
  });
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  wallMs: number;
  /** The reports the CLI wrote ("" when it wrote none). */
  reports: { json: string; junit: string; md: string };
}

/** Runs `bin/ideas-contract.js conformance …args` in its own process, tokens in its environment, reports to a temp folder. */
export async function runCli(args: string[], env: Record<string, string>, killAfterMs: number): Promise<CliRun> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "conformance-hostile-cli-"));
  const files = { json: path.join(dir, "r.json"), junit: path.join(dir, "r.xml"), md: path.join(dir, "r.md") };
  const started = performance.now();
  try {
    const child = spawnTracked(
      process.execPath,
      [path.join(repoRoot, "bin/ideas-contract.js"), "conformance", ...args, "--report-json", files.json, "--report-junit", files.junit, "--report-md", files.md],
      { env: { ...process.env, NO_COLOR: "1", ...env }, stdio: ["ignore", "pipe", "pipe"] },
    );
    let stdout = "";
    let stderr = "";
    child.stdout!.on("data", (c: Buffer) => (stdout += String(c)));
    child.stderr!.on("data", (c: Buffer) => (stderr += String(c)));
    const kill = setTimeout(() => child.kill("SIGKILL"), killAfterMs);
    const code = await new Promise<number | null>((resolve) => child.on("close", (c) => resolve(c)));
    clearTimeout(kill);
    const read = (f: string) => {
      try {
        return readFileSync(f, "utf8");
      } catch {
        return "";
      }
    };
    return { code, stdout, stderr, wallMs: performance.now() - started, reports: { json: read(files.json), junit: read(files.junit), md: read(files.md) } };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
