// `npx tsx bench/soak.ts` (not part of npm test): load and soak of both mocks. Each mock runs as users start it
// (`ideas-contract mock`, its own process, time scale 0.0001; plus the heap probe below) and gets SOAK_CLIENTS
// (default 50) concurrent clients for SOAK_SECONDS (default 60) real seconds, both mocks at once, mixing reads,
// writes and polls:
//   REST: create a brand, poll it until ready, now and then update it, ask for ideas, poll the batch until done,
//         send feedback on an idea, now and then rank drafts (predictions);
//   MCP:  (each client its own partner client profile, so AI allowances do not run out) get_profile,
//         create_posts (count 1, at most one every 2 s per client), poll get_post_batch_status until settled,
//         view_post, update_post.
// It reports errors (transport errors, timeouts, 5xx, unexpected statuses, refusals, answers that break the
// contract; aim 0), latency percentiles per mock and per operation, and per mock process its RSS (VmRSS from
// /proc/<pid>/status) idle before the load, after a warm-up (the first fifth of the run, at most 10 s), at the end
// of the load and at its peak, and its heap after full garbage collections (bench/soak-probe.ts, loaded into the
// mock process with --expose-gc) idle before the load and once the load is over.
// The growth checked (aim: at most 50 MB) is that retained heap: after the load − before it. RSS growth is
// reported but not judged: under load RSS is mostly garbage V8 has not collected yet and heap it keeps committed,
// sized by V8's heuristics from the allocation rate (end − warm-up of the REST mock ranged from +33 to +87 MB
// across runs on one machine with the same load and the same bounded stores). The REST mock keeps what
// the clients create (its stores are bounded at 10,000 records per team and kind), so its line also says how many
// records were made. Every loop is bounded; the run stops by itself (a watchdog ends it SOAK_SECONDS + 60 s after
// the start at the latest). Exit code 1 when there were errors or the retained heap grew more than 50 MB.
import http from "node:http";
import type { ChildProcess } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { readFileSync } from "node:fs";
import { validators as restValidators } from "../generated/rest/validators.js";
import { strictResultValidators } from "../generated/mcp/validators-strict.js";
import { startCliMock } from "./lib.js";
import type { HeapFigures } from "./soak-probe.js";

const seconds = Number(process.env.SOAK_SECONDS ?? 60);
const clientsPerMock = Number(process.env.SOAK_CLIENTS ?? 50);
const targets = new Set((process.env.SOAK_TARGETS ?? "rest,mcp").split(",").map((s) => s.trim()));
/**
 * Requests per second the MCP clients send at most, together: the mock refuses more than 100,000 requests a
 * minute from one address (HTTP 429, not configurable from the CLI), and every client here is 127.0.0.1.
 */
const mcpMaxRps = Number(process.env.SOAK_MCP_MAX_RPS ?? 1400);
const growthBudgetMb = 50;
const requestTimeoutMs = 10_000;
if (!(seconds > 0) || !(clientsPerMock > 0)) throw new Error("SOAK_SECONDS and SOAK_CLIENTS must be positive numbers");

// ---------------------------------------------------------------------------------------------------------------
// Measuring

interface Stats {
  latencies: number[];
  byOp: Map<string, number[]>;
  errors: Map<string, number>;
  /** Answers the contract allows but the mix did not want (e.g. usage_limit_exceeded); reported, not errors. */
  refusals: Map<string, number>;
  checked: number;
}
const newStats = (): Stats => ({ latencies: [], byOp: new Map(), errors: new Map(), refusals: new Map(), checked: 0 });
const bump = (m: Map<string, number>, key: string) => m.set(key, (m.get(key) ?? 0) + 1);
const total = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
const signed = (mb: number) => `${mb >= 0 ? "+" : ""}${mb.toFixed(1)}`;

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1]);
  return kb / 1024;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The probe's figures (bench/soak-probe.ts) from a mock process: heap after two full collections, and RSS. */
function heapAfterGc(child: ChildProcess): Promise<{ heapMb: number; rssMb: number }> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.off("message", onMessage);
      reject(new Error(`mock process ${child.pid} did not answer the heap probe within 30 s`));
    }, 30_000);
    const onMessage = (message: HeapFigures) => {
      if (message?.type !== "soak:heap") return;
      clearTimeout(timer);
      child.off("message", onMessage);
      resolve({ heapMb: message.heapUsed / 1024 / 1024, rssMb: message.rss / 1024 / 1024 });
    };
    child.on("message", onMessage);
    child.send({ type: "soak:heap" });
  });
}

