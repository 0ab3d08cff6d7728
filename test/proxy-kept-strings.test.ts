// What the proxy remembers for long (tokens, header names, shown credentials, the judges' state keys) is kept as
// strings of their own, never as slices of the request heads they were read from: V8 makes a slice keep its whole
// parent, so 10,000 remembered tokens would keep 10,000 heads (up to 16 KiB each) and a token storm with padded
// heads would grow the proxy by 160 MB. Heads read by the proxy's own parser (raw-http.ts), as the fast path reads them.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { Lru } from "../proxy/lru.js";
import { headersOf, plainRequest, type PlainRequest } from "../proxy/raw-http.js";
import { Recorder } from "../proxy/recorder.js";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;
const MB = 2 ** 20;
const retained = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

/** A request head near the parser's 16 KiB limit, with new tokens and a new header name, read as the fast path reads it. */
let made = 0;
function paddedHead() {
  const i = made++;
  const text = `GET /v1/brands HTTP/1.1\r\nx-api-key: key_${i}_abcdefgh\r\nx-session-token-${i}: session_${i}_abcdefgh\r\nauthorization: Bearer bearer_${i}_abcdefgh\r\nx-pad: ${"p".repeat(15_000)}\r\n\r\n`;
  const buf = Buffer.from(text, "latin1");
  const request = plainRequest(buf, buf.length);
  if (!request) throw new Error("the padded head is not read as plain HTTP/1.1");
  return request;
}

/** Bytes still held after `f` has read `n` fresh padded heads (each ~15 KiB: keeping them all would show). */
function heldAfter(n: number, f: (request: PlainRequest) => void): number {
  const before = retained();
  for (let k = 0; k < n; k++) f(paddedHead());
  return retained() - before;
}

describe("strings the proxy keeps hold no request head (each ~15 KiB)", () => {
  it("the tokens the recorder learns and the header names it asks about: 4,500 tokens and 1,024 names from 1,500 heads, a few hundred KB (not 22 MB)", () => {
    const recorder = new Recorder();
    // The raw headers as read: no headers object made of them first (a name made a property key is internalised,
    // which would drop its slice of the head and hide a name memo that keeps one).
    expect(heldAfter(1_500, (r) => recorder.learnRaw(r.rawHeaders, r.url))).toBeLessThan(3 * MB);
    expect(recorder.redaction.tokens).toBe(3 * 1_500);
  });

  it("the credentials shown: the last 256 Authorization values, memoised (not 3.8 MB)", () => {
    const recorder = new Recorder();
    // hide memoises the shown form ("Bearer [redacted]") of the last 256 Authorization values.
    expect(heldAfter(1_500, (r) => recorder.hide(headersOf(r.rawHeaders)))).toBeLessThan(2 * MB);
  });

  it("the judges' state keys, read out of a request: 1,500 entries (not 22 MB)", () => {
    const states = new Lru<string, number>(1_500);
    let i = 0;
    expect(heldAfter(1_500, (r) => states.set(headersOf(r.rawHeaders)["x-api-key"] as string, i++))).toBeLessThan(3 * MB);
    expect(states.size).toBe(1_500);
  });
});
