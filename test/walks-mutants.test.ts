// Mutants only a walk can kill, for both protocols (walkOnlyMutants in test/mutants/rest/catalogue.ts,
// mcpWalkOnlyMutants in test/mutants/mcp/walk-only.ts): the scripted checks alone let each one through; the
// default walks kill it; most kills are reported shrunk to at most five steps, and a short replay file printed
// kills the mutant again on its own. The walk seeds are fixed (six per mutant, from its id), so the verdict is the same on
// every run; how often random seeds kill each mutant is measured by `npm run bench:walk-mutants` (20 seeds each).
import { createHash } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { parseReplay, type WalkReplay } from "../conformance/replay.js";
import { killersOf } from "./support/mutants.js";
import { mutantsOf, runAgainst, walksCheck } from "./support/walk-mutants.js";

/** Walk seeds per mutant; all but at most one must kill it (a failure of its rule, with evidence). */
const seeds = 6;

/** The i-th walk seed of a mutant: fixed, and unrelated between mutants. */
const walkSeedOf = (id: string, i: number) => createHash("sha256").update(`${id}:${i}`).digest("hex").slice(0, 8);

const rates = new Map<string, string>();
const cases = (["rest", "mcp"] as const).flatMap((p) => mutantsOf[p]().map((m) => [m.id, p, m.rule] as const));

describe("walk-only mutants", () => {
  // One at a time: each is a whole run on driven time, bound by CPU alone, so running several at once gains nothing on
  // two cores and multiplies each test's wall time (five at once met the hang guard on a loaded host).
  it.each(cases)("%s (%s): the scripted checks miss it, the walks kill it, shrunk to ≤ 5 steps, and its replay file kills it again", async (id, protocol, rule) => {
    const scripted = await runAgainst(protocol, id, { walks: 0 });
    expect(scripted.checks.find((c) => c.id === walksCheck[protocol])?.status).toBe("skip");
    expect(killersOf(scripted, rule).map((c) => c.id), `${id} is caught without walks: not a walk-only mutant`).toEqual([]);

    let kills = 0;
    const replays: WalkReplay[] = [];
    const used: string[] = [];
    const lengths: number[] = [];
    for (let i = 0; i < seeds; i++) {
      const result = await runAgainst(protocol, id, { only: [walksCheck[protocol]], walkSeed: walkSeedOf(id, i) });
      used.push(result.walks!.seed);
      const failure = result.checks[0]?.failures.find((f) => f.rules.includes(rule));
      if (!failure) continue;
      kills++;
      expect(result.ledger.find((e) => e.id === rule)?.status).toBe("fail");
      expect(failure.evidence?.length).toBeGreaterThan(0);
      if (protocol === "rest") expect(failure.reproduce).toMatch(/^curl /);
      // The failure is the shrunk sequence (at most five steps) with a replay file — unless the walk raced the
      // target's background work, and the shrunk sequence did not fail again (the report then says "timing?" and
      // shows the whole walk): such a kill counts, but not as a shrunk one.
      const shrunk = /shrunk to (\d+) steps?/.exec(failure.message);
      if (!shrunk) {
        expect(failure.message, `${id}, seed ${result.walks!.seed}: neither shrunk nor a race:\n${failure.message}`).toMatch(/did not fail again when replayed \(timing\?\)/);
        continue;
      }
      // A walk whose failure raced background work may shrink only part of the way (a cut it could not tell from
      // timing stays in); the shortest sequence is the kill's evidence.
      lengths.push(Number(shrunk[1]));
      const file = /save (\{.*\}) as walk\.json/.exec(failure.message);
      expect(file, `${id}: no replay file in the report`).not.toBeNull();
      replays.push(parseReplay(file![1]!));
    }
    // A printed replay file, run alone, kills the mutant again (a walk racing background work gets three tries). The
    // shortest first; a sequence the walk found without a wait (a brand seen ready in a PATCH answer) depends on how
    // fast the target read the site, which a busy machine may not repeat: then the next shortest.
    replays.sort((a, b) => a.steps.length - b.steps.length);
    let again = false;
    let replay: WalkReplay | undefined;
    for (const candidate of replays.slice(0, 3)) {
      replay = candidate;
      for (let i = 0; !again && i < 3; i++) again = killersOf(await runAgainst(protocol, id, { walkReplay: candidate, only: [walksCheck[protocol]] }), rule).length > 0;
      if (again) break;
    }
    rates.set(id, `killed ${kills}/${seeds}, shrunk to ${lengths.join(", ")} steps, replay file kills again: ${again} (seeds ${used.join(", ")})`);
    expect(kills, `${id} killed with ${kills} of ${seeds} seeds (${used.join(", ")})`).toBeGreaterThanOrEqual(seeds - 1);
    const short = lengths.filter((n) => n <= 5).length;
    expect(short, `${id}: shrunk to at most 5 steps in ${short} of ${kills} kills (${lengths.join(", ")})`).toBeGreaterThanOrEqual(Math.ceil(kills / 2));
    expect(again, `${id}: the replay file ${JSON.stringify(replay)} did not kill it again`).toBe(true);
  }, 1_800_000);

  afterAll(() => console.log(`walk-only mutants killed by the default walks:\n${[...rates].map(([id, r]) => `  ${id.padEnd(36)} ${r}`).join("\n")}`));
});
