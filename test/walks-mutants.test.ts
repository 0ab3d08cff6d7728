// Mutants only a walk can kill (walkOnlyMutants in test/mutants/rest/catalogue.ts): the scripted checks alone
// let each one through; the default walks, with random seeds, kill it, shrink the failing walk to at most five
// steps, and print a replay file that kills it again on its own.
import { afterAll, describe, expect, it } from "vitest";
import { runConformance, type RunResult } from "../conformance/index.js";
import { referenceTargetPath } from "../conformance/paths.js";
import { loadTargetFile } from "../conformance/target.js";
import { parseReplay, type WalkReplay } from "../conformance/walks/replay.js";
import { startRestMock } from "../mock/rest/server.js";
import { walkOnlyMutants } from "./mutants/rest/catalogue.js";
import { startMutantProxy } from "./mutants/rest/proxy.js";
import { killersOf } from "./support/mutants.js";

const timeScale = 0.001;
/**
 * Random seeds per mutant; all but at most one must kill it (a failure of its rule, with evidence). How many were
 * shrunk to at most five steps, and whether the printed replay file kills it again, is printed: shrinking
 * replays a walk, and a failure that needs the time a cut step took can come and go on a busy machine.
 */
const seeds = 6;

type Options = { walks?: number; walkReplay?: WalkReplay; only?: string[] };

/** A run against a fresh reference behind a fresh instance of the mutant (each keeps what it saw of its brands). */
async function runAgainst(id: string, extra: Options): Promise<RunResult> {
  const mutant = walkOnlyMutants().find((m) => m.id === id)!;
  const reference = await startRestMock({ port: 0, timeScale });
  const proxy = await startMutantProxy(reference.url, mutant);
  try {
    // A generous budget: shrinking replays walks, and the machine may be busy.
    return await runConformance({ restUrl: proxy.url.href, targetFile: loadTargetFile(referenceTargetPath, {}), timeScale, env: {}, strict: true, budgetSeconds: 600, ...extra });
  } finally {
    await proxy.stop();
    await reference.stop();
  }
}

const rates = new Map<string, string>();

describe("walk-only mutants", () => {
  it.concurrent.each(walkOnlyMutants().map((m) => [m.id, m.rule] as const))("%s: the scripted checks miss it, the walks kill it", async (id, rule) => {
    const scripted = await runAgainst(id, { walks: 0 });
    expect(scripted.checks.find((c) => c.id === "rest-walks")?.status).toBe("skip");
    expect(killersOf(scripted, rule).map((c) => c.id), `${id} is caught without walks: not a walk-only mutant`).toEqual([]);

    let kills = 0;
    let clean = 0;
    let replay: WalkReplay | undefined;
    const used: string[] = [];
    for (let i = 0; i < seeds; i++) {
      const result = await runAgainst(id, { only: ["rest-walks"] });
      used.push(result.walks!.seed);
      const failure = result.checks[0]?.failures.find((f) => f.rules.includes(rule));
      if (!failure) continue;
      kills++;
      expect(result.ledger.find((e) => e.id === rule)?.status).toBe("fail");
      expect(failure.reproduce).toMatch(/^curl /);
      expect(failure.evidence?.length).toBeGreaterThan(0);
      expect(failure.message).toMatch(/--replay walk\.json/);
      const shrunk = /shrunk to (\d+) steps?/.exec(failure.message);
      if (shrunk && Number(shrunk[1]) <= 5) {
        clean++;
        replay ??= parseReplay(/save (\{.*\}) as walk\.json/.exec(failure.message)![1]!);
      } else console.log(`${id}, seed ${result.walks!.seed}: killed, not shrunk to at most 5 steps:\n${failure.message}`);
    }
    // The printed replay file, run alone.
    const again = replay ? killersOf(await runAgainst(id, { walkReplay: replay, only: ["rest-walks"] }), rule).length > 0 : false;
    rates.set(id, `killed ${kills}/${seeds}, shrunk to ≤ 5 steps ${clean}/${seeds}, replay file kills again: ${again} (seeds ${used.join(", ")})`);
    expect(kills, `${id} killed with ${kills} of ${seeds} random seeds (${used.join(", ")})`).toBeGreaterThanOrEqual(seeds - 1);
  }, 900_000);

  afterAll(() => console.log(`walk-only mutants killed by the default walks:\n${[...rates].map(([id, r]) => `  ${id.padEnd(36)} ${r}`).join("\n")}`));
});
