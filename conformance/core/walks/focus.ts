// What each walk of a run dwells on. A run has few walks (npm run conformance: 6 REST, 8 MCP), and a scenario
// that takes several steps in order (a client erased, then each view read; a post booked, withdrawn, booked
// again) comes up in an unbiased random walk on some seeds only: what the walks judge, and which broken target
// they catch, then follows the seed. So walk i of a run has a focus, the i-th of its protocol's families (round
// and round): a family makes the ops of its scenarios likelier, and the steps that show their effects likelier
// after them. Every step is still drawn at random from the seed, among all the ops the state allows; a focus
// only weights the draw. A run with at least as many walks as families dwells on each of them.
import type { Prng } from "./prng.js";

export interface Focus<Op extends string> {
  /** What the walk dwells on, for people (a report names a failing walk's focus). */
  name: string;
  /** How much likelier each op is in this walk than in a walk without a focus. */
  weights: Partial<Record<Op, number>>;
  /** After the op named, how much likelier each op is next (on top of the plan's own follow-ups). */
  after?: Partial<Record<Op, Partial<Record<Op, number>>>>;
  /** Ops a walk without a focus keeps for late in the walk, which this one does from the start. */
  early?: readonly Op[];
}

/** The focus of walk `walk` (0-based) among `families`, in turn. */
export const focusOf = <F>(families: readonly F[], walk: number): F | undefined => (families.length ? families[walk % families.length] : undefined);

/** The draw's weights with the focus applied: its own weights, and its follow-ups of the step before. */
export function focused<Op extends string>(weights: readonly (readonly [Op, number])[], focus: Focus<Op> | undefined, last: Op | undefined): [Op, number][] {
  const after = last ? focus?.after?.[last] : undefined;
  return weights.map(([op, w]) => [op, w * (focus?.weights[op] ?? 1) * (after?.[op] ?? 1)]);
}

/** How far into a walk step `i` is, 0 to 1 over the first 20 steps (not the walk's length: a longer walk of a seed starts with the shorter one); 1 for the focus's early ops. */
export const lateness = <Op extends string>(focus: Focus<Op> | undefined, op: Op, i: number): number => (focus?.early?.includes(op) ? 1 : Math.min(1, i / 20));

/** One of the items, at random among those this walk has not drawn yet (any once it drew them all): a few draws cover the choices. */
export function pickFresh<T>(r: Prng, items: readonly T[], drawn: Set<T>): T {
  const fresh = items.filter((x) => !drawn.has(x));
  const item = r.pick(fresh.length ? fresh : items);
  drawn.add(item);
  return item;
}
