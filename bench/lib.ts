// Shared by the benchmarks: a bounded autocannon run (or a raw client's, for big answers) and a table of results with ratios to a baseline.
import autocannon from "autocannon";
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { freePort } from "../mock/prism.js";
import { repoRoot } from "../lib/paths.js";

export interface Load {
  url: string;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
  connections?: number;
  /** Seconds. */
  duration?: number;
  /** Send a new secret in this header on every request (the proxy learns each one, to redact it). */
  newSecretIn?: string;
  /** Every answer's body must be exactly this (else counted in `mismatches`): proves two loads did the same work. */
  expectBody?: string;
}

let secretCount = 0;
/** A secret never sent before in this process. */
export const newSecret = () => `bench_secret_${process.pid}_${++secretCount}_${Math.random().toString(36).slice(2, 10)}`;

/**
 * autocannon's per-connection hook that sends its request with a new secret in header `name` on every request.
 * autocannon's own way, a `setupRequest`, rebuilds the whole request each time (about 28 µs of the client's CPU,
 * as much as the proxy spends on a new token, on the cores the two share); this inserts the header line into the
 * bytes autocannon built once. `getRequestBuffer` is autocannon 9's (pinned in package.json).
 */
function newSecretEach(name: string) {
  return (connection: autocannon.Client) => {
    const client = connection as autocannon.Client & { getRequestBuffer?: () => Buffer };
    const template = client.getRequestBuffer?.();
    const lineEnd = template?.indexOf("\r\n") ?? -1;
    if (!template || lineEnd < 0) throw new Error("bench/lib.ts: this autocannon has no getRequestBuffer() giving its built request (written for autocannon 9)");
    const [requestLine, rest] = [template.subarray(0, lineEnd + 2), template.subarray(lineEnd + 2)];
    client.getRequestBuffer = () => Buffer.concat([requestLine, Buffer.from(`${name}: ${newSecret()}\r\n`, "latin1"), rest]);
  };
}

export interface Measured {
  label: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  /** Answers whose body was not `expectBody`. */
  mismatches: number;
  /** Requests answered over the whole run (where the client counts them). */
  total?: number;
}

export async function measure(label: string, load: Load): Promise<Measured> {
  const result = await autocannon({
    url: load.url,
    method: load.method ?? "GET",
    headers: load.headers,
    body: load.body,
    connections: load.connections ?? 20,
    duration: load.duration ?? 5,
    ...(load.expectBody !== undefined ? { verifyBody: (body: unknown) => String(body) === load.expectBody } : {}),
    ...(load.newSecretIn ? { setupClient: newSecretEach(load.newSecretIn) } : {}),
  });
  return {
    label,
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    mismatches: (result as { mismatches?: number }).mismatches ?? 0,
    total: result.requests.total,
  };
}

/** Prints rows with each one's throughput as a multiple of the baseline row's. */
export function printTable(rows: Measured[], baseline: Measured): void {
  const line = (cells: string[]) => console.log(cells.map((c, i) => (i === 0 ? c.padEnd(34) : c.padStart(10))).join(" "));
  line(["scenario", "req/s", "p50 ms", "p99 ms", "errors", "non-2xx", "mismatch", "× base"]);
  for (const r of rows) {
    line([
      r.label,
      r.requestsPerSecond.toFixed(0),
      String(r.p50),
      String(r.p99),
      String(r.errors),
      String(r.non2xx),
      String(r.mismatches),
      (r.requestsPerSecond / baseline.requestsPerSecond).toFixed(2),
    ]);
  }
}


/** The command as the installed package runs it: the build in dist/, without tsx (bench/built-cli.mjs). */
export const builtCli = path.join(repoRoot, "bench/built-cli.mjs");

/** What the build is made from (tsconfig.build.json's sources and what they import, and the data copied next to them). */
const buildSources = ["entry", "cli", "lib", "proxy", "mock", "conformance", "generated", "spec", "tsconfig.build.json", "scripts/build.ts"];

