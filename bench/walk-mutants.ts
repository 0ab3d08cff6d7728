// `npm run bench:walk-mutants`: how often the default walks kill each walk-only mutant (issue 29: at least 19 of
// 20 runs with random seeds), and how short the shrunk sequences are. BENCH_RUNS changes the number of runs,
// BENCH_MUTANTS (ids, comma-separated) the mutants. A measurement, not a test: run it niced on a shared machine.
import { killersOf } from "../test/support/mutants.js";
import { mutantsOf, runAgainst, walksCheck, type Protocol } from "../test/support/walk-mutants.js";

const runs = Number(process.env.BENCH_RUNS ?? 20);
const only = process.env.BENCH_MUTANTS?.split(",");

for (const protocol of ["rest", "mcp"] as Protocol[])
  for (const m of mutantsOf[protocol]()) {
    if (only && !only.includes(m.id)) continue;
    const started = performance.now();
    let kills = 0;
    const lengths: string[] = [];
    const missed: string[] = [];
    for (let i = 0; i < runs; i++) {
      const result = await runAgainst(protocol, m.id, { only: [walksCheck[protocol]] });
      const failure = killersOf(result, m.rule).length ? result.checks[0]?.failures.find((f) => f.rules.includes(m.rule)) : undefined;
      if (!failure) {
        missed.push(result.walks!.seed);
        continue;
      }
      kills++;
      lengths.push(/shrunk to (\d+) steps?/.exec(failure.message)?.[1] ?? "unshrunk");
    }
    const seconds = ((performance.now() - started) / 1000).toFixed(0);
    console.log(`${m.id.padEnd(36)} killed ${kills}/${runs}, shrunk to ${lengths.join(", ")} steps${missed.length ? `; missed with seeds ${missed.join(", ")}` : ""} (${seconds} s)`);
  }
