// CPU time a process (and its main thread) has used, from /proc on Linux: what each party of a benchmark costs
// per request, a figure the other load on a shared machine does not change (wall-clock throughput does).
import fs from "node:fs";

/** Nanoseconds a task has run on a CPU (schedstat's first field), or undefined where /proc has none. */
function runNs(file: string): number | undefined {
  try {
    return Number(fs.readFileSync(file, "utf8").split(" ")[0]);
  } catch {
    return undefined;
  }
}

export interface CpuSample {
  /** Milliseconds of CPU, all threads. */
  process: number;
  /** Milliseconds of CPU of the main thread (the event loop). */
  main: number;
}

/** The CPU `pid` has used so far; undefined where /proc cannot tell (not Linux, the process gone). */
export function cpuOf(pid: number): CpuSample | undefined {
  const main = runNs(`/proc/${pid}/task/${pid}/schedstat`);
  if (main === undefined) return undefined;
  let total = 0;
  let tasks: string[];
  try {
    tasks = fs.readdirSync(`/proc/${pid}/task`);
  } catch {
    return undefined;
  }
  // Threads that ended are not listed; over one measured slice the proxy's threads (event loop, judge worker,
  // V8's helpers) all stay alive.
  for (const t of tasks) total += runNs(`/proc/${pid}/task/${t}/schedstat`) ?? 0;
  return { process: total / 1e6, main: main / 1e6 };
}

/** CPU used between two samples, per party. */
export function cpuSince(before: CpuSample | undefined, after: CpuSample | undefined): CpuSample | undefined {
  if (!before || !after) return undefined;
  return { process: after.process - before.process, main: after.main - before.main };
}
