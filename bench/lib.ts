// Shared by the benchmarks: a bounded autocannon run and a table of results with ratios to a baseline.
import autocannon from "autocannon";

export interface Load {
  url: string;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
  connections?: number;
  /** Seconds. */
  duration?: number;
}

export interface Measured {
  label: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

export async function measure(label: string, load: Load): Promise<Measured> {
  const result = await autocannon({
    url: load.url,
    method: load.method ?? "GET",
    headers: load.headers,
    body: load.body,
    connections: load.connections ?? 20,
    duration: load.duration ?? 5,
  });
  return {
    label,
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

/** Prints rows with each one's throughput as a multiple of the baseline row's. */
export function printTable(rows: Measured[], baseline: Measured): void {
  const line = (cells: string[]) => console.log(cells.map((c, i) => (i === 0 ? c.padEnd(34) : c.padStart(10))).join(" "));
  line(["scenario", "req/s", "p50 ms", "p99 ms", "errors", "non-2xx", "× base"]);
  for (const r of rows) {
    line([
      r.label,
      r.requestsPerSecond.toFixed(0),
      String(r.p50),
      String(r.p99),
      String(r.errors),
      String(r.non2xx),
      (r.requestsPerSecond / baseline.requestsPerSecond).toFixed(2),
    ]);
  }
}