/** Spaces request starts at least 1000/rps ms apart (shared by every client of a mock). */
function pacer(rps: number): () => Promise<void> {
  let next = 0;
  return async () => {
    const now = performance.now();
    next = Math.max(now, next + 1000 / rps);
    if (next - now >= 1) await sleep(next - now);
  };
}

// ---------------------------------------------------------------------------------------------------------------
// HTTP

/**
 * Idle keep-alive sockets are dropped after `idleSocketMs`, before the mocks close them. Both mocks keep an idle
 * connection 5 s (Node's default, sent as `Keep-Alive: timeout=5`; node:http really closes it a second later), and
 * Node's agent honours that hint only to shorten a `timeout` of its own: without one it keeps idle sockets forever
 * and, while this busy process has not yet read the server's FIN, hands such a socket to the next request, which
 * then fails with ECONNRESET ("socket hang up"). 4 s is what the agent would have derived from the hint.
 */
const idleSocketMs = 4_000;
const agent = new http.Agent({ keepAlive: true, maxSockets: 4 * clientsPerMock, timeout: idleSocketMs });

interface Answer {
  status: number;
  body: any;
}

class SoakError extends Error {}

/** One request, timed into `stats` under `op`; throws SoakError (already counted) on a transport failure. */
function request(stats: Stats, op: string, url: URL, method: string, headers: Record<string, string>, body?: unknown): Promise<Answer> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const fail = (why: string) => {
      bump(stats.errors, `${op}: ${why}`);
      reject(new SoakError(why));
    };
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method,
        agent,
        headers: { ...headers, ...(payload !== undefined ? { "content-type": "application/json", "content-length": Buffer.byteLength(payload) } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const ms = performance.now() - started;
          stats.latencies.push(ms);
          let list = stats.byOp.get(op);
          if (!list) stats.byOp.set(op, (list = []));
          list.push(ms);
          let parsed: unknown;
          try {
            parsed = JSON.parse(Buffer.concat(chunks).toString("utf8"));
          } catch {
            return fail(`${res.statusCode} with a body that is not JSON`);
          }
          resolve({ status: res.statusCode ?? 0, body: parsed });
        });
        res.on("error", (err) => fail(err.message));
      },
    );
    req.setTimeout(requestTimeoutMs, () => req.destroy(new Error(`no answer within ${requestTimeoutMs} ms`)));
    req.on("error", (err) => fail(err.message));
    req.end(payload);
  });
}

// ---------------------------------------------------------------------------------------------------------------
// REST clients

const restSchemas: Record<string, string> = { brand: "Brand", batch: "IdeaBatch", feedback: "Feedback", prediction: "Prediction" };
const restValidate: Readonly<Record<string, (data: unknown) => boolean>> = restValidators;

