// A map that keeps at most `cap` entries, forgetting the least recently used: what the proxy remembers of the
// resources it has seen stays bounded however long it runs.
//
// Moving an entry to the newest end on every read costs writes for a key read on nearly every exchange (a
// client's one token), most of the lookup's cost when the order was the Map's own. With `refreshAfter`, a read moves its entry only once that
// many entries were moved or added since it last moved: an entry read is then still kept for at least
// `cap - refreshAfter` further moves or additions (an entry is forgotten only with `cap` newer ones ahead of it),
// so with refreshAfter ≤ cap/2 what is in use stays, at a plain lookup's cost. The default (1) is exact LRU.
//
// The order is a linked list, not the Map's insertion order: forgetting the oldest by `map.keys().next()` walks
// over every entry deleted since V8 last rehashed the table, all of them at its front (thousands at a cap of
// 10,000: 12 µs an eviction, paid for each new token the proxy learns).
//
// A new string key is kept as a copy of its own (detached.ts): a key sliced out of a request must not keep the
// whole request for as long as the entry lives.
//
// With `frozen`, every value set is frozen throughout: an entry then changes only by a set, so the same value
// (by identity) is the same content (verdict-cache.ts compares what a judge read by identity first).
import { freezeAll } from "./deep-freeze.js";
import { detached } from "./detached.js";

interface Slot<K, V> {
  key: K;
  value: V;
  /** The clock when the entry last moved to the newest end. */
  at: number;
  older: Slot<K, V> | undefined;
  newer: Slot<K, V> | undefined;
}

/** Told of every read and write of an LRU while set (proxy/verdict-cache.ts traces what a judge reads and writes). */
export interface LruTrace {
  read(lru: Lru<unknown, unknown>, key: unknown, value: unknown): void;
  write(lru: Lru<unknown, unknown>, key: unknown, value: unknown, forgot: boolean): void;
}

export class Lru<K, V> {
  readonly #map = new Map<K, Slot<K, V>>();
  #oldest: Slot<K, V> | undefined;
  #newest: Slot<K, V> | undefined;
  /** While set, every get and set is told to it. */
  trace: LruTrace | undefined;
  readonly #refreshAfter: number;
  #clock = 0;
  /** Every value set is frozen throughout (changed only by a set). */
  readonly frozen: boolean;
  constructor(
    readonly cap: number,
    options: { refreshAfter?: number; frozen?: boolean } = {},
  ) {
    if (!Number.isInteger(cap) || cap < 1) throw new Error(`an LRU cap must be a whole number ≥ 1, got ${cap}`);
    this.frozen = options.frozen === true;
    this.#refreshAfter = options.refreshAfter ?? 1;
    if (!Number.isInteger(this.#refreshAfter) || this.#refreshAfter < 1 || this.#refreshAfter > cap)
      throw new Error(`an LRU's refreshAfter must be a whole number from 1 to its cap, got ${this.#refreshAfter}`);
  }

  get size(): number {
    return this.#map.size;
  }

  #unlink(slot: Slot<K, V>): void {
    if (slot.older) slot.older.newer = slot.newer;
    else this.#oldest = slot.newer;
    if (slot.newer) slot.newer.older = slot.older;
    else this.#newest = slot.older;
    slot.older = slot.newer = undefined;
  }

  #append(slot: Slot<K, V>): void {
    slot.older = this.#newest;
    slot.newer = undefined;
    if (this.#newest) this.#newest.newer = slot;
    else this.#oldest = slot;
    this.#newest = slot;
    slot.at = ++this.#clock;
  }

  get(key: K): V | undefined {
    const slot = this.#map.get(key);
    this.trace?.read(this as Lru<unknown, unknown>, key, slot?.value);
    if (slot === undefined) return undefined;
    if (this.#clock - slot.at >= this.#refreshAfter) {
      this.#unlink(slot);
      this.#append(slot);
    }
    return slot.value;
  }

  /** Sets the entry; returns the key forgotten to make room, if any. */
  set(key: K, value: V): K | undefined {
    if (this.frozen) freezeAll(value);
    let slot = this.#map.get(key);
    if (slot) {
      slot.value = value;
      this.#unlink(slot);
    } else {
      const own = typeof key === "string" ? (detached(key) as K) : key;
      this.#map.set(own, (slot = { key: own, value, at: 0, older: undefined, newer: undefined }));
    }
    this.#append(slot);
    const full = this.#map.size > this.cap;
    this.trace?.write(this as Lru<unknown, unknown>, slot.key, value, full);
    if (!full) return undefined;
    const oldest = this.#oldest!;
    this.#unlink(oldest);
    this.#map.delete(oldest.key);
    return oldest.key;
  }

  /** The key of the entry set or moved last (as kept: a string key is a copy of its own). */
  get newestKey(): K | undefined {
    return this.#newest?.key;
  }

  /** The entry's value, without counting as a use. */
  peek(key: K): V | undefined {
    return this.#map.get(key)?.value;
  }

  /** The keys, oldest first. */
  keys(): K[] {
    const out: K[] = [];
    for (let s = this.#oldest; s; s = s.newer) out.push(s.key);
    return out;
  }
}
