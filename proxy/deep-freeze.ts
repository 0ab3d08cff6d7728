// Freezing JSON-like data throughout: what is shared (a parsed verdict) or remembered (the judges' state) cannot be
// changed in place by whoever holds it.

/** The objects freezeAll froze throughout (an object frozen by anyone else may hold one that is not). */
const frozenThroughout = new WeakSet<object>();

/**
 * `value` and everything in it frozen, whatever was frozen before; what it froze once costs one lookup the next
 * time (a shared verdict is handed again for every exchange judged alike; the judges' state sets the same frozen
 * values again). JSON-like data: no cycles.
 */
export function freezeAll<T>(value: T): T {
  if (typeof value === "object" && value !== null && !frozenThroughout.has(value)) {
    for (const k of Object.keys(value)) freezeAll((value as Record<string, unknown>)[k]);
    Object.freeze(value);
    frozenThroughout.add(value);
  }
  return value;
}
