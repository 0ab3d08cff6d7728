// Shrinking a failing walk (delta debugging over its steps): chunks of steps are cut out, halves first, then
// quarters, down to single steps, each cut kept when the rest still fails; single steps are tried again until
// none can go (the result is 1-minimal: no one step can be removed). Each candidate is a replay against the
// target with fresh resources, so the number of replays is bounded: a long walk against a slow target cannot
// spend the run's budget on shrinking alone.

/** A short sublist of `items` (order kept) for which `fails` holds, found with at most `maxTests` tests. */
export async function shrinkList<T>(items: readonly T[], fails: (candidate: T[]) => Promise<boolean>, maxTests = 60): Promise<T[]> {
  let current = [...items];
  let tests = 0;
  const cut = async (from: number, size: number): Promise<boolean> => {
    if (tests >= maxTests) return false;
    const candidate = [...current.slice(0, from), ...current.slice(from + size)];
    if (!candidate.length) return false;
    tests++;
    if (!(await fails(candidate))) return false;
    current = candidate;
    return true;
  };
  // Later steps first: what fails is usually near the end, and what comes before is what sets it up.
  for (let size = Math.floor(current.length / 2); size >= 1; size = Math.floor(size / 2))
    for (let from = current.length - size; from >= 0; from -= size) await cut(from, size);
  for (let changed = true; changed && tests < maxTests; ) {
    changed = false;
    for (let from = current.length - 1; from >= 0; from--) if (await cut(from, 1)) changed = true;
  }
  return current;
}
