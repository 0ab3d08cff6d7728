// How a long-running command (mock, proxy) learns it should stop, and how it runs a wrapped command
// (`ideas-contract proxy … -- npm test`). A stop is asked by SIGINT, SIGTERM, or the parent going away: `npx` and
// `npm exec` do not pass SIGTERM on, so when they are killed the real process is re-parented instead, and must
// notice that itself rather than keep its ports (and never write its report).
import { spawn } from "node:child_process";
import { constants } from "node:os";

export type StopReason = "SIGINT" | "SIGTERM" | "parent gone";

/** How often the parent is looked at: a cheap syscall, off the event loop's hot path (the timer is unref'd). */
const parentWatchMs = 500;

/** Resolves with why the process should stop; `dispose` removes the listeners (the promise then never settles). */
export function stopRequested(): { reason: Promise<StopReason>; dispose(): void } {
  let dispose = () => {};
  const reason = new Promise<StopReason>((resolve) => {
    const parent = process.ppid;
    const onInt = () => resolve("SIGINT");
    const onTerm = () => resolve("SIGTERM");
    process.once("SIGINT", onInt);
    process.once("SIGTERM", onTerm);
    const watch = setInterval(() => process.ppid !== parent && resolve("parent gone"), parentWatchMs);
    watch.unref();
    dispose = () => {
      process.off("SIGINT", onInt);
      process.off("SIGTERM", onTerm);
      clearInterval(watch);
    };
  });
  void reason.then(() => dispose());
  return { reason, dispose: () => dispose() };
}

/** The exit status a shell reports for a process ended by `signal`: 128 + its number. */
export function signalStatus(signal: NodeJS.Signals): number {
  return 128 + (constants.signals[signal] ?? 15);
}

/**
 * Runs `argv` with this process's terminal and `env` added to the environment, until it ends; a stop asked of
 * this process (signal, parent gone) is passed on to it as SIGINT or SIGTERM, and its end is waited for.
 * Resolves with its exit status (128 + the signal's number when a signal ended it; 127 when it cannot start).
 */
export function runWrapped(argv: string[], env: Record<string, string>): Promise<number> {
  return new Promise((resolve) => {
    const [file, ...args] = argv;
    const windows = process.platform === "win32";
    // On Windows `npm` and friends are .cmd scripts, which only a shell starts. Elsewhere the command gets a
    // process group of its own and the signal goes to the whole group: `npm run` and `sh -c` do not pass
    // SIGTERM on to what they started, so signalling the command alone would leave its children running.
    const child = spawn(file!, args, { stdio: "inherit", env: { ...process.env, ...env }, shell: windows, detached: !windows });
    const stop = stopRequested();
    void stop.reason.then((why) => {
      const signal = why === "SIGINT" ? "SIGINT" : "SIGTERM";
      try {
        if (windows || child.pid === undefined) child.kill(signal);
        else process.kill(-child.pid, signal);
      } catch {
        // already gone
      }
    });
    child.once("error", (err: NodeJS.ErrnoException) => {
      stop.dispose();
      console.error(`cannot run ${file}: ${err.code === "ENOENT" ? "no such command" : err.message}`);
      resolve(127);
    });
    child.once("exit", (code, signal) => {
      stop.dispose();
      resolve(code ?? signalStatus(signal ?? "SIGTERM"));
    });
  });
}
