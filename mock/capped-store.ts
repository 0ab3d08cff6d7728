// The mocks' bounded in-memory stores. Nothing is written to disk and nothing grows without bound: a store keeps
// at most `cap` records per owner (a team, a brand) and, when an owner reaches its cap, forgets that owner's
// oldest record (insertion order). A forgotten id answers like any unknown id.
export class CappedStore<V> {
  readonly #byId = new Map<string, { owner: string; value: V }>();
  readonly #byOwner = new Map<string, Set<string>>();

  constructor(
    readonly cap: number,
    /** Called with each record the cap pushes out. */
    private readonly onEvict: (value: V) => void = () => {},
  ) {
    if (!(cap >= 1)) throw new RangeError(`cap must be at least 1, got ${cap}`);
  }

  get size(): number {
    return this.#byId.size;
  }

  /** Adds (or replaces) a record; evicts the owner's oldest records beyond the cap. */
  set(id: string, owner: string, value: V): void {
    const existing = this.#byId.get(id);
    if (existing) this.#byOwner.get(existing.owner)?.delete(id);
    let ids = this.#byOwner.get(owner);
    if (!ids) this.#byOwner.set(owner, (ids = new Set()));
    while (ids.size >= this.cap) {
      const oldest = ids.values().next().value as string;
      ids.delete(oldest);
      const gone = this.#byId.get(oldest);
      this.#byId.delete(oldest);
      if (gone) this.onEvict(gone.value);
    }
    ids.add(id);
    this.#byId.set(id, { owner, value });
  }

  /** The record and its owner, or undefined. */
  entry(id: string): { owner: string; value: V } | undefined {
    return this.#byId.get(id);
  }

  get(id: string): V | undefined {
    return this.#byId.get(id)?.value;
  }

  delete(id: string): boolean {
    const existing = this.#byId.get(id);
    if (!existing) return false;
    this.#byId.delete(id);
    this.#byOwner.get(existing.owner)?.delete(id);
    return true;
  }

  /** Number of records an owner holds. */
  countFor(owner: string): number {
    return this.#byOwner.get(owner)?.size ?? 0;
  }

  /** Every record of an owner, oldest first. */
  ofOwner(owner: string): V[] {
    return [...(this.#byOwner.get(owner) ?? [])].map((id) => this.#byId.get(id)!.value);
  }

  /** Forgets every record of an owner; returns them. */
  deleteOwner(owner: string): V[] {
    const values = this.ofOwner(owner);
    for (const id of this.#byOwner.get(owner) ?? []) this.#byId.delete(id);
    this.#byOwner.delete(owner);
    return values;
  }
}
