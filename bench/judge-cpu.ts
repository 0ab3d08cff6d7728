// `npm run bench:judge-cpu`: the proxy judge's CPU per exchange, in CPU time (process.cpuUsage), which the
// other load on a shared machine barely moves. The exchanges are real: captured from the mocks (started as users
// start them), the ones bench:proxy loads (REST GET /v1/brands/{id}, MCP tools/call get_profile) and a spread of
// others (creations, errors, refusals, tools/list), then judged as the judge worker judges them (judgeExchangeText on
// the data handed over: the verdict as its JSON text, with the state carried from one exchange to the next).
//   JUDGE_CPU_ROUNDS (default 2000): times each exchange is judged.
//   JUDGE_CORPUS=file: judge the exchanges saved in `file` (written there first when it does not exist), so that
//     two versions of the judges are measured on the same bytes.
//   JUDGE_ONLY=text: measure only the exchanges whose name holds `text` (the verdicts still cover all).
//   JUDGE_VERDICTS=file: write every verdict of one pass over the corpus there (to compare two versions: the
//     verdicts must be the same).
// With `node --cpu-prof` (NODE_OPTIONS="--cpu-prof --cpu-prof-dir=…") the profile shows where the time goes.
import fs from "node:fs";
import http from "node:http";
import { judgeExchange, judgeExchangeText, newJudgeStates, type ExchangeData } from "../proxy/judge-exchange.js";
import { SecretHeaders } from "../proxy/secrets.js";
import { startCliMock } from "./lib.js";

const rounds = Number(process.env.JUDGE_CPU_ROUNDS ?? 2000);
const corpusFile = process.env.JUDGE_CORPUS;
const verdictsFile = process.env.JUDGE_VERDICTS;

/** A captured exchange, named by what it shows; bodies as text (all the mocks answer is UTF-8 JSON). */
interface Captured {
  name: string;
  data: Omit<ExchangeData, "request" | "response"> & { request: string; response: string };
}

const restHeaders = { authorization: "Bearer test_team_a", "content-type": "application/json", accept: "application/json" };
const mcpHeaders = { authorization: "Bearer mcp_user", "content-type": "application/json", accept: "application/json, text/event-stream" };
const rpc = (method: string, params: unknown, id = 1) => JSON.stringify({ jsonrpc: "2.0", id, method, params });

let seq = 0;
/** One exchange with a mock, kept as the proxy keeps it. */
function capture(name: string, protocol: "rest" | "mcp", url: URL, method: string, headers: Record<string, string>, body = ""): Promise<Captured> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = http.request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const ms = performance.now() - started;
        const path = url.pathname + url.search;
        resolve({
          name,
          data: { protocol, seq: ++seq, method, path, requestHeaders: { ...headers, host: url.host }, request: body, requestTruncated: false, status: res.statusCode ?? 0, responseHeaders: res.headers, response: Buffer.concat(chunks).toString("utf8"), responseTruncated: false, ms, serviceMs: ms },
        });
      });
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}

