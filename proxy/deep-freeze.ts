// Freezing JSON-like data throughout: what is shared (a parsed verdict) or remembered (the judges' state) cannot be
// changed in place by whoever holds it.

/**
 * A verdict and everything in it frozen: one parsed verdict is shared by every exchange whose verdict text it was.
 * An object already frozen is taken as frozen throughout (verdicts are frozen only here): a verdict handed again
 * costs one test.
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    for (const k of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[k]);
    Object.freeze(value);
  }
  return value;
}

/** The objects freezeAll froze throughout (an object frozen by anyone else may hold one that is not). */
const frozenThroughout = new WeakSet<object>();

/**
 * `value` and everything in it frozen, whatever was frozen before; what it froze once costs one lookup the next
 * time (the judges' state sets the same frozen values again). JSON-like data: no cycles.
 */
export function freezeAll<T>(value: T): T {
  if (typeof value === "object" && value !== null && !frozenThroughout.has(value)) {
    for (const k of Object.keys(value)) freezeAll((value as Record<string, unknown>)[k]);
    Object.freeze(value);
    frozenThroughout.add(value);
  }
  return value;
}