/** Throws, naming the fix, unless dist/ holds a build newer than every file it is made from. */
export function assertBuildCurrent(): void {
  const built = path.join(repoRoot, "dist/cli/main.js");
  const builtAt = fs.existsSync(built) ? fs.statSync(built).mtimeMs : -Infinity;
  const newer = buildSources
    .flatMap((rel) => {
      const at = path.join(repoRoot, rel);
      if (!fs.statSync(at).isDirectory()) return [at];
      return fs.readdirSync(at, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
    })
    .find((file) => fs.statSync(file).mtimeMs > builtAt);
  if (newer) throw new Error(`the build in dist/ is missing or older than ${path.relative(repoRoot, newer)}: run \`npm run build\` first (\`npm run bench:proxy\` does)`);
}

/**
 * `ideas-contract mock --no-prism` in its own process, on free ports and a fast clock; resolves with the URL
 * the CLI prints on the line starting with `label`. `nodeArgs` go to node before the CLI (e.g. `--import` of a
 * probe); `ipc` opens a message channel to `child`; `build` runs the build in dist/ (`builtCli`), as users run it,
 * instead of the sources.
 */
export async function startCliMock(
  label: string,
  options: { nodeArgs?: string[]; ipc?: boolean; build?: boolean } = {},
): Promise<{ url: URL; pid: number; stop(): void; child: ChildProcess }> {
  const [restPort, mcpPort] = [await freePort(), await freePort()];
  const args = ["mock", "--quiet", "--no-prism", "--rest-port", String(restPort), "--mcp-port", String(mcpPort), "--time-scale", "0.0001", "--ip-limit", "1000000000"];
  const cli = options.build ? builtCli : path.join(repoRoot, "bin/ideas-contract.js");
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), cli, ...args], {
    stdio: ["ignore", "pipe", "inherit", ...(options.ipc ? (["ipc"] as const) : [])],
  });
  let printed = "";
  const url = await new Promise<URL>((resolve, reject) => {
    child.stdout!.on("data", (d: Buffer) => {
      printed += d.toString();
      const line = printed.split("\n").find((l) => l.startsWith(label));
      const href = line && /(http:\/\/\S+)/.exec(line)?.[1];
      if (href && printed.includes("Press Ctrl-C")) resolve(new URL(href));
    });
    child.once("exit", (code) => reject(new Error(`ideas-contract mock exited with ${code}`)));
  });
  return { url, pid: child.pid!, stop: () => child.kill("SIGINT"), child };
}

/**
 * The same load as `measure`, from a client that counts the answer's bytes without decoding them. autocannon
 * appends every body chunk to a string, which for large or compressed bodies costs it more than the server
 * spends (a bare node:http server sending tools/list's 32 KB of gzip makes ~950 answers/s through it), so big
 * answers are measured with this instead. Keep-alive HTTP/1.1, one request in flight per connection,
 * Content-Length answers only.
 */
export async function measureRaw(label: string, load: Load): Promise<Measured> {
  const url = new URL(load.url);
  const body = Buffer.from(load.body ?? "");
  const head = [`${load.method ?? "GET"} ${url.pathname}${url.search} HTTP/1.1`, `host: ${url.host}`, `content-length: ${body.length}`];
  for (const [k, v] of Object.entries(load.headers ?? {})) head.push(`${k}: ${v}`);
  const request = Buffer.concat([Buffer.from(`${head.join("\r\n")}\r\n\r\n`), body]);
  const until = performance.now() + (load.duration ?? 5) * 1000;
  const latencies: number[] = [];
  let errors = 0;
  let non2xx = 0;
  const connection = () =>
    new Promise<void>((resolve) => {
      const socket = net.connect(Number(url.port), url.hostname);
      let pending: Buffer = Buffer.alloc(0);
      let need = -1; // bytes of the whole answer, once its head is read
      let sent = 0;
      const send = () => {
        if (performance.now() >= until) return void socket.end(resolve);
        sent = performance.now();
        socket.write(request);
      };
      socket.on("connect", send);
      socket.on("error", () => {
        errors++;
        resolve();
      });
      socket.on("data", (chunk: Buffer) => {
        pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
        if (need < 0) {
          const end = pending.indexOf("\r\n\r\n");
          if (end < 0) return;
          const headText = pending.subarray(0, end).toString("latin1");
          const length = /\r\ncontent-length:\s*(\d+)/i.exec(headText);
          if (!length) {
            errors++; // chunked answers are not read here
            socket.destroy();
            return resolve();
          }
          need = end + 4 + Number(length[1]);
          if (!/^HTTP\/1\.1 2/.test(headText)) non2xx++;
        }
        if (pending.length < need) return;
        latencies.push(performance.now() - sent);
        pending = pending.subarray(need);
        need = -1;
        send();
      });
    });
  const started = performance.now();
  await Promise.all(Array.from({ length: load.connections ?? 20 }, connection));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (p: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0);
  return { label, requestsPerSecond: latencies.length / seconds, p50: at(0.5), p99: at(0.99), errors, non2xx, mismatches: 0 };
}