async function captureCorpus(): Promise<Captured[]> {
  const restMock = await startCliMock("REST reference server");
  const mcpMock = await startCliMock("MCP gateway mock");
  try {
    const rest = new URL(restMock.url.href.replace(/v1\/?$/, ""));
    const mcp = mcpMock.url;
    const out: Captured[] = [];
    const created = await capture("REST POST /v1/brands (website)", "rest", new URL("v1/brands", rest), "POST", restHeaders, JSON.stringify({ website: "https://www.harbourloaf.ie" }));
    out.push(created);
    const brandId = JSON.parse(created.data.response).id as string;
    out.push(await capture("REST GET /v1/brands/{id}", "rest", new URL(`v1/brands/${brandId}`, rest), "GET", restHeaders));
    out.push(await capture("REST POST /v1/brands (name, description)", "rest", new URL("v1/brands", rest), "POST", restHeaders, JSON.stringify({ name: "Harbour Loaf", description: "A bakery by the sea" })));
    out.push(await capture("REST POST /v1/brands (bad website) 400", "rest", new URL("v1/brands", rest), "POST", restHeaders, JSON.stringify({ website: "ftp://x" })));
    out.push(await capture("REST GET /v1/brands/{unknown} 404", "rest", new URL("v1/brands/brand_nope", rest), "GET", restHeaders));
    out.push(await capture("REST GET without a token 401", "rest", new URL(`v1/brands/${brandId}`, rest), "GET", { accept: "application/json" }));
    out.push(await capture("REST PATCH /v1/brands/{id}", "rest", new URL(`v1/brands/${brandId}`, rest), "PATCH", restHeaders, JSON.stringify({ focus: "bread" })));
    out.push(await capture("REST POST /v1/ideas", "rest", new URL("v1/ideas", rest), "POST", restHeaders, JSON.stringify({ brand: brandId, count: 3 })));
    const batch = JSON.parse(out[out.length - 1]!.data.response) as { id?: string };
    if (batch.id) out.push(await capture("REST GET /v1/ideas/{id}", "rest", new URL(`v1/ideas/${batch.id}`, rest), "GET", restHeaders));
    out.push(await capture("REST GET /v1/brands/{id} again", "rest", new URL(`v1/brands/${brandId}`, rest), "GET", restHeaders));

    out.push(await capture("MCP initialize", "mcp", mcp, "POST", mcpHeaders, rpc("initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "1" } })));
    out.push(await capture("MCP tools/list", "mcp", mcp, "POST", mcpHeaders, rpc("tools/list", {})));
    const ws = await capture("MCP tools/call get_workspaces", "mcp", mcp, "POST", mcpHeaders, rpc("tools/call", { name: "get_workspaces", arguments: {} }));
    out.push(ws);
    const workspaceId = JSON.parse(ws.data.response).result.structuredContent.data.workspaces[0].id as string;
    const list = await capture("MCP tools/call list_brands", "mcp", mcp, "POST", mcpHeaders, rpc("tools/call", { name: "list_brands", arguments: { workspaceId } }));
    out.push(list);
    const mcpBrand = JSON.parse(list.data.response).result.structuredContent.data.brands[0].id as string;
    out.push(await capture("MCP tools/call get_profile", "mcp", mcp, "POST", mcpHeaders, rpc("tools/call", { name: "get_profile", arguments: { brandId: mcpBrand } })));
    out.push(await capture("MCP tools/call get_profile (unknown brand)", "mcp", mcp, "POST", mcpHeaders, rpc("tools/call", { name: "get_profile", arguments: { brandId: "00000000-0000-4000-8000-000000000000" } })));
    out.push(await capture("MCP tools/call get_profile (bad arguments)", "mcp", mcp, "POST", mcpHeaders, rpc("tools/call", { name: "get_profile", arguments: { brandId: 5, extra: true } })));
    out.push(await capture("MCP tools/call (unknown tool)", "mcp", mcp, "POST", mcpHeaders, rpc("tools/call", { name: "no_such_tool", arguments: {} })));
    out.push(await capture("MCP without a token 401", "mcp", mcp, "POST", { ...mcpHeaders, authorization: "" }, rpc("tools/list", {})));
    out.push(await capture("MCP tools/call get_profile again", "mcp", mcp, "POST", mcpHeaders, rpc("tools/call", { name: "get_profile", arguments: { brandId: mcpBrand } })));
    return out;
  } finally {
    restMock.stop();
    mcpMock.stop();
  }
}

/** A captured exchange with its answer (or request) changed: what the judges must find, in the words they use. */
function variant(of: Captured, name: string, change: { response?: (body: any) => unknown; request?: (body: any) => unknown; status?: number; responseHeaders?: Record<string, string> }): Captured {
  const edit = (text: string, f?: (body: any) => unknown) => {
    if (!f) return text;
    const out = f(JSON.parse(text));
    return typeof out === "string" ? out : JSON.stringify(out);
  };
  const data = { ...of.data, seq: ++seq, response: edit(of.data.response, change.response), request: edit(of.data.request, change.request) };
  if (change.status !== undefined) data.status = change.status;
  if (change.responseHeaders) data.responseHeaders = { ...of.data.responseHeaders, ...change.responseHeaders };
  return { name: `${of.name}: ${name}`, data };
}

/** Answers the judges must fault (and a few they must take), made from the captured ones: every verdict's words are compared. */
function variants(corpus: Captured[]): Captured[] {
  const find = (name: string) => corpus.find((c) => c.name === name)!;
  const brand = find("REST GET /v1/brands/{id}");
  const batch = find("REST GET /v1/ideas/{id}");
  const created = find("REST POST /v1/brands (website)");
  const notFound = find("REST GET /v1/brands/{unknown} 404");
  const profile = find("MCP tools/call get_profile");
  const unknownBrand = find("MCP tools/call get_profile (unknown brand)");
  const result = (f: (r: any) => void) => (body: any) => (f(body.result), body);
  const payload = (f: (d: any) => void) =>
    result((r) => {
      f(r.structuredContent.data);
      r.content[0].text = JSON.stringify(r.structuredContent.data);
    });
  return [
    variant(brand, "no name", { response: (b) => ({ ...b, name: undefined }) }),
    variant(brand, "language EN", { response: (b) => ({ ...b, language: "EN" }) }),
    variant(brand, "language english", { response: (b) => ({ ...b, language: "english" }) }),
    variant(brand, "country Ireland", { response: (b) => ({ ...b, country: "Ireland" }) }),
    variant(brand, "id without prefix", { response: (b) => ({ ...b, id: "JRKfKPH9pygW" }) }),
    variant(brand, "camelCase field", { response: (b) => ({ ...b, createdAt: b.created_at }) }),
    variant(brand, "created_at not a time", { response: (b) => ({ ...b, created_at: "yesterday" }) }),
    variant(brand, "object wrong", { response: (b) => ({ ...b, object: "company" }) }),
    variant(brand, "offerings a string", { response: (b) => ({ ...b, offerings: "bread" }) }),
    variant(brand, "status unknown", { response: (b) => ({ ...b, status: "baking" }) }),
    variant(brand, "text/plain", { responseHeaders: { "content-type": "text/plain" } }),
    variant(brand, "not JSON", { response: () => "<html>" }),
    variant(brand, "status 203", { status: 203 }),
    variant(brand, "status 502", { status: 502 }),
    variant(batch, "ranks out of order", { response: (b) => ({ ...b, status: "done", done_at: b.created_at, data: [{ rank: 2 }, { rank: 1 }] }) }),
    variant(batch, "model empty", { response: (b) => ({ ...b, model: " " }) }),
    variant(created, "status ready", { response: (b) => ({ ...b, status: "ready" }) }),
    variant(notFound, "no envelope", { response: () => ({ message: "not found" }) }),
    variant(notFound, "type wrong", { response: (b) => ({ error: { ...b.error, type: "oops" } }) }),
    variant(notFound, "camelCase in envelope", { response: (b) => ({ error: { ...b.error, errorCode: 1 } }) }),
    variant(profile, "text differs", { response: result((r) => (r.content[0].text = "{}")) }),
    variant(profile, "text not JSON", { response: result((r) => (r.content[0].text = "ok")) }),
    variant(profile, "no structuredContent", { response: result((r) => delete r.structuredContent) }),
    variant(profile, "isError false on success", { response: result((r) => (r.isError = false)) }),
    variant(profile, "brandName a number", { response: payload((d) => (d.brandName = 5)) }),
    variant(profile, "new field and health value", { response: payload((d) => ((d.brandNew = true), (d.channels[0].health = "dormant"))) }),
    variant(profile, "health in capitals", { response: payload((d) => (d.channels[0].health = "CONNECTED")) }),
    variant(profile, "time not in UTC", { response: payload((d) => (d.channels[0].connectedAt = "2026-09-27T19:09:53.452+02:00")) }),
    variant(profile, "canGenerate despite a blocker", { response: payload((d) => (d.readiness = { canGenerate: true, canPublish: false, blockers: ["profile_not_ready"] })) }),
    variant(profile, "answers another id", { response: (b) => ({ ...b, id: 9 }) }),
    variant(unknownBrand, "envelope without retryable", { response: payload((d) => delete d.error.retryable) }),
    variant(unknownBrand, "not_found retryable", { response: payload((d) => (d.error.retryable = true)) }),
    variant(unknownBrand, "envelope without isError", { response: result((r) => delete r.isError) }),
  ];
}

const bytes = (s: string) => new Uint8Array(Buffer.from(s, "utf8"));
const dataOf = (c: Captured): ExchangeData => ({ ...c.data, request: bytes(c.data.request), response: bytes(c.data.response) });

let corpus: Captured[];
if (corpusFile && fs.existsSync(corpusFile)) corpus = JSON.parse(fs.readFileSync(corpusFile, "utf8")) as Captured[];
else {
  corpus = await captureCorpus();
  if (corpusFile) fs.writeFileSync(corpusFile, JSON.stringify(corpus, null, 1));
}
corpus = [...corpus, ...variants(corpus)];
const secrets = new SecretHeaders();

// One pass in order, from fresh state: the verdicts to compare between versions.
const states = newJudgeStates();
const verdicts = corpus.map((c) => ({ name: c.name, verdict: judgeExchange(dataOf(c), secrets, states) }));
if (verdictsFile) fs.writeFileSync(verdictsFile, JSON.stringify(verdicts, null, 1));

/**
 * CPU microseconds per judged exchange of `c` (state carried, as in the worker): the median of 7 slices of
 * `rounds` / 7 judgements, so that a slice that met a busy neighbour (caches, frequency) does not decide.
 */
function cpuPerExchange(c: Captured): number {
  const d = dataOf(c);
  const st = newJudgeStates();
  const per = Math.max(1, Math.round(rounds / 7));
  const slices: number[] = [];
  for (let k = 0; k < 7; k++) {
    const before = process.cpuUsage();
    for (let i = 0; i < per; i++) judgeExchangeText(d, secrets, st);
    const used = process.cpuUsage(before);
    slices.push((used.user + used.system) / per);
  }
  return slices.sort((x, y) => x - y)[3]!;
}

// The JIT warmed on every kind of exchange first (as in a proxy that has run a while), so the first measured is
// not the one that pays for compiling the judges' shared code.
const warm = newJudgeStates();
for (let i = 0; i < 300; i++) for (const c of corpus) if (i < 3 || !c.name.includes("tools/list")) judgeExchangeText(dataOf(c), secrets, warm);

console.log(`Judge CPU per exchange (µs, median of 7 slices of ${Math.round(rounds / 7)} judgements each, process.cpuUsage):\n`);
for (const c of corpus.filter((x) => x.name.includes(process.env.JUDGE_ONLY ?? ""))) {
  const v = verdicts.find((x) => x.name === c.name)!.verdict;
  console.log(`  ${c.name.padEnd(48)} ${cpuPerExchange(c).toFixed(1).padStart(8)}   ${v.outcome}${v.violations.length ? ` (${v.violations.length} violations)` : ""}`);
}
