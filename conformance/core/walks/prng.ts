// A small seeded pseudo-random generator (sfc32, seeded by a 128-bit string hash), so that a walk is a pure
// function of its seed: the same seed gives the same steps on any machine, and a seed printed by a run
// reproduces it. Math.random is never used by the walks.

/** cyrb128: four 32-bit words from a string. */
function hash128(text: string): [number, number, number, number] {
  let h1 = 1779033703;
  let h2 = 3144134277;
  let h3 = 1013904242;
  let h4 = 2773480762;
  for (let i = 0; i < text.length; i++) {
    const k = text.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  return [(h1 ^ h2 ^ h3 ^ h4) >>> 0, (h2 ^ h1) >>> 0, (h3 ^ h1) >>> 0, (h4 ^ h1) >>> 0];
}

export interface Prng {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [0, n). */
  int(n: number): number;
  /** True with probability p. */
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** One of the items, each as likely as its weight (weights ≤ 0 are never picked); undefined when none can be. */
  weighted<T>(items: readonly (readonly [T, number])[]): T | undefined;
  /** Up to `max` distinct items, in the order drawn (at least `min`). */
  some<T>(items: readonly T[], min: number, max: number): T[];
}

export function prng(seed: string): Prng {
  let [a, b, c, d] = hash128(seed);
  const next = () => {
    a >>>= 0;
    b >>>= 0;
    c >>>= 0;
    d >>>= 0;
    let t = (a + b) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    d = (d + 1) | 0;
    t = (t + d) | 0;
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  // Warm up: the first outputs of sfc32 follow the seed words too closely.
  for (let i = 0; i < 15; i++) next();
  const int = (n: number) => Math.floor(next() * n);
  return {
    next,
    int,
    chance: (p) => next() < p,
    pick: (items) => items[int(items.length)]!,
    weighted(items) {
      const total = items.reduce((s, [, w]) => s + Math.max(0, w), 0);
      if (total <= 0) return undefined;
      let r = next() * total;
      for (const [item, w] of items) {
        if (w <= 0) continue;
        if ((r -= w) < 0) return item;
      }
      return items.filter(([, w]) => w > 0).at(-1)![0];
    },
    some(items, min, max) {
      const pool = [...items];
      const n = Math.min(pool.length, min + int(max - min + 1));
      const out = [];
      for (let i = 0; i < n; i++) out.push(pool.splice(int(pool.length), 1)[0]!);
      return out;
    },
  };
}

/** A new run seed: 8 hex digits (from the clock and Math.random only here, where no reproduction is promised yet). */
export const newSeed = (): string => Math.floor(Math.random() * 0xffffffff).toString(16).padStart(8, "0");
