// Every child process a test starts, ended whatever happens to the test: when it passes, fails or times out
// (afterAll of the file that spawned it) and when the test process itself goes away (exit, SIGINT, SIGTERM).
// Use `spawnTracked` instead of `spawn`, or `track(child)` for a child made another way.
import { spawn, type ChildProcess, type SpawnOptions } from "node:child_process";
import { afterAll } from "vitest";

const live = new Set<ChildProcess>();
/** Children that lead their own process group (spawned detached). */
const groups = new WeakSet<ChildProcess>();
/**
 * The process groups those children lead, kept after the leader exits: what it started (npx's real proxy, a
 * mock a shell put in the background) can outlive it in the group, adopted by PID 1.
 */
const groupIds = new Set<number>();

const signalGroup = (pgid: number, signal: NodeJS.Signals) => {
  try {
    process.kill(-pgid, signal);
  } catch {
    /* the group is empty: nothing left */
  }
};

/** Ends a child (its whole process group when it leads one, even after the leader itself exited). */
export function kill(child: ChildProcess, signal: NodeJS.Signals = "SIGKILL"): void {
  if (child.pid === undefined) return;
  // A detached child leads its own group: ending the group also ends what it started (npx → node).
  if (groups.has(child)) return signalGroup(child.pid, signal);
  if (child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(child.pid, signal);
  } catch {
    /* already gone */
  }
}

function killAll(): void {
  for (const child of live) kill(child);
  live.clear();
  for (const pgid of groupIds) signalGroup(pgid, "SIGKILL");
  groupIds.clear();
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
  if (options.group) {
    groups.add(child);
    if (child.pid !== undefined) groupIds.add(child.pid);
  }
  live.add(child);
  child.once("exit", () => live.delete(child));
  return child;
}

/** spawn, tracked (with `detached: true` the child's whole process group is ended). */
export function spawnTracked(command: string, args: readonly string[], options: SpawnOptions = {}): ChildProcess {
  return track(spawn(command, args, options), { group: options.detached === true });
}

/**
 * execFile as a promise (like util.promisify(execFile): resolves with stdout and stderr, rejects with an error
 * carrying them and the exit `code`), tracked, in its own process group: what the command started (npm → node,
 * sh → curl) ends with it, and `timeout` ends the whole group too. (execFile itself cannot start a group.)
 */
export function execFileTracked(
  file: string,
  args: readonly string[],
  options: Omit<SpawnOptions, "stdio" | "detached"> = {},
): Promise<{ stdout: string; stderr: string }> {
  const { timeout, ...rest } = options;
  return new Promise((resolve, reject) => {
    const child = spawnTracked(file, args, { ...rest, stdio: ["ignore", "pipe", "pipe"], detached: true });
    let stdout = "";
    let stderr = "";
    child.stdout!.setEncoding("utf8").on("data", (c: string) => (stdout += c));
    child.stderr!.setEncoding("utf8").on("data", (c: string) => (stderr += c));
    const timer = timeout ? setTimeout(() => kill(child), timeout) : undefined;
    child.once("error", (err) => {
      clearTimeout(timer);
      reject(Object.assign(err, { stdout, stderr }));
    });
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      if (code === 0) return resolve({ stdout, stderr });
      const failed = new Error(`Command failed (${signal ?? `exit ${code}`}): ${file} ${args.join(" ")}\n${stderr}`);
      reject(Object.assign(failed, { code, signal, killed: signal !== null, stdout, stderr }));
    });
  });
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
