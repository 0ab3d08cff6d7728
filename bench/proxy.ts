// `npm run bench:proxy`: what `ideas-contract proxy` costs, against the direct path measured in the same run.
//
// The mocks and the proxy run as users start them (`ideas-contract mock`, `ideas-contract proxy`, each its own
// process) from what users install: the build in dist/, which `npm run bench:proxy` makes first (run directly,
// the bench stops unless dist/ is newer than its sources). The sources run through tsx cost the proxy more per
// exchange than the build does. The proxy process also loads bench/soak-probe.ts (with --expose-gc), which
// answers its heap after full garbage collections over IPC, for measuring only.
//  1. Latency: the same exchange sent alternately direct and through the proxy, one at a time on kept-alive
//     connections (PROXY_BENCH_SAMPLES each, default 2000), for a REST GET and an MCP tools/call; p50 and p99 of
//     each, the difference and the ratio; then the same through the proxy with a new secret (X-Api-Key) on
//     every request, which the proxy learns to redact (1,000 and more distinct tokens). Target: the proxy adds
//     at most 2 ms at p50.
//  2. Throughput at 20 connections (autocannon), direct and through the proxy, without and with a new secret
//     on every request, in turns over PROXY_BENCH_ROUNDS rounds (default 5) of PROXY_BENCH_SECONDS (default 3)
//     each; every answer must be the body the service gives directly (same work). Each run through the proxy
//     sits between two direct runs of the same load, and is compared with their mean: the machine's speed drifts
//     over seconds (other tenants), and a ratio to runs on both sides cancels a steady drift; a round whose two
//     direct runs differ by more than 20% is measured again (at most as many times as there are rounds). Aim:
//     through the proxy at least 0.5× direct, for both protocols, as the median of the rounds' ratios. The MCP
//     load starts as an SDK client does, with a tools/list through the proxy. Each run also measures every
//     party's CPU per request (the client, the service, the proxy's event loop, its other threads: judge worker
//     and V8's helpers, from /proc), which other load on the machine barely moves, and the ratio CPU allows. Two
//     references run the same load in the same rounds: a bare node:http forwarder (bench/bare-forwarder.ts),
//     what a proxy built on node:http starts from, and a minimal byte-level forwarder (bench/min-forwarder.ts),
//     about the least an HTTP-aware forwarder can cost in Node: the floor of the proxy's fast path.
//  3. Soak: PROXY_SOAK_ROUNDS rounds (default 3) of PROXY_SOAK_SECONDS (default 10) of mixed load through the
//     proxy (new brands, so the remembered state fills its caps; reads; MCP calls), the proxy's heap after GC
//     after each round. Flat memory: the last rounds keep about what the first kept (aim: at most 20 MB more).
// Exit code 1 on errors, a p50 above the target, or heap growth above the aim.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "../mock/prism.js";
import { assertBuildCurrent, builtCli, measure, newSecret, printTable, startCliMock, type Load, type Measured } from "./lib.js";
import type { ProxyReport } from "../proxy/recorder.js";
import type { HeapFigures } from "./soak-probe.js";
import { addCpu, cpuOfParties, cpuRow, loadAverage, newCpuTally, printCpu, type CpuRow, type CpuTally } from "./proxy-cpu.js";

const samples = Number(process.env.PROXY_BENCH_SAMPLES ?? 2000);
const soakSeconds = Number(process.env.PROXY_SOAK_SECONDS ?? 10);
const soakRounds = Number(process.env.PROXY_SOAK_ROUNDS ?? 3);
const rounds = Number(process.env.PROXY_BENCH_ROUNDS ?? 5);
const slice = Number(process.env.PROXY_BENCH_SECONDS ?? 3);
const targetP50Ms = 2;
const throughputAim = 0.5;
const growthAimMb = 20;

