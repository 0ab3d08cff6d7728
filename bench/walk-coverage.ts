// `npm run bench:walk-coverage`: which rules the default walks come to, seed by seed. A rule only walks judge is
// covered in a run only when one of its walks came to it, so the ledger follows the walk seed unless every rule
// the walks can reach is reached on (nearly) every seed. Runs the default walks (both protocols) against the
// embedded references with BENCH_RUNS random seeds (default 20) and prints each rule some seed missed, with how
// many seeds came to it, and the walks' time. A measurement, not a test: run it niced on a shared machine.
import { runConformance } from "../conformance/index.js";
import { newSeed } from "../conformance/core/walks/prng.js";

const runs = Number(process.env.BENCH_RUNS ?? 20);
const checks = ["rest-walks", "mcp-walks"];

const reached = new Map<string, number>();
const seconds: number[] = [];
for (let i = 0; i < runs; i++) {
  const seed = newSeed();
  const result = await runConformance({ only: checks, walkSeed: seed, env: {}, budgetSeconds: 600 });
  seconds.push(result.durationMs / 1000);
  for (const c of result.checks) if (c.status !== "pass") console.log(`seed ${seed}: ${c.id} ${c.status}: ${c.failures.map((f) => f.rules.join(",")).join("; ")}`);
  for (const e of result.ledger) {
    const id = `${e.suite}/${e.id}`;
    // A rule the walks judge in passing and did not come to on this seed counts too (zero seeds, if none did).
    if (e.status === "not-covered" && checks.some((c) => e.why?.includes(`by ${c}`))) reached.set(id, reached.get(id) ?? 0);
    if (e.cases.some((c) => checks.includes(c.check) && c.outcome === "pass")) reached.set(id, (reached.get(id) ?? 0) + 1);
  }
}
const missed = [...reached].filter(([, n]) => n < runs).sort((a, b) => a[1] - b[1]);
console.log(`${reached.size} rules the walks judge (on some seed, or in passing); ${reached.size - missed.length} judged on every one of ${runs} seeds`);
for (const [rule, n] of missed) if (n > 0) console.log(`  ${rule.padEnd(60)} ${n}/${runs}`);
// Mostly conventions of tools the walks never call (the check lists them in passing): a count, not a list.
const never = missed.filter(([, n]) => n === 0).map(([rule]) => rule);
if (never.length) console.log(`${never.length} rules judged in passing on no seed (e.g. ${never.slice(0, 3).join(", ")})`);
const mean = seconds.reduce((s, x) => s + x, 0) / seconds.length;
console.log(`time per run (references started, walks run): mean ${mean.toFixed(1)} s, max ${Math.max(...seconds).toFixed(1)} s`);
