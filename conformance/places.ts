// Where a case of a rule was judged: the operation (REST) or tool and token kind (MCP) whose reply it judged, so
// the ledger can say where a rule held. Only a judge that holds the reply names a place (the reply judges, the
// REST status/success/error helpers); a case a check records from values it read earlier has none, rather than a
// guessed one.
import { matchOperation } from "./routes.js";

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

/** Runs `fn` with every case it records placed at the REST operation `res` answered (if it is one). */
export function judgedAtReply<T>(res: { method: string; path: string }, fn: () => T): T {
  const m = matchOperation(res.method, res.path);
  return m ? judgedAt(operationPlace(m.op), fn) : fn();
}

/** The place a reply judge named, if one is judging now. */
export const markedPlace = (): string | undefined => marked;

/** A REST operation as a place: `GET /v1/brands/{brand_id}`. */
export const operationPlace = (op: { method: string; template: string }) => `${op.method} ${op.template}`;

/** An MCP tool (or another JSON-RPC method) as a place, with the token kind it was called as unless the normal one. */
export const toolPlace = (name: string, as = "normal") => (as === "normal" ? name : `${name} as ${as}`);
