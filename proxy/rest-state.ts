// What the REST judge remembers across exchanges, per resource id (bounded, LRU): a brand's status and website,
// a batch's status, what it was asked for (count, formats) and, once terminal, what it said.
import { Lru } from "./lru.js";

export interface BrandSeen {
  status: string;
  website: string | null;
  /**
   * A PATCH with a new website started a read whose outcome is not seen yet: the status during a re-read is not shown
   * (seed 000), so any status may show until the outcome does (failed; or ready after reading).
   */
  rereading?: { sawReading: boolean };
}

export interface BatchSeen {
  status?: string;
  /** The `count` asked for (the contract's default 3 when none was sent). */
  count?: number;
  /** Whether the request gave `count` (else the default, 3). */
  countGiven?: boolean;
  /** The formats asked for; undefined = all formats. */
  formats?: string[];
  /** A digest of the batch as it read when it reached done or failed, to see it change. */
  terminal?: string;
}

/** Default caps: each entry is a few hundred bytes (a digest, not the body). */
export const defaultRestCaps = { brands: 10_000, batches: 2_000 };

export class RestState {
  readonly brands: Lru<string, BrandSeen>;
  readonly batches: Lru<string, BatchSeen>;
  constructor(caps: { brands: number; batches: number } = defaultRestCaps) {
    // Frozen values (lru.ts): the verdict cache knows an entry unchanged by its identity, not by its JSON.
    this.brands = new Lru(caps.brands, { frozen: true });
    this.batches = new Lru(caps.batches, { frozen: true });
  }
}