const restHeaders = { authorization: "Bearer test_team_a", "content-type": "application/json", accept: "application/json" };
const mcpHeaders = { authorization: "Bearer mcp_user", "content-type": "application/json", accept: "application/json, text/event-stream" };
const rpc = (method: string, params: unknown) => JSON.stringify({ jsonrpc: "2.0", id: 1, method, params });

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/** One exchange on a kept-alive connection; resolves with its milliseconds and status. */
function once(url: URL, method: string, headers: Record<string, string>, body?: string): Promise<{ ms: number; status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = http.request(url, { method, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ ms: performance.now() - started, status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** Rounds of one scenario as one row: requests per second over all rounds, the rounds' median p50, the worst p99. */
function combined(runs: Measured[]): Measured {
  const p50s = runs.map((r) => r.p50).sort((a, b) => a - b);
  const sum = (f: (r: Measured) => number) => runs.reduce((n, r) => n + f(r), 0);
  return {
    label: runs[0]!.label,
    requestsPerSecond: sum((r) => r.requestsPerSecond) / runs.length,
    p50: p50s[Math.floor(p50s.length / 2)]!,
    p99: Math.max(...runs.map((r) => r.p99)),
    errors: sum((r) => r.errors),
    non2xx: sum((r) => r.non2xx),
    mismatches: sum((r) => r.mismatches),
  };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;

/**
 * The same request alternately direct and through the proxy, so both see the same machine at the same time;
 * with `secrets`, each proxied request also carries a secret never sent before.
 */
async function latency(label: string, direct: URL, proxied: URL, method: string, headers: Record<string, string>, body?: string, secrets = false) {
  const times = { direct: [] as number[], proxy: [] as number[] };
  let errors = 0;
  for (let i = 0; i < samples; i++)
    for (const [which, url] of [["direct", direct], ["proxy", proxied]] as const) {
      const r = await once(url, method, which === "proxy" && secrets ? { ...headers, "x-api-key": newSecret() } : headers, body);
      if (r.status >= 400) errors++;
      times[which].push(r.ms);
    }
  const stats = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return { p50: percentile(s, 50), p99: percentile(s, 99) };
  };
  return { label, direct: stats(times.direct), proxy: stats(times.proxy), errors };
}

/** The proxy's heap after two full collections (bench/soak-probe.ts answers over IPC). */
function heapMb(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("the proxy did not answer the heap probe within 30 s")), 30_000);
    const onMessage = (m: HeapFigures) => {
      if (m?.type !== "soak:heap") return;
      clearTimeout(timer);
      child.off("message", onMessage);
      resolve(m.heapUsed / 2 ** 20);
    };
    child.on("message", onMessage);
    child.send({ type: "soak:heap" });
  });
}

/** `ideas-contract proxy` in its own process with the heap probe; resolves once it listens. */
async function startCliProxy(restUpstream: URL, mcpUpstream: URL): Promise<{ rest: URL; mcp: URL; child: ChildProcess }> {
  const [restPort, mcpPort] = [await freePort(), await freePort()];
  const probe = path.join(path.dirname(fileURLToPath(import.meta.url)), "soak-probe.ts");
  const args = ["proxy", "--report-json", reportFile, "--rest-upstream", restUpstream.href, "--rest-port", String(restPort), "--mcp-upstream", mcpUpstream.href, "--mcp-port", String(mcpPort), "--quiet", "--no-live"];
  // PROXY_BENCH_NODE_ARGS: more node options for the proxy process (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof").
  const extra = (process.env.PROXY_BENCH_NODE_ARGS ?? "").split(/\s+/).filter(Boolean);
  // tsx only for the probe (a TypeScript file): it compiles what it loads, not the build's JavaScript.
  const child = spawn(process.execPath, [...extra, "--expose-gc", "--import", "tsx", "--import", probe, builtCli, ...args], { stdio: ["ignore", "pipe", "inherit", "ipc"] });
  let printed = "";
  await new Promise<void>((resolve, reject) => {
    // --quiet prints only exchanges with violations; the mocks give none (the reference's own flows show none).
    child.stdout!.on("data", (d: Buffer) => {
      printed += d.toString();
      if (printed.includes("Press Ctrl-C")) resolve();
    });
    child.once("exit", (code) => reject(new Error(`ideas-contract proxy exited with ${code}`)));
  });
  return { rest: new URL(`http://127.0.0.1:${restPort}/`), mcp: new URL(mcpUpstream.pathname, `http://127.0.0.1:${mcpPort}/`), child };
}

