// bench:proxy's CPU accounting: each party's CPU per request in a throughput run (the client, the service, the
// proxy's event loop, the proxy's other threads: its judge worker and V8's helpers), and the throughput ratio the
// cores alone would allow (direct CPU per request over proxied), which the machine's other load does not move.
import os from "node:os";
import { cpuOf, cpuSince, type CpuSample } from "./proc-cpu.js";

type Parties = Record<"client" | "service" | "proxy", number>;
type Samples = Record<keyof Parties, CpuSample | undefined>;

export interface CpuTally {
  /** Milliseconds of CPU over all runs of a scenario. */
  client: number;
  service: number;
  proxyLoop: number;
  proxyOther: number;
  requests: number;
  /** False once any party could not be measured (not Linux). */
  known: boolean;
}

export interface CpuRow {
  label: string;
  /** Microseconds per request; undefined when unknown. */
  perRequest?: { client: number; service: number; proxyLoop: number; proxyOther: number; total: number };
}

export const newCpuTally = (): CpuTally => ({ client: 0, service: 0, proxyLoop: 0, proxyOther: 0, requests: 0, known: true });

export const cpuOfParties = (pids: Parties): Samples => ({ client: cpuOf(pids.client), service: cpuOf(pids.service), proxy: cpuOf(pids.proxy) });

export function addCpu(t: CpuTally, before: Samples, after: Samples, requests: number): void {
  const [client, service, proxy] = (["client", "service", "proxy"] as const).map((k) => cpuSince(before[k], after[k]));
  if (!client || !service || !proxy) return void (t.known = false);
  t.client += client.process;
  t.service += service.process;
  t.proxyLoop += proxy.main;
  // A thread that ended takes its CPU out of the process total: never below zero.
  t.proxyOther += Math.max(0, proxy.process - proxy.main);
  t.requests += requests;
}

export function cpuRow(label: string, t: CpuTally): CpuRow {
  if (!t.known || !t.requests) return { label };
  const us = (ms: number) => (ms * 1000) / t.requests;
  const perRequest = { client: us(t.client), service: us(t.service), proxyLoop: us(t.proxyLoop), proxyOther: us(t.proxyOther), total: 0 };
  perRequest.total = perRequest.client + perRequest.service + perRequest.proxyLoop + perRequest.proxyOther;
  return { label, perRequest };
}

export const loadAverage = () => os.loadavg().map((l) => l.toFixed(1)).join(" ");

/** The table of CPU per request; the first row is the direct one, the base of "cores-only ×". */
export function printCpu(rows: CpuRow[]): void {
  const base = rows[0]?.perRequest;
  if (!base) return console.log("  (CPU per request: not measurable here, /proc is missing)");
  console.log(`\n  CPU per request, µs (all runs; "cores-only ×" = direct CPU per request / this row's: the ratio if CPU were all that limits):\n`);
  const line = (cells: string[]) => console.log(cells.map((c, i) => (i === 0 ? `  ${c.padEnd(32)}` : c.padStart(12))).join(" "));
  line(["scenario", "client", "service", "proxy loop", "proxy other", "total", "cores-only ×"]);
  for (const r of rows) {
    const p = r.perRequest;
    if (!p) line([r.label, "?", "?", "?", "?", "?", "?"]);
    else line([r.label, ...[p.client, p.service, p.proxyLoop, p.proxyOther, p.total].map((x) => x.toFixed(0)), (base.total / p.total).toFixed(2)]);
  }
}
