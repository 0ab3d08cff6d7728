// A map that keeps at most `cap` entries, forgetting the least recently used: what the proxy remembers of the
// resources it has seen stays bounded however long it runs.
export class Lru<K, V> {
  readonly #map = new Map<K, V>();
  constructor(readonly cap: number) {
    if (!Number.isInteger(cap) || cap < 1) throw new Error(`an LRU cap must be a whole number ≥ 1, got ${cap}`);
  }

  get size(): number {
    return this.#map.size;
  }

  get(key: K): V | undefined {
    const v = this.#map.get(key);
    if (v !== undefined) {
      // Re-inserting moves the key to the newest end of the Map's insertion order.
      this.#map.delete(key);
      this.#map.set(key, v);
    }
    return v;
  }

  /** Sets the entry; returns the key forgotten to make room, if any. */
  set(key: K, value: V): K | undefined {
    this.#map.delete(key);
    this.#map.set(key, value);
    if (this.#map.size <= this.cap) return undefined;
    const oldest = this.#map.keys().next().value as K;
    this.#map.delete(oldest);
    return oldest;
  }

  /** The keys, oldest first. */
  keys(): K[] {
    return [...this.#map.keys()];
  }
}
