// Prism, started as a real process from the pinned @stoplight/prism-cli, serving the generated OpenAPI.
import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";
import path from "node:path";
import { binPath } from "../lib/run.js";
import { generatedDir } from "../lib/paths.js";

export interface PrismServer {
  url: URL;
  process: ChildProcess;
  stop(): Promise<void>;
}

export interface PrismOptions {
  /** 0 picks a free port (Prism itself cannot report one it chose). */
  port: number;
  host?: string;
  /** Answer with generated data instead of the contract's examples. */
  dynamic?: boolean;
  /** How long to wait for Prism to listen (default 120 s: a hang guard, Prism is slow to start on a busy host). */
  startTimeoutMs?: number;
}

export const openapiPath = path.join(generatedDir, "openapi/openapi.yaml");

/** A port nothing listens on right now (Prism must be told a concrete one). */
export function freePort(host = "127.0.0.1"): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer().listen(0, host, () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
    probe.on("error", reject);
  });
}

export async function startPrism(options: PrismOptions): Promise<PrismServer> {
  const host = options.host ?? "127.0.0.1";
  const port = options.port || (await freePort(host));
  const args = ["mock", "-h", host, "-p", String(port), "-v", "error", ...(options.dynamic ? ["-d"] : []), openapiPath];
  // -v error keeps Prism quiet; we learn it is up by polling the port.
  const child = spawn(process.execPath, [binPath("@stoplight/prism-cli", "prism"), ...args], { stdio: ["ignore", "pipe", "pipe"] });
  // Never leave an orphan Prism behind if this process ends without stopping it.
  const killOnExit = () => child.kill("SIGKILL");
  process.once("exit", killOnExit);
  child.once("exit", () => process.off("exit", killOnExit));
  let output = "";
  child.stdout!.on("data", (d: Buffer) => (output = (output + d.toString()).slice(-4000)));
  child.stderr!.on("data", (d: Buffer) => (output = (output + d.toString()).slice(-4000)));
  const url = new URL(`http://${host}:${port}`);
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
      setTimeout(() => child.kill("SIGKILL"), 3000).unref();
    });
  return new Promise((resolve, reject) => {
    // A hang guard, not a speed limit: on a saturated host Prism (a large Node app) may take tens of seconds to listen.
    const deadline = Date.now() + (options.startTimeoutMs ?? 120_000);
    child.once("exit", (code) => reject(new Error(`Prism exited (code ${code}) before listening:\n${output}`)));
    const poll = async () => {
      try {
        await fetch(new URL("/__prism_ready_probe", url), { signal: AbortSignal.timeout(1000) });
        child.removeAllListeners("exit");
        resolve({ url, process: child, stop });
      } catch {
        if (Date.now() > deadline) {
          await stop();
          reject(new Error(`Prism did not listen on ${url} in time:\n${output}`));
        } else setTimeout(poll, 150);
      }
    };
    void poll();
  });
}
