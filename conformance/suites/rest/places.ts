// REST places (places.ts): the operation of the contract a reply answered.
import { judgedAt } from "../../core/places.js";
import { matchOperation } from "./routes.js";

/** A REST operation as a place: `GET /v1/brands/{brand_id}`. */
export const operationPlace = (op: { method: string; template: string }) => `${op.method} ${op.template}`;

/** Runs `fn` with every case it records placed at the REST operation `res` answered (if it is one). */
export function judgedAtReply<T>(res: { method: string; path: string }, fn: () => T): T {
  const m = matchOperation(res.method, res.path);
  return m ? judgedAt(operationPlace(m.op), fn) : fn();
}
