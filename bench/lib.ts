// Shared by the benchmarks: a bounded autocannon run and a table of results with ratios to a baseline.
import autocannon from "autocannon";
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { freePort } from "../mock/prism.js";
import { repoRoot } from "../scripts/lib/paths.js";

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


/**
 * `ideas-contract mock --no-prism` in its own process, on free ports and a fast clock; resolves with the URL
 * the CLI prints on the line starting with `label`. `nodeArgs` go to node before the CLI (e.g. `--import` of a
 * probe); `ipc` opens a message channel to `child`.
 */
export async function startCliMock(
  label: string,
  options: { nodeArgs?: string[]; ipc?: boolean } = {},
): Promise<{ url: URL; pid: number; stop(): void; child: ChildProcess }> {
  const [restPort, mcpPort] = [await freePort(), await freePort()];
  const args = ["mock", "--quiet", "--no-prism", "--rest-port", String(restPort), "--mcp-port", String(mcpPort), "--time-scale", "0.0001"];
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), path.join(repoRoot, "bin/ideas-contract.js"), ...args], {
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