/** A reference forwarder (bench/<script>) in its own process, towards `upstream`; resolves with its base URL once it listens. */
async function startReference(script: "bare-forwarder.ts" | "min-forwarder.ts", upstream: URL): Promise<URL & { pid: number; stop(): void }> {
  const port = await freePort();
  const file = path.join(path.dirname(fileURLToPath(import.meta.url)), script);
  const child = spawn(process.execPath, ["--import", "tsx", file, String(port), upstream.href], { stdio: ["ignore", "pipe", "inherit"] });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", (d: Buffer) => d.toString().includes("ready") && resolve());
    child.once("exit", (code) => reject(new Error(`${script} exited with ${code}`)));
  });
  return Object.assign(new URL(`http://127.0.0.1:${port}/`), { pid: child.pid!, stop: () => void child.kill("SIGTERM") });
}

// The proxy's report at its end: how many exchanges it judged, and how many it left unjudged and why.
const reportFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "bench-proxy-")), "report.json");

assertBuildCurrent();
const restMock = await startCliMock("REST reference server", { build: true });
const mcpMock = await startCliMock("MCP gateway mock", { build: true });
const proxy = await startCliProxy(new URL(restMock.url.href.replace(/v1\/?$/, "")), mcpMock.url);
const references: Awaited<ReturnType<typeof startReference>>[] = [];
let failed = false;
try {
  const upstreams = { rest: new URL(restMock.url.href.replace(/v1\/?$/, "")), mcp: new URL(mcpMock.url.origin) };
  const reference = async (script: "bare-forwarder.ts" | "min-forwarder.ts") => {
    const started = { rest: await startReference(script, upstreams.rest), mcp: await startReference(script, upstreams.mcp) };
    references.push(started.rest, started.mcp);
    return started;
  };
  const bare = await reference("bare-forwarder.ts");
  const least = await reference("min-forwarder.ts");
  // A brand and an MCP brand to read.
  const created = JSON.parse((await once(new URL("v1/brands", proxy.rest), "POST", restHeaders, JSON.stringify({ website: "https://www.harbourloaf.ie" }))).text);
  const brandPath = `v1/brands/${created.id}`;
  const ws = JSON.parse((await once(proxy.mcp, "POST", mcpHeaders, rpc("tools/call", { name: "get_workspaces", arguments: {} }))).text).result.structuredContent.data;
  const list = JSON.parse((await once(proxy.mcp, "POST", mcpHeaders, rpc("tools/call", { name: "list_brands", arguments: { workspaceId: ws.workspaces[0].id } }))).text).result.structuredContent.data;
  const getProfile = rpc("tools/call", { name: "get_profile", arguments: { brandId: list.brands[0].id } });
  // As an SDK client starts: the tools listed through the proxy, whose judge then checks every call against the
  // live tool (its schemas: kilobytes a verdict depends on).
  const listed = await once(proxy.mcp, "POST", mcpHeaders, rpc("tools/list", {}));
  if (listed.status !== 200 || !listed.text.includes('"get_profile"')) throw new Error(`tools/list through the proxy answered ${listed.status}`);
  const restDirect = new URL(brandPath, new URL(restMock.url.href.replace(/v1\/?$/, "")));

  const heaps: [string, number][] = [["idle", await heapMb(proxy.child)]];
  const lat = [
    await latency("REST GET /v1/brands/{id}", restDirect, new URL(brandPath, proxy.rest), "GET", restHeaders),
    await latency("  with a new secret each", restDirect, new URL(brandPath, proxy.rest), "GET", restHeaders, undefined, true),
    await latency("MCP tools/call get_profile", mcpMock.url, proxy.mcp, "POST", mcpHeaders, getProfile),
    await latency("  with a new secret each", mcpMock.url, proxy.mcp, "POST", mcpHeaders, getProfile, true),
  ];
  console.log(`\nLatency, one exchange at a time, ${samples} samples each, direct and proxied alternately:\n`);
  const cell = (c: string, i: number) => (i === 0 ? c.padEnd(30) : c.padStart(12));
  console.log(["exchange", "direct p50", "proxy p50", "added p50", "× direct", "direct p99", "proxy p99", "added p99", "errors"].map(cell).join(" "));
  for (const l of lat) {
    const added = l.proxy.p50 - l.direct.p50;
    if (added > targetP50Ms || l.errors) failed = true;
    console.log(
      [l.label, l.direct.p50.toFixed(2), l.proxy.p50.toFixed(2), added.toFixed(2), (l.proxy.p50 / l.direct.p50).toFixed(2), l.direct.p99.toFixed(2), l.proxy.p99.toFixed(2), (l.proxy.p99 - l.direct.p99).toFixed(2), String(l.errors)]
        .map(cell)
        .join(" "),
    );
  }

  // Throughput: direct and proxied in turns (each proxied run between two direct ones), so that both meet the
  // same load from whatever else runs on the machine; each answer must be the one the service gives directly just before
  // (same work, same answer: a cheap refusal cannot pass for throughput).
  // Each party's CPU is measured over each run too (bench/proc-cpu.ts): the client's (this process, autocannon),
  // the service's, the proxy's event loop and its other threads (the judge worker, V8's helpers). Per request,
  // these do not depend on what else runs on the machine, and they say what ratio the cores alone allow.
  // Two runs are references, not judged by the aim: the same load through a bare node:http forwarder
  // (bench/bare-forwarder.ts) and through a minimal byte-level one (bench/min-forwarder.ts), what a forwarder
  // costs before it checks, records or judges anything.
  type Reference = { url: string; pid: number };
  const throughput = async (name: string, direct: Load, proxied: Load, servicePid: number, bare: Reference, least: Reference): Promise<{ rows: Measured[]; cpu: CpuRow[]; ratios: number[]; rounds: number[][] }> => {
    const runs: [string, Load, number][] = [
      [`${name} direct`, direct, proxy.child.pid!],
      [`${name} through the proxy`, proxied, proxy.child.pid!],
      ["  with a new secret each", { ...proxied, newSecretIn: "x-api-key" }, proxy.child.pid!],
      ["  (bare node:http forwarder)", { ...proxied, url: bare.url }, bare.pid],
      ["  (minimal byte-level forwarder)", { ...proxied, url: least.url }, least.pid],
      // The base of the row with a new secret each: the client makes a new secret for every request there, work
      // the plain direct run does not do, on the same cores; the same client work direct keeps the ratio fair.
      ["  direct, with a new secret each", { ...direct, newSecretIn: "x-api-key" }, proxy.child.pid!],
    ];
    const results: Measured[][] = runs.map(() => []);
    /** Each round's requests per second, per scenario (the direct ones ran twice a round: their mean). */
    const byRound: number[][] = runs.map(() => []);
    const cpu: CpuTally[] = runs.map(() => newCpuTally());
    // A round: each load through the proxy between two direct runs of the same load (so that it meets the
    // machine as both do), then the references (compared with the round's plain direct runs). The two
    // bracketed halves swap places every other round, so that neither always runs first.
    const halves = [[0, 1, 0], [5, 2, 5]];
    // A round whose two direct runs of a bracket differ by more than this (of the larger) met a machine whose speed
    // changed within seconds: its ratios say nothing of the proxy, and the round is measured again (at most
    // `rounds` times in all). Only the direct runs decide it, never what the proxy did; every run, kept or not,
    // still counts in the table, the CPU figures and the errors.
    const steadiness = 0.2;
    let again = 0;
    for (let round = 0; round < rounds; round++) {
      const expectBody = (await once(new URL(direct.url), direct.method ?? "GET", direct.headers ?? {}, direct.body)).text;
      const schedule = [...(round % 2 ? [...halves[1]!, ...halves[0]!] : halves.flat()), 3, 4];
      const got: number[][] = runs.map(() => []);
      for (const i of schedule) {
        const [label, load, proxyPid] = runs[i]!;
        const pids = { client: process.pid, service: servicePid, proxy: proxyPid };
        const before = cpuOfParties(pids);
        const measured = await measure(label, { ...load, expectBody, duration: slice });
        addCpu(cpu[i]!, before, cpuOfParties(pids), measured.total ?? 0);
        results[i]!.push(measured);
        got[i]!.push(measured.requestsPerSecond);
      }
      const drift = Math.max(...[0, 5].map((i) => 1 - Math.min(...got[i]!) / Math.max(...got[i]!)));
      if (drift > steadiness && again < rounds) {
        again++;
        console.log(`  ${name}, round ${round + 1}: its direct runs differ by ${(drift * 100).toFixed(0)}% (${[0, 5].map((i) => got[i]!.map((x) => x.toFixed(0)).join(" and ")).join("; ")} req/s): measured again`);
        round--;
        continue;
      }
      got.forEach((xs, i) => byRound[i]!.push(xs.reduce((a, b) => a + b, 0) / xs.length));
    }
    // Each round's ratio to the direct runs around it (which met the same load from the rest of the machine),
    // and their median: one round that met a burst elsewhere does not decide.
    const roundRatios = (i: number, base: number) => byRound[i]!.map((x, k) => x / byRound[base]![k]!);
    const medianRatio = (i: number, base: number) => roundRatios(i, base).sort((a, b) => a - b)[Math.floor(rounds / 2)]!;
    return {
      rows: results.map(combined),
      cpu: cpu.map((c, i) => cpuRow(runs[i]![0], c)),
      ratios: [medianRatio(1, 0), medianRatio(2, 5)],
      rounds: [roundRatios(1, 0), roundRatios(2, 5), roundRatios(3, 0), roundRatios(4, 0)],
    };
  };
  const restLoad: Load = { url: new URL(brandPath, proxy.rest).href, headers: restHeaders };
  const mcpLoad: Load = { url: proxy.mcp.href, method: "POST", headers: mcpHeaders, body: getProfile };
  const rest = await throughput("REST GET", { ...restLoad, url: restDirect.href }, restLoad, restMock.pid, { url: new URL(brandPath, bare.rest).href, pid: bare.rest.pid }, { url: new URL(brandPath, least.rest).href, pid: least.rest.pid });
  const mcp = await throughput("MCP get_profile", { ...mcpLoad, url: mcpMock.url.href }, mcpLoad, mcpMock.pid, { url: new URL(mcpMock.url.pathname, bare.mcp).href, pid: bare.mcp.pid }, { url: new URL(mcpMock.url.pathname, least.mcp).href, pid: least.mcp.pid });
  for (const { rows, cpu, ratios, rounds: byRound } of [rest, mcp]) {
    console.log(`\nThroughput, ${rounds} rounds of ${slice} s each in turns, 20 connections; "× base" is req/s relative to ${rows[0]!.label} (load average ${loadAverage()}):\n`);
    printTable(rows, rows[0]!);
    if (rows.some((r) => r.errors || r.non2xx || r.mismatches)) failed = true;
    const worst = Math.min(...ratios);
    if (worst < throughputAim) failed = true;
    console.log(`  through the proxy, median of the rounds' ratios: ${ratios[0]!.toFixed(2)}× direct, ${ratios[1]!.toFixed(2)}× with a new secret each, against direct with one (aim: at least ${throughputAim}×)`);
    // Every round's ratio, in the order run: what the medians are taken from.
    const shown = (xs: number[]) => xs.map((x) => `${x.toFixed(2)}×`).join(", ");
    console.log(`  each round: through the proxy ${shown(byRound[0]!)}; with a new secret each ${shown(byRound[1]!)}; bare forwarder ${shown(byRound[2]!)}; minimal forwarder ${shown(byRound[3]!)}`);
    printCpu(cpu);
  }

  heaps.push(["after latency and throughput", await heapMb(proxy.child)]);
  for (let round = 1; round <= soakRounds; round++) {
    const load = await Promise.all([
      measure("soak: new brands", { url: new URL("v1/brands", proxy.rest).href, method: "POST", headers: restHeaders, body: JSON.stringify({ website: "https://www.harbourloaf.ie" }), connections: 8, duration: soakSeconds }),
      measure("soak: brand reads", { url: new URL(brandPath, proxy.rest).href, headers: restHeaders, connections: 6, duration: soakSeconds }),
      measure("soak: MCP get_profile", { url: proxy.mcp.href, method: "POST", headers: mcpHeaders, body: getProfile, connections: 6, duration: soakSeconds }),
    ]);
    const requests = load.reduce((n, r) => n + r.requestsPerSecond * soakSeconds, 0);
    if (load.some((r) => r.errors)) failed = true;
    heaps.push([`soak round ${round} (≈${Math.round(requests)} exchanges)`, await heapMb(proxy.child)]);
  }
  console.log(`\nThe proxy's heap after full garbage collections:\n`);
  for (const [when, mb] of heaps) console.log(`  ${when.padEnd(44)} ${mb.toFixed(1)} MB`);
  const firstSoak = heaps[2]![1];
  const last = heaps[heaps.length - 1]![1];
  if (last - firstSoak > growthAimMb) failed = true;
  console.log(`  growth from the first soak round to the last: ${(last - firstSoak).toFixed(1)} MB (aim: at most ${growthAimMb} MB)`);

  // What the proxy judged: judging runs beside forwarding with a bounded backlog, so under a load it cannot
  // follow, exchanges are forwarded but left unjudged, and the report says so (never ✓).
  const exited = new Promise((resolve) => proxy.child.once("exit", resolve));
  proxy.child.kill("SIGINT");
  await exited;
  const report = JSON.parse(fs.readFileSync(reportFile, "utf8")) as ProxyReport;
  const judged = report.exchanges.rest + report.exchanges.mcp - report.unjudged.count - report.clientFaults.count - report.noAnswer.count;
  console.log(`\nThe proxy's verdicts: ${report.exchanges.rest + report.exchanges.mcp} exchanges, ${judged} judged, ${report.violations} violations (${report.bySide.service} by the service), unjudged: ${report.unjudged.count}${report.unjudged.byKind.map((k) => `, reason: ${k.kind} ×${k.count}`).join("")}`);
  // Not a failure of the bench: the mocks run on a clock 10,000× fast, so under load a brand can be read before
  // its creation is answered (brand-create-reading); the rules are listed so that anything else stands out.
  if (report.byRule.length) console.log(`  rules: ${report.byRule.map((t) => `${t.rule} ×${t.count}`).join(", ")}`);

  console.log(`\n${failed ? "FAIL" : "OK"}: aim 0 errors, at most ${targetP50Ms} ms added at p50, throughput through the proxy at least ${throughputAim}× direct, flat heap.`);
} finally {
  proxy.child.kill("SIGINT");
  for (const r of references) r.stop();
  restMock.stop();
  mcpMock.stop();
  agent.destroy();
}
process.exitCode = failed ? 1 : 0;
