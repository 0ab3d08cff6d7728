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

  set(key: K, value: V): void {
    this.#map.delete(key);
    this.#map.set(key, value);
    if (this.#map.size > this.cap) this.#map.delete(this.#map.keys().next().value as K);
  }

  /** The keys, oldest first. */
  keys(): K[] {
    return [...this.#map.keys()];
  }
}
