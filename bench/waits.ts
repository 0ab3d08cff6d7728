// `npm run bench:waits`: how long the MCP conformance suite takes against the MCP gateway mock on a slow clock
// (time scale 0.1 by default, as `ideas-contract mock` runs), beside the baseline measured in the same run: the
// longest single piece of background work (a build attempt, a batch's slot, a render, an ending) that the mock
// started and finished within the run. A suite that overlaps its waits takes about that long; one that chains
// them (a build, then a deactivation, then a deletion) takes their sum. BENCH_TIME_SCALE and BENCH_RUNS change
// the scale and the number of runs (each on a fresh mock).
import { runConformance } from "../conformance/index.js";
import { referenceTargetPath } from "../conformance/core/paths.js";
import { createClock, type Clock } from "../mock/clock.js";
import { startMcpMock } from "../mock/mcp/server.js";

const timeScale = Number(process.env.BENCH_TIME_SCALE ?? 0.1);
const runs = Number(process.env.BENCH_RUNS ?? 1);

interface Work {
  startsAt: number;
  endsAt: number;
}

/** The mock's clock, recording every piece of background work the mock asks it to time (Clock.work). */
function recordingClock(): { clock: Clock; work: Work[] } {
  const base = createClock({ timeScale });
  const work: Work[] = [];
  const clock: Clock = {
    now: base.now,
    iso: base.iso,
    timeScale: base.timeScale,
    window: base.window,
    advance: base.advance,
    freeze: base.freeze,
    unfreeze: base.unfreeze,
    resync: base.resync,
    get frozen() {
      return base.frozen;
    },
    work(ms) {
      const real = base.work(ms);
      const startsAt = base.now();
      work.push({ startsAt, endsAt: startsAt + real });
      return real;
    },
  };
  return { clock, work };
}

const rows: { run: number; seconds: number; longest: number; status: string }[] = [];
for (let run = 1; run <= runs; run++) {
  const { clock, work } = recordingClock();
  const mock = await startMcpMock({ clock });
  try {
    const started = clock.now();
    const result = await runConformance({ config: referenceTargetPath, mcpUrl: mock.url.href, suites: ["mcp"], timeScale });
    const ended = clock.now();
    // Work that started and ended within the run, whether or not a check waited for its end; the slow-build
    // trigger's 1,000 minutes never end within a run and do not count.
    const finished = work.filter((w) => w.startsAt >= started && w.endsAt <= ended);
    const longest = Math.max(0, ...finished.map((w) => w.endsAt - w.startsAt)) / 1000;
    const seconds = (ended - started) / 1000;
    const s = result.summary;
    rows.push({ run, seconds, longest, status: `${s.passed} passed, ${s.failed} failed, ${s.skipped} skipped` });
    console.log(`run ${run}: ${seconds.toFixed(1)} s; longest single background job ${longest.toFixed(1)} s; ratio ${(seconds / longest).toFixed(2)}× (${rows.at(-1)!.status})`);
  } finally {
    await mock.stop();
  }
}
const ratios = rows.map((r) => r.seconds / r.longest).sort((a, b) => a - b);
console.log(`\nMCP suite at time scale ${timeScale}, ${runs} run(s) on fresh mocks: run time / longest single background job = ${ratios.map((r) => r.toFixed(2)).join(", ")}× (median ${ratios[Math.floor(ratios.length / 2)]!.toFixed(2)}×)`);
