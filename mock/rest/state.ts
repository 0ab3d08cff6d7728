// Everything the REST mock remembers, in bounded in-memory stores (store.ts), plus the clock and seed every
// answer is derived from. Nothing runs in the background: records keep the instant they settle at and
// are settled when read.
import { holdable, type Clock, type HoldableClock } from "../clock.js";
import type { Archetype, Feedback, Rules } from "../../generated/rest/types.js";
import type { ReadFindings, Supplied } from "./business.js";
import type { BrandSnapshot, IdeaRequest } from "./idea-writer.js";
import { token } from "./hash.js";
import { bytesPerTeam, defaultCapPerTeam, TeamStore } from "./store.js";

export interface BrandRecord {
  id: string;
  createdAt: number;
  website: string | null;
  /** What the caller set; kept through every read. */
  supplied: Supplied & { archetype?: Archetype };
  rules: Rules;
  /** What the last successful read found; null before one. */
  known: ReadFindings | null;
  /** Status once no read is pending. */
  settled: "ready" | "failed";
  /** The read under way, if any. */
  read: { settlesAt: number; website: string | null } | null;
}

export interface BatchRecord {
  id: string;
  brandId: string;
  createdAt: number;
  settlesAt: number;
  fails: boolean;
  brand: BrandSnapshot;
  request: IdeaRequest;
}

export interface State {
  /** Held at one instant while a request is answered (server.ts), as the real service answers "at once". */
  clock: HoldableClock;
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
    clock: holdable(clock),
    seed,
    brands: new TeamStore(capPerTeam, undefined, { maxBytesPerOwner: bytesPerTeam.brands }),
    batches: new TeamStore(capPerTeam, undefined, { maxBytesPerOwner: bytesPerTeam.batches }),
    feedback: new TeamStore(capPerTeam, undefined, { maxBytesPerOwner: bytesPerTeam.feedback }),
// rule: id-prefixes
    nextId(prefix) {
      const n = (counters.get(prefix) ?? 0) + 1;
      counters.set(prefix, n);
      return `${prefix}_${token(12, seed, prefix, n)}`;
    },
  };
}
