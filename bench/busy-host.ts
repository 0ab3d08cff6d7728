// `npm run bench:busy-host`: the embedded conformance run (both suites) on an idle host, then with every core
// saturated by busy loops: wall time, CPU time, requests, and whether the verdict and ledger stayed the same. The
// run keeps the target's time on its driven clock (conformance/core/run-clock.ts), so only the wall time may change.
// BENCH_WALL=1 adds the same pair of runs on the wall clock (the embedded run before the driven clock), for contrast.
import { spawn, type ChildProcess } from "node:child_process";
import os from "node:os";
import { runConformance, type RunResult } from "../conformance/index.js";

type Mode = "driven" | "wall";

/** What must not change between runs: each check's status and each rule's status with its cases. */
const verdict = (r: RunResult) =>
  [...r.checks.map((c) => `${c.id}: ${c.status}`), ...r.ledger.map((e) => `${e.suite}/${e.id}: ${e.status} ${e.cases.map((k) => `${k.check}=${k.outcome}`).join(",")}`)].sort().join("\n");

async function measure(mode: Mode, busy: number) {
  const loops: ChildProcess[] = Array.from({ length: busy }, () => spawn(process.execPath, ["-e", "for(;;){}"], { stdio: "ignore" }));
  const stop = () => loops.forEach((l) => l.kill("SIGKILL"));
  process.once("exit", stop);
  try {
    const cpu = process.cpuUsage();
    const started = performance.now();
    const result = await runConformance({ env: {}, embeddedClock: mode });
    const used = process.cpuUsage(cpu);
    return { mode, busy, result, wallS: (performance.now() - started) / 1000, cpuS: (used.user + used.system) / 1e6, load: os.loadavg()[0]! };
  } finally {
    stop();
    process.off("exit", stop);
  }
}

const cores = os.availableParallelism();
const modes: Mode[] = process.env.BENCH_WALL ? ["driven", "wall"] : ["driven"];
for (const mode of modes) {
  const idle = await measure(mode, 0);
  const busy = await measure(mode, Math.max(2, cores));
  for (const m of [idle, busy]) {
    const s = m.result.summary;
    console.log(
      `${m.mode.padEnd(6)} ${m.busy ? `${m.busy} busy loops` : "idle        "}  load ${m.load.toFixed(1).padStart(5)}  wall ${m.wallS.toFixed(1).padStart(6)} s  cpu ${m.cpuS.toFixed(1).padStart(6)} s  ${String(m.result.requests).padStart(5)} requests  exit ${m.result.exitCode}  ${s.passed} passed, ${s.failed} failed, ${s.errors} errors`,
    );
  }
  console.log(`${mode}: same verdict and ledger with the cores busy: ${verdict(idle.result) === verdict(busy.result) ? "yes" : "NO"}`);
}
