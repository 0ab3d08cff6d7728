// The REST reference's stores: mock/capped-store.ts with one owner per team, at most 10,000 records per team and
// kind (oldest evicted); an evicted id answers 404 like any unknown id.
export { CappedStore as TeamStore } from "../capped-store.js";

export const defaultCapPerTeam = 10_000;

/**
 * Bytes (JSON size) each team may keep per kind before its oldest records are evicted: text fields the seed sets
 * no limit on (a brand's name, a feedback comment) can be as large as the 1 MB body limit, so a count alone would
 * let one token hold gigabytes. A batch keeps a copy of its brand, hence the larger budget.
 */
export const bytesPerTeam = { brands: 32 * 1024 * 1024, batches: 64 * 1024 * 1024, feedback: 8 * 1024 * 1024 } as const;
