// A map that keeps at most `cap` entries, forgetting the least recently used: what the proxy remembers of the
// resources it has seen stays bounded however long it runs.
//
// Moving an entry to the newest end costs a delete and an insert, which for a key read on nearly every exchange
// (a client's one token) is most of the lookup's cost. With `refreshAfter`, a read moves its entry only once that
// many entries were moved or added since it last moved: an entry read is then still kept for at least
// `cap - refreshAfter` further moves or additions (an entry is forgotten only with `cap` newer ones ahead of it),
// so with refreshAfter ≤ cap/2 what is in use stays, at a plain lookup's cost. The default (1) is exact LRU.
interface Slot<V> {
  value: V;
  /** The clock when the entry last moved to the newest end. */
  at: number;
}

/** Told of every read and write of an LRU while set (proxy/verdict-cache.ts traces what a judge reads and writes). */
export interface LruTrace {
  read(lru: Lru<unknown, unknown>, key: unknown, value: unknown): void;
  write(lru: Lru<unknown, unknown>, key: unknown, value: unknown, forgot: boolean): void;
}

export class Lru<K, V> {
  readonly #map = new Map<K, Slot<V>>();
  /** While set, every get and set is told to it. */
  trace: LruTrace | undefined;
  readonly #refreshAfter: number;
  #clock = 0;
  constructor(
    readonly cap: number,
    options: { refreshAfter?: number } = {},
  ) {
    if (!Number.isInteger(cap) || cap < 1) throw new Error(`an LRU cap must be a whole number ≥ 1, got ${cap}`);
    this.#refreshAfter = options.refreshAfter ?? 1;
    if (!Number.isInteger(this.#refreshAfter) || this.#refreshAfter < 1 || this.#refreshAfter > cap)
      throw new Error(`an LRU's refreshAfter must be a whole number from 1 to its cap, got ${this.#refreshAfter}`);
  }

  get size(): number {
    return this.#map.size;
  }

  get(key: K): V | undefined {
    const slot = this.#map.get(key);
    this.trace?.read(this as Lru<unknown, unknown>, key, slot?.value);
    if (slot === undefined) return undefined;
    if (this.#clock - slot.at >= this.#refreshAfter) {
      // Re-inserting moves the key to the newest end of the Map's insertion order.
      this.#map.delete(key);
      this.#map.set(key, slot);
      slot.at = ++this.#clock;
    }
    return slot.value;
  }

  /** Sets the entry; returns the key forgotten to make room, if any. */
  set(key: K, value: V): K | undefined {
    this.#map.delete(key);
    this.#map.set(key, { value, at: ++this.#clock });
    const full = this.#map.size > this.cap;
    this.trace?.write(this as Lru<unknown, unknown>, key, value, full);
    if (!full) return undefined;
    const oldest = this.#map.keys().next().value as K;
    this.#map.delete(oldest);
    return oldest;
  }

  /** The entry's value, without counting as a use. */
  peek(key: K): V | undefined {
    return this.#map.get(key)?.value;
  }

  /** The keys, oldest first. */
  keys(): K[] {
    return [...this.#map.keys()];
  }
}
