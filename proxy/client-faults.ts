// What the proxy checks before judging an exchange, so that a client can never make a compliant service look
// wrong: a request that cannot be judged (not UTF-8, nested too deep to walk) is the client's fault and is not
// judged against the service; a client that sent its body slowly is noted, and the service is timed from the
// request's last byte; an answer nested too deep is left unjudged rather than passed.
import { isUtf8 } from "node:buffer";
import { defaultTiming } from "../conformance/suites/rest/target.js";
import type { Exchange } from "./types.js";

/** Deeper JSON is not judged: the judges and the contract's validators walk values recursively. */
export const maxJudgedDepth = 128;
/** A request body that took longer than this to arrive is a slow client (the contract's "within seconds"). */
export const slowRequestMs = defaultTiming.answer_within_seconds * 1000;

/** The rest of a JSON string after its opening quote, up to its closing quote or the end of the text (sticky). */
const stringRest = /[^"\\]*(?:\\[\s\S][^"\\]*)*/y;

/**
 * How deep arrays and objects nest in JSON text, counted without parsing (stops once past `cap`). Every exchange's
 * bodies pass here, and most of a body's text is strings (an MCP result holds its whole payload again as text):
 * a string is skipped to its closing quote by one regular expression, the rest read a character at a time.
 */
export function jsonDepth(text: string, cap = maxJudgedDepth): number {
  let depth = 0;
  let max = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      stringRest.lastIndex = i + 1;
      stringRest.test(text);
      i = stringRest.lastIndex;
      // No closing quote (the text ends inside the string, or in a lone backslash): nothing more nests.
      if (text.charCodeAt(i) !== 34) return max;
    } else if (c === 91 || c === 123) {
      if (++depth > max && (max = depth) > cap) return max;
    } else if (c === 93 || c === 125) depth--;
  }
  return max;
}

/** Why the request body cannot be read as JSON text (RFC 8259 §8.1: JSON is UTF-8), if it cannot. */
export function undecodable(bytes: Buffer, contentType: string | undefined): string | undefined {
  if (!bytes.length) return undefined;
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? "")?.[1];
  if (charset && !/^utf-?8$/i.test(charset)) return `undecodable: the body is declared ${charset}; JSON travels as UTF-8`;
  return isUtf8(bytes) ? undefined : "undecodable: the body is not valid UTF-8";
}

/** The statuses by which a service refuses a request's size (RFC 9110 §15.5.14–15, RFC 6585 §5). */
const tooLargeStatuses: Record<number, string> = { 413: "body", 414: "target", 431: "headers" };

export interface Precheck {
  clientFault?: string;
  unjudged?: string;
  noAnswer?: string;
  /** Judge the exchange (false when what was sent or answered cannot be judged). */
  judge: boolean;
}

/** What an exchange's bytes allow before any judge sees it. */
export function precheck(ex: Exchange, requestBytes: Buffer): Precheck {
  if (ex.failure !== undefined)
    return ex.failureBy === "client" ? { clientFault: `went away: ${ex.failure}`, judge: false } : { noAnswer: ex.failure, judge: false };
  // The contracts set no size limit on a request: a service that refuses one as too large is within its rights.
  const tooLarge = tooLargeStatuses[ex.status];
  if (tooLarge) return { clientFault: `too large: the service refused the request's ${tooLarge} (${ex.status}; the contract sets no limit; not judged)`, judge: false };
  if (!ex.requestTruncated) {
    const header = ex.requestHeaders["content-type"];
    const why = undecodable(requestBytes, Array.isArray(header) ? header[0] : header);
    if (why) return { clientFault: `${why} (not judged)`, judge: false };
    if (jsonDepth(ex.requestText) > maxJudgedDepth) return { clientFault: `too deep: the request nests more than ${maxJudgedDepth} levels (not judged)`, judge: false };
  }
  if (!ex.responseTruncated && jsonDepth(ex.responseText) > maxJudgedDepth) return { unjudged: `too deep: the answer nests more than ${maxJudgedDepth} levels`, judge: false };
  const sending = ex.ms - (ex.serviceMs ?? 0);
  if (ex.serviceMs !== undefined && sending > slowRequestMs)
    return { clientFault: `slow: the client took ${(sending / 1000).toFixed(1)} s to send its request (judged; the service is timed from its last byte)`, judge: true };
  return { judge: true };
}
