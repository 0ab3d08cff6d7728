// Every child process a test starts, ended whatever happens to the test: when it passes, fails or times out
// (afterAll of the file that spawned it) and when the test process itself goes away (exit, SIGINT, SIGTERM).
// Use `spawnTracked` instead of `spawn`, or `track(child)` for a child made another way.
import { spawn, type ChildProcess, type SpawnOptions } from "node:child_process";
import { afterAll } from "vitest";

const live = new Set<ChildProcess>();
/** Children that lead their own process group (spawned detached). */
const groups = new WeakSet<ChildProcess>();

/** Ends a child (its whole process group when it leads one) unless it has already exited. */
export function kill(child: ChildProcess, signal: NodeJS.Signals = "SIGKILL"): void {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  try {
    // A detached child leads its own group: ending the group also ends what it started (npx → node).
    process.kill(groups.has(child) ? -child.pid : child.pid, signal);
  } catch {
    /* already gone */
  }
}

function killAll(): void {
  for (const child of live) kill(child);
  live.clear();
}

// Registered when a test file imports this module (afterAll must be registered while the file is collected).
afterAll(killAll);
process.once("exit", killAll);
for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.once(signal, () => {
    killAll();
    process.kill(process.pid, signal);
  });

/** Tracks a child until it exits: it is killed in afterAll or when this process ends, if still running. */
export function track<T extends ChildProcess>(child: T, options: { group?: boolean } = {}): T {
  if (options.group) groups.add(child);
  live.add(child);
  child.once("exit", () => live.delete(child));
  return child;
}

/** spawn, tracked (with `detached: true` the child's whole process group is ended). */
export function spawnTracked(command: string, args: readonly string[], options: SpawnOptions = {}): ChildProcess {
  return track(spawn(command, args, options), { group: options.detached === true });
}

/** Busy loops that keep `n` cores saturated until `stop()` (or the end of the file or the process). */
export function busyLoops(n: number): { stop(): void } {
  const loops = Array.from({ length: n }, () => spawnTracked(process.execPath, ["-e", "for(;;){}"], { stdio: "ignore" }));
  return {
    stop() {
      for (const loop of loops) kill(loop);
    },
  };
}
