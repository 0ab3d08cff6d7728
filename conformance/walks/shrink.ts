// Delta debugging (Zeller's ddmin) over the steps of a failing walk: the shortest sequence found that still
// fails, each candidate replayed against the target with fresh resources. Bounded by a number of replays, so a
// long walk against a slow target cannot spend the run's budget on shrinking alone.

/** The smallest sublist of `items` (order kept) for which `fails` holds, found with at most `maxTests` tests. */
export async function ddmin<T>(items: readonly T[], fails: (candidate: T[]) => Promise<boolean>, maxTests = 60): Promise<T[]> {
  let current = [...items];
  let tests = 0;
  const test = async (c: T[]) => (tests++ < maxTests ? fails(c) : false);
  let n = 2;
  while (current.length >= 2 && tests < maxTests) {
    const size = Math.ceil(current.length / n);
    const chunks: T[][] = [];
    for (let i = 0; i < current.length; i += size) chunks.push(current.slice(i, i + size));
    let reduced = false;
    // A chunk alone, then everything but a chunk.
    for (const chunk of chunks)
      if (chunk.length < current.length && (await test(chunk))) {
        current = chunk;
        n = 2;
        reduced = true;
        break;
      }
    if (!reduced)
      for (let i = 0; i < chunks.length; i++) {
        const rest = chunks.filter((_, j) => j !== i).flat();
        if (rest.length && rest.length < current.length && (await test(rest))) {
          current = rest;
          n = Math.max(n - 1, 2);
          reduced = true;
          break;
        }
      }
    if (!reduced) {
      if (n >= current.length) break;
      n = Math.min(current.length, n * 2);
    }
  }
  return current;
}
