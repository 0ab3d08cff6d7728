// `npm run bench:walks`: many long stateful walks per protocol against the embedded references (issue 29: 200
// walks of 30 steps each), with the walk time and whether every walk passed. BENCH_WALKS, BENCH_STEPS and
// BENCH_SEED change the walks; BENCH_SUITES (rest, mcp, or both, comma-separated) the protocols. Run it niced on a
// shared machine: it is a measurement, not a test.
import { runConformance } from "../conformance/index.js";

const walks = Number(process.env.BENCH_WALKS ?? 200);
const steps = Number(process.env.BENCH_STEPS ?? 30);
const seed = process.env.BENCH_SEED ?? "bench";
const suites = (process.env.BENCH_SUITES ?? "rest,mcp").split(",") as ("rest" | "mcp")[];

for (const suite of suites) {
  const id = `${suite}-walks`;
  const started = performance.now();
  const result = await runConformance({ suites: [suite], only: [id], walks, walkSteps: steps, walkSeed: seed, env: {}, budgetSeconds: 3600 });
  const seconds = (performance.now() - started) / 1000;
  const check = result.checks.find((c) => c.id === id)!;
  const judged = result.ledger.filter((e) => e.cases.some((c) => c.check === id && c.outcome === "pass")).length;
  console.log(`${id}: ${check.status}, ${walks} walks of up to ${steps} steps (seed ${seed}) in ${seconds.toFixed(1)} s (walks ${(check.durationMs / 1000).toFixed(1)} s), ${check.requests} requests, ${judged} rules judged`);
  for (const note of check.notes) console.log(`  ${note}`);
  for (const f of check.failures) console.log(`  ✗ [${f.rules.join(", ")}] ${f.message.split("\n").slice(0, 12).join("\n    ")}`);
}
