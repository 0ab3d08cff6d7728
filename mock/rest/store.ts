// Bounded in-memory stores. Nothing is ever written to disk and nothing grows without bound: each store keeps
// at most `capPerTeam` records per team (default 10,000) and, when a team reaches the cap, evicts that team's
// oldest record (insertion order). An evicted id answers 404 like any unknown id.

export const defaultCapPerTeam = 10_000;

export class TeamStore<V> {
  readonly #byId = new Map<string, { team: string; value: V }>();
  readonly #byTeam = new Map<string, Set<string>>();

  constructor(readonly capPerTeam: number = defaultCapPerTeam) {
    if (!(capPerTeam >= 1)) throw new RangeError(`capPerTeam must be at least 1, got ${capPerTeam}`);
  }

  get size(): number {
    return this.#byId.size;
  }

  /** Adds (or replaces) a record; evicts the team's oldest records beyond the cap. */
  set(id: string, team: string, value: V): void {
    const existing = this.#byId.get(id);
    if (existing) this.#byTeam.get(existing.team)?.delete(id);
    let ids = this.#byTeam.get(team);
    if (!ids) this.#byTeam.set(team, (ids = new Set()));
    while (ids.size >= this.capPerTeam) {
      const oldest = ids.values().next().value as string;
      ids.delete(oldest);
      this.#byId.delete(oldest);
    }
    ids.add(id);
    this.#byId.set(id, { team, value });
  }

  /** The record and the team owning it, or undefined. */
  get(id: string): { team: string; value: V } | undefined {
    return this.#byId.get(id);
  }

  /** Number of records a team holds. */
  countFor(team: string): number {
    return this.#byTeam.get(team)?.size ?? 0;
  }
}
