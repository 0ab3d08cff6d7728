// Everything the REST mock remembers, in bounded in-memory stores (store.ts), plus the clock and seed every
// answer is derived from. Nothing runs in the background: records keep the virtual time they settle at and
// are settled when read.
import type { Clock } from "../clock.js";
import type { Feedback } from "../../generated/rest/types.js";
import type { BatchRecord } from "./ideas.js";
import type { BrandRecord } from "./brands.js";
import { token } from "./hash.js";
import { defaultCapPerTeam, TeamStore } from "./store.js";

export interface State {
  clock: Clock;
  seed: string;
  /** At most `capPerTeam` brands per team (oldest evicted). */
  brands: TeamStore<BrandRecord>;
  /** At most `capPerTeam` batches per team (oldest evicted); ideas live inside their batch. */
  batches: TeamStore<BatchRecord>;
  /** At most `capPerTeam` feedback records per team (oldest evicted). */
  feedback: TeamStore<Feedback>;
  /** Makes the next id of a kind: prefix + 12 letters and digits from the seed and a counter. */
  nextId(prefix: "brand" | "batch" | "fb"): string;
}

export function createState(clock: Clock, seed: string, capPerTeam = defaultCapPerTeam): State {
  const counters = new Map<string, number>();
  return {
    clock,
    seed,
    brands: new TeamStore(capPerTeam),
    batches: new TeamStore(capPerTeam),
    feedback: new TeamStore(capPerTeam),
// rule: id-prefixes
    nextId(prefix) {
      const n = (counters.get(prefix) ?? 0) + 1;
      counters.set(prefix, n);
      return `${prefix}_${token(12, seed, prefix, n)}`;
    },
  };
}
