// Where a case of a rule was judged: the place the suite names for the reply it judged (suites/rest/places.ts: an
// operation; suites/mcp/expect.ts: a tool and token kind), so the ledger can say where a rule held. Only a judge that holds the reply names a place (the reply judges, the
// REST status/success/error helpers); a case a check records from values it read earlier has none, rather than a
// guessed one.
let marked: string | undefined;

/** Runs `fn` (synchronous: a reply judge) with every case it records placed at `place`. */
export function judgedAt<T>(place: string, fn: () => T): T {
  const outer = marked;
  marked = place;
  try {
    return fn();
  } finally {
    marked = outer;
  }
}

/** The place a reply judge named, if one is judging now. */
export const markedPlace = (): string | undefined => marked;
