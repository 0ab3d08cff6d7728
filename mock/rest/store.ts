// The REST reference's stores: mock/capped-store.ts with one owner per team, at most 10,000 records per team and
// kind (oldest evicted); an evicted id answers 404 like any unknown id.
export { CappedStore as TeamStore } from "../capped-store.js";

export const defaultCapPerTeam = 10_000;
