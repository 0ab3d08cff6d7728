// The mocks' bounded in-memory stores. Nothing is written to disk and nothing grows without bound: a store keeps
// at most `cap` records per owner (a team, a brand) and, optionally, at most `maxBytesPerOwner` bytes of them
// (their JSON size, measured when set and when `remeasure`d after a change in place). Over either bound, the
// owner's oldest records (insertion order) are forgotten; the newest one always stays. A forgotten id answers
// like any unknown id.
export interface ByteBudget {
  maxBytesPerOwner: number;
}

/**
 * About the bytes a value takes as JSON, without building the JSON (this runs on every write): strings count
 * their length (UTF-16 units; close enough for a budget), everything else a few bytes.
 */
function jsonBytes(value: unknown, depth = 0): number {
  if (typeof value === "string") return value.length + 2;
  if (value === null || typeof value !== "object" || depth > 32) return 8;
  let n = 2;
  if (Array.isArray(value)) for (const v of value) n += jsonBytes(v, depth + 1) + 1;
  else for (const k in value) n += k.length + 4 + jsonBytes((value as Record<string, unknown>)[k], depth + 1);
  return n;
}

export class CappedStore<V> {
  readonly #byId = new Map<string, { owner: string; value: V; bytes: number }>();
  readonly #byOwner = new Map<string, Set<string>>();
  readonly #bytesByOwner = new Map<string, number>();
  readonly #cursor = new Map<string, Iterator<string>>();

  constructor(
    readonly cap: number,
    /** Called with each record the cap pushes out. */
    private readonly onEvict: (value: V) => void = () => {},
    private readonly budget?: ByteBudget,
  ) {
    if (!(cap >= 1)) throw new RangeError(`cap must be at least 1, got ${cap}`);
  }

  /** Bytes an owner's records take (0 without a byte budget). */
  bytesFor(owner: string): number {
    return this.#bytesByOwner.get(owner) ?? 0;
  }

  /** Measures a record again after it changed in place, and evicts older ones if the owner is now over budget. */
  remeasure(id: string): void {
    const entry = this.#byId.get(id);
    if (!entry || !this.budget) return;
    const bytes = jsonBytes(entry.value);
    this.#bytesByOwner.set(entry.owner, this.bytesFor(entry.owner) - entry.bytes + bytes);
    entry.bytes = bytes;
    this.#trim(entry.owner, id, 0);
  }

  /** Forgets the owner's oldest records (never `keep`) while it holds `room` records too many or is over budget. */
  #trim(owner: string, keep: string, room: number): void {
    const ids = this.#byOwner.get(owner);
    if (!ids) return;
    let passedKeep = false;
    while (this.#over(owner, ids, room) && ids.size > (ids.has(keep) ? 1 : 0)) {
      const oldest = this.#nextOldest(owner, ids);
      if (oldest === undefined) break;
      if (oldest === keep) {
        passedKeep = true;
        continue;
      }
      ids.delete(oldest);
      const gone = this.#byId.get(oldest);
      this.#byId.delete(oldest);
      if (gone) {
        this.#bytesByOwner.set(owner, this.bytesFor(owner) - gone.bytes);
        this.onEvict(gone.value);
      }
    }
    // The cursor has passed `keep`: it becomes the newest, so it can still be forgotten later.
    if (passedKeep && ids.delete(keep)) ids.add(keep);
  }

  #over(owner: string, ids: Set<string>, room: number): boolean {
    return ids.size + room > this.cap || (this.budget !== undefined && this.bytesFor(owner) > this.budget.maxBytesPerOwner);
  }

  /**
   * The owner's oldest id, from a cursor kept between calls: a Set iterator is live (it skips deletions and sees
   * additions), and starting a new one each time would walk past every deleted slot at the table's start
   * (a tenth of a REST batch's CPU at the cap, when profiled). Every id the cursor passes is forgotten, or
   * re-added as the newest, so the ids not yet passed are all of them.
   */
  #nextOldest(owner: string, ids: Set<string>): string | undefined {
    let next = this.#cursor.get(owner)?.next();
    if (!next || next.done) {
      const cursor = ids.values();
      this.#cursor.set(owner, cursor);
      next = cursor.next();
    }
    return next.done ? undefined : next.value;
  }

  get size(): number {
    return this.#byId.size;
  }

  /** Adds (or replaces) a record; evicts the owner's oldest records beyond the cap. */
  set(id: string, owner: string, value: V): void {
    const existing = this.#byId.get(id);
    if (existing) {
      this.#byOwner.get(existing.owner)?.delete(id);
      this.#bytesByOwner.set(existing.owner, this.bytesFor(existing.owner) - existing.bytes);
    }
    let ids = this.#byOwner.get(owner);
    if (!ids) this.#byOwner.set(owner, (ids = new Set()));
    const bytes = this.budget ? jsonBytes(value) : 0;
    this.#bytesByOwner.set(owner, this.bytesFor(owner) + bytes);
    this.#trim(owner, id, 1);
    ids.add(id);
    this.#byId.set(id, { owner, value, bytes });
  }

  /** The record and its owner, or undefined. */
  entry(id: string): { owner: string; value: V } | undefined {
    const e = this.#byId.get(id);
    return e && { owner: e.owner, value: e.value };
  }

  get(id: string): V | undefined {
    return this.#byId.get(id)?.value;
  }

  delete(id: string): boolean {
    const existing = this.#byId.get(id);
    if (!existing) return false;
    this.#byId.delete(id);
    this.#byOwner.get(existing.owner)?.delete(id);
    this.#bytesByOwner.set(existing.owner, this.bytesFor(existing.owner) - existing.bytes);
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
    this.#bytesByOwner.delete(owner);
    this.#cursor.delete(owner);
    return values;
  }
}
