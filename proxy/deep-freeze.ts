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

/** `value` and everything in it frozen, whatever was frozen before (an object frozen alone may hold one that is not). JSON-like data: no cycles. */
export function freezeAll<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const k of Object.keys(value)) freezeAll((value as Record<string, unknown>)[k]);
    Object.freeze(value);
  }
  return value;
}