async function restClient(base: URL, k: number, deadline: number, stats: Stats): Promise<void> {
  const token = k % 2 ? "test_team_b" : "test_team_a";
  const headers = { authorization: `Bearer ${token}` };
  const url = (path: string) => new URL(path, base);
  /** Calls and checks the status; every 10th answer is also validated against the contract. */
  const call = async (op: string, method: string, path: string, want: number, body?: unknown): Promise<any> => {
    const answer = await request(stats, op, url(path), method, headers, body);
    if (answer.status !== want) {
      bump(stats.errors, `${op}: ${answer.status} ${answer.body?.error?.code ?? ""}`.trim());
      throw new SoakError(`${op} answered ${answer.status}`);
    }
    if (++stats.checked % 10 === 0) {
      const schema = restSchemas[op.split(" ")[0]!];
      if (schema && !restValidate[schema]!(answer.body)) bump(stats.errors, `${op}: answer breaks the ${schema} schema`);
    }
    return answer.body;
  };
  for (let i = 0; Date.now() < deadline; i++) {
    try {
      const byWebsite = i % 2 === 0;
      const created = await call(
        "brand create",
        "POST",
        "/v1/brands",
        201,
        byWebsite ? { website: `https://www.soak-${k}-${i}-bakery.com` } : { name: `Soak ${k}.${i}`, description: "A bakery in the soak test. We bake sourdough every morning." },
      );
      let brand = created;
      for (let polls = 0; brand.status === "reading" && polls < 200; polls++) {
        await sleep(2);
        brand = await call("brand poll", "GET", `/v1/brands/${created.id}`, 200);
      }
      if (brand.status !== "ready") {
        bump(stats.errors, `brand poll: still ${brand.status}`);
        continue;
      }
      if (i % 3 === 0) await call("brand update", "PATCH", `/v1/brands/${brand.id}`, 200, { rules: { never: ["Discounts."], always: [`Client ${k} says hello.`] } });
      for (let j = 0; j < 2 && Date.now() < deadline; j++) {
        const asked = await call("batch create", "POST", "/v1/ideas", 202, { brand: brand.id, count: 3, ...(j ? { focus: "Weekend bread" } : {}) });
        let batch = asked;
        for (let polls = 0; batch.status === "thinking" && polls < 400; polls++) {
          await sleep(5);
          batch = await call("batch poll", "GET", `/v1/ideas/${asked.id}`, 200);
        }
        if (batch.status !== "done" || !batch.data.length) {
          bump(stats.errors, `batch poll: ended ${batch.status} with ${batch.data?.length ?? 0} ideas`);
          continue;
        }
        const outcome = ["posted", "saved", "rejected"][(i + j) % 3];
        await call("feedback create", "POST", "/v1/feedback", 201, { idea: batch.data[0].id, outcome, ...(outcome === "rejected" ? { reason: "off_brand" } : {}) });
      }
      if (i % 4 === 0) await call("prediction create", "POST", "/v1/predictions", 200, { brand: brand.id, drafts: [{ text: "Fresh sourdough every morning." }, { text: "Big discounts today!" }] });
    } catch (err) {
      if (!(err instanceof SoakError)) throw err;
      await sleep(10); // counted already; do not spin on a broken server
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------
// MCP clients

const mcpResultValidate: Readonly<Record<string, (data: unknown) => boolean>> = strictResultValidators;
let rpcId = 0;

const mcpPace = pacer(mcpMaxRps);

async function mcpClient(endpoint: URL, k: number, deadline: number, stats: Stats): Promise<void> {
  const headers = { authorization: "Bearer mcp_partner", accept: "application/json, text/event-stream" };
  /** tools/call; returns structuredContent.data of a success, null after a counted refusal or error. */
  const tool = async (name: string, args: Record<string, unknown>): Promise<any> => {
    await mcpPace();
    const answer = await request(stats, name, endpoint, "POST", headers, { jsonrpc: "2.0", id: ++rpcId, method: "tools/call", params: { name, arguments: args } });
    if (answer.status !== 200 || answer.body?.error) {
      bump(stats.errors, `${name}: HTTP ${answer.status}${answer.body?.error ? ` JSON-RPC ${answer.body.error.code}` : ""}`);
      return null;
    }
    const result = answer.body.result;
    if (++stats.checked % 10 === 0 && result?.structuredContent && !mcpResultValidate[name]!(result.structuredContent)) bump(stats.errors, `${name}: answer breaks the result schema`);
    const data = result?.structuredContent?.data;
    if (result?.isError) {
      const code = data?.error?.code ?? "no envelope";
      bump(code === "usage_limit_exceeded" ? stats.refusals : stats.errors, `${name}: ${code}`);
      return null;
    }
    return data;
  };
  try {
    const profile = await tool("create_profile", { websiteUrl: `https://www.soak-client-${k}.com`, name: `Soak Client ${k}`, externalId: `soak-${k}` });
    if (!profile) return;
    const brandId = profile.brandId as string;
    let view = await tool("get_profile", { brandId });
    for (let polls = 0; view && view.onboarding?.status !== "ready" && polls < 500 && Date.now() < deadline; polls++) {
      await sleep(10);
      view = await tool("get_profile", { brandId });
    }
    if (view?.onboarding?.status !== "ready") {
      bump(stats.errors, `get_profile: build ended ${view?.onboarding?.status}`);
      return;
    }
    const posts: string[] = [];
    const batches: string[] = [];
    let lastCreate = -Infinity;
    for (let i = 0; Date.now() < deadline; i++) {
      await tool("get_profile", { brandId });
      if (posts.length === 0 || (Date.now() - lastCreate > 2_000 && posts.length < 100)) {
        lastCreate = Date.now();
        const batch = await tool("create_posts", { brandId, brief: `Soak ${k}: bread of the week ${i}`, count: 1 });
        if (batch) {
          batches.push(batch.batchId);
          let status = batch;
          for (let polls = 0; !(status?.settled && (status.imagesPendingCount ?? 0) === 0) && polls < 400; polls++) {
            await sleep(5);
            status = (await tool("get_post_batch_status", { batchId: batch.batchId })) ?? status;
          }
          const postId = status?.items?.[0]?.postId;
          if (status?.settled && postId) posts.push(postId);
          else bump(stats.errors, "get_post_batch_status: never settled with a post");
        }
      }
      if (!posts.length) {
        await sleep(50);
        continue;
      }
      const id = posts[i % posts.length]!;
      await tool("view_post", { id });
      await tool("update_post", { id, caption: `Soak ${k}, round ${i}: fresh sourdough every morning.` });
      await tool("get_post_batch_status", { batchId: batches[i % batches.length]! });
    }
  } catch (err) {
    if (!(err instanceof SoakError)) throw err;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The run

interface Target {
  name: string;
  label: string;
  run: (url: URL, k: number, deadline: number, stats: Stats) => Promise<void>;
}
const all: Target[] = [
  { name: "REST", label: "REST reference server", run: (url, k, deadline, stats) => restClient(new URL("/", url), k, deadline, stats) },
  { name: "MCP", label: "MCP gateway mock", run: mcpClient },
];
const chosen = all.filter((t) => targets.has(t.name.toLowerCase()));
if (!chosen.length) throw new Error(`SOAK_TARGETS names none of rest, mcp: ${process.env.SOAK_TARGETS}`);

const mocks: { target: Target; url: URL; pid: number; stop(): void; child: ChildProcess }[] = [];
/** How each mock process is started: as the CLI starts it, plus the heap probe (measuring only). */
const probe = path.join(path.dirname(fileURLToPath(import.meta.url)), "soak-probe.ts");
const probeArgs = ["--expose-gc", "--import", "tsx", "--import", probe];
const watchdog = setTimeout(() => {
  console.error(`soak: still running ${seconds + 60} s after the start; stopping.`);
  for (const m of mocks) m.stop();
  process.exit(1);
}, (seconds + 60) * 1000);
watchdog.unref();

async function stopMocks(): Promise<void> {
  for (const m of mocks.splice(0)) {
    m.stop();
    // Wait (bounded) for the process we started to exit.
    for (let i = 0; i < 50; i++) {
      try {
        process.kill(m.pid, 0);
      } catch {
        break;
      }
      await sleep(100);
    }
  }
}
process.once("SIGINT", () => void stopMocks().then(() => process.exit(130)));

try {
  for (const target of chosen) {
    const started = await startCliMock(target.label, { nodeArgs: probeArgs, ipc: true });
    mocks.push({ target, ...started });
  }
  console.log(`soak: ${clientsPerMock} clients per mock for ${seconds} s against ${mocks.map((m) => `${m.target.name} (pid ${m.pid}, ${m.url.href})`).join(" and ")}`);
  const rssIdle = new Map(mocks.map((m) => [m.pid, rssMb(m.pid)]));
  const heapIdle = new Map(await Promise.all(mocks.map(async (m) => [m.pid, (await heapAfterGc(m.child)).heapMb] as const)));
  const rssPeak = new Map(rssIdle);
  const rssWarm = new Map(rssIdle);
  const stats = new Map(mocks.map((m) => [m.pid, newStats()]));
  const startedAt = Date.now();
  const deadline = startedAt + seconds * 1000;
  const warmUpSeconds = Math.min(10, seconds / 5);
  const warmUp = setTimeout(() => {
    for (const m of mocks) rssWarm.set(m.pid, rssMb(m.pid));
    console.log(`  warm-up over after ${warmUpSeconds} s: RSS ${mocks.map((m) => `${m.target.name} ${rssWarm.get(m.pid)!.toFixed(1)} MB`).join(", ")}`);
  }, warmUpSeconds * 1000);
  const sampler = setInterval(() => {
    const line = mocks.map((m) => {
      const rss = rssMb(m.pid);
      rssPeak.set(m.pid, Math.max(rssPeak.get(m.pid)!, rss));
      const s = stats.get(m.pid)!;
      return `${m.target.name} ${s.latencies.length} req, ${total(s.errors)} errors, RSS ${rss.toFixed(1)} MB`;
    });
    console.log(`  t+${Math.round((Date.now() - startedAt) / 1000)}s  ${line.join(" | ")}`);
  }, 5_000);
  await Promise.all(mocks.flatMap((m) => Array.from({ length: clientsPerMock }, (_, k) => m.target.run(m.url, k, deadline, stats.get(m.pid)!))));
  clearInterval(sampler);
  clearTimeout(warmUp);
  const elapsed = (Date.now() - startedAt) / 1000;
  const rssEnd = new Map(mocks.map((m) => [m.pid, rssMb(m.pid)]));
  agent.destroy(); // the load is over: no client connection is left open while the mocks are measured
  await sleep(500);
  const heapAfter = new Map(await Promise.all(mocks.map(async (m) => [m.pid, await heapAfterGc(m.child)] as const)));

  let failed = false;
  console.log(`\nsoak: ${elapsed.toFixed(1)} s, ${clientsPerMock} clients per mock, 127.0.0.1, mocks at time scale 0.0001\n`);
  const row = (cells: (string | number)[]) => console.log(cells.map((c, i) => (i === 0 ? String(c).padEnd(28) : String(c).padStart(9))).join(" "));
  row(["", "requests", "req/s", "errors", "p50 ms", "p95 ms", "p99 ms", "max ms", "RSS idle", "RSS warm", "RSS end", "RSS peak", "heap idle", "heap after", "growth"]);
  for (const m of mocks) {
    const s = stats.get(m.pid)!;
    const sorted = s.latencies.slice().sort((a, b) => a - b);
    const end = rssEnd.get(m.pid)!;
    const after = heapAfter.get(m.pid)!;
    const growth = after.heapMb - heapIdle.get(m.pid)!;
    const errors = total(s.errors);
    if (errors > 0 || growth > growthBudgetMb) failed = true;
    row([
      `${m.target.name} mock (pid ${m.pid})`,
      sorted.length,
      (sorted.length / elapsed).toFixed(0),
      errors,
      percentile(sorted, 50).toFixed(1),
      percentile(sorted, 95).toFixed(1),
      percentile(sorted, 99).toFixed(1),
      (sorted.at(-1) ?? NaN).toFixed(1),
      `${rssIdle.get(m.pid)!.toFixed(1)} MB`,
      `${rssWarm.get(m.pid)!.toFixed(1)} MB`,
      `${end.toFixed(1)} MB`,
      `${Math.max(rssPeak.get(m.pid)!, end).toFixed(1)} MB`,
      `${heapIdle.get(m.pid)!.toFixed(1)} MB`,
      `${after.heapMb.toFixed(1)} MB`,
      `${signed(growth)} MB`,
    ]);
    console.log(
      `  RSS growth (reported, not judged): end − idle ${signed(end - rssIdle.get(m.pid)!)} MB, end − warm-up ${signed(end - rssWarm.get(m.pid)!)} MB; RSS ${after.rssMb.toFixed(1)} MB after the collections`,
    );
    for (const [op, list] of [...s.byOp].sort((a, b) => b[1].length - a[1].length)) {
      const ops = list.slice().sort((a, b) => a - b);
      row([`  ${op}`, ops.length, (ops.length / elapsed).toFixed(0), "", percentile(ops, 50).toFixed(1), percentile(ops, 95).toFixed(1), percentile(ops, 99).toFixed(1), (ops.at(-1) ?? NaN).toFixed(1)]);
    }
    if (m.target.name === "REST") {
      const made = ["brand create", "batch create", "feedback create"].map((op) => s.byOp.get(op)?.length ?? 0);
      console.log(`  records made (kept up to 10,000 per team and kind): ${made[0]} brands, ${made[1]} batches, ${made[2]} feedback`);
    }
    for (const [what, n] of s.errors) console.log(`  error ×${n}: ${what}`);
    for (const [what, n] of s.refusals) console.log(`  refusal ×${n} (allowed by the contract, not counted as an error): ${what}`);
  }
  console.log(`\n${failed ? "FAIL" : "OK"}: aim 0 errors and at most ${growthBudgetMb} MB growth of the heap kept after full collections (after the load − before it) per mock.`);
  process.exitCode = failed ? 1 : 0;
} finally {
  agent.destroy();
  await stopMocks();
  clearTimeout(watchdog);
}
