// `npm run bench:mock`: the same load against Prism (the baseline) and the stateful REST reference, in one run.
// Both run as their own processes, as users start them, so the load generator competes with neither.
// GET a brand and POST ideas, 20 connections for a few seconds each, on 127.0.0.1, in alternating rounds.
import fs from "node:fs";
import { startPrism } from "../mock/prism.js";
import { restTestTokens } from "../mock/rest/tokens.js";
import { measure, printTable, startCliMock, type Measured } from "./lib.js";

const seconds = Number(process.env.BENCH_SECONDS ?? 6);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const token = restTestTokens.find((t) => t.kind === "valid")!.token;
const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };

/** Resident set size of a process in MB (Linux). */
const rssOf = (pid: number) => Math.round(Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024);

const [reference, prism] = await Promise.all([startCliMock("REST reference server"), startPrism({ port: 0 })]);
try {
  const created = await fetch(new URL("v1/brands", reference.url), {
    method: "POST",
    headers,
    body: JSON.stringify({ website: "https://www.bluefjord-bakery.no" }),
  });
  const brand = (await created.json()) as { id: string };
  await new Promise((r) => setTimeout(r, 100)); // reading takes milliseconds at this time scale
  const ready = (await (await fetch(new URL(`v1/brands/${brand.id}`, reference.url), { headers })).json()) as { status: string };
  if (ready.status !== "ready") throw new Error(`bench brand is ${ready.status}, expected ready`);

  const ideasBody = JSON.stringify({ brand: brand.id, count: 3 });
  const rssBefore = rssOf(reference.pid);
  const rows: Measured[] = [];
  const scenarios = [
    ["GET brand", (base: URL) => ({ url: new URL(`v1/brands/${brand.id}`, base).href, headers })],
    ["POST ideas", (base: URL) => ({ url: new URL("v1/ideas", base).href, method: "POST" as const, headers, body: ideasBody })],
  ] as const;
  // Prism and the reference take turns in short rounds, so a change in the machine's load (other processes on
  // a shared 2-core machine) hits both alike; the ratio reported is the median of the rounds'.
  // Both warm up first (JIT, caches) so the first round does not measure a cold Prism.
  for (const [, load] of scenarios) for (const base of [prism.url, reference.url]) await measure("warm-up", { ...load(base), duration: 1 });
  const ratios = new Map<string, number[]>();
  for (let round = 1; round <= rounds; round++) {
    for (const [name, load] of scenarios) {
      const p = await measure(`Prism      ${name} #${round}`, { ...load(prism.url), duration: seconds / rounds });
      const r = await measure(`reference  ${name} #${round}`, { ...load(reference.url), duration: seconds / rounds });
      rows.push(p, r);
      ratios.set(name, [...(ratios.get(name) ?? []), r.requestsPerSecond / p.requestsPerSecond]);
    }
  }
  console.log(`\n${seconds} s per scenario and target in ${rounds} alternating rounds, 20 connections, 127.0.0.1; "× base" is req/s relative to Prism GET brand #1.\n`);
  printTable(rows, rows[0]!);
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  for (const [name] of scenarios) {
    const each = ratios.get(name)!;
    console.log(`reference / Prism, ${name}: ${median(each).toFixed(1)}× (median; rounds ${each.map((x) => x.toFixed(1)).join(", ")})`);
  }
  console.log(`reference RSS: ${rssBefore} MB before load, ${rssOf(reference.pid)} MB after (stores are capped per team)`);
} finally {
  reference.stop();
  await prism.stop();
}
